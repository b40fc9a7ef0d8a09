//! Maintainers' tools, for `examples/pin_header_hashes.rs`: rewriting
//! `headers/header-sha256.txt` from whole downloads, and measuring a ranged
//! read of any wheel.

use std::fs;
use std::path::Path;

use sha2::Digest;

use super::hashes::{safe_path, PinnedFile, FILE};
use super::pip::Pip;
use super::wheel::{self, Expect, Stop};
use super::{amount, cache_dir, private_dir, remove_stale_staging, staging_dir};
use crate::diag::Error;
use crate::library::{Library, LIBRARIES};
use crate::pins::{self, Wheel};

const PREAMBLE: &str = "\
# The sha256 of each header that cushim takes from a pinned wheel, one line a
# file: wheel, version, the file's path in the wheel, sha256. A fetch reads
# these files alone through HTTP ranges and checks each against its line,
# since the wheel's own sha256 needs the whole wheel. Written by
# scripts/pin-header-hashes.sh from whole downloads that matched the wheel's
# sha256 in headers/pins*.txt; not edited by hand.
";

/// Runs `work` in a private staging directory of the header cache, removed
/// afterwards.
fn in_staging<T>(name: &str, work: impl FnOnce(&Path) -> Result<T, Error>) -> Result<T, Error> {
    let cache = cache_dir()?;
    private_dir(&cache)?;
    remove_stale_staging(&cache);
    let staging = staging_dir(&cache, name);
    let _ = fs::remove_dir_all(&staging);
    let result = work(&staging);
    let _ = fs::remove_dir_all(&staging);
    result
}

/// The text of `headers/header-sha256.txt`: each wheel line of every
/// library's pin file downloaded whole once with pip, checked against its
/// pinned sha256, and each header that a fetch takes from it hashed. Takes
/// the headers the way a fetch does: in the pin file's order of wheels,
/// each from the first wheel that holds it. Progress goes to stderr.
#[doc(hidden)]
pub fn header_hash_table() -> Result<String, Error> {
    hash_table(LIBRARIES, Vec::new())
}

