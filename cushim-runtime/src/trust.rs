//! Whether a Python environment found above the program may supply a
//! library: OpenSSH's `StrictModes` rule. Nobody named that directory (unlike
//! `VIRTUAL_ENV`, `CONDA_PREFIX` or `LD_LIBRARY_PATH`, which the user sets),
//! so a `pyvenv.cfg` or `conda-meta` planted in a directory that others can
//! write (`/tmp`, or `C:\` where any user may create a folder) must not
//! bring a library into this process. The C++ runtime applies the same
//! rule, in the same words.
//!
//! Each of these must be owned safely ([`owned_safely`]):
//! - the environment's directory and its marker files;
//! - every directory from the environment down to the program, and down to
//!   the library, and the library itself;
//! - where links lead the library out of the environment, the file it
//!   resolves to, and every directory above that up to the root, which
//!   may let others add entries but nothing more ([`above`]).
//!
//! On Unix ([`mode`]) a path is owned safely when it belongs to root or to
//! this process's effective user and neither its group nor others may write
//! it; on Windows ([`acl`]) when it belongs to this process's user, SYSTEM,
//! Administrators or `TrustedInstaller` and its DACL grants write access to
//! none but those.

#![cfg(any(unix, windows))]

#[cfg(windows)]
mod acl;
#[cfg(unix)]
mod mode;

#[cfg(windows)]
use acl::{above, owned_safely};
#[cfg(unix)]
use mode::{above, owned_safely};

use std::path::Path;

/// The words a refusal ends with: who alone may write the environment.
#[cfg(unix)]
pub(crate) const WHO: &str = "root or this user";
/// The words a refusal ends with: who alone may write the environment.
#[cfg(windows)]
pub(crate) const WHO: &str = "this user, SYSTEM, Administrators or TrustedInstaller";

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
        owned_safely(&real)?;
        real.ancestors().skip(1).try_for_each(above)
    }
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

#[cfg(all(test, unix))]
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
