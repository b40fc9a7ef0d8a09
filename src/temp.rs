//! Temporaries that a killed process leaves behind: a write's staged file or
//! a fetch's staging directory carries its process id in its name, and the
//! next run removes those whose process is gone.

use std::fs;
use std::path::Path;

/// Whether process `pid` still runs. Where that cannot be told (outside
/// Linux), every process counts as running, so nothing is removed.
pub fn alive(pid: u32) -> bool {
    if cfg!(target_os = "linux") {
        Path::new("/proc").join(pid.to_string()).exists()
    } else {
        true
    }
}

/// Removes each entry of `dir` whose name `pid_of` reads a process id from,
/// when that process is not this one and is gone. A symlink is removed, never
/// followed.
pub fn remove_dead(dir: &Path, pid_of: impl Fn(&str) -> Option<u32>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if pid_of(&name).is_some_and(|p| p != std::process::id() && !alive(p)) {
            remove(&e.path());
        }
    }
}

/// Removes a file, a symlink or a directory tree, without following a symlink.
pub fn remove(path: &Path) {
    match fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => {
            let _ = fs::remove_dir_all(path);
        }
        Ok(_) => {
            let _ = fs::remove_file(path);
        }
        Err(_) => {}
    }
}

/// A fresh scratch directory for a unit test, under cargo's target directory
/// (`CARGO_TARGET_DIR` when set), never elsewhere in the checkout.
#[cfg(test)]
pub fn test_scratch(name: &str) -> std::path::PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .filter(|d| !d.is_empty())
        .map_or_else(|| root.join("target"), |d| root.join(d));
    let dir = target.join("test-scratch").join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_temporaries_of_gone_processes_are_removed() {
        let dir = std::env::temp_dir().join(format!("cushim-temp-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        // pid_max is at most 2^22 on Linux, so no process has this id.
        let dead = dir.join("x.99999999.tmp");
        let mine = dir.join(format!("x.{}.tmp", std::process::id()));
        let other = dir.join("unrelated");
        for f in [&dead, &mine, &other] {
            fs::write(f, "").unwrap();
        }
        remove_dead(&dir, |n| {
            n.strip_suffix(".tmp")?.rsplit_once('.')?.1.parse().ok()
        });
        assert_eq!(dead.exists(), !cfg!(target_os = "linux"));
        assert!(mine.exists() && other.exists());
        let _ = fs::remove_dir_all(&dir);
    }
}