/// [`header_hash_table`] for `libraries` alone, added to the shipped
/// table's lines, which are kept as they are: a new library's wheels are
/// downloaded, not every library's.
#[doc(hidden)]
pub fn header_hash_table_adding(libraries: &[&'static Library]) -> Result<String, Error> {
    hash_table(
        libraries,
        super::hashes::HeaderHashes::shipped()?.files().to_vec(),
    )
}

fn hash_table(libraries: &[&'static Library], kept: Vec<PinnedFile>) -> Result<String, Error> {
    in_staging("header-hashes", |staging| {
        let mut files: Vec<PinnedFile> = kept;
        let mut seen: Vec<&str> = Vec::new();
        for library in libraries {
            // Libraries that share their pins (cuBLAS, cuBLASLt) share the wheels.
            if seen.contains(&library.pins) {
                continue;
            }
            seen.push(library.pins);
            for pin in pins::all_for(library) {
                let optional = super::optional_entry_files(library);
                let mut wanted = super::entry_files(library);
                wanted.extend(optional.iter().copied());
                let sharing: Vec<&Library> = crate::library::sharing_pins(library).collect();
                // The headers found by name, from the libraries' own wheels
                // only: those that give a header they list.
                let globbed = |h: &str| sharing.iter().any(|l| l.parse.globbed.matches(h));
                let listed = |h: &str| {
                    sharing.iter().any(|l| {
                        l.header_files()
                            .into_iter()
                            .chain(l.optional_files())
                            .any(|n| n == h)
                    })
                };
                for wheel in &pin.wheels {
                    if wanted.iter().all(|h| optional.contains(h)) {
                        break;
                    }
                    let dir = staging.join(wheel.spec());
                    let mut got =
                        wheel::whole(&Pip::PINNED, library.pins, wheel, &dir, &wanted, &globbed)?;
                    let _ = fs::remove_dir_all(&dir);
                    if !got.taken.iter().any(|t| listed(&t.header)) {
                        got.taken.retain(|t| wanted.contains(&t.header.as_str()));
                    }
                    crate::diag::note!(
                        "cushim: {} (CUDA {}, {}): {} of {} header(s), whole wheel {} ({} bytes)",
                        wheel.spec(),
                        pin.cuda,
                        library.name,
                        got.taken.len(),
                        wanted.len(),
                        amount(got.moved.size),
                        got.moved.size
                    );
                    for t in got.taken {
                        if !safe_path(&t.path) {
                            return Err(Error::new(format!(
                                "{} holds `{}`, a path that {FILE} cannot record",
                                wheel.spec(),
                                t.path.escape_debug()
                            )));
                        }
                        wanted.retain(|h| *h != t.header);
                        let file = PinnedFile {
                            wheel: wheel.name.clone(),
                            version: wheel.version.clone(),
                            path: t.path,
                            sha256: crate::parse::hex(&sha2::Sha256::digest(&t.text)),
                        };
                        if !files.contains(&file) {
                            files.push(file);
                        }
                    }
                }
                wanted.retain(|h| !optional.contains(h));
                if !wanted.is_empty() {
                    return Err(Error::new(format!(
                        "the pinned wheels of {} for CUDA {} hold no {}",
                        library.name,
                        pin.cuda,
                        wanted.join(", ")
                    ))
                    .hint(format!(
                        "{} must list every wheel of the release",
                        library.pins
                    )));
                }
            }
        }
        let mut text = PREAMBLE.to_string();
        for f in &files {
            text.push_str(&f.line());
        }
        Ok(text)
    })
}

/// What a ranged read of one wheel moved, and what it found.
#[doc(hidden)]
#[derive(Clone, Debug)]
pub struct Measured {
    /// Bytes of the wheel that moved.
    pub moved: u64,
    /// The whole wheel's size.
    pub size: u64,
    /// How many ranged reads.
    pub reads: u32,
    /// Each header found: its path in the wheel and its sha256.
    pub headers: Vec<(String, String)>,
    /// With `whole`: the same from the whole wheel, downloaded and checked
    /// against the sha256 that pip's report gives.
    pub whole: Option<Vec<(String, String)>>,
}

/// A ranged read of `name==version` for the `headers` it holds (by the
/// fetch's rule, `*/include/<header>`), without any pin: a measurement for
/// the benchmarks, never a fetch. pip may pick a `manylinux_2_27` wheel
/// here, which no fetch does. With `whole`, the wheel is also
/// downloaded whole, so that the two can be compared.
#[doc(hidden)]
pub fn measure(
    name: &str,
    version: &str,
    headers: &[String],
    whole: bool,
) -> Result<Measured, Error> {
    let wheel = Wheel {
        name: name.to_string(),
        version: version.to_string(),
        sha256: String::new(),
    };
    let wanted: Vec<&str> = headers.iter().map(String::as_str).collect();
    in_staging("measure", |staging| {
        let dir = staging.join("ranged");
        let got = match wheel::ranged(
            &Pip::NEWER,
            "no pin",
            &wheel,
            Expect::Measure,
            &dir,
            &wanted,
        ) {
            Ok(got) => got,
            Err(Stop::Fatal(e)) => return Err(e),
            Err(Stop::Refused(why)) => {
                return Err(Error::new(format!(
                    "the ranged read of {} stopped: {why}",
                    wheel.spec()
                )))
            }
        };
        let listed = |taken: &[wheel::Taken]| -> Vec<(String, String)> {
            taken
                .iter()
                .map(|t| {
                    let sha = crate::parse::hex(&sha2::Sha256::digest(&t.text));
                    (t.path.clone(), sha)
                })
                .collect()
        };
        let whole = match (whole, &got.sha256) {
            (false, _) => None,
            (true, None) => {
                return Err(Error::new(
                    "pip's report gives no sha256 to check the whole wheel against",
                ))
            }
            (true, Some(sha)) => {
                let pinned = Wheel {
                    sha256: sha.clone(),
                    ..wheel.clone()
                };
                let all = wheel::whole(
                    &Pip::NEWER,
                    "pip's report",
                    &pinned,
                    &staging.join("whole"),
                    &wanted,
                    &wheel::none,
                )?;
                Some(listed(&all.taken))
            }
        };
        Ok(Measured {
            moved: got.moved.bytes,
            size: got.moved.size,
            reads: got.moved.reads,
            headers: listed(&got.taken),
            whole,
        })
    })
}
