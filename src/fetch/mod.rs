//! Gets the pinned headers into a cache that is never committed. A wheel
//! with a per-header sha256 in `headers/header-sha256.txt` gives its header
//! entries alone, read through HTTP ranges (`ranged`, `wheel`): a few dozen
//! KB of a wheel that may weigh hundreds of MB, each header checked against
//! its pinned sha256. Otherwise, or when the host refuses ranges, `pip
//! download` fetches the whole wheel, which is checked against the wheel's
//! pinned sha256 before anything is extracted. Each fetch says on stderr
//! which way it went and how many bytes moved.
//!
//! The cache is untrusted between runs. Extraction records each header's
//! sha256 (`headers.sha256`), and every use checks the files against it; an
//! entry that fails (an edited header, a symlink anywhere in it) is fetched
//! again. The cache root must be the user's own and writable by no one else,
//! and there is no fallback to a shared temporary directory.

mod hashes;
mod maintain;
mod pip;
mod python;
mod ranged;
#[cfg(test)]
mod ranged_tests;
#[cfg(test)]
mod server;
mod wheel;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use sha2::{Digest, Sha256};

use crate::parse::{file_sha256, hex};

use crate::diag::Error;
use crate::library::{Library, DRIVER};
use crate::pins::{Pin, Wheel};

use hashes::HeaderHashes;
#[doc(hidden)]
pub use maintain::{header_hash_table, header_hash_table_adding, measure, Measured};
use pip::{Pip, Source};
use wheel::{Expect, Got, Moved, Stop, Way};

/// Where fetched headers live: `$CUSHIM_CACHE_DIR`, else `$XDG_CACHE_HOME/cushim`,
/// else `$HOME/.cache/cushim`; an error when none of them is set.
pub fn cache_dir() -> Result<PathBuf, Error> {
    if let Some(d) = std::env::var_os("CUSHIM_CACHE_DIR").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(d));
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(d).join("cushim"));
    }
    match std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        Some(home) => Ok(PathBuf::from(home).join(".cache").join("cushim")),
        None => Err(Error::new(
            "no header cache: CUSHIM_CACHE_DIR, XDG_CACHE_HOME and HOME are all unset",
        )
        .hint("set CUSHIM_CACHE_DIR to a directory of your own (a shared temporary directory is never used)")),
    }
}

/// The include directory of a pinned release, fetched first if it is not cached.
pub fn include_dir(pin: &Pin) -> Result<PathBuf, Error> {
    include_dir_in(&cache_dir()?, pin)
}

/// The include directory of `library`'s headers for a pinned release,
/// fetched first if they are not cached.
pub fn library_include_dir(library: &Library, pin: &Pin) -> Result<PathBuf, Error> {
    include_dir_of(&cache_dir()?, library, pin)
}

/// Whether `library`'s headers of a pinned release are in the cache and
/// pass their check: then reading them needs no fetch.
pub fn is_cached(library: &Library, pin: &Pin) -> bool {
    cache_dir()
        .is_ok_and(|cache| verify(library, pin, &cache.join(entry_name(library, pin))).is_ok())
}

/// Why a fetch could not start pip here, if it could not: `python3 -I -m
/// pip --version`, run as a fetch runs it. Checked before a fetch, so that
/// one error names everything the machine lacks.
pub fn pip_unavailable() -> Option<String> {
    // A cache that cannot be used is the fetch's own error to report.
    let cache = cache_dir().ok()?;
    private_dir(&cache).ok()?;
    let mut python = match python::python3(&cache) {
        Ok(python) => python,
        Err(e) => return Some(format!("cannot prepare to run python3: {e}")),
    };
    let out = python
        .command
        .args(["-m", "pip", "--version"])
        .stdin(std::process::Stdio::null())
        .output();
    match out {
        Err(e) => Some(format!("cannot run `python3 -I -m pip`: {e}")),
        Ok(out) if !out.status.success() => {
            let text = String::from_utf8_lossy(&out.stderr);
            let last = text
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            Some(format!("`python3 -I -m pip` failed: {}", last.trim()))
        }
        Ok(_) => None,
    }
}

