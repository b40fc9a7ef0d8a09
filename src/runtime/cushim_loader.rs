//! The loader runtime: finds and opens the library once, binds one function
//! per shim on that shim's first call, and keeps every failure as a typed value.
//!
//! This file is real source. cushim compiles, lints and tests it as its own
//! module, `cushim doctor` runs on it, and the Rust emitter copies it verbatim
//! into every generated module. What varies per library comes from the
//! enclosing module: `CUSHIM_RESOLVE`, `CUSHIM_DEFAULT_STREAM_MODE`,
//! `CUSHIM_CODES` and `CUSHIM_LIBRARY`.

use std::cell::Cell;
use std::ffi::{c_char, c_int, c_void, CStr, OsString};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU8, AtomicUsize, Ordering};
use std::sync::OnceLock;

/// What the generated module says about its library, from cushim's
/// description of it: how to find it, how to ask its version, and the words
/// of its messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LibraryInfo {
    /// Example: `CUDA driver` ("CUDA driver library not found").
    pub label: &'static str,
    /// Example: `driver` ("driver too old").
    pub short: &'static str,
    /// What its versions are versions of. Example: `CUDA`.
    pub product: &'static str,
    /// How to get it. Example: `Install the NVIDIA driver`.
    pub install: &'static str,
    /// The environment variable that names the library by absolute path,
    /// instead of the search. Read once, on the first load.
    /// Example: `CUSHIM_CUDA_LIBRARY`.
    pub override_var: &'static str,
    /// This system's file names, the header's major filled in. Example: `libnvrtc.so.13`.
    pub names: &'static [&'static str],
    /// The function that reports the version. Example: `cuDriverGetVersion`.
    pub version_function: &'static CStr,
    /// How it answers.
    pub version_query: VersionQuery,
    /// The status a link-time stub answers the version function with; such
    /// a library is never used. Example: `Some(34)` (`CUDA_ERROR_STUB_LIBRARY`).
    pub stub_code: Option<i32>,
    /// The library's lookup by name and ABI version, v2 then v1, if it has one.
    pub proc_address: Option<(&'static CStr, &'static CStr)>,
    /// The header's major version, which a library found must report; 0
    /// when any version will do (the file name does not carry it).
    pub major: u32,
    /// The pip wheel directories under `site-packages`, for a library
    /// installed with a toolkit; `None` for one installed with the driver,
    /// which only the system loader finds. Example: `nvidia/cu13/lib`.
    pub wheel_dirs: Option<&'static [&'static str]>,
    /// Libraries loaded first, from the directory of the library. Example: `libcublasLt.so.13`.
    pub preload: &'static [&'static str],
    /// File name stems of the libraries installed alongside: the directory
    /// of a loaded one is searched. Example: `libcudart.so.`.
    pub family: &'static [&'static str],
}

/// How the version function answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VersionQuery {
    /// `f(int *version)`: 1000 × major + 10 × minor. Example: `cuDriverGetVersion`.
    Number,
    /// `f(int *major, int *minor)`. Example: `nvrtcVersion`.
    MajorMinor,
    /// `f(char *text, unsigned length)`, `13.580.82`: the major only.
    Text,
    /// `f(int property, int *value)`, asked for the major (0) and the minor (1).
    /// Example: `cublasGetProperty`.
    Property,
}
/// Environment variable that picks the default-stream mode when the program
/// did not: `1` per-thread, `0` legacy. Read once, on the first binding.
pub const STREAM_VAR: &str = "CUSHIM_PER_THREAD_DEFAULT_STREAM";
/// Values of [`STREAM_VAR`] that choose the per-thread default stream, compared
/// after trimming ASCII whitespace. The C++ runtime gets the same list.
pub const STREAM_ON: &[&str] = &["1", "true", "on"];
/// Values of [`STREAM_VAR`] that choose the legacy default stream.
pub const STREAM_OFF: &[&str] = &["0", "false", "off"];

/// The mode a value of [`STREAM_VAR`] asks for; `None` for any other value,
/// which leaves the generated default in force.
#[must_use]
pub fn stream_mode_from_env(value: &str) -> Option<StreamMode> {
    let value = value.trim_matches(|c: char| c.is_ascii_whitespace());
    if STREAM_ON.contains(&value) {
        Some(StreamMode::PerThread)
    } else if STREAM_OFF.contains(&value) {
        Some(StreamMode::Legacy)
    } else {
        None
    }
}

/// The status values the drop-in layer returns when a call never reached the
/// driver: the values of the header's own constants, chosen by cushim's
/// description of the library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Codes {
    /// No usable library. Example: 303, `CUDA_ERROR_SHARED_OBJECT_INIT_FAILED`.
    pub library_not_found: u32,
    /// The library lacks this function. Example: 500, `CUDA_ERROR_NOT_FOUND`.
    pub symbol_not_found: u32,
    /// The library found is the toolkit's stub. Example: 34, `CUDA_ERROR_STUB_LIBRARY`.
    pub stub_library: u32,
    /// The function's ABI is newer than the driver.
    /// Example: 36, `CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER`.
    pub driver_too_old: u32,
    /// What the driver itself answers in a forked child.
    /// Example: 3, `CUDA_ERROR_NOT_INITIALIZED`.
    pub not_initialized: u32,
    /// Success. Example: 0, `CUDA_SUCCESS`.
    pub success: u32,
    /// An invalid argument. Example: 1, `CUDA_ERROR_INVALID_VALUE`.
    pub invalid_value: u32,
}

