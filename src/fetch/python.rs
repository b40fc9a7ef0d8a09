//! How cushim starts `python3` (pip, and the ranged reader): sealed from the
//! directory it runs in and from the caller's Python setup, because cushim
//! runs in directories it does not own (a `check` of a pull request in CI).
//!
//! - `-I`: Python puts neither the working directory nor the script's on
//!   `sys.path`, skips the user's site directory, and reads no `PYTHON*`
//!   variable, so a `pip.py` beside the caller is never imported;
//! - a private, empty working directory of its own, removed afterwards;
//! - an environment cleared down to what pip and the network need (the
//!   proxies, the certificates, pip's own `PIP_*` settings, the locale, where
//!   home and the caches are);
//! - `python3` found in the absolute entries of `PATH` only: an empty or
//!   relative entry would name the caller's directory; asked once a process
//!   for the interpreter it starts, which later runs start directly.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use tempfile::TempDir;

/// The variables handed on to Python; every other is left out. `PIP_*` and
/// the proxy variables are also handed on in any case.
const KEPT: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TMPDIR",
    "XDG_CONFIG_HOME",
    "XDG_CONFIG_DIRS",
    "XDG_CACHE_HOME",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "REQUESTS_CA_BUNDLE",
    "NETRC",
    // Python's own libraries, where it was built to find them so.
    "LD_LIBRARY_PATH",
    // What Python needs on Windows.
    "SYSTEMROOT",
    "WINDIR",
    "APPDATA",
    "LOCALAPPDATA",
    "USERPROFILE",
    "TEMP",
    "TMP",
];

/// Whether the variable `name` is handed on to Python.
fn kept(name: &OsStr) -> bool {
    let Some(name) = name.to_str() else {
        return false;
    };
    let upper = name.to_ascii_uppercase();
    KEPT.contains(&upper.as_str())
        || upper.starts_with("PIP_")
        || matches!(
            upper.as_str(),
            "HTTP_PROXY" | "HTTPS_PROXY" | "NO_PROXY" | "ALL_PROXY"
        )
}

/// `python3` in the first absolute entry of `PATH` that has one; else the
/// bare name, which then finds nothing relative but in the private working
/// directory.
fn program() -> PathBuf {
    let name = if cfg!(windows) {
        "python3.exe"
    } else {
        "python3"
    };
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join(name))
        .find(|p| executable(p))
        .unwrap_or_else(|| PathBuf::from(name))
}

/// Whether `path` is a file that can be run (as `execvp` would take it).
fn executable(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    meta.is_file()
}

/// An isolated `python3 -I` and the private working directory it runs in,
/// made in `beside` (a directory of cushim's own); the directory goes when
/// this is dropped, so keep it while the process runs.
pub(super) struct Python {
    pub command: Command,
    pub work: TempDir,
}

/// `python3 -I` (the arguments follow), ready to run as this module says.
pub(super) fn python3(beside: &Path) -> std::io::Result<Python> {
    let work = private_dir(beside)?;
    let command = sealed(interpreter(beside), work.path());
    Ok(Python { command, work })
}

/// A private, empty working directory for one Python run, made in `beside`.
fn private_dir(beside: &Path) -> std::io::Result<TempDir> {
    tempfile::Builder::new()
        .prefix(".python-cwd.")
        .tempdir_in(beside)
}

/// `program -I`, run in `work` with the environment this module keeps.
fn sealed(program: PathBuf, work: &Path) -> Command {
    let mut command = Command::new(program);
    super::die_with_parent(&mut command);
    command.arg("-I").current_dir(work).env_clear();
    for (name, value) in std::env::vars_os() {
        if kept(&name) {
            command.env(name, value);
        }
    }
    command
}

/// The interpreter that `python3` starts, asked of it once a process (in a
/// private directory made in `beside`): where `python3` is a launcher (pyenv's
/// shims run hundreds of processes per start) a fetch of many wheels pays
/// for it once, not once per Python run. `python3` itself when it does not
/// answer with an absolute path to a file that can be run.
fn interpreter(beside: &Path) -> PathBuf {
    static RESOLVED: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    RESOLVED
        .get_or_init(|| {
            let asked = || -> Option<PathBuf> {
                let work = private_dir(beside).ok()?;
                let out = sealed(program(), work.path())
                    .args(["-c", "import sys; sys.stdout.write(sys.executable or '')"])
                    .output()
                    .ok()?;
                let path = PathBuf::from(String::from_utf8(out.stdout).ok()?);
                (out.status.success() && path.is_absolute() && executable(&path)).then_some(path)
            };
            asked().unwrap_or_else(program)
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_pip_and_the_network_need_is_handed_on() {
        for name in ["PATH", "PIP_INDEX_URL", "https_proxy", "NO_PROXY", "HOME"] {
            assert!(kept(OsStr::new(name)), "{name}");
        }
        for name in [
            "PYTHONPATH",
            "PYTHONHOME",
            "PYTHONSTARTUP",
            "PYTHONUSERBASE",
            "LD_PRELOAD",
            "BASH_ENV",
            "CUSHIM_CACHE_DIR",
        ] {
            assert!(!kept(OsStr::new(name)), "{name}");
        }
    }
}