/// Asks pip for the addresses of the wheels of `jobs` that the cache lacks,
/// ahead of their fetches,
/// once a release (the wheels that several libraries share, the runtime's
/// and the crt's, once): a fetch of many releases and libraries then runs
/// pip a few times instead of once a wheel. Best effort: a fetch locates on
/// its own whatever this did not.
pub fn locate_ahead(jobs: &[(&Library, Pin)]) {
    let Ok(cache) = cache_dir() else { return };
    if private_dir(&cache).is_err() {
        return;
    }
    let mut releases: Vec<(crate::version::CudaVersion, Vec<crate::pins::Wheel>)> = Vec::new();
    // Only what is not cached already.
    let missing = jobs
        .iter()
        .filter(|(library, pin)| {
            verify(library, pin, &cache.join(entry_name(library, pin))).is_err()
        })
        .map(|(_, pin)| pin);
    for pin in missing {
        let at = match releases.iter().position(|(cuda, _)| *cuda == pin.cuda) {
            Some(at) => at,
            None => {
                releases.push((pin.cuda, Vec::new()));
                releases.len() - 1
            }
        };
        for wheel in &pin.wheels {
            if !releases[at].1.iter().any(|w| w.name == wheel.name) {
                releases[at].1.push(wheel.clone());
            }
        }
    }
    std::thread::scope(|scope| {
        for batch in releases.chunks(4) {
            let handles: Vec<_> = batch
                .iter()
                .map(|(_, wheels)| {
                    let staging = staging_dir(&cache, "locate");
                    scope.spawn(move || {
                        if fs::create_dir_all(&staging).is_ok() {
                            Pip::PINNED.locate_together(wheels, &staging);
                        }
                        let _ = fs::remove_dir_all(&staging);
                    })
                })
                .collect();
            for h in handles {
                let _ = h.join();
            }
        }
    });
}

/// [`include_dir`] with an explicit cache directory.
pub fn include_dir_in(cache: &Path, pin: &Pin) -> Result<PathBuf, Error> {
    include_dir_of(cache, &DRIVER, pin)
}

/// The cache entry of `library`'s headers for a release: `cuda-13.5` for
/// the driver, `nvrtc-13.5` for NVRTC, and one entry for the libraries that
/// share their pins (`cublas-13.5` for cuBLAS and cuBLASLt).
fn entry_name(library: &Library, pin: &Pin) -> String {
    if library.name == DRIVER.name {
        return pin.cuda.dir_name();
    }
    let owner = crate::library::sharing_pins(library)
        .next()
        .map_or(library.name, |l| l.name);
    format!("{owner}-{}", pin.cuda)
}

/// Every file a cache entry of `library`'s pins holds: the headers of each
/// library sharing them, and what their parse needs. Example: `nvrtc.h`.
pub(super) fn entry_files(library: &Library) -> Vec<&'static str> {
    let mut files: Vec<&'static str> = Vec::new();
    for l in crate::library::sharing_pins(library) {
        for f in l
            .header_files()
            .into_iter()
            .chain(l.parse_files.iter().flat_map(|set| set.iter().copied()))
        {
            if !files.contains(&f) {
                files.push(f);
            }
        }
    }
    files
}

/// The files a cache entry of `library`'s pins holds where the release has
/// them ([`Library::optional_files`]). Example: `cudnn_gnn_ops.h`.
pub(super) fn optional_entry_files(library: &Library) -> Vec<&'static str> {
    let mut files: Vec<&'static str> = Vec::new();
    for l in crate::library::sharing_pins(library) {
        for f in l.optional_files() {
            if !files.contains(&f) {
                files.push(f);
            }
        }
    }
    files
}

/// The header a table line records: its path below the wheel's `include`.
/// Example: `cupti.h` of `nvidia/cu13/include/cupti.h`.
fn header_of(path: &str) -> Option<&str> {
    path.rsplit_once("/include/").map(|(_, h)| h)
}

/// Each header the table records for `pin`'s wheels, with the index of the
/// wheel it comes from: the first of the pin's wheels that has it, as a
/// fetch takes it.
fn provenance<'t>(pin: &Pin, hashes: &'t HeaderHashes) -> Vec<(&'t str, usize)> {
    let mut out: Vec<(&str, usize)> = Vec::new();
    for (i, wheel) in pin.wheels.iter().enumerate() {
        for f in hashes.of(wheel) {
            if let Some(h) = header_of(&f.path) {
                if !out.iter().any(|(o, _)| *o == h) {
                    out.push((h, i));
                }
            }
        }
    }
    out
}

