//! The cushim module (pinned 13.5, from the data cushim ships) and, for the
//! direct-linking binary to link against here, the fake driver as
//! `libcuda.so` (SONAME `libcuda.so.1`, so the real driver is used where it
//! exists).

use std::path::PathBuf;
use std::process::Command;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    if let Err(e) = cushim::Builder::new()
        .cuda_version("13.5")
        .languages(&[cushim::Language::Rust])
        .generate()
    {
        eprintln!("{e}");
        std::process::exit(1);
    }
    let fake = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fake/libcuda.c");
    let lib_dir = out.join("fake");
    std::fs::create_dir_all(&lib_dir).expect("OUT_DIR is writable");
    let status = Command::new("cc")
        .args(["-shared", "-fPIC", "-O2", "-DFAKE_LEAN", "-Wl,-soname,libcuda.so.1", "-o"])
        .arg(lib_dir.join("libcuda.so"))
        .arg(&fake)
        .status()
        .expect("a C compiler runs");
    assert!(status.success(), "the fake driver compiles");
    println!("cargo:rustc-link-search=native={}", lib_dir.display());
    println!("cargo:rerun-if-changed=build.rs");
}
