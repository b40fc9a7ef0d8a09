//! Finding and opening a library: the places searched, in order, and what
//! is checked of each candidate before it is used.

use std::ffi::{c_char, c_int, c_uint, c_void, CStr, OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::error::{wrong_major, Attempt, LoadError};
use crate::file;
use crate::info::{LibraryInfo, Resolve, VersionQuery};

pub(crate) type GetProcV2 =
    unsafe extern "C" fn(*const c_char, *mut *mut c_void, c_int, u64, *mut c_int) -> c_int;
pub(crate) type GetProcV1 =
    unsafe extern "C" fn(*const c_char, *mut *mut c_void, c_int, u64) -> c_int;
/// `cudaGetDriverEntryPointByVersion(symbol, &pfn, cudaVersion, flags, &driverStatus)`.
pub(crate) type ByVersion =
    unsafe extern "C" fn(*const c_char, *mut *mut c_void, c_uint, u64, *mut c_int) -> c_int;

/// Which lookup by name and ABI version the library exports (or, for a
/// library reached through the CUDA runtime, which one the runtime handed out).
#[derive(Clone, Copy, Debug)]
pub(crate) enum GetProc {
    V2(GetProcV2),
    V1(GetProcV1),
    /// The CUDA runtime's `cudaGetDriverEntryPointByVersion`.
    ByVersion(ByVersion),
    Missing,
}

/// A loaded library. Never unloaded: shims keep pointers into it.
#[derive(Debug)]
pub struct Loaded {
    pub(crate) library: libloading::Library,
    pub(crate) info: &'static LibraryInfo,
    pub(crate) path: String,
    pub(crate) file: Option<PathBuf>,
    pub(crate) from: &'static str,
    pub(crate) version: u32,
    pub(crate) get_proc: GetProc,
    pub(crate) siblings: Vec<Sibling>,
    /// The library that handed this one out, when it was not opened itself
    /// ([`Resolve::RuntimeEntryPoint`](crate::Resolve::RuntimeEntryPoint)).
    pub(crate) through: Option<Box<Through>>,
}

/// The library that handed a library out instead of the loader opening it
/// (the CUDA runtime, for a driver module generated with `--resolve
/// runtime-entry-point`), as its search found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Through {
    pub(crate) info: &'static LibraryInfo,
    pub(crate) path: String,
    pub(crate) file: Option<PathBuf>,
    pub(crate) from: &'static str,
    pub(crate) version: u32,
    pub(crate) entry_point: &'static str,
}

impl Through {
    /// Its description. Example: the CUDA runtime's, `label` `CUDA runtime`.
    #[must_use]
    pub fn info(&self) -> &'static LibraryInfo {
        self.info
    }

    /// The name or path it was opened by. Example: `libcudart.so.13`.
    #[must_use]
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The file the platform's loader mapped, when it can tell.
    #[must_use]
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The step of its search that found it ([`steps`]). Example: `loaded`.
    #[must_use]
    pub fn found_by(&self) -> &'static str {
        self.from
    }

    /// What its version function reported. Example: `13000`.
    #[must_use]
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The entry point that handed the library out. Example:
    /// `cudaGetDriverEntryPointByVersion`, or `cudaGetDriverEntryPoint`
    /// (which handed out the driver's `cuGetProcAddress`).
    #[must_use]
    pub fn entry_point(&self) -> &'static str {
        self.entry_point
    }
}

/// A library that the loaded one opens by name while it runs, and what
/// became of it ([`LibraryInfo::siblings`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sibling {
    /// The file looked for, in the library's directory.
    /// Example: `/opt/venv/lib/python3.12/site-packages/nvidia/cu13/lib/libnvrtc-builtins.so.13.0`.
    pub path: String,
    /// `None` when it was loaded; else why not. Example: `no such file`.
    pub skipped: Option<String>,
}

impl Loaded {
    /// The address of an object the library exports (not a function), by
    /// its symbol, or `None` where the library has no such export. Example:
    /// cuTENSOR's `CUTENSOR_COMPUTE_DESC_32F`.
    #[must_use]
    pub fn object(&self, name: &CStr) -> Option<*const c_void> {
        // SAFETY: the address is only looked up, not called or read here.
        let address = unsafe {
            self.library
                .get::<*const c_void>(name.to_bytes_with_nul())
                .map(|s| *s)
        };
        address.ok().filter(|a| !a.is_null())
    }

