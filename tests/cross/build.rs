//! The driver's and NVRTC's CUDA 13.5 modules, Rust and C++, into `OUT_DIR`
//! (the `generate` module of `src/main.rs` says which), and what cargo told
//! this script about the build: the program prints both.

#[path = "src/generate.rs"]
mod generate;

fn main() {
    if let Err(e) = generate::modules(None) {
        eprintln!("{e}");
        std::process::exit(1);
    }
    // The machine this script runs on, and the one the program is built for.
    for var in ["HOST", "TARGET", "CARGO_CFG_TARGET_OS"] {
        let value = std::env::var(var).unwrap_or_default();
        println!("cargo:rustc-env=CUSHIM_CROSS_{var}={value}");
    }
}
