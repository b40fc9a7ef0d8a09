//! One candidate, opened and checked: what a file must be before the
//! platform's loader sees it, what a copy needs before anything of it is
//! called (the libraries it requires, the release it was built for), its
//! version and major, and the libraries it opens by name.

use std::ffi::{c_void, OsString};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::candidates::{Candidate, LOADED};
use crate::error::LoadError;
use crate::file;
use crate::info::LibraryInfo;
use crate::loaded::{GetProc, Loaded, Sibling};
use crate::loader::{describe, file_of, open_one};
use crate::version::{has_version_function, version_of};

/// [`file::check`] for a path that exists; a missing one is left to the
/// platform's loader, whose message says so.
pub(crate) fn check_existing(path: &Path) -> Result<(), String> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(());
    }
    file::check(path)
}

/// Why a candidate in `environment`, found above the executable, may not be
/// used, for [`Attempt::error`].
#[cfg(any(unix, windows))]
pub(crate) fn refuse_environment(environment: &Path, path: &Path) -> Result<(), String> {
    crate::trust::environment_above(environment, path).map_err(|why| {
        format!(
            "not used: {why}, but a Python environment above the program is searched only if {} alone can write it, its marker and every directory down to the library and to the program (remove the others' write access, or name the environment with VIRTUAL_ENV or CONDA_PREFIX)",
            crate::trust::WHO
        )
    })
}

#[cfg(not(any(unix, windows)))]
pub(crate) fn refuse_environment(environment: &Path, _: &Path) -> Result<(), String> {
    Err(format!(
        "not used: `{}` was found above the program, which is not searched on this system",
        environment.display()
    ))
}

/// Loads the libraries `info` says must come first, from `path`'s directory
/// where it has them, and keeps them loaded: the library's own dependency
/// resolves to them. Each is checked as the library is (`environment`: found
/// above the executable). One absent there is left to the library's own run
/// path, and the platform's message says if that fails.
pub(crate) fn preload(
    info: &LibraryInfo,
    path: &Path,
    environment: Option<&Path>,
    attempts: &AtomicUsize,
) -> Result<(), String> {
    let Some(dir) = path.parent() else {
        return Ok(());
    };
    for dep in info.preload {
        let dep_path = dir.join(dep);
        if !dep_path.exists() {
            continue;
        }
        let checked = file::check(&dep_path).and_then(|()| match environment {
            Some(e) => refuse_environment(e, &dep_path),
            None => Ok(()),
        });
        if let Err(why) = checked {
            return Err(format!(
                "its dependency `{}` could not be loaded: {why}",
                dep_path.display()
            ));
        }
        attempts.fetch_add(1, Ordering::Relaxed);
        match open_one(dep_path.as_os_str(), false) {
            Ok(dep) => std::mem::forget(dep),
            Err(e) => {
                return Err(format!(
                    "its dependency `{}` could not be loaded: {}",
                    dep_path.display(),
                    describe(&e)
                ))
            }
        }
    }
    Ok(())
}

/// Opens one candidate: `Err` with the reason to go on searching, else the
/// answer that ends the search (the library, or a stub found).
pub(crate) fn try_one(
    info: &'static LibraryInfo,
    candidate: &Candidate,
    from: &'static str,
    attempts: &AtomicUsize,
) -> Result<Result<Loaded, LoadError>, Refused> {
    let environment = match candidate {
        Candidate::AboveProgram { environment, .. } => Some(environment.as_path()),
        _ => None,
    };
    let (name, library) = match candidate {
        Candidate::Path(path) | Candidate::AboveProgram { path, .. } => {
            if !path.exists() {
                return Err("no such file".into());
            }
            if let Some(e) = environment {
                refuse_environment(e, path)?;
            }
            file::check(path)?;
            preload(info, path, environment, attempts)?;
            attempts.fetch_add(1, Ordering::Relaxed);
            (
                path.as_os_str().to_owned(),
                open_one(path.as_os_str(), false),
            )
        }
        Candidate::Loaded(name) => {
            let name = OsString::from(name);
            let opened = open_one(&name, true);
            if opened.is_err() {
                return Err("not loaded in this process".into());
            }
            attempts.fetch_add(1, Ordering::Relaxed);
            (name, opened)
        }
        Candidate::System(name) => {
            attempts.fetch_add(1, Ordering::Relaxed);
            let name = OsString::from(name);
            let opened = open_one(&name, false);
            (name, opened)
        }
    };
    let library = library.map_err(|e| describe(&e))?;
    if !has_version_function(info, &library) {
        // Kept mapped but never used: a library is never unloaded.
        std::mem::forget(library);
        return Err(Refused::from(format!(
            "it does not export `{}`, which every {} has",
            info.version_function.to_string_lossy(),
            info.label
        )));
    }
    if let Err(refused) = admit(info, &library, Path::new(&name), environment, attempts) {
        std::mem::forget(library);
        return Err(refused);
    }
    Ok(inspect(
        info,
        library,
        name.to_string_lossy().into_owned(),
        from,
        environment,
        attempts,
    ))
}