    /// The name or path it was opened by; for a copy that was already
    /// loaded in the process (cuBLASLt, which cuBLAS's loader loads from
    /// cuBLAS's directory), the absolute path of its file when the platform
    /// tells it. Example: `libcuda.so.1`.
    #[must_use]
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The file the platform's loader mapped, when it can tell: the path
    /// opened, or for a bare name the file the system loader found.
    /// Example: `/opt/venv/lib/python3.12/site-packages/nvidia/cu13/lib/libnvrtc.so.13`.
    #[must_use]
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The step of the search that found it ([`steps`]). Example: `pip wheel (VIRTUAL_ENV)`.
    #[must_use]
    pub fn found_by(&self) -> &'static str {
        self.from
    }

    /// The libraries it opens by name, loaded from its directory after it,
    /// each with what became of it ([`LibraryInfo::siblings`]).
    #[must_use]
    pub fn siblings(&self) -> &[Sibling] {
        &self.siblings
    }

    /// The library that handed this one out, when the loader did not open
    /// it itself ([`Resolve::RuntimeEntryPoint`](crate::Resolve::RuntimeEntryPoint)):
    /// the CUDA runtime. Then [`path`](Self::path) and [`file`](Self::file)
    /// name the file its functions live in, as the platform's loader tells.
    #[must_use]
    pub fn through(&self) -> Option<&Through> {
        self.through.as_deref()
    }

    /// What the version function reported, 1000 × major + 10 × minor (0 if
    /// it could not tell). Example: `13000`.
    #[must_use]
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The lookup by name and ABI version found in it (`cuGetProcAddress_v2`,
    /// `cuGetProcAddress`), or `none`.
    #[must_use]
    pub fn proc_address(&self) -> &'static str {
        let name = match (self.get_proc, self.info.proc_address) {
            (GetProc::ByVersion(_), _) => return crate::entry::BY_VERSION_NAME,
            (GetProc::V2(_), Some((v2, _))) => v2,
            (GetProc::V1(_), Some((_, v1))) => v1,
            _ => return "none",
        };
        name.to_str().unwrap_or("(not UTF-8)")
    }
}

/// What a value of the override variable asks for: `None` (unset or empty)
/// to search, the library to open, or an error for a relative path, so that
/// no library is ever picked up from the working directory. The C++ runtime
/// applies the same rule.
///
/// # Errors
/// `InvalidOverride` for a relative path.
pub fn library_override(
    info: &'static LibraryInfo,
    value: Option<OsString>,
) -> Result<Option<OsString>, LoadError> {
    match value {
        Some(v) if !v.is_empty() => {
            if PathBuf::from(&v).is_absolute() {
                Ok(Some(v))
            } else {
                Err(LoadError::InvalidOverride {
                    library: info,
                    value: v.to_string_lossy().into_owned(),
                })
            }
        }
        _ => Ok(None),
    }
}

/// Whether this system's loader opens a library only if it is loaded
/// already (`RTLD_NOLOAD` with a known value, or `GetModuleHandleEx`).
const ASKS_LOADED: bool = cfg!(any(
    target_os = "linux",
    target_os = "android",
    target_os = "macos",
    target_os = "ios",
    windows
));

