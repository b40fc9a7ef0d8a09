//! Whether a Python environment found above the program may supply a
//! library: OpenSSH's `StrictModes` rule. Nobody named that directory (unlike
//! `VIRTUAL_ENV`, `CONDA_PREFIX` or `LD_LIBRARY_PATH`, which the user sets),
//! so a `pyvenv.cfg` or `conda-meta` planted in a directory that others can
//! write (`/tmp`) must not bring a library into this process. The C++
//! runtime applies the same rule, in the same words.
//!
//! Each of these must be owned by root or by this process's effective user,
//! and writable by neither its group nor others:
//! - the environment's directory and its marker files;
//! - every directory from the environment down to the program, and down to
//!   the library, and the library itself;
//! - where links lead the library out of the environment, the file it
//!   resolves to and every directory above that, up to `/`.
//!
//! Only on Unix: Windows grants rights through ACLs, which this runtime does
//! not read, so there the walk above the program is not taken at all.

#![cfg(unix)]

use std::os::unix::fs::MetadataExt;
use std::path::Path;

unsafe extern "C" {
    safe fn geteuid() -> u32;
}

/// `Ok` when the environment at `root`, found above the program, may supply
/// `library` (a file below it); else why not, naming the path at fault.
pub(crate) fn environment_above(root: &Path, library: &Path) -> Result<(), String> {
    for marker in ["pyvenv.cfg", "conda-meta"] {
        let path = root.join(marker);
        if std::fs::symlink_metadata(&path).is_ok() {
            owned_safely(&path)?;
        }
    }
    let program =
        std::env::current_exe().map_err(|e| format!("the program's own path is unknown: {e}"))?;
    if let Some(dir) = program.parent() {
        down(root, dir)?;
    }
    down(root, library)?;
    let real = std::fs::canonicalize(library)
        .map_err(|e| format!("`{}` cannot be resolved: {e}", library.display()))?;
    let real_root = std::fs::canonicalize(root)
        .map_err(|e| format!("`{}` cannot be resolved: {e}", root.display()))?;
    if real.starts_with(&real_root) {
        down(&real_root, &real)
    } else {
        // Out of the environment: the file and every directory above it.
        // Above the file, a directory like /tmp (root's, others may write,
        // sticky) is fine: no one but an entry's owner can rename or remove
        // it, and the entry below it is checked in turn.
        owned_safely(&real)?;
        real.ancestors()
            .skip(1)
            .filter(|dir| !sticky_and_roots(dir))
            .try_for_each(owned_safely)
    }
}

/// Whether `dir` is a directory of root's with the sticky bit (`/tmp`).
fn sticky_and_roots(dir: &Path) -> bool {
    std::fs::metadata(dir).is_ok_and(|m| m.is_dir() && m.uid() == 0 && m.mode() & 0o1000 != 0)
}

/// Checks `from` and each path below it on the way to `to`, `to` included.
fn down(from: &Path, to: &Path) -> Result<(), String> {
    let rest = to
        .strip_prefix(from)
        .map_err(|_| format!("`{}` is not inside `{}`", to.display(), from.display()))?;
    let mut path = from.to_path_buf();
    owned_safely(&path)?;
    for part in rest.components() {
        path.push(part);
        owned_safely(&path)?;
    }
    Ok(())
}

/// `Ok` when `path` (followed through links) belongs to root or this user
/// and neither its group nor others may write it.
fn owned_safely(path: &Path) -> Result<(), String> {
    let meta = std::fs::metadata(path)
        .map_err(|e| format!("`{}` cannot be examined: {e}", path.display()))?;
    let owner = meta.uid();
    let me = geteuid();
    if owner != 0 && owner != me {
        return Err(format!(
            "`{}` is owned by uid {owner}, neither root nor this process's user (uid {me})",
            path.display()
        ));
    }
    let mode = meta.mode();
    let who = match (mode & 0o020 != 0, mode & 0o002 != 0) {
        (true, true) => "group and others",
        (true, false) => "its group",
        (false, true) => "others",
        (false, false) => return Ok(()),
    };
    Err(format!(
        "`{}` is writable by {who} (mode {:04o})",
        path.display(),
        mode & 0o7777
    ))
}

#[cfg(test)]
mod tests {
    use super::{down, owned_safely};
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_directory_others_can_write_is_refused_and_named() {
        let dir = std::env::temp_dir().join(format!("cushim-runtime-trust-{}", std::process::id()));
        let inner = dir.join("lib/python3.12");
        std::fs::create_dir_all(&inner).unwrap();
        let mode = |p: &std::path::Path, m: u32| {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
        };
        for p in [&dir, &dir.join("lib"), &inner] {
            mode(p, 0o755);
        }
        down(&dir, &inner).unwrap();
        mode(&dir.join("lib"), 0o1777);
        assert_eq!(
            down(&dir, &inner).unwrap_err(),
            format!(
                "`{}` is writable by group and others (mode 1777)",
                dir.join("lib").display()
            )
        );
        mode(&dir.join("lib"), 0o775);
        assert!(down(&dir, &inner)
            .unwrap_err()
            .contains("is writable by its group (mode 0775)"));
        mode(&dir.join("lib"), 0o755);
        assert!(down(&inner, &dir).unwrap_err().contains("is not inside"));
        assert!(owned_safely(&dir.join("absent"))
            .unwrap_err()
            .contains("cannot be examined"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