/// The wheels of `pin` that are `libraries`' own: those that give one of
/// the headers they list.
fn own_wheels(libraries: &[&Library], pin: &Pin, hashes: &HeaderHashes) -> Vec<usize> {
    let listed = |h: &str| {
        libraries.iter().any(|l| {
            l.header_files()
                .into_iter()
                .chain(l.optional_files())
                .any(|n| n == h)
        })
    };
    let mut own: Vec<usize> = provenance(pin, hashes)
        .into_iter()
        .filter(|(h, _)| listed(h))
        .map(|(_, i)| i)
        .collect();
    own.sort_unstable();
    own.dedup();
    own
}

/// The headers of a cache entry of `library`'s pins that are found by name
/// ([`crate::library::Globbed`]): what the table records for the entry's own
/// wheels that a pattern of a library sharing the pins matches.
fn globbed_files(library: &Library, pin: &Pin, hashes: &HeaderHashes) -> Vec<String> {
    let mut sharing: Vec<&Library> = vec![library];
    for l in crate::library::sharing_pins(library) {
        if l.name != library.name {
            sharing.push(l);
        }
    }
    if sharing.iter().all(|l| l.parse.globbed.patterns.is_empty()) {
        return Vec::new();
    }
    let own = own_wheels(&sharing, pin, hashes);
    provenance(pin, hashes)
        .into_iter()
        .filter(|(h, i)| own.contains(i) && sharing.iter().any(|l| l.parse.globbed.matches(h)))
        .map(|(h, _)| h.to_string())
        .collect()
}

/// The files of `library`'s cache entry for `pin` that come from its own
/// wheels (those that give one of the headers it lists), by the header
/// table's record of each wheel, as a fetch takes them: the headers whose
/// every type and constant its module binds ([`crate::parse::Input::own`]).
/// Example: for cudart, `driver_types.h` (the runtime's wheel), not
/// `crt/host_defines.h` (the crt wheel's); for cuBLAS, not `driver_types.h`.
pub fn own_files(library: &Library, pin: &Pin) -> Result<Vec<String>, Error> {
    let hashes = HeaderHashes::shipped()?;
    let own = own_wheels(&[library], pin, &hashes);
    let mut entry: Vec<String> = entry_files(library)
        .into_iter()
        .chain(optional_entry_files(library))
        .map(str::to_string)
        .collect();
    entry.extend(globbed_files(library, pin, &hashes));
    Ok(provenance(pin, &hashes)
        .into_iter()
        .filter(|(h, i)| own.contains(i) && entry.iter().any(|e| e == h))
        .map(|(h, _)| h.to_string())
        .collect())
}

fn include_dir_of(cache: &Path, library: &Library, pin: &Pin) -> Result<PathBuf, Error> {
    include_dir_from(cache, library, pin, &Pip::PINNED, &HeaderHashes::shipped()?)
}

/// [`include_dir_of`] with the wheels' way in and the header table given
/// (the tests give a local server and a table of their own).
fn include_dir_from(
    cache: &Path,
    library: &Library,
    pin: &Pin,
    source: &dyn Source,
    hashes: &HeaderHashes,
) -> Result<PathBuf, Error> {
    private_dir(cache)?;
    let root = cache.join(entry_name(library, pin));
    let verify = |pin: &Pin, root: &Path| verify(library, pin, root);
    let fetch = |pin: &Pin, root: &Path| fetch(library, pin, root, source, hashes);
    match verify(pin, &root) {
        Ok(()) => {}
        Err(Some(why)) => {
            crate::diag::note!(
                "cushim: the cached CUDA {} headers fail their check ({why}); fetching them again",
                pin.cuda
            );
            fetch(pin, &root)?;
        }
        Err(None) => fetch(pin, &root)?,
    }
    verify(pin, &root).map_err(|why| {
        Error::new(format!(
            "the CUDA {} headers in `{}` fail their check after fetching: {}",
            pin.cuda,
            root.display(),
            why.unwrap_or_else(|| "missing".into())
        ))
        .hint("remove that directory, or set CUSHIM_CACHE_DIR to a directory of your own")
    })?;
    Ok(root.join("include"))
}