/// One place the search proposes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Candidate {
    /// An absolute path, opened only if it is a regular file with a header
    /// for this build.
    Path(PathBuf),
    /// An absolute path in a Python environment found above the executable
    /// (no variable named it): opened only if, besides, nobody but root and
    /// this user can write the environment, its marker, or any directory
    /// from it down to the file and to the executable (OpenSSH's `StrictModes`
    /// rule). Unix only.
    AboveProgram {
        /// The library. Example: `/opt/venv/lib/python3.12/site-packages/nvidia/cu13/lib/libnvrtc.so.13`.
        path: PathBuf,
        /// The environment, holding `pyvenv.cfg` or `conda-meta`. Example: `/opt/venv`.
        environment: PathBuf,
    },
    /// A file name that is already loaded in the process.
    Loaded(&'static str),
    /// A file name for the system loader (its own search, never the working
    /// directory on Windows).
    System(&'static str),
}

impl Candidate {
    /// The name or path, as messages show it.
    #[must_use]
    pub fn shown(&self) -> String {
        match self {
            Candidate::Path(p) | Candidate::AboveProgram { path: p, .. } => p.display().to_string(),
            Candidate::Loaded(n) | Candidate::System(n) => (*n).to_string(),
        }
    }

    /// The absolute path it names, if it is one.
    fn file(&self) -> Option<&Path> {
        match self {
            Candidate::Path(p) | Candidate::AboveProgram { path: p, .. } => Some(p),
            Candidate::Loaded(_) | Candidate::System(_) => None,
        }
    }
}

/// An environment variable's value when it is an absolute path; relative
/// values are ignored, so that nothing is found through the working directory.
fn absolute_var(name: &str) -> Option<PathBuf> {
    let v = PathBuf::from(std::env::var_os(name)?);
    v.is_absolute().then_some(v)
}

/// The `site-packages` directories of a Python prefix (`lib/python3.*/site-packages`,
/// or `Lib/site-packages` on Windows), sorted.
fn site_packages(prefix: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let windows_style = prefix.join("Lib").join("site-packages");
    if windows_style.is_dir() {
        found.push(windows_style);
    }
    if let Ok(entries) = std::fs::read_dir(prefix.join("lib")) {
        let mut dirs: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().starts_with("python3"))
            .map(|e| e.path().join("site-packages"))
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        found.extend(dirs);
    }
    found
}

/// The directories of loaded libraries of the CUDA family of the header's
/// major ([`LibraryInfo::family`]: `libcudart.so.13` loaded from a wheel
/// points at that wheel).
#[cfg(target_os = "linux")]
fn family_dirs(info: &LibraryInfo) -> Vec<PathBuf> {
    #[repr(C)]
    struct PhdrInfo {
        addr: usize,
        name: *const c_char,
    }
    // Declared with `c_void` only, so that every generated module in a
    // crate declares the same signature.
    unsafe extern "C" {
        fn dl_iterate_phdr(
            callback: Option<unsafe extern "C" fn(*mut c_void, usize, *mut c_void) -> c_int>,
            data: *mut c_void,
        ) -> c_int;
    }
    unsafe extern "C" fn each(info: *mut c_void, _: usize, data: *mut c_void) -> c_int {
        // SAFETY: the loader passes a valid entry whose first two fields are
        // these; `data` is the Vec below, on this thread's stack.
        unsafe {
            let name = (*info.cast::<PhdrInfo>()).name;
            if !name.is_null() {
                let paths = &mut *data.cast::<Vec<PathBuf>>();
                let path = CStr::from_ptr(name).to_string_lossy().into_owned();
                paths.push(PathBuf::from(path));
            }
        }
        0
    }
    let mut loaded: Vec<PathBuf> = Vec::new();
    // SAFETY: the callback only reads each entry while the loader holds its lock.
    unsafe { dl_iterate_phdr(Some(each), (&raw mut loaded).cast()) };
    let mut dirs: Vec<PathBuf> = Vec::new();
    for path in loaded.iter().filter(|p| p.is_absolute()) {
        let Some(file) = path.file_name().map(|f| f.to_string_lossy().into_owned()) else {
            continue;
        };
        // The name itself, or a longer version of it (`libcudart.so.13.0.96`).
        let member = info.family.iter().any(|name| {
            file.strip_prefix(name)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
        });
        let new_dir = path
            .parent()
            .filter(|dir| member && !dirs.iter().any(|d| d == dir));
        if let Some(dir) = new_dir {
            dirs.push(dir.to_path_buf());
        }
    }
    dirs
}

#[cfg(not(target_os = "linux"))]
fn family_dirs(_: &LibraryInfo) -> Vec<PathBuf> {
    Vec::new()
}

