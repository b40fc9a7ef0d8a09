//! The headers of one wheel, two ways: its header entries alone, read
//! through HTTP ranges and each checked against its pinned sha256; or the
//! whole wheel, downloaded and checked against the wheel's pinned sha256.
//! Both take the same entries (the first whose name ends in
//! `/include/<header>`).

use std::borrow::Cow;
use std::io::{Cursor, Read, Seek};
use std::ops::Range;
use std::path::Path;

use sha2::{Digest, Sha256};
use zip::ZipArchive;

use super::hashes::{PinnedFile, FILE};
use super::pip::Source;
use super::ranged::{Opened, Ranged};
use crate::diag::Error;
use crate::parse::hex;
use crate::pins::Wheel;

/// The largest header either way takes (`cuda.h` of 13.5 is about 1 MB).
const ENTRY_LIMIT: u64 = 32 << 20;

/// Bytes read past an entry's compressed data, with it: the fixed part of
/// its local header, a data descriptor, and room for a local extra field.
const ENTRY_SLACK: u64 = 30 + 16 + 512;

/// One header taken from a wheel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Taken {
    /// Example: `nvrtc.h`.
    pub header: String,
    /// The entry. Example: `nvidia/cu13/include/nvrtc.h`.
    pub path: String,
    pub text: Vec<u8>,
}

/// What one wheel gave.
#[derive(Debug)]
pub(super) struct Got {
    pub taken: Vec<Taken>,
    pub moved: Moved,
    /// The wheel's sha256: computed from the whole wheel, or as pip's report
    /// gives it for a ranged read (when it gives one).
    pub sha256: Option<String>,
}

/// How a wheel's headers came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Way {
    /// Through ranges, the header entries alone.
    Ranged,
    /// The whole wheel.
    Whole,
}

/// What taking one wheel's headers cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Moved {
    pub way: Way,
    /// Bytes that moved: the wheel's, and for a ranged read the index's
    /// answers that located it (`located`).
    pub bytes: u64,
    /// Of `bytes`, what locating the wheel moved: the index's pages, or the
    /// whole wheel where pip's dry run located it.
    pub located: u64,
    /// The whole wheel's size.
    pub size: u64,
    /// How many reads (one for a whole wheel).
    pub reads: u32,
}

/// Why the ranged way gave no headers.
#[derive(Debug)]
pub(super) enum Stop {
    /// It could not go on (no ranges, no network, a cap); the whole wheel
    /// can still be downloaded and checked.
    Refused(String),
    /// What it read is not what is pinned: nothing may be used.
    Fatal(Error),
}

/// What a ranged read checks each header against.
pub(super) enum Expect<'a> {
    /// The pinned sha256 of each entry (every fetch).
    Pinned(&'a [&'a PinnedFile]),
    /// Nothing: a maintainer's measurement of a wheel that has no pins.
    Measure,
}

/// The entry of each of `wanted` among `names`: the first whose name ends
/// in `/include/<header>`; then each other entry directly in an `include`
/// directory whose header `globbed` takes (none in a fetch, which names
/// every header it takes).
pub(super) fn choose(
    names: &[String],
    wanted: &[&str],
    globbed: &dyn Fn(&str) -> bool,
) -> Vec<(String, String)> {
    let mut chosen: Vec<(String, String)> = wanted
        .iter()
        .filter_map(|header| {
            let suffix = format!("/include/{header}");
            let name = names.iter().find(|n| n.ends_with(&suffix))?;
            Some(((*header).to_string(), name.clone()))
        })
        .collect();
    for name in names {
        let Some((_, header)) = name.rsplit_once("/include/") else {
            continue;
        };
        if globbed(header) && !chosen.iter().any(|(h, _)| h == header) {
            chosen.push((header.to_string(), name.clone()));
        }
    }
    chosen
}

/// Takes no header by name: what a fetch passes to [`choose`].
pub(super) fn none(_: &str) -> bool {
    false
}

fn names<R: Read + Seek>(zip: &ZipArchive<R>) -> Vec<String> {
    zip.file_names()
        .filter_map(Result::ok)
        .map(Cow::into_owned)
        .collect()
}

/// Reads each chosen entry, refusing one larger than [`ENTRY_LIMIT`].
fn read_entries<R: Read + Seek>(
    zip: &mut ZipArchive<R>,
    chosen: &[(String, String)],
) -> Result<Vec<Taken>, String> {
    let mut taken = Vec::new();
    for (header, path) in chosen {
        let entry = zip
            .by_name(path)
            .map_err(|e| format!("cannot read `{path}`: {e}"))?;
        if entry.size() > ENTRY_LIMIT {
            return Err(format!("`{path}` is larger than {} MiB", ENTRY_LIMIT >> 20));
        }
        let mut text = Vec::new();
        entry
            .take(ENTRY_LIMIT + 1)
            .read_to_end(&mut text)
            .map_err(|e| format!("cannot extract `{path}`: {e}"))?;
        if text.len() as u64 > ENTRY_LIMIT {
            return Err(format!("`{path}` is larger than {} MiB", ENTRY_LIMIT >> 20));
        }
        taken.push(Taken {
            header: header.clone(),
            path: path.clone(),
            text,
        });
    }
    Ok(taken)
}

