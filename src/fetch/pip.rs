//! Where a pinned wheel comes from: `pip`, asked for the wheel's address
//! or for the whole wheel (`download`), with the same choice of file both
//! times.
//!
//! The address comes from pip's own finder (`locate.py`), configured as
//! `pip download` is (pip's configuration files and variables, its index,
//! extra indexes and find-links, proxies and certificates): only the
//! index's project pages move. `pip install --dry-run --report` would name
//! the address too, but pip downloads the whole wheel before it reports
//! (about 440 MB for cuBLAS); it is the fallback for a pip whose internals
//! `locate.py` does not know, and a fetch that takes it counts the whole
//! wheel as moved.

use super::python::{python3, Python};
use crate::diag::Error;
use crate::pins::Wheel;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Where a wheel is, as pip found it.
#[derive(Debug)]
pub(super) struct Located {
    /// A JSON report in the shape of pip's `--report`, which names the
    /// address and sha256 of the wheel.
    pub report: PathBuf,
    /// The bytes the index sent to say so (the first wheel of a run that
    /// located several carries the run's); `None` when pip's dry run
    /// located it, which downloads the whole wheel.
    pub index_bytes: Option<u64>,
}

/// A wheel's way in: pip in real use, a local server in the tests.
pub(super) trait Source {
    /// Writes a JSON report that names the address and sha256 of `wheel`
    /// into `dir`; an `Err` says why the ranged way cannot start.
    fn locate(&self, wheel: &Wheel, dir: &Path) -> Result<Located, String>;

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
    /// Variables set for pip on top of the caller's (the tests' local index).
    env: Vec<(String, String)>,
}

impl Pip {
    /// The platforms of the pinned wheels: recent cuBLAS wheels (12.8 to
    /// 13.4) are only tagged `manylinux_2_27`, CUPTI's from 12.9
    /// `manylinux_2_25` (pip does not take a `manylinux_2_X` platform for a
    /// lower X, so each is named; the last is asked for last).
    pub const PINNED: Pip = Pip {
        platforms: &[
            "manylinux2014_x86_64",
            "manylinux_2_27_x86_64",
            "manylinux_2_25_x86_64",
        ],
        env: Vec::new(),
    };

    /// Also `manylinux_2_27`, the only Linux tag of some cuBLAS, cuDNN and
    /// NCCL wheels: for measurements of wheels that are not pinned.
    pub const NEWER: Pip = Pip {
        platforms: &["manylinux2014_x86_64", "manylinux_2_27_x86_64"],
        env: Vec::new(),
    };

    /// The pinned platforms, with `env` set for pip: the tests' local index.
    #[cfg(test)]
    pub fn with_env(env: &[(&str, &str)]) -> Pip {
        Pip {
            env: env
                .iter()
                .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
                .collect(),
            ..Pip::PINNED
        }
    }

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

/// Asks pip's finder for wheels' addresses (see the module's words).
const LOCATE: &str = include_str!("locate.py");

/// `locate.py`'s exit status for a pip whose internals it does not know.
const UNKNOWN_PIP: i32 = 3;

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

/// One wheel's report from a run that located it, and the bytes the index
/// sent that run, shared by the run's wheels: the first fetch to use one of
/// them counts the bytes, the others nothing.
struct Kept {
    key: String,
    text: Vec<u8>,
    index_bytes: Option<Arc<AtomicU64>>,
}

/// The reports of the wheels this process located already, by the
/// platforms asked for and the wheel: the libraries that share a wheel (the
/// runtime's and the crt's, for cuBLAS, cudart, cuFFT, ...) ask pip once.
static LOCATED: Mutex<Vec<Kept>> = Mutex::new(Vec::new());

/// Splits pip's report of several wheels (argv 1) into one report a wheel
/// in a directory (argv 2), printing `name version file` for each: what
/// [`Source::locate`] hands the ranged reader, which takes one wheel.
const SPLIT: &str = r#"
import json, os, sys
with open(sys.argv[1], "rb") as f:
    report = json.loads(f.read(16 << 20))
for i, item in enumerate(report.get("install") or []):
    meta = item.get("metadata") or {}
    path = os.path.join(sys.argv[2], "one-%d.json" % i)
    with open(path, "w") as f:
        json.dump(dict(report, install=[item]), f)
    print(meta.get("name", ""), meta.get("version", ""), path)
"#;

/// A distribution's name as pip compares them: lowercase, and each run of
/// `-`, `_` and `.` one `-`. Example: `nvidia_cuda_runtime` → `nvidia-cuda-runtime`.
fn normalized(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if matches!(c, '-' | '_' | '.') {
            if !out.ends_with('-') {
                out.push('-');
            }
        } else {
            out.push(c.to_ascii_lowercase());
        }
    }
    out
}