/// How shims find their functions (chosen at generation time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolve {
    /// `cuGetProcAddress_v2`, then v1 (drivers 11.3–11.8), then the exact
    /// versioned export for older drivers.
    ProcAddress,
    /// The exact versioned export only.
    Dlsym,
}

/// The default-stream semantics of the stream-ordered functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamMode {
    /// The legacy default stream (`CU_GET_PROC_ADDRESS_LEGACY_STREAM`).
    Legacy,
    /// The per-thread default stream: `_ptds`/`_ptsz` variants.
    PerThread,
}

impl StreamMode {
    /// The `cuGetProcAddress` flag of this mode, never 0.
    #[must_use]
    pub fn flag(self) -> u64 {
        match self {
            StreamMode::Legacy => 1,
            StreamMode::PerThread => 2,
        }
    }
}

/// `set_stream_mode` came after the first function was bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamModeLocked {
    /// The mode asked for.
    pub requested: StreamMode,
    /// The mode in force, which stays.
    pub current: StreamMode,
}

impl fmt::Display for StreamModeLocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the stream mode must be set before the first CUDA call; it stays {:?} (asked for {:?})",
            self.current, self.requested
        )
    }
}

impl std::error::Error for StreamModeLocked {}

/// One library name that was tried, and why it failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// The name or path given to the platform's loader. Example: `libcuda.so.1`.
    pub name: String,
    /// Why it failed, as the platform said (`dlerror`), or why it was skipped.
    pub error: String,
    /// The step of the search that proposed it. Example: `pip wheel (VIRTUAL_ENV)`.
    pub from: &'static str,
}

/// Why the driver library, or one function in it, could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoadError {
    /// No candidate library could be opened.
    LibraryNotFound {
        /// Every name tried, in order, with its reason.
        tried: Vec<Attempt>,
    },
    /// The override variable is set to something other than an absolute path.
    InvalidOverride {
        /// The variable's value.
        value: String,
    },
    /// The library is NVIDIA's toolkit stub (`lib64/stubs/libcuda.so`): it
    /// answers `CUDA_ERROR_STUB_LIBRARY` to everything, so it is never used.
    StubLibrary {
        /// The library that turned out to be the stub.
        path: String,
    },
    /// The only library found reports another major version than the
    /// header's (a file renamed, or a broken install).
    WrongMajor {
        /// The library. Example: `/opt/venv/.../libnvrtc.so.13`.
        path: String,
        /// What it reports. Example: `12090`.
        found: u32,
        /// The header's major. Example: `13`.
        needed: u32,
    },
    /// A shim was called while the library was being loaded on the same
    /// thread (for example from the library's own initializer).
    Reentrant,
    /// This process was forked while another thread was loading the
    /// library; the child cannot finish that load.
    ForkedDuringLoad,
    /// The library is loaded but does not provide this function.
    SymbolNotFound {
        /// The C name. Example: `cuMemAlloc`.
        function: &'static str,
        /// The export looked for. Example: `cuMemAlloc_v2`.
        symbol: &'static str,
        /// The library searched.
        library: String,
        /// What the library answered.
        error: String,
    },
    /// The function's ABI version is newer than the driver; the driver was not asked.
    DriverTooOld {
        /// The C name. Example: `cuCtxCreate`.
        function: &'static str,
        /// The function's ABI version. Example: `12050`.
        required: u32,
        /// What the driver reports. Example: `12020`.
        driver: u32,
    },
    /// `cuGetProcAddress` knows the function but not at this ABI version.
    VersionNotSufficient {
        /// The C name.
        function: &'static str,
        /// The ABI version asked for.
        version: u32,
        /// What the driver reports.
        driver: u32,
    },
}

/// `12050` → `12.5`.
#[must_use]
pub fn version_text(v: u32) -> String {
    format!("{}.{}", v / 1000, (v % 1000) / 10)
}

impl LoadError {
    /// The `CUresult` value the drop-in layer returns for this failure.
    #[must_use]
    pub fn code(&self) -> u32 {
        let codes = super::CUSHIM_CODES;
        match self {
            LoadError::SymbolNotFound { .. } => codes.symbol_not_found,
            LoadError::StubLibrary { .. } => codes.stub_library,
            LoadError::DriverTooOld { .. } | LoadError::VersionNotSufficient { .. } => {
                codes.driver_too_old
            }
            LoadError::ForkedDuringLoad => codes.not_initialized,
            _ => codes.library_not_found,
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::LibraryNotFound { tried } => {
                let info = &super::CUSHIM_LIBRARY;
                write!(f, "{} library not found; tried ", info.label)?;
                for (i, a) in tried.iter().enumerate() {
                    if i > 0 {
                        write!(f, "; ")?;
                    }
                    write!(f, "`{}` ({})", a.name, a.error)?;
                }
                write!(
                    f,
                    ". {}, or set {} to the absolute path of `{}`",
                    info.install,
                    info.override_var,
                    info.names.join("` or `")
                )
            }
            LoadError::InvalidOverride { value } => write!(
                f,
                "{}=`{value}` is not an absolute path; relative paths are refused so that no library is picked up from the working directory",
                super::CUSHIM_LIBRARY.override_var
            ),
            LoadError::WrongMajor {
                path,
                found,
                needed,
            } => write!(
                f,
                "{}; install the {needed}.x library, or regenerate from the {} headers",
                wrong_major(&super::CUSHIM_LIBRARY, path, *found, *needed),
                version_text(*found),
            ),
            LoadError::StubLibrary { path } => write!(
                f,
                "`{path}` is NVIDIA's stub library, not a {short} ({} answered the stub code); remove the toolkit's lib64/stubs directory from LD_LIBRARY_PATH",
                super::CUSHIM_LIBRARY.version_function.to_string_lossy(),
                short = super::CUSHIM_LIBRARY.short,
            ),
            LoadError::ForkedDuringLoad => write!(
                f,
                "this process was forked while another thread was loading the {}; the child cannot use it",
                super::CUSHIM_LIBRARY.label
            ),
            LoadError::Reentrant => write!(
                f,
                "a {} shim was called while the library was being loaded on the same thread",
                super::CUSHIM_LIBRARY.label
            ),
            LoadError::SymbolNotFound {
                function,
                symbol,
                library,
                error,
            } => write!(
                f,
                "`{function}`: the {short} at `{library}` does not provide `{symbol}` ({error}); the {short} is probably older than the header",
                short = super::CUSHIM_LIBRARY.short,
            ),
            LoadError::DriverTooOld {
                function,
                required,
                driver,
            } => write!(
                f,
                "{short} too old: `{function}` needs {} {}, {short} is {}",
                super::CUSHIM_LIBRARY.product,
                version_text(*required),
                version_text(*driver),
                short = super::CUSHIM_LIBRARY.short,
            ),
            LoadError::VersionNotSufficient {
                function,
                version,
                driver,
            } => write!(
                f,
                "{short} too old: cuGetProcAddress knows `{function}` but not its {} {} ABI ({short} is {})",
                super::CUSHIM_LIBRARY.product,
                version_text(*version),
                version_text(*driver),
                short = super::CUSHIM_LIBRARY.short,
            ),
        }
    }
}

