//! The pinned 13.5 module with both link modes in it, and, for the linked
//! one, where the fake driver's `libcuda.so` is.

use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-env-changed=CUSHIM_LINKED_FAKE_DIR");
    if let Some(dir) = std::env::var_os("CUSHIM_LINKED_FAKE_DIR") {
        let dir = PathBuf::from(dir);
        println!("cargo:rustc-link-search=native={}", dir.display());
        // A new fake driver is linked again.
        println!("cargo:rerun-if-changed={}", dir.join("libcuda.so.1").display());
    }
    cushim::Builder::new()
        .cuda_version("13.5")
        .languages(&[cushim::Language::Rust])
        .link(cushim::Link::Feature("linked".into()))
        .out_dir(out)
        .generate()
        .unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        });
}
