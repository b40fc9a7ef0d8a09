//! The pinned CUDA releases (`headers/pins.txt`), compiled into the tool so
//! that `build.rs` users need no file of ours at run time.

use crate::diag::Error;
use crate::version::CudaVersion;

const PINS: &str = include_str!("../headers/pins.txt");

/// One pinned release. Example: `13.5 nvidia-cuda-runtime 13.5.37 df2b…`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pin {
    /// Example: `13.5`.
    pub cuda: CudaVersion,
    /// Example: `nvidia-cuda-runtime`.
    pub wheel: String,
    /// Example: `13.5.37`.
    pub version: String,
    /// sha256 of the manylinux x86_64 wheel.
    pub sha256: String,
}

/// Every pin, oldest first.
pub fn all() -> Vec<Pin> {
    PINS.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            match f.as_slice() {
                [cuda, wheel, version, sha256] => Some(Pin {
                    cuda: cuda.parse().ok()?,
                    wheel: wheel.to_string(),
                    version: version.to_string(),
                    sha256: sha256.to_string(),
                }),
                _ => None,
            }
        })
        .collect()
}

/// The newest pin: the default release.
pub fn default_pin() -> Pin {
    all()
        .pop()
        .expect("headers/pins.txt lists at least one release")
}

/// The pin for `cuda` (`13.5`), or an error that lists the pinned releases.
pub fn find(cuda: CudaVersion) -> Result<Pin, Error> {
    let pins = all();
    pins.iter()
        .find(|p| p.cuda == cuda)
        .cloned()
        .ok_or_else(|| {
            let known: Vec<String> = pins.iter().map(|p| p.cuda.to_string()).collect();
            Error::new(format!("unknown CUDA version `{cuda}`")).hint(format!(
                "pinned releases: {}; or pass a local toolkit with `--cuda-path`",
                known.join(", ")
            ))
        })
}

/// The pinned releases from `from` to `to`, oldest first.
pub fn range(from: CudaVersion, to: CudaVersion) -> Result<Vec<Pin>, Error> {
    let (first, last) = (find(from)?, find(to)?);
    if first.cuda > last.cuda {
        return Err(Error::new(format!("the range {from}..{to} is empty"))
            .hint("write the older release first"));
    }
    Ok(all()
        .into_iter()
        .filter(|p| p.cuda >= first.cuda && p.cuda <= last.cuda)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_the_pin_file_is_a_pin() {
        let lines = PINS
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .count();
        assert_eq!(all().len(), lines);
        assert_eq!(lines, 16);
        assert!(all().iter().all(|p| p.sha256.len() == 64));
        assert!(
            all().windows(2).all(|w| w[0].cuda < w[1].cuda),
            "oldest first"
        );
    }

    #[test]
    fn the_newest_release_is_the_default() {
        assert_eq!(default_pin().cuda.to_string(), "13.5");
    }

    #[test]
    fn an_unknown_version_lists_the_pinned_ones() {
        let e = find("12.7".parse().unwrap()).unwrap_err().to_string();
        assert!(e.contains("unknown CUDA version `12.7`"), "{e}");
        assert!(e.contains("11.8, 12.0"), "{e}");
    }
}
