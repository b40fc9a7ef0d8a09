//! The files a parse reads: a local toolkit's headers, found, and each
//! header's sha256 for the provenance lines.

use std::fs;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::diag::Error;
use crate::library::DRIVER;

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// sha256 of a file, as lowercase hex.
pub fn file_sha256(path: &Path) -> Result<String, Error> {
    let bytes =
        fs::read(path).map_err(|e| Error::new(format!("cannot read `{}`: {e}", path.display())))?;
    Ok(hex(&Sha256::digest(&bytes)))
}

/// The release of a toolkit's include directory, from its `cuda.h`
/// (`#define CUDA_VERSION 13000`): the release of a library whose own
/// headers do not say it (cuFFT, cuRAND, ...).
pub fn toolkit_release(include: &Path) -> Option<crate::version::CudaVersion> {
    let text = std::fs::read_to_string(include.join(DRIVER.main_header().name)).ok()?;
    text.lines().find_map(|line| {
        let rest = line.trim_start().strip_prefix('#')?.trim_start();
        let value = rest
            .strip_prefix("define")?
            .trim_start()
            .strip_prefix("CUDA_VERSION")?;
        let number: u32 = value.trim().parse().ok()?;
        (number >= 1000).then(|| crate::version::CudaVersion::from_number(number))
    })
}

/// A local toolkit's include directory: `--cuda-path` (the toolkit's root or
/// its include directory), else `CUDA_PATH`, `CUDA_HOME`, then `/usr/local/cuda`.
pub fn toolkit_include(explicit: Option<&Path>) -> Result<PathBuf, Error> {
    let mut candidates: Vec<(String, PathBuf)> = Vec::new();
    match explicit {
        Some(p) => candidates.push(("--cuda-path".into(), p.to_path_buf())),
        None => {
            for var in ["CUDA_PATH", "CUDA_HOME"] {
                if let Some(v) = std::env::var_os(var).filter(|v| !v.is_empty()) {
                    candidates.push((var.into(), PathBuf::from(v)));
                }
            }
            candidates.push(("default".into(), PathBuf::from("/usr/local/cuda")));
        }
    }
    let main = DRIVER.main_header();
    let complete = |include: &Path| {
        std::iter::once(main.name)
            .chain(main.typedefs)
            .all(|h| include.join(h).is_file())
    };
    for (_, root) in &candidates {
        // A toolkit root, or its include directory itself.
        for include in [root.join("include"), root.clone()] {
            if complete(&include) {
                return Ok(include);
            }
        }
    }
    let tried: Vec<String> = candidates
        .iter()
        .map(|(from, p)| format!("{} ({from})", p.join("include").display()))
        .collect();
    Err(Error::new(format!(
        "no CUDA toolkit with cuda.h and cudaTypedefs.h found; looked in {}",
        tried.join(", ")
    ))
    .hint("pass `--cuda-path <toolkit root>`, or `--cuda <version>` to use pinned headers"))
}
