//! The sha256 of each header that cushim takes from a pinned wheel
//! (`headers/header-sha256.txt`). A ranged fetch reads the headers without
//! the rest of the wheel, so the wheel's own sha256 cannot be checked; each
//! header is checked against its line here instead. The lines come from
//! whole downloads that passed the wheel's pinned sha256
//! (`scripts/pin-header-hashes.sh`).

use crate::diag::{Error, Origin};
use crate::pins::Wheel;

/// Where the table lives in the repository, for messages.
pub(super) const FILE: &str = "headers/header-sha256.txt";

const TEXT: &str = include_str!("../../headers/header-sha256.txt");

/// One line: a file inside one wheel and its sha256.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct PinnedFile {
    /// Example: `nvidia-cuda-nvrtc`.
    pub wheel: String,
    /// Example: `13.5.37`.
    pub version: String,
    /// The entry's name in the wheel. Example: `nvidia/cu13/include/nvrtc.h`.
    pub path: String,
    /// Lowercase hex.
    pub sha256: String,
}

impl PinnedFile {
    /// The line of the table that records this file.
    pub fn line(&self) -> String {
        format!(
            "{} {} {} {}\n",
            self.wheel, self.version, self.path, self.sha256
        )
    }
}

/// The whole table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct HeaderHashes {
    files: Vec<PinnedFile>,
}

impl HeaderHashes {
    /// The table compiled into cushim.
    pub fn shipped() -> Result<Self, Error> {
        Self::parse(TEXT, FILE)
    }

    /// Reads a table; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Self, Error> {
        let mut files: Vec<PinnedFile> = Vec::new();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |message: String| {
                Error::at(
                    Origin {
                        file: file.to_string(),
                        line: u32::try_from(n + 1).unwrap_or(u32::MAX),
                    },
                    message,
                )
                .hint("each line is `<wheel> <version> <path in the wheel> <sha256>`; scripts/pin-header-hashes.sh writes the file")
            };
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [wheel, version, path, sha256] = fields.as_slice() else {
                return Err(at(format!("{} fields where 4 belong", fields.len())));
            };
            let name_like = |s: &str| {
                s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"._-+!".contains(&b))
            };
            if !name_like(wheel) || !name_like(version) {
                return Err(at(format!(
                    "`{}` `{}` is not a wheel name and version",
                    wheel.escape_debug(),
                    version.escape_debug()
                )));
            }
            if !safe_path(path) {
                return Err(at(format!(
                    "`{}` is not a relative path inside a wheel",
                    path.escape_debug()
                )));
            }
            if sha256.len() != 64
                || !sha256
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
            {
                return Err(at(format!(
                    "`{}` is not a sha256 (64 lowercase hex digits)",
                    sha256.escape_debug()
                )));
            }
            let entry = PinnedFile {
                wheel: (*wheel).to_string(),
                version: (*version).to_string(),
                path: (*path).to_string(),
                sha256: (*sha256).to_string(),
            };
            if let Some(other) = files.iter().find(|f| {
                f.wheel == entry.wheel && f.version == entry.version && f.path == entry.path
            }) {
                if other.sha256 != entry.sha256 {
                    return Err(at(format!(
                        "`{}` of {} {} has two different sha256",
                        entry.path, entry.wheel, entry.version
                    )));
                }
                continue;
            }
            files.push(entry);
        }
        Ok(HeaderHashes { files })
    }

    /// The files pinned for `wheel`.
    pub fn of(&self, wheel: &Wheel) -> Vec<&PinnedFile> {
        self.files
            .iter()
            .filter(|f| f.wheel == wheel.name && f.version == wheel.version)
            .collect()
    }

    /// Every line, in order.
    pub fn files(&self) -> &[PinnedFile] {
        &self.files
    }
}

/// Whether `path` names a file inside a wheel: relative, `/`-separated, no
/// `.` or `..` component, printable ASCII.
pub(super) fn safe_path(path: &str) -> bool {
    !path.is_empty()
        && path.bytes().all(|b| b.is_ascii_graphic() && b != b'\\')
        && path
            .split('/')
            .all(|c| !c.is_empty() && c != "." && c != "..")
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHA: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    #[test]
    fn a_bad_line_is_an_error_at_its_line_with_a_hint() {
        let cases = [
            ("w 1.0 a/include/x.h\n", "3 fields where 4 belong"),
            ("w 1.0 ../x.h SHA\n", "is not a relative path"),
            ("w 1.0 /etc/x.h SHA\n", "is not a relative path"),
            ("w 1.0 a/include/x.h ABC\n", "is not a sha256"),
            ("w$ 1.0 a/include/x.h SHA\n", "is not a wheel name"),
            (
                "w 1.0 a/include/x.h SHA\nw 1.0 a/include/x.h 1SHA\n",
                "has two different sha256",
            ),
        ];
        for (text, want) in cases {
            let other = format!("1{}", &SHA[1..]);
            let text = format!("# comment\n\n{}", text)
                .replace("1SHA", &other)
                .replace("SHA", SHA);
            let e = HeaderHashes::parse(&text, "t.txt").unwrap_err().to_string();
            let line = text.lines().count();
            assert!(e.contains(&format!("t.txt:{line}: error: ")), "{e}");
            assert!(e.contains(want), "{e}");
            assert!(e.contains("hint: each line is"), "{e}");
        }
    }

    #[test]
    fn the_lines_of_one_wheel_are_found_by_name_and_version() {
        let text = format!(
            "a 1.0 p/include/x.h {SHA}\na 1.1 p/include/x.h {SHA}\nb 1.0 q/include/y.h {SHA}\na 1.0 p/include/x.h {SHA}\n"
        );
        let table = HeaderHashes::parse(&text, "t.txt").unwrap();
        assert_eq!(table.files().len(), 3, "a repeated line counts once");
        let wheel = Wheel {
            name: "a".into(),
            version: "1.0".into(),
            sha256: String::new(),
        };
        let found = table.of(&wheel);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].line(), format!("a 1.0 p/include/x.h {SHA}\n"));
    }
}