impl std::error::Error for LoadError {}

/// Facts about one shim, from the generator's IR, and its binding state. The
/// facts are public; the state is the generated module's alone, so that no
/// safe code outside it can repoint a shim.
pub struct Function {
    /// The name C callers write. Example: `cuMemAlloc`.
    pub name: &'static str,
    /// Its other C names. Example: `nvmlInit` for `nvmlInit_v2`.
    pub aliases: &'static [&'static str],
    /// The exported symbol of the legacy-stream variant. Example: `cuMemAlloc_v2`.
    pub symbol: &'static CStr,
    /// The base name for `cuGetProcAddress`. Example: `cuMemAlloc`.
    pub proc_name: &'static CStr,
    /// ABI version from the PFN table; 0 when the table had none. Example: `3020`.
    pub version: u32,
    /// In a merged module, the first release that declared it (`11080`); 0 otherwise.
    pub since: u32,
    /// The per-thread variant and its ABI version. Example: `("cuMemcpyHtoD_v2_ptds", 7000)`.
    pub per_thread: Option<(&'static CStr, u32)>,
    /// The shim's slot: its resolver, the driver's function, or `absent`.
    pub(super) slot: &'static AtomicPtr<()>,
    /// The shim's failure stub, type-erased.
    pub(super) absent: unsafe extern "C" fn(),
    /// Whether the shim was bound (its slot no longer holds its resolver).
    pub(super) bound: AtomicBool,
    /// This function's own failure, when it has one.
    pub(super) failure: OnceLock<LoadError>,
    /// Why the slot holds `absent`.
    pub(super) reason: OnceLock<&'static LoadError>,
}

impl fmt::Debug for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Function")
            .field("name", &self.name)
            .field("aliases", &self.aliases)
            .field("symbol", &self.symbol)
            .field("proc_name", &self.proc_name)
            .field("version", &self.version)
            .field("since", &self.since)
            .field("per_thread", &self.per_thread)
            .finish_non_exhaustive()
    }
}

type GetProcV2 =
    unsafe extern "C" fn(*const c_char, *mut *mut c_void, c_int, u64, *mut c_int) -> c_int;
type GetProcV1 = unsafe extern "C" fn(*const c_char, *mut *mut c_void, c_int, u64) -> c_int;

/// Which `cuGetProcAddress` the driver exports.
#[derive(Clone, Copy, Debug)]
enum GetProc {
    V2(GetProcV2),
    V1(GetProcV1),
    Missing,
}

/// The loaded driver. Never unloaded: shims keep pointers into it.
#[derive(Debug)]
pub struct Driver {
    library: libloading::Library,
    path: String,
    from: &'static str,
    version: u32,
    get_proc: GetProc,
}

impl Driver {
    /// The name or path it was opened by. Example: `libcuda.so.1`.
    #[must_use]
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The step of the search that found it. Example: `pip wheel (VIRTUAL_ENV)`.
    #[must_use]
    pub fn found_by(&self) -> &'static str {
        self.from
    }

    /// What the version function reported, 1000 × major + 10 × minor (0 if
    /// it could not tell). Example: `13000`.
    #[must_use]
    pub fn version(&self) -> u32 {
        self.version
    }

    /// `cuGetProcAddress_v2`, `cuGetProcAddress` (v1), or `none`.
    #[must_use]
    pub fn proc_address(&self) -> &'static str {
        match self.get_proc {
            GetProc::V2(_) => "cuGetProcAddress_v2",
            GetProc::V1(_) => "cuGetProcAddress",
            GetProc::Missing => "none",
        }
    }
}

