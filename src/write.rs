//! Generated text → files: atomically (temporary file, then rename), and only
//! when the contents changed, so that mtimes and diffs mean real changes.

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

/// Writes every file into `dir`. Each file is replaced whole or not at all.
pub fn write_all(dir: &Path, files: &[File]) -> Result<Vec<Outcome>, Error> {
    fs::create_dir_all(dir).map_err(|e| {
        Error::new(format!(
            "cannot create output directory `{}`: {e}",
            dir.display()
        ))
        .hint("choose a writable directory with `--out`")
    })?;
    files.iter().map(|f| write_one(dir, f)).collect()
}

fn write_one(dir: &Path, file: &File) -> Result<Outcome, Error> {
    let path = dir.join(&file.name);
    if fs::read(&path).is_ok_and(|old| old == file.contents.as_bytes()) {
        return Ok(Outcome::Unchanged(path));
    }
    let tmp = dir.join(format!(".{}.{}.tmp", file.name, std::process::id()));
    let fail = |e: std::io::Error| {
        let _ = fs::remove_file(&tmp);
        Error::new(format!("cannot write `{}`: {e}", path.display()))
            .hint("check that the output directory is writable and the disk is not full")
    };
    fs::write(&tmp, &file.contents).map_err(fail)?;
    fs::rename(&tmp, &path).map_err(fail)?;
    Ok(Outcome::Written(path))
}