/// Why a candidate is not used, and whether the search must stop there.
pub(crate) struct Refused {
    pub(crate) why: String,
    /// A copy of another CUDA release was refused after the libraries it
    /// requires were loaded from its directory: those stay loaded (a library
    /// is never unloaded), and the library of any later copy would open
    /// them by name (their sonames do not tell the release), so no later
    /// copy is tried.
    pub(crate) ends_search: bool,
}

impl From<String> for Refused {
    fn from(why: String) -> Refused {
        Refused {
            why,
            ends_search: false,
        }
    }
}

impl From<&str> for Refused {
    fn from(why: &str) -> Refused {
        Refused::from(why.to_string())
    }
}

/// What a copy needs before anything of it is called: the libraries it
/// [requires](LibraryInfo::required) from its own directory, and, where
/// its file does not tell, the CUDA release it was [built
/// for](LibraryInfo::built_for). `Err` says why it is not used.
pub(crate) fn admit(
    info: &LibraryInfo,
    library: &libloading::Library,
    opened: &Path,
    environment: Option<&Path>,
    attempts: &AtomicUsize,
) -> Result<(), Refused> {
    if !info.required.is_empty() {
        let file = if opened.is_absolute() {
            Some(opened.to_path_buf())
        } else {
            mapped_file(info, library)
        };
        let Some(dir) = file.as_deref().and_then(Path::parent) else {
            return Err(Refused::from(format!(
                "its directory is unknown, and it needs `{}` from there",
                info.required.join("`, `")
            )));
        };
        for name in info.required {
            let path = dir.join(name);
            load_sibling(&path, environment, attempts).map_err(|why| {
                format!(
                    "it needs `{}` beside it, which cannot be loaded ({why}); the {} would stop the process on its first call without it",
                    path.display(),
                    info.label
                )
            })?;
        }
    }
    if let Some((function, major)) = info.built_for {
        type BuiltFor = unsafe extern "C" fn() -> usize;
        // SAFETY: only the symbol's address is taken here.
        let f = unsafe { library.get::<*mut c_void>(function.to_bytes_with_nul()) };
        let f = match f {
            Ok(f) if !f.is_null() => *f,
            _ => {
                return Err(Refused::from(format!(
                    "it does not export `{}`, which tells the CUDA release it was built for",
                    function.to_string_lossy()
                )))
            }
        };
        // SAFETY: the function's prototype is `size_t f(void)`, as the
        // description says; its library's requirements are loaded.
        let found = unsafe { std::mem::transmute::<*mut c_void, BuiltFor>(f)() };
        let found = u32::try_from(found).unwrap_or(u32::MAX);
        if found != 0 && found / 1000 != major {
            let loaded = !info.required.is_empty();
            return Err(Refused {
                why: format!(
                    "it was built for CUDA {} (its `{}`), but the header is for CUDA {major}.x{}",
                    crate::info::version_text(found),
                    function.to_string_lossy(),
                    if loaded {
                        format!(
                            "; `{}` from its directory stay loaded, so no other copy is tried (name the right one with {})",
                            info.required.join("`, `"),
                            info.override_var
                        )
                    } else {
                        String::new()
                    }
                ),
                ends_search: loaded,
            });
        }
    }
    Ok(())
}