impl Pip {
    /// The key of `wheel`'s report in [`LOCATED`].
    fn located_key(&self, wheel: &Wheel) -> String {
        format!("{} {}", self.platforms.join(" "), wheel.spec())
    }

    /// Writes a report of where each of `specs` is to `report`, run in
    /// `dir`: asked of pip's finder, or where this pip's internals are not
    /// the ones `locate.py` knows, of `pip install --dry-run --report`
    /// (which downloads each wheel). Returns the bytes the index sent, or
    /// `None` after a dry run.
    fn find(&self, dir: &Path, report: &Path, specs: &[String]) -> Result<Option<u64>, String> {
        let mut python = python3(dir).map_err(|e| format!("cannot prepare to run pip: {e}"))?;
        python.command.envs(self.env.iter().map(|(k, v)| (k, v)));
        let out = python
            .command
            .args(["-c", LOCATE])
            .arg(report)
            .arg("--")
            .args(QUIET)
            .args(self.which_file())
            .args(specs)
            .output()
            .map_err(|e| format!("cannot run `python3 -I`: {e}"))?;
        drop(python);
        if out.status.success() {
            let stdout = String::from_utf8_lossy(&out.stdout);
            let bytes = stdout
                .lines()
                .find_map(|l| l.strip_prefix("index-bytes ")?.trim().parse().ok())
                .unwrap_or(0);
            return Ok(Some(bytes));
        }
        let why = last_line(&out.stderr);
        if out.status.code() != Some(UNKNOWN_PIP) {
            return Err(format!("pip cannot locate {} ({why})", specs.join(" ")));
        }
        crate::diag::note!(
            "cushim: {why}; asking `pip install --dry-run --report`, which downloads each wheel whole"
        );
        let out = self.dry_run(dir, report, specs)?;
        if !out.status.success() {
            return Err(format!(
                "`pip install --dry-run --report` cannot locate {} ({})",
                specs.join(" "),
                last_line(&out.stderr)
            ));
        }
        Ok(None)
    }

    /// `pip install --dry-run --report REPORT SPECS...`, run in `dir`: what
    /// pip would fetch for each spec, and from where, written to `report`.
    /// pip downloads each wheel whole to read its metadata.
    fn dry_run(
        &self,
        dir: &Path,
        report: &Path,
        specs: &[String],
    ) -> Result<std::process::Output, String> {
        let mut pip = pip(dir).map_err(|e| format!("cannot prepare to run pip: {e}"))?;
        pip.command.envs(self.env.iter().map(|(k, v)| (k, v)));
        pip.command
            .args(["install", "--dry-run", "--ignore-installed"])
            .args(QUIET)
            .args(self.which_file())
            // pip takes --platform only with --target; a dry run writes nothing there.
            .arg("--target")
            .arg(dir.join("target"))
            .arg("--report")
            .arg(report)
            .args(specs)
            .output()
            .map_err(|e| format!("cannot run `python3 -I -m pip`: {e}"))
    }

