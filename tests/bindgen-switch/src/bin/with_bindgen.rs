//! The program against bindgen's own bindings, linked with -lcuda.

#[allow(
    non_camel_case_types,
    non_snake_case,
    non_upper_case_globals,
    dead_code,
    unused_imports,
    clippy::all
)]
mod cuda {
    include!(concat!(env!("OUT_DIR"), "/bindgen.rs"));
}

include!("../program.rs");
