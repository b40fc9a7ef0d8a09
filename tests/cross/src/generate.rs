//! What the build script and the program's `generate` generate: the driver's
//! and NVRTC's CUDA 13.5 modules, Rust and C++, rendered by cushim's
//! emitters from the IR it ships.

/// Writes the modules into `dir`, or into `OUT_DIR` when `None` (as a build
/// script does).
pub fn modules(dir: Option<&std::path::Path>) -> Result<(), cushim::Error> {
    for library in ["driver", "nvrtc"] {
        let mut builder = cushim::Builder::new().library(library).cuda_version("13.5");
        if let Some(dir) = dir {
            builder = builder.out_dir(dir);
        }
        builder.generate()?;
    }
    Ok(())
}
