//! Where a pinned wheel comes from: `pip`, asked for the wheel's address
//! (`install --dry-run --report`, which downloads nothing) or for the whole
//! wheel (`download`), with the same choice of file both times.

use super::python::{python3, Python};
use crate::diag::Error;
use crate::pins::Wheel;
use std::fs;
use std::path::{Path, PathBuf};

/// A wheel's way in: pip in real use, a local server in the tests.
pub(super) trait Source {
    /// Writes pip's JSON report, which names the address and sha256 of
    /// `wheel`, into `dir`, and returns its path; an `Err` says why the
    /// ranged way cannot start.
    fn locate(&self, wheel: &Wheel, dir: &Path) -> Result<PathBuf, String>;

    /// Downloads the whole wheel into `dir` and returns its bytes and the
    /// file's path (for messages); the caller checks its sha256.
    fn download(&self, wheel: &Wheel, dir: &Path) -> Result<(Vec<u8>, PathBuf), Error>;

    /// Whether the ranged reader may use plain http (only the tests'
    /// local server).
    fn allow_http(&self) -> bool {
        false
    }
}

/// `python3 -I -m pip`, picking the x86_64 wheel for Python 3.11 of the
/// manylinux platforms it names.
pub(super) struct Pip {
    platforms: &'static [&'static str],
}

impl Pip {
    /// The platforms of the pinned wheels: recent cuBLAS wheels (12.8 to
    /// 13.4) are only tagged `manylinux_2_27`.
    pub const PINNED: Pip = Pip {
        platforms: &["manylinux2014_x86_64", "manylinux_2_27_x86_64"],
    };

    /// Also `manylinux_2_27`, the only Linux tag of some cuBLAS, cuDNN and
    /// NCCL wheels: for measurements of wheels that are not pinned.
    pub const NEWER: Pip = Pip {
        platforms: &["manylinux2014_x86_64", "manylinux_2_27_x86_64"],
    };

    fn which_file(&self) -> Vec<&'static str> {
        let mut args = vec!["--only-binary=:all:", "--python-version", "3.11"];
        for p in self.platforms {
            args.extend(["--platform", p]);
        }
        args
    }
}

const QUIET: [&str; 3] = ["--no-deps", "--quiet", "--disable-pip-version-check"];

/// `python3 -I -m pip`, sealed as `super::python` says; its private working
/// directory is made in `dir`.
fn pip(dir: &Path) -> std::io::Result<Python> {
    let mut python = python3(dir)?;
    python.command.args(["-m", "pip"]);
    Ok(python)
}

fn no_python(e: std::io::Error) -> Error {
    Error::new(format!("cannot run `python3 -I -m pip`: {e}"))
        .hint("install Python 3 with pip, or pass a local toolkit with `--cuda-path`")
}

/// The last line pip wrote to stderr: its error, without its advice.
fn last_line(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let line = text
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    line.trim().chars().take(200).collect()
}

impl Source for Pip {
    fn locate(&self, wheel: &Wheel, dir: &Path) -> Result<PathBuf, String> {
        let report = dir.join("report.json");
        let spec = wheel.spec();
        let mut pip = pip(dir).map_err(|e| format!("cannot prepare to run pip: {e}"))?;
        let out = pip
            .command
            .args(["install", "--dry-run", "--ignore-installed"])
            .args(QUIET)
            .args(self.which_file())
            // pip takes --platform only with --target; a dry run writes nothing there.
            .arg("--target")
            .arg(dir.join("target"))
            .arg("--report")
            .arg(&report)
            .arg(&spec)
            .output()
            .map_err(|e| format!("cannot run `python3 -I -m pip`: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "`pip install --dry-run --report` cannot locate {spec} ({})",
                last_line(&out.stderr)
            ));
        }
        Ok(report)
    }

    fn download(&self, wheel: &Wheel, dir: &Path) -> Result<(Vec<u8>, PathBuf), Error> {
        let spec = wheel.spec();
        let mut pip =
            pip(dir).map_err(|e| super::io_error("cannot prepare to run pip in", dir, e))?;
        let out = pip
            .command
            .arg("download")
            .args(QUIET)
            .args(self.which_file())
            .arg("--dest")
            .arg(dir)
            .arg(&spec)
            .output()
            .map_err(no_python)?;
        drop(pip);
        if !out.status.success() {
            return Err(Error::new(format!(
                "`pip download {spec}` failed:\n{}",
                String::from_utf8_lossy(&out.stderr).trim()
            ))
            .hint("check the network, or pass a local toolkit with `--cuda-path`"));
        }
        let file = fs::read_dir(dir)
            .map_err(|e| super::io_error("cannot list", dir, e))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|x| x == "whl"))
            .ok_or_else(|| Error::new(format!("`pip download {spec}` produced no wheel")))?;
        let bytes = fs::read(&file).map_err(|e| super::io_error("cannot read", &file, e))?;
        Ok((bytes, file))
    }
}
