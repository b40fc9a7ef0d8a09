//! The same program against cushim's module with rustified enums: no -lcuda.

#[allow(dead_code)]
mod cuda {
    include!(concat!(env!("OUT_DIR"), "/cushim/cuda.rs"));
}

include!("../program.rs");
