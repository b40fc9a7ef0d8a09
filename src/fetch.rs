//! Gets the pinned headers: `pip download` of the pinned wheel, a sha256
//! check, and extraction of `cuda.h` and `cudaTypedefs.h` into a cache that is
//! never committed.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use sha2::{Digest, Sha256};

use crate::parse::hex;

use crate::diag::Error;
use crate::library::DRIVER;
use crate::pins::Pin;

/// Where fetched headers live: `$CUSHIM_CACHE_DIR`, else `$XDG_CACHE_HOME/cushim`,
/// else `~/.cache/cushim`.
pub fn cache_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("CUSHIM_CACHE_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(d).join("cushim");
    }
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    home.join(".cache").join("cushim")
}

/// The include directory of a pinned release, fetched first if it is not cached.
pub fn include_dir(pin: &Pin) -> Result<PathBuf, Error> {
    include_dir_in(&cache_dir(), pin)
}

/// [`include_dir`] with an explicit cache directory.
pub fn include_dir_in(cache: &Path, pin: &Pin) -> Result<PathBuf, Error> {
    let root = cache.join(pin.cuda.dir_name());
    if !is_cached(pin, &root) {
        fetch(pin, &root)?;
    }
    Ok(root.join("include"))
}

/// Both headers are there, extracted from the wheel with the pinned sha256.
fn is_cached(pin: &Pin, root: &Path) -> bool {
    let include = root.join("include");
    DRIVER.headers().iter().all(|h| include.join(h).is_file())
        && fs::read_to_string(root.join("wheel.sha256")).is_ok_and(|s| s.trim() == pin.sha256)
}

fn io_error(what: &str, path: &Path, e: std::io::Error) -> Error {
    Error::new(format!("{what} `{}`: {e}", path.display()))
}

/// Downloads, checks and extracts `pin` into `root`, replacing it atomically.
fn fetch(pin: &Pin, root: &Path) -> Result<(), Error> {
    let parent = root.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(parent).map_err(|e| {
        io_error("cannot create the header cache", parent, e)
            .hint("set CUSHIM_CACHE_DIR to a writable directory")
    })?;
    static STAGING: AtomicUsize = AtomicUsize::new(0);
    let n = STAGING.fetch_add(1, Ordering::Relaxed);
    let staging = parent.join(format!(".cuda-{}.{}-{n}.tmp", pin.cuda, std::process::id()));
    let _ = fs::remove_dir_all(&staging);
    let result = fetch_into(pin, &staging).and_then(|()| {
        if is_cached(pin, root) {
            // Another process or thread finished the same fetch first.
            return Ok(());
        }
        let _ = fs::remove_dir_all(root);
        match fs::rename(&staging, root) {
            Err(_) if is_cached(pin, root) => Ok(()),
            other => other.map_err(|e| io_error("cannot move the headers into", root, e)),
        }
    });
    let _ = fs::remove_dir_all(&staging);
    result
}

fn fetch_into(pin: &Pin, staging: &Path) -> Result<(), Error> {
    let download = staging.join("wheel");
    fs::create_dir_all(&download).map_err(|e| io_error("cannot create", &download, e))?;
    let spec = format!("{}=={}", pin.wheel, pin.version);
    eprintln!("cushim: fetching CUDA {} headers ({spec})", pin.cuda);
    let out = Command::new("python3")
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
            "--python-version",
            "3.11",
        ])
        .arg("--dest")
        .arg(&download)
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
    let wheel = fs::read_dir(&download)
        .map_err(|e| io_error("cannot list", &download, e))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "whl"))
        .ok_or_else(|| Error::new(format!("`pip download {spec}` produced no wheel")))?;
    let bytes = fs::read(&wheel).map_err(|e| io_error("cannot read", &wheel, e))?;
    let sha = hex(&Sha256::digest(&bytes));
    if sha != pin.sha256 {
        return Err(Error::new(format!(
            "`{}` has sha256 {sha}, but headers/pins.txt pins {}",
            wheel.display(),
            pin.sha256
        ))
        .hint("the download was altered or the pin is wrong; nothing was extracted"));
    }
    extract(&bytes, &staging.join("include"))?;
    fs::remove_dir_all(&download).map_err(|e| io_error("cannot clean", &download, e))?;
    fs::write(staging.join("wheel.sha256"), format!("{sha}\n"))
        .map_err(|e| io_error("cannot write", staging, e))
}

/// Copies `*/include/cuda.h` and `*/include/cudaTypedefs.h` out of the wheel.
fn extract(wheel: &[u8], include: &Path) -> Result<(), Error> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(wheel))
        .map_err(|e| Error::new(format!("the wheel is not a zip archive: {e}")))?;
    fs::create_dir_all(include).map_err(|e| io_error("cannot create", include, e))?;
    for header in DRIVER.headers() {
        let suffix = format!("/include/{header}");
        let name = zip
            .file_names()
            .filter_map(Result::ok)
            .find(|n| n.ends_with(&suffix))
            .map(|n| n.into_owned())
            .ok_or_else(|| Error::new(format!("the wheel has no `{header}`")))?;
        let mut text = Vec::new();
        zip.by_name(&name)
            .and_then(|mut f| f.read_to_end(&mut text).map_err(Into::into))
            .map_err(|e| Error::new(format!("cannot extract `{name}`: {e}")))?;
        let dest = include.join(header);
        fs::write(&dest, text).map_err(|e| io_error("cannot write", &dest, e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wheel_with_the_wrong_sha256_is_refused_and_nothing_is_extracted() {
        let cache = std::env::temp_dir().join(format!("cushim-bad-pin-{}", std::process::id()));
        let _ = fs::remove_dir_all(&cache);
        let mut pin = crate::pins::find("12.0".parse().unwrap()).unwrap();
        pin.sha256 = "0".repeat(64);
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
