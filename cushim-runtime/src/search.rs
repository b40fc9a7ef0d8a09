//! The search: each candidate in order, until one is usable, and what was
//! tried and shadowed on the way.

use std::ffi::OsStr;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::admit::{admit, check_existing, inspect, preload, try_one};
use crate::candidates::{candidates, library_override, Candidate, OVERRIDE};
use crate::entry;
use crate::error::{wrong_major, Attempt, LoadError};
use crate::info::{LibraryInfo, Resolve};
use crate::loaded::Loaded;
use crate::loader::{describe, open_one};

/// What a search found: the library, or why there is none, with every
/// candidate tried before the answer, in order, and the ones it shadowed.
#[derive(Debug)]
pub struct Search {
    /// The library, or why none is usable.
    pub found: Result<Loaded, LoadError>,
    /// Each candidate that was skipped, and why.
    pub tried: Vec<Attempt>,
    /// After the library found, each later candidate that might have been
    /// a copy too, never tried because an earlier step won: a file that
    /// exists, or a name for the system loader. Example: `CUDA_PATH`'s copy
    /// when `LD_LIBRARY_PATH` named another.
    pub not_tried: Vec<Attempt>,
}

/// Searches for the library as [`candidates`] orders the places, or opens
/// the override as given. Nothing is cached: a generated module's
/// [`Library`](crate::Library) keeps its first answer for the process;
/// `cushim doctor` asks again for each library it shows.
#[must_use]
pub fn search(info: &'static LibraryInfo) -> Search {
    search_counting(info, &AtomicUsize::new(0))
}

/// [`search`], counting each call of the platform's loader in `attempts`.
pub(crate) fn search_counting(info: &'static LibraryInfo, attempts: &AtomicUsize) -> Search {
    if let Resolve::RuntimeEntryPoint(runtime) = info.resolve {
        return through_runtime(info, runtime, attempts);
    }
    let mut tried = Vec::new();
    let path = match library_override(info, std::env::var_os(info.override_var)) {
        Ok(path) => path,
        Err(e) => {
            return Search {
                found: Err(e),
                tried,
                not_tried: Vec::new(),
            }
        }
    };
    if let Some(path) = path {
        return open_override(info, &path, attempts);
    }
    let mut wrong = None;
    let mut rest = candidates(info).into_iter();
    while let Some((candidate, from)) = rest.next() {
        match try_one(info, &candidate, from, attempts) {
            Ok(Err(LoadError::WrongMajor {
                library,
                path,
                found,
                needed,
            })) => {
                tried.push(Attempt {
                    name: candidate.shown(),
                    error: wrong_major(info, &path, found, needed),
                    from,
                });
                wrong.get_or_insert(LoadError::WrongMajor {
                    library,
                    path,
                    found,
                    needed,
                });
            }
            Ok(found) => {
                let not_tried = match &found {
                    Ok(winner) => shadowed(rest, winner),
                    Err(_) => Vec::new(),
                };
                return Search {
                    found,
                    tried,
                    not_tried,
                };
            }
            Err(refused) => {
                tried.push(Attempt {
                    name: candidate.shown(),
                    error: refused.why,
                    from,
                });
                if refused.ends_search {
                    return Search {
                        found: Err(LoadError::LibraryNotFound {
                            library: info,
                            tried: tried.clone(),
                        }),
                        tried,
                        not_tried: Vec::new(),
                    };
                }
            }
        }
    }
    let found = Err(wrong.unwrap_or(LoadError::LibraryNotFound {
        library: info,
        tried: tried.clone(),
    }));
    Search {
        found,
        tried,
        not_tried: Vec::new(),
    }
}

/// The search of `info` (the driver), reached through `runtime` (the CUDA
/// runtime): the runtime's own search, in its order and with its checks,
/// then its entry point ([`entry`](crate::entry)). What the search tried is
/// the runtime's.
fn through_runtime(
    info: &'static LibraryInfo,
    runtime: &'static LibraryInfo,
    attempts: &AtomicUsize,
) -> Search {
    if matches!(runtime.resolve, Resolve::RuntimeEntryPoint(_)) {
        // A description that would recurse: never generated, refused.
        return Search {
            found: Err(LoadError::NoEntryPoint {
                library: info,
                through: runtime,
                path: String::new(),
                error: "its own description says it is reached through another library".into(),
            }),
            tried: Vec::new(),
            not_tried: Vec::new(),
        };
    }
    let found = search_counting(runtime, attempts);
    Search {
        found: match found.found {
            Ok(loaded) => entry::through(info, loaded),
            Err(error) => Err(LoadError::ThroughNotFound {
                library: info,
                error: Box::new(error),
            }),
        },
        tried: found.tried,
        not_tried: found.not_tried,
    }
}

/// The path the user named ([`LibraryInfo::override_var`]), opened as
/// given, after its dependencies from its directory: the platform's own
/// message says best why it cannot be, unless the file there would hang or
/// crash the loader.
fn open_override(info: &'static LibraryInfo, path: &OsStr, attempts: &AtomicUsize) -> Search {
    let name = path.to_string_lossy().into_owned();
    let found = check_existing(Path::new(path))
        .and_then(|()| preload(info, Path::new(path), None, attempts))
        .and_then(|()| {
            attempts.fetch_add(1, Ordering::Relaxed);
            open_one(path, false).map_err(|e| describe(&e))
        });
    let found =
        found.and_then(
            |library| match admit(info, &library, Path::new(path), None, attempts) {
                Ok(()) => Ok(library),
                Err(refused) => {
                    std::mem::forget(library);
                    Err(refused.why)
                }
            },
        );
    let mut tried = Vec::new();
    let found = match found {
        Ok(library) => inspect(info, library, name, OVERRIDE, None, attempts),
        Err(error) => {
            tried.push(Attempt {
                name,
                error,
                from: OVERRIDE,
            });
            Err(LoadError::LibraryNotFound {
                library: info,
                tried: tried.clone(),
            })
        }
    };
    Search {
        found,
        tried,
        not_tried: Vec::new(),
    }
}

/// The candidates after `winner` that could have been a copy of the library
/// too (a file that exists, or a name for the system loader), for
/// [`Search::not_tried`]: what the order decided.
fn shadowed(
    rest: impl Iterator<Item = (Candidate, &'static str)>,
    winner: &Loaded,
) -> Vec<Attempt> {
    let shown = winner
        .file
        .as_ref()
        .map_or_else(|| winner.path.clone(), |f| f.display().to_string());
    let why = format!("not tried: `{shown}` ({}) comes first", winner.from);
    rest.filter(|(candidate, _)| match candidate {
        Candidate::Path(p) | Candidate::AboveProgram { path: p, .. } => {
            std::fs::symlink_metadata(p).is_ok()
        }
        Candidate::System(_) => true,
        Candidate::Loaded(_) => false,
    })
    .map(|(candidate, from)| Attempt {
        name: candidate.shown(),
        error: why.clone(),
        from,
    })
    .collect()
}
