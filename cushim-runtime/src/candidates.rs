//! The places a library is looked for, in order: the override, a copy
//! already loaded, the family's directories, pip wheels, conda, the system
//! loader and the toolkit.

use std::ffi::OsString;
#[cfg(target_os = "linux")]
use std::ffi::{c_char, c_int, c_void, CStr};
use std::path::{Path, PathBuf};

use crate::error::LoadError;
use crate::info::LibraryInfo;

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
    /// this user (on Windows: this user, SYSTEM, Administrators and
    /// `TrustedInstaller`, as owners and ACLs tell) can write the environment,
    /// its marker, or any directory from it down to the file and to the
    /// executable (OpenSSH's `StrictModes` rule).
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
pub(crate) const OVERRIDE: &str = "override";
/// The step that asks for a copy already loaded.
pub(crate) const LOADED: &str = "loaded";
/// The step that looks beside a loaded member of the family.
const FAMILY: &str = "family";
/// The step that gives the file names to the system loader: on Linux
/// `LD_LIBRARY_PATH`, the loader cache and the default directories; on
/// Windows the system directory.
const SYSTEM: &str = "system loader";
/// The step that looks in the Python environments above the executable.
const ABOVE: &str = "pip wheel (above the executable)";
/// The toolkit variables, in the order NVIDIA's own finder (cuda-pathfinder)
/// reads them.
const TOOLKIT_VARS: [&str; 2] = ["CUDA_HOME", "CUDA_PATH"];
/// The toolkit's default place on Unix.
const USR_LOCAL_CUDA: &str = "/usr/local/cuda";

/// The steps of the search on this system, in order, as [`Attempt::from`](crate::Attempt::from)
/// and [`Loaded::found_by`](crate::Loaded::found_by) name them. The override, when it is set, is the
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
    if cfg!(any(unix, windows)) {
        steps.push(ABOVE);
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
/// Unix and Windows the Python environments above the executable),
/// `$CONDA_PREFIX/lib`,
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
    // and of those only the ones nobody else can write (`trust`: owners and
    // modes on Unix, owners and ACLs on Windows, where any user may create
    // `C:\conda-meta`). A program in `venv/bin` (Windows: `venv\Scripts`)
    // finds its environment's wheels.
    #[cfg(any(unix, windows))]
    if let Ok(exe) = std::env::current_exe() {
        let environment =
            |d: &Path| d.join("pyvenv.cfg").is_file() || d.join("conda-meta").is_dir();
        for dir in exe.ancestors().skip(1).filter(|d| environment(d)) {
            prefixes.push((dir.to_path_buf(), true, ABOVE));
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

/// The directories of a Linux toolkit that hold the libraries of the
/// architecture this program is built for, below `targets/`:
/// `x86_64-linux`'s, or an SBSA (`sbsa-linux`) or Jetson (`aarch64-linux`)
/// toolkit's for aarch64. `lib64` usually links to one, but not in a
/// toolkit unpacked from an archive, or in a conda or pip layout.
const TARGET_DIRS: &[&str] = if cfg!(not(target_os = "linux")) {
    &[]
} else if cfg!(target_arch = "x86_64") {
    &["targets/x86_64-linux/lib"]
} else if cfg!(target_arch = "aarch64") {
    &["targets/sbsa-linux/lib", "targets/aarch64-linux/lib"]
} else if cfg!(all(target_arch = "powerpc64", target_endian = "little")) {
    &["targets/ppc64le-linux/lib"]
} else {
    &[]
};

/// The toolkit directories, in order, with the step that names each:
/// `lib64`, `lib` and the architecture's `targets/<arch>-linux/lib`
/// ([`TARGET_DIRS`]; Windows `bin`, `bin\x64`), then the library's own
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
        for sub in subdirs.iter().chain(TARGET_DIRS).chain(extra) {
            let path = sub.split('/').fold(root.clone(), |p, part| p.join(part));
            dirs.push((path, from));
        }
    }
    dirs
}
