//! A pinned release and a merged range, from the data cushim ships; with the
//! `family` feature, other libraries' releases too.

use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut builds = vec![
        cushim::Builder::new().cuda_version("13.5"),
        cushim::Builder::new()
            .cuda_range("11.8", "13.5")
            .languages(&[cushim::Language::Rust])
            .out_dir(out.join("merged")),
    ];
    if std::env::var_os("CARGO_FEATURE_FAMILY").is_some() {
        let rust = [cushim::Language::Rust];
        for (library, cuda, dir) in [
            ("nvrtc", "11.8", "nvrtc-11.8"),
            ("cublas", "13.0", "cublas-13.0"),
            ("nvml", "12.9", "nvml-12.9"),
            ("driver", "13.5", "family-13.5"),
            ("nvrtc", "13.5", "family-13.5"),
            ("cublas", "13.5", "family-13.5"),
        ] {
            builds.push(
                cushim::Builder::new()
                    .library(library)
                    .cuda_version(cuda)
                    .languages(&rust)
                    .out_dir(out.join(dir)),
            );
        }
    }
    for builder in builds {
        if let Err(e) = builder.generate() {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
