//! The rule on Unix, from a path's owner and mode bits.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

unsafe extern "C" {
    safe fn geteuid() -> u32;
}

/// `Ok` when `path` (followed through links) belongs to root or this user
/// and neither its group nor others may write it.
pub(super) fn owned_safely(path: &Path) -> Result<(), String> {
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

/// [`owned_safely`] for a directory above a library that links lead out of
/// its environment. A directory like `/tmp` (root's, others may write,
/// sticky) is fine: no one but an entry's owner can rename or remove it,
/// and the entry below it is checked in turn.
pub(super) fn above(dir: &Path) -> Result<(), String> {
    let sticky_and_roots =
        std::fs::metadata(dir).is_ok_and(|m| m.is_dir() && m.uid() == 0 && m.mode() & 0o1000 != 0);
    if sticky_and_roots {
        return Ok(());
    }
    owned_safely(dir)
}