// The driver is loaded once, published through an atomic pointer. Not a
// OnceLock: a fork() while another thread is loading must not leave the
// child waiting forever for a thread it does not have (see `forked_child`).
const EMPTY: u8 = 0;
const LOADING: u8 = 1;
const READY: u8 = 2;
const FORKED: u8 = 3;
static STATE: AtomicU8 = AtomicU8::new(EMPTY);
static DRIVER: AtomicPtr<Result<Driver, LoadError>> = AtomicPtr::new(std::ptr::null_mut());
static OPEN_ATTEMPTS: AtomicUsize = AtomicUsize::new(0);
static LAST_ERROR: AtomicPtr<LoadError> = AtomicPtr::new(std::ptr::null_mut());
static REENTRANT: LoadError = LoadError::Reentrant;
static FORKED_DURING_LOAD: LoadError = LoadError::ForkedDuringLoad;

thread_local! {
    static LOADING_HERE: Cell<bool> = const { Cell::new(false) };
}

#[cfg(unix)]
unsafe extern "C" {
    fn pthread_atfork(
        prepare: Option<extern "C" fn()>,
        parent: Option<extern "C" fn()>,
        child: Option<extern "C" fn()>,
    ) -> c_int;
}

/// In the child of a fork made while another thread was loading: that
/// thread is not in the child, so the load can never finish there. The
/// child gets a typed error instead of a hang (as with the real driver,
/// a forked child cannot use CUDA anyway).
#[cfg(unix)]
extern "C" fn forked_child() {
    let _ = STATE.compare_exchange(LOADING, FORKED, Ordering::AcqRel, Ordering::Acquire);
}

fn watch_forks() {
    #[cfg(unix)]
    {
        static WATCHING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
        if !WATCHING.swap(true, Ordering::AcqRel) {
            // SAFETY: registers a handler that only touches an atomic.
            unsafe { pthread_atfork(None, None, Some(forked_child)) };
        }
    }
}

/// The driver, opened on the first call from any thread. A failure is
/// cached like a success: later calls return it without trying again.
///
/// # Errors
/// Why no usable library could be loaded, the same for every later call.
pub fn driver() -> Result<&'static Driver, &'static LoadError> {
    let mut spins = 0u32;
    loop {
        match STATE.load(Ordering::Acquire) {
            READY => {
                // SAFETY: READY is published after DRIVER holds a leaked, never-freed box.
                let r = unsafe { &*DRIVER.load(Ordering::Acquire) };
                return r.as_ref().map_err(note);
            }
            FORKED => return Err(note(&FORKED_DURING_LOAD)),
            LOADING if LOADING_HERE.with(Cell::get) => return Err(note(&REENTRANT)),
            LOADING => {
                // Another thread is loading: a dlopen takes about a millisecond.
                spins += 1;
                if spins < 64 {
                    std::thread::yield_now();
                } else {
                    std::thread::sleep(std::time::Duration::from_micros(50));
                }
            }
            _ => {
                watch_forks();
                if STATE
                    .compare_exchange(EMPTY, LOADING, Ordering::AcqRel, Ordering::Acquire)
                    .is_ok()
                {
                    LOADING_HERE.with(|l| l.set(true));
                    let loaded: &'static Result<Driver, LoadError> = Box::leak(Box::new(open()));
                    DRIVER.store(std::ptr::from_ref(loaded).cast_mut(), Ordering::Release);
                    STATE.store(READY, Ordering::Release);
                    LOADING_HERE.with(|l| l.set(false));
                }
            }
        }
    }
}

/// How many times this process has called the platform's library loader.
pub fn open_attempts() -> usize {
    OPEN_ATTEMPTS.load(Ordering::Relaxed)
}

/// The most recent loading failure seen by any shim, if any.
pub fn last_error() -> Option<&'static LoadError> {
    let p = LAST_ERROR.load(Ordering::Acquire);
    // SAFETY: only `&'static LoadError` values are ever stored.
    unsafe { p.as_ref() }
}