/// The step that names the library by absolute path in its override variable.
const OVERRIDE: &str = "override";
/// The step that asks for a copy already loaded.
const LOADED: &str = "loaded";
/// The step that looks beside a loaded member of the family.
const FAMILY: &str = "family";
/// The step that gives the file names to the system loader: on Linux
/// `LD_LIBRARY_PATH`, the loader cache and the default directories; on
/// Windows the system directory.
const SYSTEM: &str = "system loader";
/// The toolkit variables, in the order NVIDIA's own finder (cuda-pathfinder)
/// reads them.
const TOOLKIT_VARS: [&str; 2] = ["CUDA_HOME", "CUDA_PATH"];
/// The toolkit's default place on Unix.
const USR_LOCAL_CUDA: &str = "/usr/local/cuda";

/// The steps of the search on this system, in order, as [`Attempt::from`]
/// and [`Loaded::found_by`] name them. The override, when it is set, is the
/// whole search. A library installed with the driver is found by the
/// system loader only. A toolkit library follows NVIDIA's own finder
/// (cuda-pathfinder): a copy already loaded (and the directory of a loaded
/// member of its family), pip wheels, conda, then the system loader, which
/// is how users choose a copy (`LD_LIBRARY_PATH`), and only then the
/// toolkit directories. Example: `["override", "system loader"]` for the
/// driver.
#[must_use]
pub fn steps(info: &LibraryInfo) -> Vec<&'static str> {
    let mut steps = vec![OVERRIDE];
    if info.wheel_dirs.is_none() {
        steps.push(SYSTEM);
        return steps;
    }
    if ASKS_LOADED {
        steps.push(LOADED);
    }
    if cfg!(target_os = "linux") {
        steps.push(FAMILY);
    }
    steps.extend(["pip wheel (VIRTUAL_ENV)", "pip wheel (CONDA_PREFIX)"]);
    if cfg!(unix) {
        steps.push("pip wheel (above the executable)");
    }
    steps.extend(["conda", SYSTEM]);
    steps.extend(TOOLKIT_VARS);
    if cfg!(unix) {
        steps.push(USR_LOCAL_CUDA);
    }
    steps
}