/// The name of the file that lists each extracted header's sha256.
const MANIFEST: &str = "headers.sha256";

/// `Ok` when the entry at `root` holds what was extracted from the pinned
/// wheel: `Err(None)` when it is absent, `Err(Some(why))` when it is there
/// but fails (a symlink, a changed header, another wheel).
fn verify(library: &Library, pin: &Pin, root: &Path) -> Result<(), Option<String>> {
    let kind = |p: &Path| fs::symlink_metadata(p).map(|m| m.file_type());
    match kind(root) {
        Err(_) => return Err(None),
        Ok(t) if !t.is_dir() => {
            return Err(Some(format!(
                "`{}` is not a plain directory",
                root.display()
            )))
        }
        Ok(_) => {}
    }
    let wheels = fs::read_to_string(root.join("wheel.sha256")).map_err(|_| None)?;
    if wheels != wheel_lines(pin) {
        return Err(Some("it came from other wheels".into()));
    }
    let manifest = fs::read_to_string(root.join(MANIFEST)).map_err(|_| None)?;
    let include = root.join("include");
    if !kind(&include).is_ok_and(|t| t.is_dir()) {
        return Err(Some("`include` is not a plain directory".into()));
    }
    for header in entry_files(library) {
        let path = include.join(header);
        if !kind(&path).is_ok_and(|t| t.is_file()) {
            return Err(Some(format!("`{header}` is missing or not a plain file")));
        }
        let recorded = manifest
            .lines()
            .find_map(|l| l.strip_suffix(header)?.strip_suffix("  "))
            .ok_or_else(|| Some(format!("`{header}` is not in {MANIFEST}")))?;
        let sha256 = file_sha256(&path).map_err(|e| Some(e.to_string()))?;
        if sha256 != recorded {
            return Err(Some(format!("`{header}` changed since it was extracted")));
        }
    }
    // The headers found by name that the table records for the release's
    // wheels: each must have been extracted.
    let hashes = HeaderHashes::shipped().map_err(|e| Some(e.to_string()))?;
    for header in globbed_files(library, pin, &hashes) {
        let path = include.join(&header);
        if !kind(&path).is_ok_and(|t| t.is_file()) {
            return Err(None);
        }
        let recorded = manifest
            .lines()
            .find_map(|l| l.strip_suffix(header.as_str())?.strip_suffix("  "))
            .ok_or(None)?;
        let sha256 = file_sha256(&path).map_err(|e| Some(e.to_string()))?;
        if sha256 != recorded {
            return Err(Some(format!("`{header}` changed since it was extracted")));
        }
    }
    // A header only newer releases have: checked where it was extracted,
    // and absent where it was not.
    for header in optional_entry_files(library) {
        let path = include.join(header);
        let recorded = manifest
            .lines()
            .find_map(|l| l.strip_suffix(header)?.strip_suffix("  "));
        match recorded {
            None if kind(&path).is_err() => {}
            None => return Err(Some(format!("`{header}` is not in {MANIFEST}"))),
            Some(recorded) => {
                if !kind(&path).is_ok_and(|t| t.is_file()) {
                    return Err(Some(format!("`{header}` is missing or not a plain file")));
                }
                let sha256 = file_sha256(&path).map_err(|e| Some(e.to_string()))?;
                if sha256 != recorded {
                    return Err(Some(format!("`{header}` changed since it was extracted")));
                }
            }
        }
    }
    Ok(())
}