fn note(e: &'static LoadError) -> &'static LoadError {
    LAST_ERROR.store(std::ptr::from_ref(e).cast_mut(), Ordering::Release);
    e
}

// The stream mode: unset, or a mode; LOCKED once the first function was bound.
const MODE_UNSET: u8 = 0;
const MODE_LEGACY: u8 = 1;
const MODE_PER_THREAD: u8 = 2;
const MODE_LOCKED: u8 = 0x80;
static MODE: AtomicU8 = AtomicU8::new(MODE_UNSET);

fn mode_of(bits: u8) -> Option<StreamMode> {
    match bits & !MODE_LOCKED {
        MODE_LEGACY => Some(StreamMode::Legacy),
        MODE_PER_THREAD => Some(StreamMode::PerThread),
        _ => None,
    }
}

fn bits_of(mode: StreamMode) -> u8 {
    match mode {
        StreamMode::Legacy => MODE_LEGACY,
        StreamMode::PerThread => MODE_PER_THREAD,
    }
}

/// The mode [`STREAM_VAR`] asks for in this process's environment, if any.
#[must_use]
pub fn stream_mode_from_environment() -> Option<StreamMode> {
    std::env::var(STREAM_VAR)
        .ok()
        .and_then(|v| stream_mode_from_env(&v))
}

/// Why `CUSHIM_PER_THREAD_DEFAULT_STREAM` is ignored, when it is set to a
/// value that is none of [`STREAM_ON`] and [`STREAM_OFF`]; `None` when it is
/// unset or understood. A program that lets users set the variable can show
/// this once.
#[must_use]
pub fn stream_mode_warning() -> Option<String> {
    stream_warning_for(&std::env::var_os(STREAM_VAR)?.to_string_lossy())
}

/// [`stream_mode_warning`] for the variable's value `text`.
pub(crate) fn stream_warning_for(text: &str) -> Option<String> {
    if stream_mode_from_env(text).is_some() {
        return None;
    }
    let default = match super::CUSHIM_DEFAULT_STREAM_MODE {
        StreamMode::Legacy => "legacy",
        StreamMode::PerThread => "per-thread",
    };
    Some(format!(
        "{STREAM_VAR}=`{text}` is ignored: it is none of {} (per-thread) and {} (legacy); the {default} default stream is used",
        STREAM_ON.join("/"),
        STREAM_OFF.join("/"),
    ))
}

/// The mode from `CUSHIM_PER_THREAD_DEFAULT_STREAM`, else the generated default.
fn initial_mode() -> StreamMode {
    stream_mode_from_environment().unwrap_or(super::CUSHIM_DEFAULT_STREAM_MODE)
}

/// Chooses the default-stream mode for this process. Only before the first
/// function is bound; afterwards it says so and changes nothing.
///
/// # Errors
/// The mode in force, when the first function is already bound.
pub fn set_stream_mode(mode: StreamMode) -> Result<(), StreamModeLocked> {
    let mut current = MODE.load(Ordering::Acquire);
    loop {
        if current & MODE_LOCKED != 0 {
            return Err(StreamModeLocked {
                requested: mode,
                current: mode_of(current).unwrap_or(StreamMode::Legacy),
            });
        }
        match MODE.compare_exchange(current, bits_of(mode), Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => return Ok(()),
            Err(now) => current = now,
        }
    }
}

/// The mode in force, fixed from the first binding on.
pub fn stream_mode() -> StreamMode {
    mode_of(MODE.load(Ordering::Acquire)).unwrap_or_else(initial_mode)
}

/// Whether the per-thread twins are in force, fixing the mode as a first
/// binding does: the linked shims' choice between a symbol and its twin.
#[must_use]
pub fn per_thread_now() -> bool {
    lock_stream_mode() == StreamMode::PerThread
}

/// Fixes the mode (first binding) and returns it.
fn lock_stream_mode() -> StreamMode {
    let mut current = MODE.load(Ordering::Acquire);
    loop {
        if current & MODE_LOCKED != 0 {
            return mode_of(current).unwrap_or(StreamMode::Legacy);
        }
        let mode = mode_of(current).unwrap_or_else(initial_mode);
        match MODE.compare_exchange(
            current,
            bits_of(mode) | MODE_LOCKED,
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            Ok(_) => return mode,
            Err(now) => current = now,
        }
    }
}

/// What a value of the override variable asks for: `None` (unset or empty)
/// to search, the library to open, or an error for a relative path, so that
/// no library is ever picked up from the working directory. The C++ runtime
/// applies the same rule.
///
/// # Errors
/// `InvalidOverride` for a relative path.
pub fn library_override(value: Option<OsString>) -> Result<Option<OsString>, LoadError> {
    match value {
        Some(v) if !v.is_empty() => {
            if PathBuf::from(&v).is_absolute() {
                Ok(Some(v))
            } else {
                Err(LoadError::InvalidOverride {
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
    /// An absolute path, opened only if the file exists.
    Path(PathBuf),
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
            Candidate::Path(p) => p.display().to_string(),
            Candidate::Loaded(n) | Candidate::System(n) => (*n).to_string(),
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
/// major (`libcudart.so.13` loaded from a wheel points at that wheel).
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
    let major = info.major.to_string();
    let mut dirs: Vec<PathBuf> = Vec::new();
    for path in loaded.iter().filter(|p| p.is_absolute()) {
        let Some(file) = path.file_name().map(|f| f.to_string_lossy().into_owned()) else {
            continue;
        };
        let member = info.family.iter().any(|stem| {
            file.strip_prefix(stem).is_some_and(|rest| {
                rest.strip_prefix(major.as_str())
                    .is_some_and(|r| r.is_empty() || r.starts_with('.'))
            })
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

/// Every place to look, in order, with the step that proposed it: for a
/// library installed with the driver, its names for the system loader; for
/// a toolkit library, a copy already loaded, the directory of a loaded
/// member of its family, the pip wheel directories (`VIRTUAL_ENV`,
/// `CONDA_PREFIX`'s `site-packages`, and the prefixes above the executable),
/// `$CONDA_PREFIX/lib`, `CUDA_PATH`, `CUDA_HOME` and `/usr/local/cuda`, and
/// last the names for the system loader. Paths are absolute; the same path
/// is proposed once.
#[must_use]
pub fn candidates(info: &LibraryInfo) -> Vec<(Candidate, &'static str)> {
    let mut out: Vec<(Candidate, &'static str)> = Vec::new();
    let Some(wheel_dirs) = info.wheel_dirs else {
        out.extend(info.names.iter().map(|n| (Candidate::System(n), "system")));
        return out;
    };
    let lib_dir = if cfg!(windows) { "bin" } else { "lib" };
    let add_dir = |out: &mut Vec<(Candidate, &'static str)>, dir: &Path, from: &'static str| {
        for name in info.names {
            let c = Candidate::Path(dir.join(name));
            if !out.iter().any(|(o, _)| *o == c) {
                out.push((c, from));
            }
        }
    };
    if ASKS_LOADED {
        out.extend(info.names.iter().map(|n| (Candidate::Loaded(n), "loaded")));
    }
    for dir in family_dirs(info) {
        add_dir(&mut out, &dir, "family");
    }
    let mut prefixes: Vec<(PathBuf, &'static str)> = Vec::new();
    if let Some(v) = absolute_var("VIRTUAL_ENV") {
        prefixes.push((v, "pip wheel (VIRTUAL_ENV)"));
    }
    if let Some(c) = absolute_var("CONDA_PREFIX") {
        prefixes.push((c, "pip wheel (CONDA_PREFIX)"));
    }
    if let Ok(exe) = std::env::current_exe() {
        // Only Python environments (a venv's `pyvenv.cfg`, conda's
        // `conda-meta`): a directory anyone can write to (`/tmp`, `C:\`)
        // plants nothing.
        let environment =
            |d: &Path| d.join("pyvenv.cfg").is_file() || d.join("conda-meta").is_dir();
        for dir in exe.ancestors().skip(1).filter(|d| environment(d)) {
            prefixes.push((dir.to_path_buf(), "pip wheel (above the executable)"));
        }
    }
    let major = info.major.to_string();
    for (prefix, from) in &prefixes {
        for site in site_packages(prefix) {
            for wheel in wheel_dirs {
                let dir = wheel.replace("{major}", &major);
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
                    add_dir(&mut out, &path, from);
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
    let mut toolkits: Vec<(PathBuf, &'static str)> = Vec::new();
    for var in ["CUDA_PATH", "CUDA_HOME"] {
        if let Some(root) = absolute_var(var) {
            toolkits.push((root, var));
        }
    }
    if cfg!(unix) {
        toolkits.push((PathBuf::from("/usr/local/cuda"), "/usr/local/cuda"));
    }
    for (root, from) in &toolkits {
        let subdirs: &[&str] = if cfg!(windows) {
            &["bin", "bin/x64"]
        } else {
            &["lib64", "lib"]
        };
        for sub in subdirs {
            let path = sub.split('/').fold(root.clone(), |p, part| p.join(part));
            add_dir(&mut out, &path, from);
        }
    }
    out.extend(info.names.iter().map(|n| (Candidate::System(n), "system")));
    out
}

/// What a search found: the library, or why there is none, with every
/// candidate tried before the answer, in order.
#[derive(Debug)]
pub struct Search {
    /// The library, or why none is usable.
    pub found: Result<Driver, LoadError>,
    /// Each candidate that was skipped, and why.
    pub tried: Vec<Attempt>,
}

/// The library found, or why none was. Nothing is cached: [`driver`] keeps
/// the first answer for the process; `cushim doctor` asks again for each
/// library it shows.
///
/// # Errors
/// Why no usable library was found.
pub fn open_library(info: &LibraryInfo) -> Result<Driver, LoadError> {
    search(info).found
}

/// `` `path` is NVRTC 12.9, but the header is for NVRTC 13.x ``.
fn wrong_major(info: &LibraryInfo, path: &str, found: u32, needed: u32) -> String {
    format!(
        "`{path}` is {} {}, but the header is for {} {needed}.x",
        info.label,
        version_text(found),
        info.product
    )
}

/// Searches for the library as [`candidates`] orders the places, or opens
/// the override as given.
#[must_use]
pub fn search(info: &LibraryInfo) -> Search {
    let mut tried = Vec::new();
    let path = match library_override(std::env::var_os(info.override_var)) {
        Ok(path) => path,
        Err(e) => {
            return Search {
                found: Err(e),
                tried,
            }
        }
    };
    if let Some(path) = path {
        // The path the user named is opened as given, after its
        // dependencies from its directory: the platform's own message says
        // best why it cannot be.
        let name = path.to_string_lossy().into_owned();
        let found = preload(info, Path::new(&path)).and_then(|()| {
            OPEN_ATTEMPTS.fetch_add(1, Ordering::Relaxed);
            open_one(&path, false).map_err(|e| describe(&e))
        });
        let found = match found {
            Ok(library) => inspect(info, library, name, "override"),
            Err(error) => {
                tried.push(Attempt {
                    name,
                    error,
                    from: "override",
                });
                Err(LoadError::LibraryNotFound {
                    tried: tried.clone(),
                })
            }
        };
        return Search { found, tried };
    }
    let mut wrong = None;
    for (candidate, from) in candidates(info) {
        match try_one(info, &candidate, from) {
            Ok(Err(LoadError::WrongMajor {
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
                    path,
                    found,
                    needed,
                });
            }
            Ok(found) => return Search { found, tried },
            Err(error) => tried.push(Attempt {
                name: candidate.shown(),
                error,
                from,
            }),
        }
    }
    let found = Err(wrong.unwrap_or(LoadError::LibraryNotFound {
        tried: tried.clone(),
    }));
    Search { found, tried }
}

/// Loads the libraries `info` says must come first, from `path`'s directory,
/// and keeps them loaded: the library's own dependency resolves to them.
fn preload(info: &LibraryInfo, path: &Path) -> Result<(), String> {
    let Some(dir) = path.parent() else {
        return Ok(());
    };
    for dep in info.preload {
        OPEN_ATTEMPTS.fetch_add(1, Ordering::Relaxed);
        let dep_path = dir.join(dep);
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
    info: &LibraryInfo,
    candidate: &Candidate,
    from: &'static str,
) -> Result<Result<Driver, LoadError>, String> {
    let (name, library) = match candidate {
        Candidate::Path(path) => {
            if !path.exists() {
                return Err("no such file".into());
            }
            preload(info, path)?;
            OPEN_ATTEMPTS.fetch_add(1, Ordering::Relaxed);
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
            OPEN_ATTEMPTS.fetch_add(1, Ordering::Relaxed);
            (name, opened)
        }
        Candidate::System(name) => {
            OPEN_ATTEMPTS.fetch_add(1, Ordering::Relaxed);
            let name = OsString::from(name);
            let opened = open_one(&name, false);
            (name, opened)
        }
    };
    let library = library.map_err(|e| describe(&e))?;
    Ok(inspect(
        info,
        library,
        name.to_string_lossy().into_owned(),
        from,
    ))
}

fn open() -> Result<Driver, LoadError> {
    open_library(&super::CUSHIM_LIBRARY)
}

/// Reads the library's version once and finds its own lookup function, if
/// it has one. A link-time stub answers the version function with its stub
/// code (the toolkit's `libcuda.so` with `CUDA_ERROR_STUB_LIBRARY`); a real
/// library never does. A library of another major than the header's is
/// refused. The version function is asked before anything else is called.
fn inspect(
    info: &LibraryInfo,
    library: libloading::Library,
    path: String,
    from: &'static str,
) -> Result<Driver, LoadError> {
    let (code, version) = version_of(info, &library);
    if info.stub_code.is_some_and(|stub| code == Some(stub)) {
        // Kept mapped but never used: a library is never unloaded.
        std::mem::forget(library);
        return Err(LoadError::StubLibrary { path });
    }
    if info.major != 0 && version != 0 && version / 1000 != info.major {
        std::mem::forget(library);
        return Err(LoadError::WrongMajor {
            path,
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
    Ok(Driver {
        library,
        path,
        from,
        version,
        get_proc,
    })
}

/// What the version function returned, and the version as 1000 × major +
/// 10 × minor (0 when it is missing or failed).
fn version_of(info: &LibraryInfo, library: &libloading::Library) -> (Option<i32>, u32) {
    type Number = unsafe extern "C" fn(*mut c_int) -> c_int;
    type MajorMinor = unsafe extern "C" fn(*mut c_int, *mut c_int) -> c_int;
    type Text = unsafe extern "C" fn(*mut c_char, u32) -> c_int;
    type Property = unsafe extern "C" fn(c_int, *mut c_int) -> c_int;
    let name = info.version_function.to_bytes_with_nul();
    let ok = |v: c_int| u32::try_from(v).unwrap_or(0);
    // SAFETY: the description gives the version function's prototype, which
    // the library has kept since it introduced it.
    unsafe {
        match info.version_query {
            VersionQuery::Number => match library.get::<Number>(name) {
                Ok(f) => {
                    let mut v: c_int = 0;
                    let rc = f(&raw mut v);
                    (Some(rc), if rc == 0 { ok(v) } else { 0 })
                }
                Err(_) => (None, 0),
            },
            VersionQuery::MajorMinor => match library.get::<MajorMinor>(name) {
                Ok(f) => {
                    let (mut major, mut minor): (c_int, c_int) = (0, 0);
                    let rc = f(&raw mut major, &raw mut minor);
                    let v = ok(major)
                        .saturating_mul(1000)
                        .saturating_add(ok(minor).min(99) * 10);
                    (Some(rc), if rc == 0 { v } else { 0 })
                }
                Err(_) => (None, 0),
            },
            VersionQuery::Property => match library.get::<Property>(name) {
                Ok(f) => {
                    let (mut major, mut minor): (c_int, c_int) = (0, 0);
                    let rc = f(0, &raw mut major);
                    let rc = if rc == 0 { f(1, &raw mut minor) } else { rc };
                    let v = ok(major)
                        .saturating_mul(1000)
                        .saturating_add(ok(minor).min(99) * 10);
                    (Some(rc), if rc == 0 { v } else { 0 })
                }
                Err(_) => (None, 0),
            },
            VersionQuery::Text => match library.get::<Text>(name) {
                Ok(f) => {
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
                Err(_) => (None, 0),
            },
        }
    }
}

/// libloading's message and the platform's own (`dlerror`), on one line.
fn describe(e: &libloading::Error) -> String {
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

/// One function to look up, in one stream mode: what `cuGetProcAddress`
/// and the exact-export fallback are asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target<'a> {
    /// The base name for `cuGetProcAddress`. Example: `cuMemcpyHtoD`.
    pub proc_name: &'a CStr,
    /// The exported symbol. Example: `cuMemcpyHtoD_v2_ptds`.
    pub symbol: &'a CStr,
    /// Its ABI version; 0 when unknown (then only the export is tried).
    pub version: u32,
    /// The `cuGetProcAddress` flag: 2 for a per-thread variant, else 1.
    pub flags: u64,
}

impl<'a> Target<'a> {
    /// What a function binds in `mode`: its per-thread variant (flag 2) when it
    /// has one and the mode is per-thread, else its legacy symbol (flag 1).
    #[must_use]
    pub fn new(
        proc_name: &'a CStr,
        legacy: (&'a CStr, u32),
        per_thread: Option<(&'a CStr, u32)>,
        mode: StreamMode,
    ) -> Target<'a> {
        let ((symbol, version), flags) = match (mode, per_thread) {
            (StreamMode::PerThread, Some(twin)) => (twin, StreamMode::PerThread.flag()),
            _ => (legacy, StreamMode::Legacy.flag()),
        };
        Target {
            proc_name,
            symbol,
            version,
            flags,
        }
    }
}

/// Why a lookup found no address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Miss {
    /// The target's ABI version is newer than the driver; the driver was not asked.
    TooOld,
    /// `cuGetProcAddress_v2` knows the name, but not at this ABI version.
    VersionNotSufficient,
    /// Not provided; the text says what the driver answered.
    NotFound(String),
}

impl Driver {
    /// Finds `target` by `resolve`. Never calls the driver for a target whose
    /// ABI is newer than it, never passes NULL or flags 0 to
    /// `cuGetProcAddress`, and never retries with a lower version.
    ///
    /// # Errors
    /// Why there is no address: too old, version not sufficient, or not found.
    pub fn find(&self, target: &Target<'_>, resolve: Resolve) -> Result<*mut (), Miss> {
        let version = target.version;
        if version != 0 && self.version != 0 && version > self.version {
            return Err(Miss::TooOld);
        }
        let not_found = |why: String| Err(Miss::NotFound(why));
        let mut pfn: *mut c_void = std::ptr::null_mut();
        let by_proc = resolve == Resolve::ProcAddress && version != 0;
        match self.get_proc {
            GetProc::V2(get) if by_proc => {
                let mut status: c_int = 0;
                // SAFETY: valid name, out-pointer and status pointer; flags 1 or 2.
                let rc = unsafe {
                    get(
                        target.proc_name.as_ptr(),
                        &raw mut pfn,
                        version.cast_signed(),
                        target.flags,
                        &raw mut status,
                    )
                };
                match (rc, status) {
                    (0, 0) if !pfn.is_null() => Ok(pfn.cast()),
                    (0, 2) => Err(Miss::VersionNotSufficient),
                    (0, 0) => not_found("cuGetProcAddress_v2 succeeded with a NULL pointer".into()),
                    (0, s) => not_found(format!("cuGetProcAddress_v2 status {s}")),
                    (rc, _) => not_found(format!("cuGetProcAddress_v2 returned {rc}")),
                }
            }
            GetProc::V1(get) if by_proc => {
                // SAFETY: valid name and out-pointer; flags 1 or 2.
                let rc = unsafe {
                    get(
                        target.proc_name.as_ptr(),
                        &raw mut pfn,
                        version.cast_signed(),
                        target.flags,
                    )
                };
                match rc {
                    0 if !pfn.is_null() => Ok(pfn.cast()),
                    0 => not_found("cuGetProcAddress succeeded with a NULL pointer".into()),
                    rc => not_found(format!("cuGetProcAddress returned {rc}")),
                }
            }
            _ => {
                // SAFETY: the symbol is only read as an address, never called here.
                let found = unsafe {
                    self.library
                        .get::<*mut c_void>(target.symbol.to_bytes_with_nul())
                };
                match found {
                    Ok(sym) if !(*sym).is_null() => Ok((*sym).cast()),
                    Ok(_) => not_found("the exported address is NULL".into()),
                    Err(e) => not_found(describe(&e)),
                }
            }
        }
    }
}

/// Finds the address of `f` for the process's stream mode, by
/// `super::CUSHIM_RESOLVE` (see [`Driver::find`]).
///
/// # Errors
/// Why `f` cannot be bound; kept, so later calls get the same answer.
pub fn resolve(f: &'static Function) -> Result<*mut (), &'static LoadError> {
    let mode = lock_stream_mode();
    let driver = driver()?;
    let target = Target::new(f.proc_name, (f.symbol, f.version), f.per_thread, mode);
    let error = match driver.find(&target, super::CUSHIM_RESOLVE) {
        Ok(p) => return Ok(p),
        Err(Miss::TooOld) => LoadError::DriverTooOld {
            function: f.name,
            required: target.version,
            driver: driver.version,
        },
        Err(Miss::VersionNotSufficient) => LoadError::VersionNotSufficient {
            function: f.name,
            version: target.version,
            driver: driver.version,
        },
        Err(Miss::NotFound(error)) => LoadError::SymbolNotFound {
            function: f.name,
            symbol: target.symbol.to_str().unwrap_or(f.name),
            library: driver.path.clone(),
            error,
        },
    };
    Err(note(f.failure.get_or_init(|| error)))
}

/// Binds `f`: patches its slot with the driver's function, or with its
/// failure stub, and returns what the slot now holds.
pub fn bind(f: &'static Function) -> *mut () {
    let p = match resolve(f) {
        Ok(p) => p,
        // A call from inside the load fails this once; the slot stays unbound.
        Err(LoadError::Reentrant) => return f.absent as *mut (),
        Err(e) => {
            let _ = f.reason.set(e);
            f.absent as *mut ()
        }
    };
    f.slot.store(p, Ordering::Release);
    f.bound.store(true, Ordering::Release);
    p
}

/// The code a failed shim returns (its reason's, or "no library" before any).
pub fn absent_code(f: &'static Function) -> u32 {
    f.reason
        .get()
        .map_or(super::CUSHIM_CODES.library_not_found, |e| e.code())
}

/// Whether `f`'s slot holds its failure stub; the reason, if so.
pub fn failed(f: &'static Function) -> Option<&'static LoadError> {
    if f.slot.load(Ordering::Acquire) == f.absent as *mut () {
        f.reason.get().copied()
    } else {
        None
    }
}

/// Binds `f` now if it was not yet, and reports the failure, if any.
///
/// # Errors
/// Why `f` cannot be bound.
pub fn check(f: &'static Function) -> Result<(), &'static LoadError> {
    if !f.bound.load(Ordering::Acquire) {
        bind(f);
    }
    match failed(f) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// A return type that can carry a loading failure through the C ABI.
pub trait Status: Sized {
    /// The status with this value.
    fn from_code(code: u32) -> Self;
    /// Whether it is the success value.
    fn is_success(&self) -> bool;
    /// The value, to look its name up. Example: `1`.
    fn code(&self) -> i64;
}