/// The whole wheel: downloaded, checked against the sha256 that
/// `pins_file` pins, and the `wanted` headers taken from it, and those
/// `globbed` takes ([`choose`]).
pub(super) fn whole(
    source: &dyn Source,
    pins_file: &str,
    wheel: &Wheel,
    dir: &Path,
    wanted: &[&str],
    globbed: &dyn Fn(&str) -> bool,
) -> Result<Got, Error> {
    std::fs::create_dir_all(dir).map_err(|e| super::io_error("cannot create", dir, e))?;
    let (bytes, file) = source.download(wheel, dir)?;
    let sha = hex(&Sha256::digest(&bytes));
    if sha != wheel.sha256 {
        return Err(Error::new(format!(
            "`{}` has sha256 {sha}, but {pins_file} pins {}",
            file.display(),
            wheel.sha256
        ))
        .hint("the download was altered or the pin is wrong; nothing was extracted"));
    }
    let size = bytes.len() as u64;
    let mut zip = ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| Error::new(format!("the wheel is not a zip archive: {e}")))?;
    let chosen = choose(&names(&zip), wanted, globbed);
    let taken = read_entries(&mut zip, &chosen).map_err(Error::new)?;
    let moved = Moved {
        way: Way::Whole,
        bytes: size,
        located: 0,
        size,
        reads: 1,
    };
    Ok(Got {
        taken,
        moved,
        sha256: Some(sha),
    })
}

/// The `wanted` headers of `wheel` through ranges: pip locates the wheel,
/// the reader reads its central directory and the chosen entries, and
/// each header is checked as `expect` says. What moved counts what
/// locating it moved too.
pub(super) fn ranged(
    source: &dyn Source,
    pins_file: &str,
    wheel: &Wheel,
    expect: Expect<'_>,
    dir: &Path,
    wanted: &[&str],
) -> Result<Got, Stop> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Stop::Refused(format!("cannot create `{}`: {e}", dir.display())))?;
    let located = source.locate(wheel, dir).map_err(Stop::Refused)?;
    let Opened { mut reader, sha256 } =
        Ranged::open(&located.report, source.allow_http()).map_err(|r| Stop::Refused(r.0))?;
    if let Some(sha) = &sha256 {
        if !wheel.sha256.is_empty() && *sha != wheel.sha256 {
            return Err(Stop::Fatal(
                Error::new(format!(
                    "pip locates {} as a wheel with sha256 {sha}, but {pins_file} pins {}",
                    wheel.spec(),
                    wheel.sha256
                ))
                .hint("the index lists another file or the pin is wrong; nothing was extracted"),
            ));
        }
    }
    reader.start().map_err(Stop::Refused)?;
    // The central directory, and what to read for each wanted entry.
    let (chosen, plan) = {
        let zip = match ZipArchive::new(&mut reader) {
            Ok(zip) => zip,
            Err(e) => return Err(refused(&reader, &e)),
        };
        let chosen = choose(&names(&zip), wanted, &none);
        let plan: Vec<Range<u64>> = chosen
            .iter()
            .filter_map(|(_, path)| {
                let entry = zip.by_index_data(zip.index_for_name(path)?).ok()?;
                let start = entry.header_start();
                let length = entry
                    .compressed_size()
                    .saturating_add(entry.name_raw().len() as u64)
                    .saturating_add(ENTRY_SLACK);
                Some(start..start.saturating_add(length))
            })
            .collect();
        (chosen, plan)
    };
    let expected: Vec<Option<&str>> = match expect {
        Expect::Measure => vec![None; chosen.len()],
        Expect::Pinned(pinned) => chosen
            .iter()
            .map(|(_, path)| {
                pinned
                    .iter()
                    .find(|f| f.path == *path)
                    .map(|f| Some(f.sha256.as_str()))
                    .ok_or_else(|| Stop::Refused(format!("{FILE} pins no sha256 for `{path}`")))
            })
            .collect::<Result<_, _>>()?,
    };
    reader.prefetch(plan).map_err(Stop::Refused)?;
    let taken = {
        let mut zip = match ZipArchive::new(&mut reader) {
            Ok(zip) => zip,
            Err(e) => return Err(refused(&reader, &e)),
        };
        read_entries(&mut zip, &chosen)
    };
    let taken = taken.map_err(|why| Stop::Refused(reader.failure().map_or(why, str::to_string)))?;
    for (t, want) in taken.iter().zip(&expected) {
        let Some(want) = want else { continue };
        let got = hex(&Sha256::digest(&t.text));
        if got != *want {
            return Err(Stop::Fatal(
                Error::new(format!(
                    "`{}` of {} has sha256 {got}, but {FILE} pins {want}",
                    t.path,
                    wheel.spec()
                ))
                .hint("the host served other bytes than the pinned wheel's, or the table is wrong (scripts/pin-header-hashes.sh rewrites it from whole downloads); nothing was cached"),
            ));
        }
    }
    // pip's dry run downloaded the whole wheel to locate it.
    let located = located.index_bytes.unwrap_or(reader.size());
    let moved = Moved {
        way: Way::Ranged,
        bytes: reader.moved() + located,
        located,
        size: reader.size(),
        reads: reader.reads(),
    };
    Ok(Got {
        taken,
        moved,
        sha256,
    })
}

/// The reason a zip read through ranges failed: the reader's own, when it
/// has one.
fn refused(reader: &Ranged, e: &zip::result::ZipError) -> Stop {
    Stop::Refused(match reader.failure() {
        Some(why) => why.to_string(),
        None => format!("the wheel's central directory does not read: {e}"),
    })
}
