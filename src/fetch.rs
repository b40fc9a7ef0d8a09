//! Gets the pinned headers: `pip download` of the pinned wheel, a sha256
//! check, and extraction of `cuda.h` and `cudaTypedefs.h` into a cache that is
//! never committed.
//!
//! The cache is untrusted between runs. Extraction records each header's
//! sha256 (`headers.sha256`), and every use checks the files against it; an
//! entry that fails (an edited header, a symlink anywhere in it) is fetched
//! again. The cache root must be the user's own and writable by no one else,
//! and there is no fallback to a shared temporary directory.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use sha2::{Digest, Sha256};

use crate::parse::{file_sha256, hex};

use crate::diag::Error;
use crate::library::{Library, DRIVER};
use crate::pins::{Pin, Wheel};

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
fn entry_files(library: &Library) -> Vec<&'static str> {
    let mut files: Vec<&'static str> = Vec::new();
    for l in crate::library::sharing_pins(library) {
        for f in l
            .header_files()
            .into_iter()
            .chain(l.parse_files.iter().copied())
        {
            if !files.contains(&f) {
                files.push(f);
            }
        }
    }
    files
}

fn include_dir_of(cache: &Path, library: &Library, pin: &Pin) -> Result<PathBuf, Error> {
    private_dir(cache)?;
    let root = cache.join(entry_name(library, pin));
    let verify = |pin: &Pin, root: &Path| verify(library, pin, root);
    let fetch = |pin: &Pin, root: &Path| fetch(library, pin, root);
    match verify(pin, &root) {
        Ok(()) => {}
        Err(Some(why)) => {
            eprintln!(
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

/// Downloads, checks and extracts `pin` into `root`, replacing it atomically.
fn fetch(library: &Library, pin: &Pin, root: &Path) -> Result<(), Error> {
    let parent = root.parent().unwrap_or(Path::new("."));
    remove_stale_staging(parent);
    static STAGING: AtomicUsize = AtomicUsize::new(0);
    let n = STAGING.fetch_add(1, Ordering::Relaxed);
    let staging = parent.join(format!(
        ".{}.{}-{n}.tmp",
        entry_name(library, pin),
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&staging);
    let result = fetch_into(library, pin, &staging).and_then(|()| {
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

/// `wheel.sha256` of a cache entry: the sha256 of each wheel it came from,
/// one a line.
fn wheel_lines(pin: &Pin) -> String {
    pin.wheels
        .iter()
        .map(|w| format!("{}\n", w.sha256))
        .collect()
}

fn fetch_into(library: &Library, pin: &Pin, staging: &Path) -> Result<(), Error> {
    let include = staging.join("include");
    fs::create_dir_all(&include).map_err(|e| io_error("cannot create", &include, e))?;
    let mut wanted = entry_files(library);
    let mut manifest = String::new();
    for (n, wheel) in pin.wheels.iter().enumerate() {
        let bytes = download(pin, wheel, &staging.join(format!("wheel-{n}")))?;
        manifest.push_str(&extract(&bytes, &include, &mut wanted)?);
    }
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
        .hint("headers/pins.txt must list every wheel of the release; nothing was cached"));
    }
    fs::write(staging.join(MANIFEST), manifest)
        .map_err(|e| io_error("cannot write", staging, e))?;
    fs::write(staging.join("wheel.sha256"), wheel_lines(pin))
        .map_err(|e| io_error("cannot write", staging, e))
}

/// Downloads one wheel into `dir` with `pip`, checks its sha256 against the
/// pin, and returns its bytes; `dir` is removed again.
fn download(pin: &Pin, wheel: &Wheel, dir: &Path) -> Result<Vec<u8>, Error> {
    fs::create_dir_all(dir).map_err(|e| io_error("cannot create", dir, e))?;
    let spec = wheel.spec();
    eprintln!("cushim: fetching CUDA {} headers ({spec})", pin.cuda);
    let mut pip = Command::new("python3");
    die_with_parent(&mut pip);
    let out = pip
        .args([
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--quiet",
            "--disable-pip-version-check",
        ])
        .args([
            "--only-binary=:all:",
            "--platform",
            "manylinux2014_x86_64",
            // Recent cuBLAS wheels are only tagged for glibc 2.27.
            "--platform",
            "manylinux_2_27_x86_64",
            "--python-version",
            "3.11",
        ])
        .arg("--dest")
        .arg(dir)
        .arg(&spec)
        .output()
        .map_err(|e| {
            Error::new(format!("cannot run `python3 -m pip`: {e}"))
                .hint("install Python 3 with pip, or pass a local toolkit with `--cuda-path`")
        })?;
    if !out.status.success() {
        return Err(Error::new(format!(
            "`pip download {spec}` failed:\n{}",
            String::from_utf8_lossy(&out.stderr).trim()
        ))
        .hint("check the network, or pass a local toolkit with `--cuda-path`"));
    }
    let file = fs::read_dir(dir)
        .map_err(|e| io_error("cannot list", dir, e))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "whl"))
        .ok_or_else(|| Error::new(format!("`pip download {spec}` produced no wheel")))?;
    let bytes = fs::read(&file).map_err(|e| io_error("cannot read", &file, e))?;
    let sha = hex(&Sha256::digest(&bytes));
    if sha != wheel.sha256 {
        return Err(Error::new(format!(
            "`{}` has sha256 {sha}, but headers/pins.txt pins {}",
            file.display(),
            wheel.sha256
        ))
        .hint("the download was altered or the pin is wrong; nothing was extracted"));
    }
    fs::remove_dir_all(dir).map_err(|e| io_error("cannot clean", dir, e))?;
    Ok(bytes)
}

/// On Linux, the child is killed when this process dies (even by SIGKILL),
/// so a killed fetch leaves no `pip` behind.
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

/// Copies each of the `wanted` headers that the wheel holds under an
/// `include/` directory into `include`, and takes it off `wanted`; returns
/// the manifest lines: `<sha256>  <header>`.
fn extract(wheel: &[u8], include: &Path, wanted: &mut Vec<&str>) -> Result<String, Error> {
    let mut manifest = String::new();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(wheel))
        .map_err(|e| Error::new(format!("the wheel is not a zip archive: {e}")))?;
    let names: Vec<String> = zip
        .file_names()
        .filter_map(Result::ok)
        .map(|n| n.into_owned())
        .collect();
    let mut left = Vec::new();
    for header in wanted.drain(..) {
        let suffix = format!("/include/{header}");
        let Some(name) = names.iter().find(|n| n.ends_with(&suffix)) else {
            left.push(header);
            continue;
        };
        let mut text = Vec::new();
        zip.by_name(name)
            .and_then(|mut f| f.read_to_end(&mut text).map_err(Into::into))
            .map_err(|e| Error::new(format!("cannot extract `{name}`: {e}")))?;
        let dest = include.join(header);
        if let Some(dir) = dest.parent() {
            fs::create_dir_all(dir).map_err(|e| io_error("cannot create", dir, e))?;
        }
        manifest.push_str(&format!("{}  {header}\n", hex(&Sha256::digest(&text))));
        fs::write(&dest, text).map_err(|e| io_error("cannot write", &dest, e))?;
    }
    *wanted = left;
    Ok(manifest)
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
