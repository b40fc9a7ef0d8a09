//! CUDA versions: one type for a release (`13.5`), an ABI version from a PFN
//! typedef (`3020`), and what the driver reports (`13000`), all the same
//! number as `CUDA_VERSION` spells it.

use std::fmt;
use std::str::FromStr;

/// A CUDA version, stored as the driver encodes it: `major * 1000 + minor * 10`.
/// Example: `CudaVersion::from_number(13050)` is `13.5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CudaVersion(u32);

impl CudaVersion {
    /// Example: `13050` → `13.5`.
    pub const fn from_number(number: u32) -> CudaVersion {
        CudaVersion(number)
    }

    /// Example: `13.5` → `13050`.
    pub const fn number(self) -> u32 {
        self.0
    }

    /// Where a release's files go. Example: `cuda-13.5`.
    pub fn dir_name(self) -> String {
        format!("cuda-{self}")
    }
}

// Stored data (the pinned releases' IR) spells a version as its number.
#[cfg(feature = "emit")]
impl nanoserde::SerJson for CudaVersion {
    fn ser_json(&self, depth: usize, state: &mut nanoserde::SerJsonState) {
        self.0.ser_json(depth, state);
    }
}

#[cfg(feature = "emit")]
impl nanoserde::DeJson for CudaVersion {
    fn de_json(
        state: &mut nanoserde::DeJsonState,
        input: &mut std::str::Chars,
    ) -> Result<Self, nanoserde::DeJsonErr> {
        u32::de_json(state, input).map(CudaVersion)
    }
}

impl fmt::Display for CudaVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0 / 1000, (self.0 % 1000) / 10)?;
        if !self.0.is_multiple_of(10) {
            write!(f, ".{}", self.0 % 10)?;
        }
        Ok(())
    }
}

/// Why a text is not a CUDA version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidVersion(pub String);

impl fmt::Display for InvalidVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.contains("..") {
            return write!(
                f,
                "`{}` is a range of releases, not one CUDA version; a range makes one merged Rust module: add `--merged` (or name one release, e.g. 13.5)",
                self.0
            );
        }
        write!(
            f,
            "`{}` is not a CUDA version; write it as MAJOR.MINOR, e.g. 13.5",
            self.0
        )
    }
}

impl std::error::Error for InvalidVersion {}

impl FromStr for CudaVersion {
    type Err = InvalidVersion;

    /// `13.5` → 13050. Only `MAJOR.MINOR` with a minor below 100.
    fn from_str(s: &str) -> Result<CudaVersion, InvalidVersion> {
        let invalid = || InvalidVersion(s.to_string());
        let (major, minor) = s.split_once('.').ok_or_else(invalid)?;
        let digits =
            |t: &str| !t.is_empty() && t.len() <= 3 && t.bytes().all(|b| b.is_ascii_digit());
        if !digits(major) || !digits(minor) {
            return Err(invalid());
        }
        let (major, minor): (u32, u32) = (
            major.parse().map_err(|_| invalid())?,
            minor.parse().map_err(|_| invalid())?,
        );
        if minor >= 100 {
            return Err(invalid());
        }
        Ok(CudaVersion(major * 1000 + minor * 10))
    }
}

/// The release (or releases) a header set belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Release {
    /// One release. Example: `13.5`.
    One(CudaVersion),
    /// A merged module's range. Example: `11.8..13.5`.
    Range(CudaVersion, CudaVersion),
    /// Headers whose version macro is absent.
    Unknown,
}

impl fmt::Display for Release {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Release::One(v) => write!(f, "{v}"),
            Release::Range(from, to) => write!(f, "{from}..{to}"),
            Release::Unknown => write!(f, "unknown"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_number_round_trip() {
        for (text, number) in [
            ("13.5", 13050),
            ("11.8", 11080),
            ("3.2", 3020),
            ("12.10", 12100),
        ] {
            let v: CudaVersion = text.parse().unwrap();
            assert_eq!(v.number(), number);
            assert_eq!(v.to_string(), text);
            assert_eq!(CudaVersion::from_number(number), v);
        }
        assert_eq!(CudaVersion::from_number(12051).to_string(), "12.5.1");
        assert_eq!(
            "13.5".parse::<CudaVersion>().unwrap().dir_name(),
            "cuda-13.5"
        );
    }

    #[test]
    fn anything_else_is_refused() {
        for bad in [
            "", "13", "13.", ".5", "13.5.1", "a.b", "13.100", "-1.0", "13.5 ", "1234.0",
        ] {
            assert!(bad.parse::<CudaVersion>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn releases_print_as_the_command_line_writes_them() {
        let (a, b) = ("11.8".parse().unwrap(), "13.5".parse().unwrap());
        assert_eq!(Release::One(b).to_string(), "13.5");
        assert_eq!(Release::Range(a, b).to_string(), "11.8..13.5");
        assert_eq!(Release::Unknown.to_string(), "unknown");
    }
}