    /// Locates `wheels` (of one release: no two share a name) with one pip
    /// run instead of one each, and keeps each one's report for
    /// [`Source::locate`]. Best effort: a wheel this does not settle is
    /// located alone when it is fetched.
    pub(super) fn locate_together(&self, wheels: &[Wheel], dir: &Path) {
        let report = dir.join("together.json");
        let specs: Vec<String> = wheels.iter().map(Wheel::spec).collect();
        let Ok(index_bytes) = self.find(dir, &report, &specs) else {
            return;
        };
        let index_bytes = index_bytes.map(|n| Arc::new(AtomicU64::new(n)));
        let Ok(mut python) = python3(dir) else { return };
        let Ok(out) = python
            .command
            .args(["-c", SPLIT])
            .arg(&report)
            .arg(dir)
            .output()
        else {
            return;
        };
        drop(python);
        let listed = String::from_utf8_lossy(&out.stdout).into_owned();
        let mut located = LOCATED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for line in listed.lines() {
            let mut parts = line.splitn(3, ' ');
            let (Some(name), Some(version), Some(file)) =
                (parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            let wheel = wheels
                .iter()
                .find(|w| normalized(&w.name) == normalized(name) && w.version == version);
            let (Some(wheel), Ok(text)) = (wheel, fs::read(file)) else {
                continue;
            };
            let key = self.located_key(wheel);
            if !located.iter().any(|k| k.key == key) {
                located.push(Kept {
                    key,
                    text,
                    index_bytes: index_bytes.clone(),
                });
            }
        }
    }
}

impl Source for Pip {
    fn locate(&self, wheel: &Wheel, dir: &Path) -> Result<Located, String> {
        let report = dir.join("report.json");
        let spec = wheel.spec();
        let key = self.located_key(wheel);
        let known = LOCATED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .find(|k| k.key == key)
            .map(|k| {
                let bytes = k.index_bytes.as_ref().map(|n| n.swap(0, Ordering::Relaxed));
                (k.text.clone(), bytes)
            });
        if let Some((text, index_bytes)) = known {
            fs::write(&report, text)
                .map_err(|e| format!("cannot write `{}`: {e}", report.display()))?;
            return Ok(Located {
                report,
                index_bytes,
            });
        }
        let index_bytes = self.find(dir, &report, std::slice::from_ref(&spec))?;
        if let Ok(text) = fs::read(&report) {
            LOCATED
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(Kept {
                    key,
                    text,
                    // Counted by this fetch.
                    index_bytes: index_bytes.map(|_| Arc::new(AtomicU64::new(0))),
                });
        }
        Ok(Located {
            report,
            index_bytes,
        })
    }

    fn download(&self, wheel: &Wheel, dir: &Path) -> Result<(Vec<u8>, PathBuf), Error> {
        let spec = wheel.spec();
        // The pinned file itself: of the files of one version that fit the
        // platforms equally (`manylinux2014` and `manylinux2014.manylinux_2_17`
        // wheels), pip's download and its finder may pick others; with the
        // pin's hash required, pip takes the file that has it.
        let requirement = dir.join("cushim-requirement.txt");
        fs::write(
            &requirement,
            format!("{spec} --hash=sha256:{}\n", wheel.sha256),
        )
        .map_err(|e| super::io_error("cannot write", &requirement, e))?;
        let mut pip =
            pip(dir).map_err(|e| super::io_error("cannot prepare to run pip in", dir, e))?;
        pip.command.envs(self.env.iter().map(|(k, v)| (k, v)));
        let out = pip
            .command
            .arg("download")
            .args(QUIET)
            .args(self.which_file())
            .arg("--dest")
            .arg(dir)
            .arg("--requirement")
            .arg(&requirement)
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

#[cfg(test)]
mod tests {
    use super::normalized;

    #[test]
    fn names_compare_as_pip_compares_them() {
        assert_eq!(normalized("nvidia_cuda_runtime"), "nvidia-cuda-runtime");
        assert_eq!(normalized("NVIDIA-cuBLAS"), "nvidia-cublas");
        assert_eq!(normalized("a._-b"), "a-b");
    }
}
