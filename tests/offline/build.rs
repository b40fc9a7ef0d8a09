//! A pinned release and a merged range, from the data cushim ships.

use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let builds = [
        cushim::Builder::new().cuda_version("13.5"),
        cushim::Builder::new()
            .cuda_range("11.8", "13.5")
            .languages(&[cushim::Language::Rust])
            .out_dir(out.join("merged")),
    ];
    for builder in builds {
        if let Err(e) = builder.generate() {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
