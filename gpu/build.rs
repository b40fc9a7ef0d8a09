//! Two modules: the pinned 13.5 release, and the header of the GPU machine,
//! whose include directory `CUSHIM_GPU_INCLUDE` names (the machine's
//! /usr/local/cuda/include, brought here; default: the pinned 13.0 headers,
//! which the H200 machine's toolkit matches byte for byte).

use std::path::PathBuf;

fn fail(e: cushim::Error) -> ! {
    eprintln!("{e}");
    std::process::exit(1)
}

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let rust = [cushim::Language::Rust];
    cushim::Builder::new()
        .cuda_version("13.5")
        .languages(&rust)
        .out_dir(out.join("pinned"))
        .generate()
        .unwrap_or_else(|e| fail(e));
    println!("cargo:rerun-if-env-changed=CUSHIM_GPU_INCLUDE");
    let local = match std::env::var_os("CUSHIM_GPU_INCLUDE") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            cushim::Builder::new().header(dir.join("cuda.h"), Some(dir.join("cudaTypedefs.h")))
        }
        None => cushim::Builder::new().cuda_version("13.0"),
    };
    local
        .languages(&rust)
        .out_dir(out.join("local"))
        .generate()
        .unwrap_or_else(|e| fail(e));
}