/// Every place to look after the override, in order ([`steps`]), with the
/// step that proposed it: for a library installed with the driver, its
/// names for the system loader; for a toolkit library, a copy already
/// loaded, the directory of a loaded member of its family, the pip wheel
/// directories (`VIRTUAL_ENV`, `CONDA_PREFIX`'s `site-packages`, and on
/// Unix the Python environments above the executable), `$CONDA_PREFIX/lib`,
/// the names for the system loader, then `CUDA_HOME`, `CUDA_PATH` and
/// `/usr/local/cuda`. Paths are absolute; the same path is proposed once,
/// by its first step.
#[must_use]
pub fn candidates(info: &LibraryInfo) -> Vec<(Candidate, &'static str)> {
    let mut out: Vec<(Candidate, &'static str)> = Vec::new();
    let system = |out: &mut Vec<(Candidate, &'static str)>| {
        out.extend(info.names.iter().map(|n| (Candidate::System(n), SYSTEM)));
    };
    let Some(wheel_dirs) = info.wheel_dirs else {
        system(&mut out);
        return out;
    };
    let lib_dir = if cfg!(windows) { "bin" } else { "lib" };
    let add = |out: &mut Vec<(Candidate, &'static str)>,
               dir: &Path,
               environment: Option<&Path>,
               from: &'static str| {
        for name in info.names {
            let path = dir.join(name);
            if out.iter().any(|(o, _)| o.file() == Some(&path)) {
                continue;
            }
            let c = match environment {
                Some(e) => Candidate::AboveProgram {
                    path,
                    environment: e.to_path_buf(),
                },
                None => Candidate::Path(path),
            };
            out.push((c, from));
        }
    };
    let add_dir = |out: &mut Vec<(Candidate, &'static str)>, dir: &Path, from: &'static str| {
        add(out, dir, None, from);
    };
    if ASKS_LOADED {
        out.extend(info.names.iter().map(|n| (Candidate::Loaded(n), LOADED)));
    }
    for dir in family_dirs(info) {
        add_dir(&mut out, &dir, FAMILY);
    }
    // Each prefix, and whether it was found above the executable.
    let mut prefixes: Vec<(PathBuf, bool, &'static str)> = Vec::new();
    if let Some(v) = absolute_var("VIRTUAL_ENV") {
        prefixes.push((v, false, "pip wheel (VIRTUAL_ENV)"));
    }
    if let Some(c) = absolute_var("CONDA_PREFIX") {
        prefixes.push((c, false, "pip wheel (CONDA_PREFIX)"));
    }
    // Only Python environments (a venv's `pyvenv.cfg`, conda's `conda-meta`),
    // and of those only the ones nobody else can write (`trust`). Not on
    // Windows, where any user may create `C:\conda-meta` and this runtime
    // does not read the ACLs that would tell: `VIRTUAL_ENV` or
    // `CONDA_PREFIX` name an environment there.
    #[cfg(unix)]
    if let Ok(exe) = std::env::current_exe() {
        let environment =
            |d: &Path| d.join("pyvenv.cfg").is_file() || d.join("conda-meta").is_dir();
        for dir in exe.ancestors().skip(1).filter(|d| environment(d)) {
            prefixes.push((dir.to_path_buf(), true, "pip wheel (above the executable)"));
        }
    }
    for (prefix, above, from) in &prefixes {
        for site in site_packages(prefix) {
            for wheel in wheel_dirs {
                let dir = wheel.to_string();
                // Windows wheels keep DLLs in `bin` (12.x) or `bin/x86_64` (13.x).
                let dirs = match dir.strip_suffix("/lib") {
                    Some(stem) if cfg!(windows) => {
                        vec![
                            format!("{stem}/{lib_dir}"),
                            format!("{stem}/{lib_dir}/x86_64"),
                        ]
                    }
                    _ => vec![dir],
                };
                for dir in dirs {
                    let path = dir.split('/').fold(site.clone(), |p, part| p.join(part));
                    add(&mut out, &path, above.then_some(prefix.as_path()), from);
                }
            }
        }
    }
    if let Some(c) = absolute_var("CONDA_PREFIX") {
        // conda keeps DLLs in `Library\bin` on Windows.
        let dir = if cfg!(windows) {
            c.join("Library").join("bin")
        } else {
            c.join(lib_dir)
        };
        add_dir(&mut out, &dir, "conda");
    }
    // The system loader before the toolkit directories: `LD_LIBRARY_PATH` is
    // how users choose a copy, and NVIDIA's finder asks the loader first too.
    system(&mut out);
    for (dir, from) in toolkit_dirs(info.toolkit_subdirs) {
        add_dir(&mut out, &dir, from);
    }
    out
}

/// The toolkit directories, in order, with the step that names each:
/// `lib64` and `lib` (Windows `bin`, `bin\x64`), then the library's own
/// `extra` ones (`extras/CUPTI/lib64`), under `CUDA_HOME`, `CUDA_PATH` and,
/// on Unix, `/usr/local/cuda`.
fn toolkit_dirs(extra: &[&str]) -> Vec<(PathBuf, &'static str)> {
    let mut roots: Vec<(PathBuf, &'static str)> = Vec::new();
    for var in TOOLKIT_VARS {
        if let Some(root) = absolute_var(var) {
            roots.push((root, var));
        }
    }
    if cfg!(unix) {
        roots.push((PathBuf::from(USR_LOCAL_CUDA), USR_LOCAL_CUDA));
    }
    let subdirs: &[&str] = if cfg!(windows) {
        &["bin", "bin/x64"]
    } else {
        &["lib64", "lib"]
    };
    let mut dirs = Vec::new();
    for (root, from) in roots {
        for sub in subdirs.iter().chain(extra) {
            let path = sub.split('/').fold(root.clone(), |p, part| p.join(part));
            dirs.push((path, from));
        }
    }
    dirs
}

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
        return crate::entry::search(info, runtime, attempts);
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

/// [`file::check`] for a path that exists; a missing one is left to the
/// platform's loader, whose message says so.
fn check_existing(path: &Path) -> Result<(), String> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(());
    }
    file::check(path)
}

/// Why a candidate in `environment`, found above the executable, may not be
/// used, for [`Attempt::error`].
#[cfg(unix)]
fn refuse_environment(environment: &Path, path: &Path) -> Result<(), String> {
    crate::trust::environment_above(environment, path).map_err(|why| {
        format!(
            "not used: {why}, but a Python environment above the program is searched only if root or this user alone can write it, its marker and every directory down to the library and to the program (remove the others' write access, or name the environment with VIRTUAL_ENV or CONDA_PREFIX)"
        )
    })
}

#[cfg(not(unix))]
fn refuse_environment(environment: &Path, _: &Path) -> Result<(), String> {
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
fn preload(
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
fn try_one(
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
    why: String,
    /// A copy of another CUDA release was refused after the libraries it
    /// requires were loaded from its directory: those stay loaded (a library
    /// is never unloaded), and the library of any later copy would open
    /// them by name (their sonames do not tell the release), so no later
    /// copy is tried.
    ends_search: bool,
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
/// [requires](LibraryInfo::requires) from its own directory, and, where
/// its file does not tell, the CUDA release it was [built
/// for](LibraryInfo::built_for). `Err` says why it is not used.
fn admit(
    info: &LibraryInfo,
    library: &libloading::Library,
    opened: &Path,
    environment: Option<&Path>,
    attempts: &AtomicUsize,
) -> Result<(), Refused> {
    if !info.requires.is_empty() {
        let file = if opened.is_absolute() {
            Some(opened.to_path_buf())
        } else {
            mapped_file(info, library)
        };
        let Some(dir) = file.as_deref().and_then(Path::parent) else {
            return Err(Refused::from(format!(
                "its directory is unknown, and it needs `{}` from there",
                info.requires.join("`, `")
            )));
        };
        for name in info.requires {
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
            let loaded = !info.requires.is_empty();
            return Err(Refused {
                why: format!(
                    "it was built for CUDA {} (its `{}`), but the header is for CUDA {major}.x{}",
                    crate::info::version_text(found),
                    function.to_string_lossy(),
                    if loaded {
                        format!(
                            "; `{}` from its directory stay loaded, so no other copy is tried (name the right one with {})",
                            info.requires.join("`, `"),
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
fn inspect(
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
    // SAFETY: each prototype is the one the library has exported since it
    // introduced the symbol (cuGetProcAddress 11.3, _v2 12.0).
    let get_proc = unsafe {
        match info.proc_address {
            Some((v2, v1)) => {
                if let Ok(f) = library.get::<GetProcV2>(v2.to_bytes_with_nul()) {
                    GetProc::V2(*f)
                } else if let Ok(f) = library.get::<GetProcV1>(v1.to_bytes_with_nul()) {
                    GetProc::V1(*f)
                } else {
                    GetProc::Missing
                }
            }
            None => GetProc::Missing,
        }
    };
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
                        info.short
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

/// The absolute path of the file mapped at `address`, as the platform's
/// loader reports it. Example: where the driver that the CUDA runtime
/// handed out lives.
#[cfg(unix)]
pub(crate) fn file_of(address: *const c_void) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    #[repr(C)]
    struct DlInfo {
        fname: *const c_char,
        fbase: *mut c_void,
        sname: *const c_char,
        saddr: *mut c_void,
    }
    unsafe extern "C" {
        fn dladdr(address: *const c_void, info: *mut DlInfo) -> c_int;
    }
    let mut found = DlInfo {
        fname: std::ptr::null(),
        fbase: std::ptr::null_mut(),
        sname: std::ptr::null(),
        saddr: std::ptr::null_mut(),
    };
    // SAFETY: `found` is a valid `Dl_info`; the loader fills it in, and its
    // file name lives as long as the library, which is never unloaded.
    let name = unsafe {
        if address.is_null() || dladdr(address, &raw mut found) == 0 || found.fname.is_null() {
            return None;
        }
        CStr::from_ptr(found.fname)
    };
    let path = PathBuf::from(std::ffi::OsStr::from_bytes(name.to_bytes()));
    path.is_absolute().then_some(path)
}

/// The absolute path of the DLL mapped at `address`.
#[cfg(windows)]
pub(crate) fn file_of(address: *const c_void) -> Option<PathBuf> {
    use std::os::windows::ffi::OsStringExt;
    #[link(name = "kernel32")]
    unsafe extern "system" {
        fn GetModuleHandleExW(flags: u32, name: *const u16, module: *mut *mut c_void) -> i32;
        fn GetModuleFileNameW(module: *mut c_void, name: *mut u16, size: u32) -> u32;
    }
    // GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | ..._UNCHANGED_REFCOUNT
    const FROM_ADDRESS: u32 = 0x4 | 0x2;
    if address.is_null() {
        return None;
    }
    let mut module: *mut c_void = std::ptr::null_mut();
    let mut name = vec![0u16; 32_768];
    // SAFETY: `module` and `name` are valid for the sizes given; the module
    // stays loaded (a library is never unloaded).
    let length = unsafe {
        if GetModuleHandleExW(FROM_ADDRESS, address.cast(), &raw mut module) == 0 {
            return None;
        }
        GetModuleFileNameW(module, name.as_mut_ptr(), 32_768)
    };
    let length = usize::try_from(length).ok()?;
    if length == 0 || length >= name.len() {
        return None;
    }
    let path = PathBuf::from(OsString::from_wide(&name[..length]));
    path.is_absolute().then_some(path)
}

#[cfg(not(any(unix, windows)))]
pub(crate) fn file_of(_: *const c_void) -> Option<PathBuf> {
    None
}

/// Whether the library exports its version function: a file that does not
/// is no copy of this library, and the search goes on.
fn has_version_function(info: &LibraryInfo, library: &libloading::Library) -> bool {
    // SAFETY: only the symbol's address is asked for; nothing is called.
    unsafe {
        library
            .get::<*const c_void>(info.version_function.to_bytes_with_nul())
            .is_ok()
    }
}

/// What the version function returned, and the version as 1000 × major +
/// 10 × minor (0 when it is missing or failed).
fn version_of(info: &LibraryInfo, library: &libloading::Library) -> (Option<i32>, u32) {
    // SAFETY: only the symbol's address is taken here.
    let function = unsafe {
        library
            .get::<*mut c_void>(info.version_function.to_bytes_with_nul())
            .map(|f| *f)
    };
    match function {
        // SAFETY: the library exports the version function under its name,
        // with the prototype the description gives.
        Ok(f) if !f.is_null() => unsafe { call_version(info.version_query, f) },
        _ => (None, 0),
    }
}

/// Calls the version function at `function` as `query` says it answers:
/// what it returned, and the version as 1000 × major + 10 × minor (0 when
/// it failed).
///
/// # Safety
/// `function` is the library's version function, of the prototype `query` names.
pub(crate) unsafe fn call_version(
    query: VersionQuery,
    function: *mut c_void,
) -> (Option<i32>, u32) {
    type Number = unsafe extern "C" fn(*mut c_int) -> c_int;
    type MajorMinor = unsafe extern "C" fn(*mut c_int, *mut c_int) -> c_int;
    type Text = unsafe extern "C" fn(*mut c_char, u32) -> c_int;
    type Property = unsafe extern "C" fn(c_int, *mut c_int) -> c_int;
    type Returned = unsafe extern "C" fn() -> usize;
    /// A status struct of two ints, the code first (cuFile's `CUfileError_t`).
    #[repr(C)]
    struct CodePair {
        code: c_int,
        _other: c_int,
    }
    type InStatus = unsafe extern "C" fn(*mut c_int) -> CodePair;
    let ok = |v: c_int| u32::try_from(v).unwrap_or(0);
    // 10000 × major + 100 × minor + patch, as 1000 × major + 10 × minor.
    // 0 (unknown) outside the encoding, as the C++ runtime reads it.
    let decimal = |v: u64| match u32::try_from(v / 10000) {
        Ok(major @ 1..4_000_000) => major * 1000 + u32::try_from(v / 100 % 100).unwrap_or(0) * 10,
        _ => 0,
    };
    // SAFETY: the caller vouches for the prototype, which the library has
    // kept since it introduced the function.
    unsafe {
        match query {
            VersionQuery::Number => {
                let f = std::mem::transmute::<*mut c_void, Number>(function);
                let mut v: c_int = 0;
                let rc = f(&raw mut v);
                (Some(rc), if rc == 0 { ok(v) } else { 0 })
            }
            VersionQuery::NumberInStatus => {
                let f = std::mem::transmute::<*mut c_void, InStatus>(function);
                let mut v: c_int = 0;
                let rc = f(&raw mut v).code;
                (Some(rc), if rc == 0 { ok(v) } else { 0 })
            }
            VersionQuery::MajorMinor => {
                let f = std::mem::transmute::<*mut c_void, MajorMinor>(function);
                let (mut major, mut minor): (c_int, c_int) = (0, 0);
                let rc = f(&raw mut major, &raw mut minor);
                let v = ok(major)
                    .saturating_mul(1000)
                    .saturating_add(ok(minor).min(99) * 10);
                (Some(rc), if rc == 0 { v } else { 0 })
            }
            VersionQuery::Property => {
                let f = std::mem::transmute::<*mut c_void, Property>(function);
                let (mut major, mut minor): (c_int, c_int) = (0, 0);
                let rc = f(0, &raw mut major);
                let rc = if rc == 0 { f(1, &raw mut minor) } else { rc };
                let v = ok(major)
                    .saturating_mul(1000)
                    .saturating_add(ok(minor).min(99) * 10);
                (Some(rc), if rc == 0 { v } else { 0 })
            }
            VersionQuery::Decimal => {
                let f = std::mem::transmute::<*mut c_void, Number>(function);
                let mut v: c_int = 0;
                let rc = f(&raw mut v);
                (
                    Some(rc),
                    if rc == 0 {
                        decimal(u64::from(ok(v)))
                    } else {
                        0
                    },
                )
            }
            VersionQuery::Absent => (None, 0),
            VersionQuery::Api => {
                let f = std::mem::transmute::<*mut c_void, Number>(function);
                let mut v: c_int = 0;
                (Some(f(&raw mut v)), 0)
            }
            VersionQuery::Returned => {
                let f = std::mem::transmute::<*mut c_void, Returned>(function);
                (Some(0), decimal(f() as u64))
            }
            VersionQuery::Text => {
                let f = std::mem::transmute::<*mut c_void, Text>(function);
                let mut text = [0 as c_char; 96];
                let rc = f(text.as_mut_ptr(), 95);
                text[95] = 0;
                let digits: String = CStr::from_ptr(text.as_ptr())
                    .to_string_lossy()
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect();
                let major = digits.parse::<u32>().unwrap_or(0).min(4_000_000);
                (Some(rc), if rc == 0 { major * 1000 } else { 0 })
            }
        }
    }
}

/// libloading's message and the platform's own (`dlerror`), on one line.
pub(crate) fn describe(e: &libloading::Error) -> String {
    match std::error::Error::source(e) {
        Some(inner) => format!("{e}: {inner}"),
        None => e.to_string(),
    }
}

/// Opens a library by path or name (`loaded_only`: only if it is loaded already).
#[cfg(unix)]
fn open_one(
    name: &std::ffi::OsStr,
    loaded_only: bool,
) -> Result<libloading::Library, libloading::Error> {
    use libloading::os::unix::{Library, RTLD_LOCAL, RTLD_NOW};
    // `RTLD_NOLOAD`, asked for only where `ASKS_LOADED` knows its value.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    const NOLOAD: c_int = 4;
    #[cfg(any(target_os = "macos", target_os = "ios"))]
    const NOLOAD: c_int = 0x10;
    #[cfg(not(any(
        target_os = "linux",
        target_os = "android",
        target_os = "macos",
        target_os = "ios"
    )))]
    const NOLOAD: c_int = 0;
    let flags = RTLD_NOW | RTLD_LOCAL | if loaded_only { NOLOAD } else { 0 };
    // SAFETY: loading the library runs its initializers; that is the point.
    unsafe { Library::open(Some(name), flags) }.map(Into::into)
}

/// Opens a library: a bare name only from the system directory, an absolute
/// path with its own directory for its dependencies; never the working
/// directory or the executable's.
#[cfg(windows)]
fn open_one(
    name: &std::ffi::OsStr,
    loaded_only: bool,
) -> Result<libloading::Library, libloading::Error> {
    use libloading::os::windows::{
        Library, LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR, LOAD_LIBRARY_SEARCH_SYSTEM32,
    };
    if loaded_only {
        return Library::open_already_loaded(name).map(Into::into);
    }
    let flags = if Path::new(name).is_absolute() {
        LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_SYSTEM32
    } else {
        LOAD_LIBRARY_SEARCH_SYSTEM32
    };
    // SAFETY: as above.
    unsafe { Library::load_with_flags(name, flags) }.map(Into::into)
}