/// Creates `dir` (private to the user) if needed, and refuses one that is a
/// symlink, not the user's own, or writable by others.
fn private_dir(dir: &Path) -> Result<(), Error> {
    let refuse = |why: String| {
        Error::new(format!("the header cache `{}` {why}", dir.display()))
            .hint("use a directory of your own that only you can write, e.g. set CUSHIM_CACHE_DIR")
    };
    if fs::symlink_metadata(dir).is_err() {
        let mut builder = fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(dir).map_err(|e| {
            io_error("cannot create the header cache", dir, e)
                .hint("set CUSHIM_CACHE_DIR to a writable directory")
        })?;
    }
    let meta = fs::symlink_metadata(dir).map_err(|e| io_error("cannot read", dir, e))?;
    if meta.file_type().is_symlink() {
        return Err(refuse("is a symlink".into()));
    }
    if !meta.is_dir() {
        return Err(refuse("is not a directory".into()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.mode() & 0o022 != 0 {
            return Err(refuse(format!(
                "is writable by others (mode {:o})",
                meta.mode() & 0o777
            )));
        }
        // SAFETY: geteuid has no preconditions.
        let me = unsafe { libc::geteuid() };
        if meta.uid() != me {
            return Err(refuse(format!(
                "belongs to user {}, not to you",
                meta.uid()
            )));
        }
    }
    Ok(())
}

/// Removes the staging directories (`.<entry>.<pid>-<n>.tmp`, e.g.
/// `.cuda-13.5.4242-0.tmp`) of fetches
/// whose process is gone, e.g. killed.
fn remove_stale_staging(parent: &Path) {
    crate::temp::remove_dead(parent, |name| {
        let (rest, _) = name
            .strip_prefix('.')?
            .strip_suffix(".tmp")?
            .rsplit_once('-')?;
        rest.rsplit_once('.')?.1.parse().ok()
    });
}

fn io_error(what: &str, path: &Path, e: std::io::Error) -> Error {
    Error::new(format!("{what} `{}`: {e}", path.display()))
}

/// Fetches, checks and extracts `pin` into `root`, replacing it atomically.
fn fetch(
    library: &Library,
    pin: &Pin,
    root: &Path,
    source: &dyn Source,
    hashes: &HeaderHashes,
) -> Result<(), Error> {
    let parent = root.parent().unwrap_or(Path::new("."));
    remove_stale_staging(parent);
    let staging = staging_dir(parent, &entry_name(library, pin));
    let _ = fs::remove_dir_all(&staging);
    let result = fetch_into(library, pin, &staging, source, hashes).and_then(|()| {
        if verify(library, pin, root).is_ok() {
            // Another process or thread finished the same fetch first.
            return Ok(());
        }
        crate::temp::remove(root);
        match fs::rename(&staging, root) {
            Err(_) if verify(library, pin, root).is_ok() => Ok(()),
            other => other.map_err(|e| io_error("cannot move the headers into", root, e)),
        }
    });
    let _ = fs::remove_dir_all(&staging);
    result
}

/// A staging directory of this process beside the cache entries:
/// `.<name>.<pid>-<n>.tmp`, removed by the next run if this one is killed.
fn staging_dir(parent: &Path, name: &str) -> PathBuf {
    static STAGING: AtomicUsize = AtomicUsize::new(0);
    let n = STAGING.fetch_add(1, Ordering::Relaxed);
    parent.join(format!(".{name}.{}-{n}.tmp", std::process::id()))
}

/// `wheel.sha256` of a cache entry: the sha256 of each wheel it came from,
/// one a line.
fn wheel_lines(pin: &Pin) -> String {
    pin.wheels
        .iter()
        .map(|w| format!("{}\n", w.sha256))
        .collect()
}

fn fetch_into(
    library: &Library,
    pin: &Pin,
    staging: &Path,
    source: &dyn Source,
    hashes: &HeaderHashes,
) -> Result<(), Error> {
    let include = staging.join("include");
    fs::create_dir_all(&include).map_err(|e| io_error("cannot create", &include, e))?;
    let optional = optional_entry_files(library);
    let globbed = globbed_files(library, pin, hashes);
    let mut wanted: Vec<&str> = entry_files(library);
    wanted.extend(optional.iter().copied());
    wanted.extend(globbed.iter().map(String::as_str));
    let mut manifest = String::new();
    let mut taken_all: Vec<String> = Vec::new();
    let mut costs = Vec::new();
    for (n, wheel) in pin.wheels.iter().enumerate() {
        if wanted.is_empty() {
            break;
        }
        crate::diag::note!(
            "cushim: fetching CUDA {} headers ({})",
            pin.cuda,
            wheel.spec()
        );
        let dir = staging.join(format!("wheel-{n}"));
        let got = fetch_wheel(library, wheel, &dir, &wanted, source, hashes)?;
        let _ = fs::remove_dir_all(&dir);
        for t in got.taken {
            let dest = include.join(&t.header);
            if let Some(parent) = dest.parent() {
                fs::create_dir_all(parent).map_err(|e| io_error("cannot create", parent, e))?;
            }
            manifest.push_str(&format!(
                "{}  {}\n",
                hex(&Sha256::digest(&t.text)),
                t.header
            ));
            fs::write(&dest, &t.text).map_err(|e| io_error("cannot write", &dest, e))?;
            wanted.retain(|h| *h != t.header);
            taken_all.push(t.header);
        }
        costs.push(got.moved);
        if wanted.iter().all(|h| optional.contains(h)) {
            break;
        }
    }
    wanted.retain(|h| !optional.contains(h));
    if !wanted.is_empty() {
        return Err(Error::new(format!(
            "the pinned wheels of CUDA {} hold no {}",
            pin.cuda,
            wanted
                .iter()
                .map(|h| format!("`{h}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .hint(format!(
            "{} must list every wheel of the release; nothing was cached",
            library.pins
        )));
    }
    fs::write(staging.join(MANIFEST), manifest)
        .map_err(|e| io_error("cannot write", staging, e))?;
    fs::write(staging.join("wheel.sha256"), wheel_lines(pin))
        .map_err(|e| io_error("cannot write", staging, e))?;
    crate::diag::note!("cushim: {}", summary(library, pin, &taken_all, &costs));
    Ok(())
}

/// The wanted headers of one wheel: through ranges where the table pins
/// their sha256, else (or when the host or the network refuses ranges)
/// from the whole wheel.
fn fetch_wheel(
    library: &Library,
    wheel: &Wheel,
    dir: &Path,
    wanted: &[&str],
    source: &dyn Source,
    hashes: &HeaderHashes,
) -> Result<Got, Error> {
    let spec = wheel.spec();
    let pinned = hashes.of(wheel);
    if pinned.is_empty() {
        crate::diag::note!(
            "cushim: {spec}: {} pins no header of it; downloading the whole wheel",
            hashes::FILE
        );
    } else {
        let expect = Expect::Pinned(&pinned);
        match wheel::ranged(source, library.pins, wheel, expect, dir, wanted) {
            Ok(got) => return Ok(got),
            Err(Stop::Fatal(e)) => return Err(e),
            Err(Stop::Refused(why)) => {
                crate::diag::note!("cushim: {spec}: {why}; downloading the whole wheel");
            }
        }
        let _ = fs::remove_dir_all(dir);
    }
    wheel::whole(source, library.pins, wheel, dir, wanted, &wheel::none)
}

/// A byte count for people: `812 B`, `412 KB`, `58.2 MB` (powers of 1000).
fn amount(bytes: u64) -> String {
    match bytes {
        0..=999 => format!("{bytes} B"),
        1_000..=999_999 => format!("{} KB", (bytes + 500) / 1_000),
        _ => format!("{:.1} MB", bytes as f64 / 1e6),
    }
}

/// The line that ends a fetch: every byte that moved, pip's answers that
/// located the wheels included. Example: `fetched nvrtc.h of CUDA 13.5
/// (nvrtc): 1 header, 38 KB moved (ranged, 10 KB of it to locate them; the
/// whole wheel is 58.2 MB)`.
fn summary<S: AsRef<str>>(library: &Library, pin: &Pin, headers: &[S], costs: &[Moved]) -> String {
    let headers: Vec<&str> = headers.iter().map(AsRef::as_ref).collect();
    let what = match headers.as_slice() {
        [] => "no header".to_string(),
        [one] => (*one).to_string(),
        [a, b] => format!("{a} and {b}"),
        [a, b, rest @ ..] => format!("{a}, {b} and {} more", rest.len()),
    };
    let whose = if library.name == DRIVER.name {
        String::new()
    } else {
        format!(" ({})", library.name)
    };
    let moved: u64 = costs.iter().map(|c| c.bytes).sum();
    let size: u64 = costs.iter().map(|c| c.size).sum();
    let ranged = costs.iter().filter(|c| c.way == Way::Ranged).count();
    let (wheels, is) = if costs.len() == 1 {
        ("wheel", "is")
    } else {
        ("wheels", "are")
    };
    let located: u64 = costs.iter().map(|c| c.located).sum();
    let located = if ranged == 0 {
        String::new()
    } else {
        format!(", {} of it to locate them", amount(located))
    };
    let how = if ranged == 0 {
        format!("whole {wheels}")
    } else if ranged == costs.len() {
        format!("ranged{located}; the whole {wheels} {is} {}", amount(size))
    } else {
        format!(
            "ranged for {ranged} of {} wheels{located}; the whole wheels are {}",
            costs.len(),
            amount(size)
        )
    };
    let plural = if headers.len() == 1 { "" } else { "s" };
    format!(
        "fetched {what} of CUDA {}{whose}: {} header{plural}, {} moved ({how})",
        pin.cuda,
        headers.len(),
        amount(moved)
    )
}

/// On Linux, the child is killed when this process dies (even by SIGKILL),
/// so a killed fetch leaves no `pip` or reader behind.
fn die_with_parent(command: &mut Command) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: prctl is async-signal-safe, and the closure touches nothing else.
        unsafe {
            command.pre_exec(|| {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = command;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch directory private to this test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cushim-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        private_dir(&dir).unwrap();
        dir
    }

    /// A cache entry as a fetch leaves it, with made-up headers, for a pin
    /// whose wheel sha256 is `wheel`.
    fn entry(cache: &Path, wheel: &str) -> (Pin, PathBuf) {
        let mut pin = crate::pins::find("13.5".parse().unwrap()).unwrap();
        pin.wheels[0].sha256 = wheel.into();
        let root = cache.join(pin.cuda.dir_name());
        fs::create_dir_all(root.join("include")).unwrap();
        let mut manifest = String::new();
        for h in DRIVER.header_files() {
            let text = format!("/* {h} */\n");
            fs::write(root.join("include").join(h), &text).unwrap();
            manifest.push_str(&format!("{}  {h}\n", hex(&Sha256::digest(text.as_bytes()))));
        }
        fs::write(root.join(MANIFEST), manifest).unwrap();
        fs::write(root.join("wheel.sha256"), wheel_lines(&pin)).unwrap();
        (pin, root)
    }

    #[test]
    fn a_cached_header_is_checked_against_its_extraction_hash_on_every_use() {
        let cache = scratch("verify");
        let (pin, root) = entry(&cache, &"a".repeat(64));
        assert_eq!(verify(&DRIVER, &pin, &root), Ok(()));
        let header = root.join("include/cuda.h");
        fs::write(&header, "/* cuda.h, edited */\n").unwrap();
        let why = verify(&DRIVER, &pin, &root).unwrap_err().unwrap();
        assert!(
            why.contains("`cuda.h` changed since it was extracted"),
            "{why}"
        );

        // A symlink in place of a header is refused even when it points at the same text.
        let (pin, root) = entry(&cache, &"a".repeat(64));
        let real = cache.join("real-cuda.h");
        fs::rename(root.join("include/cuda.h"), &real).unwrap();
        std::os::unix::fs::symlink(&real, root.join("include/cuda.h")).unwrap();
        let why = verify(&DRIVER, &pin, &root).unwrap_err().unwrap();
        assert!(why.contains("not a plain file"), "{why}");

        // Another pin's entry is not this pin's.
        let (_, root) = entry(&cache, &"a".repeat(64));
        let mut other = pin.clone();
        other.wheels[1].sha256 = "b".repeat(64);
        assert_eq!(
            verify(&DRIVER, &other, &root),
            Err(Some("it came from other wheels".into()))
        );
        let _ = fs::remove_dir_all(&cache);
    }

    #[test]
    fn a_cache_root_that_others_can_write_or_a_symlink_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let base = scratch("private");
        let shared = base.join("shared");
        fs::create_dir(&shared).unwrap();
        fs::set_permissions(&shared, fs::Permissions::from_mode(0o777)).unwrap();
        let e = private_dir(&shared).unwrap_err().to_string();
        assert!(e.contains("is writable by others (mode 777)"), "{e}");
        let link = base.join("link");
        std::os::unix::fs::symlink(&shared, &link).unwrap();
        let e = private_dir(&link).unwrap_err().to_string();
        assert!(e.contains("is a symlink"), "{e}");
        let fresh = base.join("fresh/cache");
        private_dir(&fresh).unwrap();
        let mode = fs::metadata(&fresh).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
        let _ = fs::remove_dir_all(&base);
    }

    #[test]
    fn a_dead_fetchs_staging_directory_is_removed_and_a_live_ones_kept() {
        let cache = scratch("staging");
        // pid_max is at most 2^22 on Linux, so this process cannot exist.
        let dead = cache.join(".cuda-13.5.99999999-0.tmp");
        let live = cache.join(format!(".cuda-13.5.{}-7.tmp", std::process::id()));
        for d in [&dead, &live] {
            fs::create_dir_all(d.join("wheel")).unwrap();
        }
        remove_stale_staging(&cache);
        assert!(!dead.exists());
        assert!(live.exists());
        let _ = fs::remove_dir_all(&cache);
    }

    #[test]
    fn a_wheel_with_the_wrong_sha256_is_refused_and_nothing_is_extracted() {
        let cache = std::env::temp_dir().join(format!("cushim-bad-pin-{}", std::process::id()));
        let _ = fs::remove_dir_all(&cache);
        let mut pin = crate::pins::find("12.0".parse().unwrap()).unwrap();
        pin.wheels[0].sha256 = "0".repeat(64);
        let e = include_dir_in(&cache, &pin).unwrap_err().to_string();
        assert!(e.contains("but headers/pins.txt pins 0000"), "{e}");
        assert!(e.contains("nothing was extracted"), "{e}");
        assert!(!cache.join("cuda-12.0").exists());
        let leftovers = fs::read_dir(&cache)
            .map(|d| d.flatten().count())
            .unwrap_or(0);
        assert_eq!(leftovers, 0, "no staging directory is left behind");
        let _ = fs::remove_dir_all(&cache);
    }
}

#[cfg(test)]
mod provenance_tests {
    use super::*;
    use crate::library::{Globbed, Header, ParseSettings};

    const SHA: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    /// A library listing `lib.h`, finding `lib_*.h` by name, pinned to a
    /// wheel of its own and another's that both ship `lib_extra.h` and
    /// `shared.h`.
    #[test]
    fn own_files_are_those_of_the_wheels_that_give_a_listed_header() {
        static HEADERS: [Header; 1] = [Header {
            name: "lib.h",
            typedefs: None,
            needs: &[],
            optional: false,
        }];
        let library = Library {
            name: "own-test",
            pins: "own-test-pins",
            headers: &HEADERS,
            parse_files: &[&["shared.h", "foreign.h"]],
            parse: ParseSettings {
                globbed: Globbed {
                    patterns: &["lib_*.h"],
                    except: &[("lib_skip.h", "left out")],
                    needs: &[],
                },
                ..ParseSettings::PLAIN
            },
            ..*crate::library::LIBRARIES[0]
        };
        let wheel = |name: &str| crate::pins::Wheel {
            name: name.into(),
            version: "1.0".into(),
            sha256: String::new(),
        };
        let pin = Pin {
            cuda: "13.0".parse().unwrap(),
            wheels: vec![wheel("own"), wheel("other")],
        };
        let table = format!(
            "own 1.0 p/include/lib.h {SHA}\nown 1.0 p/include/lib_extra.h {SHA}\nown 1.0 p/include/lib_skip.h {SHA}\nown 1.0 p/include/shared.h {SHA}\nother 1.0 q/include/shared.h {SHA}\nother 1.0 q/include/foreign.h {SHA}\nother 1.0 q/include/lib_other.h {SHA}\n"
        );
        let hashes = HeaderHashes::parse(&table, "t.txt").unwrap();
        assert_eq!(own_wheels(&[&library], &pin, &hashes), [0]);
        // Found by name in the own wheel only, less the exception.
        assert_eq!(globbed_files(&library, &pin, &hashes), ["lib_extra.h"]);
        // `shared.h` comes from the first wheel that has it, the own one.
        let from: Vec<(&str, usize)> = provenance(&pin, &hashes);
        assert!(from.contains(&("shared.h", 0)), "{from:?}");
        assert!(from.contains(&("foreign.h", 1)), "{from:?}");
    }
}
