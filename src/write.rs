//! Generated text → files, as a set: every changed file is staged beside its
//! target and synced first, each target is checked to be replaceable, and
//! only then are the staged files renamed over their targets, one after the
//! other. A full disk, an unwritable directory or a target that is not a
//! plain file stops the write before any file is replaced. A process killed
//! during the renames can leave a mix of old and new files; `cushim check`
//! reports such a mix as stale, and the next write removes the staged files a
//! gone process left. Unchanged files are not touched, so that mtimes and
//! diffs mean real changes.

use std::fs;
use std::path::{Path, PathBuf};

use crate::diag::Error;
use crate::emit::File;

/// What happened to one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Written(PathBuf),
    Unchanged(PathBuf),
}

/// The staged copy of `name`: `.<name>.<pid>.tmp`.
fn staged_name(name: &str) -> String {
    format!(".{name}.{}.tmp", std::process::id())
}

/// The process id in a staged file's name.
fn staged_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    rest.rsplit_once('.')?.1.parse().ok()
}

/// Writes every file into `dir`: all the changed ones, or none.
pub fn write_all(dir: &Path, files: &[File]) -> Result<Vec<Outcome>, Error> {
    fs::create_dir_all(dir).map_err(|e| {
        Error::new(format!(
            "cannot create output directory `{}`: {e}",
            dir.display()
        ))
        .hint("choose a writable directory with `--out`")
    })?;
    crate::temp::remove_dead(dir, staged_pid);

    let mut staged: Vec<(PathBuf, PathBuf)> = Vec::new();
    let mut outcomes = Vec::new();
    let result = (|| {
        for file in files {
            let path = dir.join(&file.name);
            if fs::read(&path).is_ok_and(|old| old == file.contents.as_bytes()) {
                outcomes.push(Outcome::Unchanged(path));
                continue;
            }
            if fs::symlink_metadata(&path).is_ok_and(|m| !m.is_file()) {
                return Err(Error::new(format!(
                    "cannot write `{}`: something other than a file is in its place",
                    path.display()
                ))
                .hint("move it away, or choose another directory with `--out`"));
            }
            let tmp = dir.join(staged_name(&file.name));
            staged.push((tmp.clone(), path.clone()));
            stage(&tmp, &file.contents).map_err(|e| {
                Error::new(format!("cannot write `{}`: {e}", path.display()))
                    .hint("check that the output directory is writable and the disk is not full")
            })?;
            outcomes.push(Outcome::Written(path));
        }
        Ok(())
    })();
    if let Err(e) = result {
        for (tmp, _) in &staged {
            let _ = fs::remove_file(tmp);
        }
        return Err(e);
    }
    for (i, (tmp, path)) in staged.iter().enumerate() {
        if let Err(e) = fs::rename(tmp, path) {
            for (rest, _) in &staged[i..] {
                let _ = fs::remove_file(rest);
            }
            return Err(Error::new(format!(
                "cannot replace `{}`: {e}; {i} of the {} changed files were replaced",
                path.display(),
                staged.len()
            ))
            .hint(
                "fix the directory and write again; `cushim check` shows which files are stale",
            ));
        }
    }
    // The renames themselves survive a crash once the directory is synced.
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(outcomes)
}

/// Writes `contents` to `tmp` and syncs it to disk.
fn stage(tmp: &Path, contents: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut f = fs::File::create(tmp)?;
    f.write_all(contents.as_bytes())?;
    f.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, contents: &str) -> File {
        File {
            name: name.into(),
            contents: contents.into(),
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cushim-write-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_blocked_third_file_leaves_the_first_two_unreplaced_and_no_staged_file() {
        let dir = scratch("blocked");
        fs::write(dir.join("a.rs"), "old a").unwrap();
        fs::write(dir.join("b.h"), "old b").unwrap();
        fs::create_dir(dir.join("c.cpp")).unwrap();
        let files = [
            file("a.rs", "new a"),
            file("b.h", "new b"),
            file("c.cpp", "new c"),
        ];
        let e = write_all(&dir, &files).unwrap_err().to_string();
        assert!(e.contains("something other than a file"), "{e}");
        assert_eq!(fs::read_to_string(dir.join("a.rs")).unwrap(), "old a");
        assert_eq!(fs::read_to_string(dir.join("b.h")).unwrap(), "old b");
        let names: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert!(!names.iter().any(|n| n.ends_with(".tmp")), "{names:?}");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_third_file_that_cannot_be_staged_leaves_the_first_two_unreplaced() {
        let dir = scratch("unstageable");
        fs::write(dir.join("a.rs"), "old a").unwrap();
        // A name longer than any file system allows fails when it is staged.
        let long = "c".repeat(300);
        let files = [
            file("a.rs", "new a"),
            file("b.h", "new b"),
            file(&long, "new c"),
        ];
        let e = write_all(&dir, &files).unwrap_err().to_string();
        assert!(e.contains("cannot write"), "{e}");
        assert_eq!(fs::read_to_string(dir.join("a.rs")).unwrap(), "old a");
        assert!(!dir.join("b.h").exists());
        let names: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["a.rs"]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_dead_writers_staged_file_is_removed_and_unchanged_files_are_not_touched() {
        let dir = scratch("stale");
        let stale = dir.join(".a.rs.99999999.tmp");
        fs::write(&stale, "half").unwrap();
        fs::write(dir.join("a.rs"), "same").unwrap();
        let outcomes = write_all(&dir, &[file("a.rs", "same"), file("b.h", "new")]).unwrap();
        assert_eq!(
            outcomes,
            [
                Outcome::Unchanged(dir.join("a.rs")),
                Outcome::Written(dir.join("b.h"))
            ]
        );
        assert_eq!(stale.exists(), !cfg!(target_os = "linux"));
        assert_eq!(staged_pid(".cuda_shim.cpp.123.tmp"), Some(123));
        let _ = fs::remove_dir_all(&dir);
    }
}
