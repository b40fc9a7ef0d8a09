//! Generated text → files, as a set: every changed file is staged beside its
//! target and synced first, each target is checked to be replaceable, and
//! only then are the staged files renamed over their targets, one after the
//! other. A full disk, an unwritable directory or a target that is not a
//! plain file stops the write before any file is replaced. Unchanged files
//! are not touched, so that mtimes and diffs mean real changes.
//!
//! The renames are not one atomic step: a process killed during them, or
//! two writes at once with different options, can leave a torn set, the
//! files of two commands, or part of a set beside the staged rest. `cushim
//! check` reports such a directory as stale (`tests/check.rs`,
//! `scripts/torn-writes.sh`): a file that one command writes but that
//! records another (each file records its command, and check regenerates
//! every file of it), a file that is missing where a staged one was never
//! renamed (a write cut short after some renames), and a C++ runtime copy
//! that is not the one the pair's command writes. So a killed write's
//! staged files are evidence: the next write removes only those of the
//! names it writes itself (the set is then whole), and only once their
//! process is gone, which only Linux tells (elsewhere they stay until
//! removed by hand; check ignores one whose target is in place). What check
//! cannot see: a set that lacks a file whose staged copy someone removed,
//! or that was copied elsewhere without it.
//!
//! A staged file is created exclusively, under a random name: in an output
//! directory that others can write, a symlink planted at the staged name is
//! never written through, and the file is this process's own. (The standard
//! library does it: `create_new` is `O_CREAT | O_EXCL`, which refuses any
//! existing name, a symlink's included, and the name's random part comes from
//! the hasher keys the standard library draws from the system per process.
//! The `tempfile` crate would do the same at several times the build cost of
//! a `build.rs` that uses cushim without features.)

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

