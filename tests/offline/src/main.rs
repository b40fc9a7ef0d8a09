//! Calls the driver through both generated modules, and each library of
//! cushim's registry through its own (`build.rs` lists them); without the
//! libraries each call answers with the loader's error instead of failing to
//! start.

#[cfg(not(feature = "emit"))]
#[allow(dead_code)]
mod cuda {
    include!(concat!(env!("OUT_DIR"), "/cuda.rs"));
}

#[cfg(not(feature = "emit"))]
#[allow(dead_code)]
mod merged {
    include!(concat!(env!("OUT_DIR"), "/merged/cuda.rs"));
}

/// Each library's module, as a user includes it: its pinned defaults, or
/// with the `emit` feature its version function alone.
mod modules {
    include!(concat!(env!("OUT_DIR"), "/modules.rs"));
}

/// Without the `emit` feature, the pinned defaults; with it, the allow lists
/// alone (the defaults are the same modules, built already).
fn main() {
    #[cfg(not(feature = "emit"))]
    {
        let one = unsafe { cuda::Api::cuInit(0) };
        let all = unsafe { merged::Api::cuInit(0) };
        println!("13.5: {one:?}");
        println!("11.8..13.5: {all:?}");
    }
    let word = if cfg!(feature = "emit") { "allowed " } else { "" };
    for (name, release, preload, _) in modules::MODULES {
        println!("{word}{name} {release}: {}", preload());
    }
    if cfg!(feature = "emit") {
        let functions: Vec<usize> = modules::MODULES.iter().map(|m| m.3()).collect();
        println!("allowed: {functions:?}");
    }
}