/// Reads the library's version once and finds its own lookup function, if
/// it has one. A link-time stub answers the version function with its stub
/// code (the toolkit's `libcuda.so` with `CUDA_ERROR_STUB_LIBRARY`); a real
/// library never does. A library of another major than the header's is
/// refused. The version function is asked before anything else is called.
/// A library kept then gets its siblings from its directory
/// (`environment`: it was found in a Python environment above the
/// executable, whose rule its siblings must pass too).
pub(crate) fn inspect(
    info: &'static LibraryInfo,
    library: libloading::Library,
    path: String,
    from: &'static str,
    environment: Option<&Path>,
    attempts: &AtomicUsize,
) -> Result<Loaded, LoadError> {
    let (code, version) = version_of(info, &library);
    if info.stub_code.is_some_and(|stub| code == Some(stub)) {
        // Kept mapped but never used: a library is never unloaded.
        std::mem::forget(library);
        return Err(LoadError::StubLibrary {
            library: info,
            path,
        });
    }
    // The file the loader mapped: the path opened, or where the system
    // loader found a bare name.
    let file = if Path::new(&path).is_absolute() {
        Some(PathBuf::from(&path))
    } else {
        mapped_file(info, &library)
    };
    // A copy already loaded was loaded by someone else, by path (cuBLAS's
    // loader loads cuBLASLt from its own directory): its file, not the bare
    // name that found it, is where it came from (the C++ runtime's
    // `adopted_loaded_copy`).
    let path = match &file {
        Some(f) if from == LOADED => f.display().to_string(),
        _ => path,
    };
    if info.major != 0 && version != 0 && version / 1000 != info.major {
        std::mem::forget(library);
        return Err(LoadError::WrongMajor {
            library: info,
            path: file.map_or(path, |f| f.display().to_string()),
            found: version,
            needed: info.major,
        });
    }
    let get_proc = GetProc::exported(info, &library);
    let siblings = match file.as_deref().and_then(Path::parent) {
        Some(dir) => load_siblings(info, version, dir, environment, attempts),
        None => Vec::new(),
    };
    Ok(Loaded {
        library,
        info,
        path,
        file,
        from,
        version,
        get_proc,
        siblings,
        through: None,
    })
}

/// Loads the libraries that `info` says the library opens by bare name
/// while it runs (NVRTC's `libnvrtc-builtins.so.13.0`), from `dir`, its
/// own directory, and keeps them loaded: the library's own `dlopen` of the
/// name then finds the copy already loaded (by its soname) instead of
/// failing, or of taking another install's. Best effort, unlike
/// [`preload`]: one that is absent, unusable or refused is only noted,
/// and the library stays usable. Each is checked as the library was.
fn load_siblings(
    info: &LibraryInfo,
    version: u32,
    dir: &Path,
    environment: Option<&Path>,
    attempts: &AtomicUsize,
) -> Vec<Sibling> {
    let minor = (version % 1000 / 10).to_string();
    info.siblings
        .iter()
        .map(|name| {
            if name.contains("{minor}") && version == 0 {
                return Sibling {
                    path: dir.join(name).display().to_string(),
                    skipped: Some(format!(
                        "its name carries the minor version, which the {} did not report",
                        info.short_name
                    )),
                };
            }
            let path = dir.join(name.replace("{minor}", &minor));
            Sibling {
                skipped: load_sibling(&path, environment, attempts).err(),
                path: path.display().to_string(),
            }
        })
        .collect()
}

/// Loads one sibling at `path` and keeps it loaded, or says why not.
fn load_sibling(
    path: &Path,
    environment: Option<&Path>,
    attempts: &AtomicUsize,
) -> Result<(), String> {
    if !path.exists() {
        return Err("no such file".into());
    }
    if let Some(e) = environment {
        refuse_environment(e, path)?;
    }
    file::check(path)?;
    attempts.fetch_add(1, Ordering::Relaxed);
    let sibling = open_one(path.as_os_str(), false).map_err(|e| describe(&e))?;
    // Never unloaded: the library may hold pointers into it.
    std::mem::forget(sibling);
    Ok(())
}

/// The absolute path of the file that holds the library's version
/// function, as the platform's loader reports it: where the system loader
/// found a library opened by bare name.
fn mapped_file(info: &LibraryInfo, library: &libloading::Library) -> Option<PathBuf> {
    // SAFETY: only the symbol's address is asked for; nothing is called.
    let address: *const c_void = unsafe {
        *library
            .get::<*const c_void>(info.version_function.to_bytes_with_nul())
            .ok()?
    };
    file_of(address)
}