/// The target's name and the process id in a staged file's name,
/// `.<name>.<random>.<pid>.tmp` (or the older `.<name>.<pid>.tmp`).
/// Example: `.cuda_shim.cpp.00ff12ab34cd56ef.123.tmp` → `("cuda_shim.cpp", 123)`.
pub(crate) fn staged(name: &str) -> Option<(&str, u32)> {
    let rest = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (rest, pid) = rest.rsplit_once('.')?;
    let pid = pid.parse().ok()?;
    let target = match rest.rsplit_once('.') {
        Some((target, random))
            if (1..=16).contains(&random.len())
                && random.bytes().all(|b| b.is_ascii_hexdigit()) =>
        {
            target
        }
        _ => rest,
    };
    (!target.is_empty()).then_some((target, pid))
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
    // A gone writer's staged files, of the names this write writes whole: a
    // staged file of another name stays, so that `cushim check` still sees
    // that its set was cut short.
    crate::temp::remove_dead(dir, |name| {
        staged(name)
            .filter(|(target, _)| files.iter().any(|f| f.name == *target))
            .map(|(_, pid)| pid)
    });

    let mut staged: Vec<(Staged, PathBuf)> = Vec::new();
    let mut outcomes = Vec::new();
    let result = (|| {
        for file in files {
            let (name, contents) = (file.name.as_str(), file.contents.as_bytes());
            let path = dir.join(name);
            if fs::read(&path).is_ok_and(|old| old == contents) {
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
            let tmp = stage(dir, name, contents).map_err(|e| {
                Error::new(format!("cannot write `{}`: {e}", path.display()))
                    .hint("check that the output directory is writable and the disk is not full")
            })?;
            staged.push((tmp, path.clone()));
            outcomes.push(Outcome::Written(path));
        }
        Ok(())
    })();
    // On an error, dropping the staged files removes them.
    result?;
    let count = staged.len();
    for (i, (tmp, path)) in staged.into_iter().enumerate() {
        // A rename: the target is replaced whole or not at all.
        if let Err(e) = tmp.persist(&path) {
            return Err(Error::new(format!(
                "cannot replace `{}`: {}; {i} of the {count} changed files were replaced",
                path.display(),
                e
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

/// A staged file: removed when dropped, unless renamed into place first.
struct Staged {
    path: Option<PathBuf>,
}

impl Staged {
    /// Renames the staged file over `target`; on failure, dropping it
    /// removes it.
    fn persist(mut self, target: &Path) -> std::io::Result<()> {
        let Some(path) = self.path.take() else {
            return Ok(());
        };
        fs::rename(&path, target).inspect_err(|_| self.path = Some(path))
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Some(path) = &self.path {
            let _ = fs::remove_file(path);
        }
    }
}

/// A fresh random word for a staged file's name: the standard library's
/// per-process random hasher keys over a counter and the time.
fn random_word() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    h.finish()
}

/// Writes `contents` to a new file beside `name` in `dir`, created
/// exclusively as `.<name>.<random>.<pid>.tmp` (with the permissions a new
/// file gets), and syncs it to disk.
fn stage(dir: &Path, name: &str, contents: &[u8]) -> std::io::Result<Staged> {
    use std::io::Write as _;
    let pid = std::process::id();
    let mut tries = 0;
    let (mut f, staged) = loop {
        let path = dir.join(format!(".{name}.{:016x}.{pid}.tmp", random_word()));
        // 0o666 less the umask, as `File::create` would.
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(f) => break (f, Staged { path: Some(path) }),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && tries < 16 => tries += 1,
            Err(e) => return Err(e),
        }
    };
    f.write_all(contents)?;
    f.sync_all()?;
    Ok(staged)
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

    /// Another user of a shared `--out` plants a symlink at the name this
    /// process would once have staged under: the write does not go through it.
    #[cfg(unix)]
    #[test]
    fn a_symlink_planted_at_the_staged_name_is_not_written_through() {
        let dir = scratch("planted");
        let victim = dir.join("victim.txt");
        fs::write(&victim, "precious").unwrap();
        let planted = dir.join(format!(".a.rs.{}.tmp", std::process::id()));
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        let outcomes = write_all(&dir, &[file("a.rs", "new a")]).unwrap();
        assert_eq!(outcomes, [Outcome::Written(dir.join("a.rs"))]);
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
        let a = fs::symlink_metadata(dir.join("a.rs")).unwrap();
        assert!(a.is_file(), "a.rs is a plain file, not the planted link");
        assert_eq!(fs::read_to_string(dir.join("a.rs")).unwrap(), "new a");
        // The mode a new file gets (the umask's), not a temporary file's 0o600.
        use std::os::unix::fs::PermissionsExt as _;
        fs::write(dir.join("plain"), "").unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode();
        assert_eq!(mode(&dir.join("a.rs")), mode(&dir.join("plain")));
        let _ = fs::remove_dir_all(&dir);
    }

    /// A staged file of a name this write does not write is the only sign
    /// that another set in the directory was cut short: it stays.
    #[test]
    fn a_dead_writers_staged_file_of_another_name_stays() {
        let dir = scratch("other-name");
        let other = dir.join(".cuda_shim.cpp.0123456789abcdef.99999999.tmp");
        fs::write(&other, "half").unwrap();
        write_all(&dir, &[file("cuda.rs", "new")]).unwrap();
        assert!(other.exists());
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
        assert_eq!(
            staged(".cuda_shim.cpp.123.tmp"),
            Some(("cuda_shim.cpp", 123))
        );
        assert_eq!(
            staged(".cuda_shim.cpp.a1B2c3.123.tmp"),
            Some(("cuda_shim.cpp", 123))
        );
        assert_eq!(
            staged(".cuda.rs.0123456789abcdef.7.tmp"),
            Some(("cuda.rs", 7))
        );
        assert_eq!(staged("cuda.rs"), None);
        assert_eq!(staged("..7.tmp"), None);
        let _ = fs::remove_dir_all(&dir);
    }
}
