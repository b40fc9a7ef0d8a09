//! The loader runtime: opens the driver once, binds one function per shim on
//! that shim's first call, and keeps every failure as a typed value.
//!
//! This file is real source. cushim compiles, lints and tests it as its own
//! module, `cushim doctor` runs on it, and the Rust emitter copies it verbatim
//! into every generated module. What varies per header comes from the
//! enclosing module: `CUSHIM_RESOLVE`, `CUSHIM_DEFAULT_STREAM_MODE`,
//! `CUSHIM_CODES`, `CUSHIM_LIBRARY_NAMES` and `CUSHIM_VERSION_FUNCTION`.

use std::cell::Cell;
use std::ffi::{c_char, c_int, c_void, CStr, OsString};
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU8, AtomicUsize, Ordering};
use std::sync::OnceLock;

/// Environment variable that names the driver library by absolute path,
/// instead of the default search. Read once, on the first load.
pub const OVERRIDE_VAR: &str = "CUSHIM_CUDA_LIBRARY";
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
    /// Why it failed, as the platform said (`dlerror`).
    pub error: String,
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
                write!(f, "CUDA driver library not found; tried ")?;
                for (i, a) in tried.iter().enumerate() {
                    if i > 0 {
                        write!(f, "; ")?;
                    }
                    write!(f, "`{}` ({})", a.name, a.error)?;
                }
                write!(
                    f,
                    ". Install the NVIDIA driver, or set {OVERRIDE_VAR} to the absolute path of `{}`",
                    super::CUSHIM_LIBRARY_NAMES.join("` or `")
                )
            }
            LoadError::InvalidOverride { value } => write!(
                f,
                "{OVERRIDE_VAR}=`{value}` is not an absolute path; relative paths are refused so that no library is picked up from the working directory"
            ),
            LoadError::StubLibrary { path } => write!(
                f,
                "`{path}` is NVIDIA's stub library, not a driver (cuDriverGetVersion answered CUDA_ERROR_STUB_LIBRARY); remove the toolkit's lib64/stubs directory from LD_LIBRARY_PATH"
            ),
            LoadError::ForkedDuringLoad => write!(
                f,
                "this process was forked while another thread was loading the CUDA driver; the child cannot use it"
            ),
            LoadError::Reentrant => write!(
                f,
                "a CUDA shim was called while the driver library was being loaded on the same thread"
            ),
            LoadError::SymbolNotFound {
                function,
                symbol,
                library,
                error,
            } => write!(
                f,
                "`{function}`: the driver at `{library}` does not provide `{symbol}` ({error}); the driver is probably older than the header"
            ),
            LoadError::DriverTooOld {
                function,
                required,
                driver,
            } => write!(
                f,
                "driver too old: `{function}` needs CUDA {}, driver is {}",
                version_text(*required),
                version_text(*driver)
            ),
            LoadError::VersionNotSufficient {
                function,
                version,
                driver,
            } => write!(
                f,
                "driver too old: cuGetProcAddress knows `{function}` but not its CUDA {} ABI (driver is {})",
                version_text(*version),
                version_text(*driver)
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
    version: u32,
    get_proc: GetProc,
}

impl Driver {
    /// The name or path it was opened by. Example: `libcuda.so.1`.
    #[must_use]
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What `cuDriverGetVersion` reported (0 if it could not). Example: `13000`.
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

/// What a value of [`OVERRIDE_VAR`] asks for: `None` (unset or empty) to search
/// the default names, the library to open, or an error for a relative path,
/// so that no library is ever picked up from the working directory. The C++
/// runtime applies the same rule.
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

fn open() -> Result<Driver, LoadError> {
    let candidates: Vec<OsString> = match library_override(std::env::var_os(OVERRIDE_VAR))? {
        Some(v) => vec![v],
        None => super::CUSHIM_LIBRARY_NAMES
            .iter()
            .map(OsString::from)
            .collect(),
    };
    let mut tried = Vec::new();
    for name in candidates {
        OPEN_ATTEMPTS.fetch_add(1, Ordering::Relaxed);
        match open_one(&name) {
            Ok(library) => return inspect(library, name.to_string_lossy().into_owned()),
            Err(e) => tried.push(Attempt {
                name: name.to_string_lossy().into_owned(),
                error: describe(&e),
            }),
        }
    }
    Err(LoadError::LibraryNotFound { tried })
}

/// Reads the driver version once and finds `cuGetProcAddress`. The toolkit's
/// stub answers `cuDriverGetVersion` with `CUDA_ERROR_STUB_LIBRARY`; a real
/// driver never does. Asked before anything else is called.
fn inspect(library: libloading::Library, path: String) -> Result<Driver, LoadError> {
    type DriverGetVersion = unsafe extern "C" fn(*mut c_int) -> c_int;
    // SAFETY: each prototype is the one the driver has exported since it
    // introduced the symbol (cuDriverGetVersion 2.2, cuGetProcAddress 11.3, _v2 12.0).
    unsafe {
        let mut version: c_int = 0;
        let name = super::CUSHIM_VERSION_FUNCTION.to_bytes_with_nul();
        let stub_code = super::CUSHIM_CODES.stub_library.cast_signed();
        let is_stub = library
            .get::<DriverGetVersion>(name)
            .is_ok_and(|f| f(&raw mut version) == stub_code);
        if is_stub {
            // Kept mapped but never used: a library is never unloaded.
            std::mem::forget(library);
            return Err(LoadError::StubLibrary { path });
        }
        let get_proc = if let Ok(f) = library.get::<GetProcV2>(b"cuGetProcAddress_v2\0") {
            GetProc::V2(*f)
        } else if let Ok(f) = library.get::<GetProcV1>(b"cuGetProcAddress\0") {
            GetProc::V1(*f)
        } else {
            GetProc::Missing
        };
        Ok(Driver {
            library,
            path,
            version: version.max(0).cast_unsigned(),
            get_proc,
        })
    }
}

/// libloading's message and the platform's own (`dlerror`), on one line.
fn describe(e: &libloading::Error) -> String {
    match std::error::Error::source(e) {
        Some(inner) => format!("{e}: {inner}"),
        None => e.to_string(),
    }
}

#[cfg(unix)]
fn open_one(name: &OsString) -> Result<libloading::Library, libloading::Error> {
    use libloading::os::unix::{Library, RTLD_LOCAL, RTLD_NOW};
    // SAFETY: loading the driver runs its initializers; that is the point.
    unsafe { Library::open(Some(name), RTLD_NOW | RTLD_LOCAL) }.map(Into::into)
}

#[cfg(windows)]
fn open_one(name: &OsString) -> Result<libloading::Library, libloading::Error> {
    use libloading::os::windows::{Library, LOAD_LIBRARY_SEARCH_SYSTEM32};
    // SAFETY: as above; only the system directory is searched.
    unsafe { Library::load_with_flags(name, LOAD_LIBRARY_SEARCH_SYSTEM32) }.map(Into::into)
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
