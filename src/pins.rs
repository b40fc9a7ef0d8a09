//! The pinned CUDA releases (`headers/pins.txt`), compiled into the tool so
//! that `build.rs` users need no file of ours at run time.

use crate::diag::Error;

const PINS: &str = include_str!("../headers/pins.txt");

/// One pinned release. Example: `13.5 nvidia-cuda-runtime 13.5.37 df2b…`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pin {
    /// Example: `13.5`.
    pub cuda: String,
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
                    cuda: cuda.to_string(),
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
pub fn find(cuda: &str) -> Result<Pin, Error> {
    let pins = all();
    pins.iter()
        .find(|p| p.cuda == cuda)
        .cloned()
        .ok_or_else(|| {
            let known: Vec<&str> = pins.iter().map(|p| p.cuda.as_str()).collect();
            Error::new(format!("unknown CUDA version `{cuda}`")).hint(format!(
                "pinned releases: {}; or pass a local toolkit with `--cuda-path`",
                known.join(", ")
            ))
        })
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
    }

    #[test]
    fn the_newest_release_is_the_default() {
        assert_eq!(default_pin().cuda, "13.5");
    }

    #[test]
    fn an_unknown_version_lists_the_pinned_ones() {
        let e = find("12.7").unwrap_err().to_string();
        assert!(e.contains("unknown CUDA version `12.7`"), "{e}");
        assert!(e.contains("11.8, 12.0"), "{e}");
    }
}
