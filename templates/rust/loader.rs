/// The loader runtime: opens the driver once, resolves one symbol per shim on
/// that shim's first call, and keeps every failure as a typed value.
#[allow(dead_code)]
pub mod cushim_loader {
    use std::cell::Cell;
    use std::ffi::{c_void, CStr, OsString};
    use std::fmt;
    use std::path::PathBuf;
    use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};
    use std::sync::OnceLock;

    /// Environment variable that names the driver library by absolute path,
    /// instead of the default search. Read once, on the first load.
    pub const OVERRIDE_VAR: &str = "CUSHIM_CUDA_LIBRARY";

    /// The names tried, in order, when no override is set.
    #[cfg(not(windows))]
    pub const LIBRARY_NAMES: &[&str] = &["libcuda.so.1"];
    #[cfg(windows)]
    pub const LIBRARY_NAMES: &[&str] = &["nvcuda.dll"];

    /// `CUresult` codes the drop-in layer returns when loading fails.
    /// `CUDA_ERROR_SHARED_OBJECT_INIT_FAILED`: no usable driver library.
    pub const CODE_LIBRARY_NOT_FOUND: u32 = 303;
    /// `CUDA_ERROR_NOT_FOUND`: the library lacks this function.
    pub const CODE_SYMBOL_NOT_FOUND: u32 = 500;
    /// `CUDA_ERROR_STUB_LIBRARY`: the library found is the toolkit's stub.
    pub const CODE_STUB_LIBRARY: u32 = 34;

    /// One library name that was tried, and why it failed.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Attempt {
        pub name: String,
        pub error: String,
    }

    /// Why the driver library, or one function in it, could not be used.
    #[derive(Clone, Debug, PartialEq, Eq)]
    #[non_exhaustive]
    pub enum LoadError {
        /// No candidate library could be opened.
        LibraryNotFound { tried: Vec<Attempt> },
        /// The override variable is set to something other than an absolute path.
        InvalidOverride { value: String },
        /// The library is NVIDIA's toolkit stub (`lib64/stubs/libcuda.so`): it
        /// answers `CUDA_ERROR_STUB_LIBRARY` to everything, so it is never used.
        StubLibrary { path: String },
        /// A shim was called while the library was being loaded on the same
        /// thread (for example from the library's own initializer).
        Reentrant,
        /// The library is loaded but does not export this function.
        SymbolNotFound {
            function: &'static str,
            symbol: &'static str,
            library: String,
            error: String,
        },
    }

    impl LoadError {
        /// The `CUresult` value the drop-in layer returns for this failure.
        pub fn code(&self) -> u32 {
            match self {
                LoadError::SymbolNotFound { .. } => CODE_SYMBOL_NOT_FOUND,
                LoadError::StubLibrary { .. } => CODE_STUB_LIBRARY,
                _ => CODE_LIBRARY_NOT_FOUND,
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
                        ". Install the NVIDIA driver, or set {OVERRIDE_VAR} to the absolute path of libcuda"
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
                    "`{function}`: the driver at `{library}` does not export `{symbol}` ({error}); the driver is probably older than the header"
                ),
            }
        }
    }

    impl std::error::Error for LoadError {}

    /// Facts about one shim, from the generator's IR.
    #[derive(Debug)]
    pub struct Function {
        /// The name C callers write. Example: `cuMemAlloc`.
        pub name: &'static str,
        /// The exported symbol bound by exact name. Example: `cuMemAlloc_v2`.
        pub symbol: &'static CStr,
        /// The base name for `cuGetProcAddress`. Example: `cuMemAlloc`.
        pub proc_name: &'static str,
        /// ABI version from the PFN table; 0 when the table had none. Example: `3020`.
        pub version: u32,
        /// The per-thread default-stream twin and its version, or `("", 0)`.
        pub per_thread: (&'static str, u32),
        /// Where each failure for this function is kept.
        pub failure: &'static OnceLock<LoadError>,
    }

    /// The loaded driver. Never unloaded: shims keep pointers into it.
    #[derive(Debug)]
    pub struct Library {
        library: libloading::Library,
        path: String,
    }

    impl Library {
        /// The name or path it was opened by. Example: `libcuda.so.1`.
        pub fn path(&self) -> &str {
            &self.path
        }
    }

    static LIBRARY: OnceLock<Result<Library, LoadError>> = OnceLock::new();
    static OPEN_ATTEMPTS: AtomicUsize = AtomicUsize::new(0);
    static LAST_ERROR: AtomicPtr<LoadError> = AtomicPtr::new(std::ptr::null_mut());
    static REENTRANT: LoadError = LoadError::Reentrant;

    thread_local! {
        static LOADING: Cell<bool> = const { Cell::new(false) };
    }

    /// The driver library, opened on the first call from any thread. A failure
    /// is cached like a success: later calls return it without trying again.
    pub fn library() -> Result<&'static Library, &'static LoadError> {
        if let Some(r) = LIBRARY.get() {
            return r.as_ref();
        }
        if LOADING.with(Cell::get) {
            return Err(note(&REENTRANT));
        }
        LOADING.with(|l| l.set(true));
        let r = LIBRARY.get_or_init(open).as_ref();
        LOADING.with(|l| l.set(false));
        r.map_err(note)
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
        LAST_ERROR.store(e as *const LoadError as *mut LoadError, Ordering::Release);
        e
    }

    fn open() -> Result<Library, LoadError> {
        let candidates: Vec<OsString> = match std::env::var_os(OVERRIDE_VAR) {
            Some(v) if !v.is_empty() => {
                if !PathBuf::from(&v).is_absolute() {
                    return Err(LoadError::InvalidOverride {
                        value: v.to_string_lossy().into_owned(),
                    });
                }
                vec![v]
            }
            _ => LIBRARY_NAMES.iter().map(OsString::from).collect(),
        };
        let mut tried = Vec::new();
        for name in candidates {
            OPEN_ATTEMPTS.fetch_add(1, Ordering::Relaxed);
            match open_one(&name) {
                Ok(library) => {
                    let path = name.to_string_lossy().into_owned();
                    if is_stub(&library) {
                        // Kept mapped but never used: a library is never unloaded.
                        std::mem::forget(library);
                        return Err(LoadError::StubLibrary { path });
                    }
                    return Ok(Library { library, path });
                }
                Err(e) => tried.push(Attempt {
                    name: name.to_string_lossy().into_owned(),
                    error: describe(&e),
                }),
            }
        }
        Err(LoadError::LibraryNotFound { tried })
    }

    /// The toolkit's stub answers `cuDriverGetVersion` with `CUDA_ERROR_STUB_LIBRARY`;
    /// a real driver never does. Asked before anything else is called.
    fn is_stub(library: &libloading::Library) -> bool {
        type DriverGetVersion = unsafe extern "C" fn(*mut std::ffi::c_int) -> std::ffi::c_int;
        // SAFETY: `cuDriverGetVersion(int *)` has had this prototype since CUDA 2.2.
        unsafe {
            match library.get::<DriverGetVersion>(b"cuDriverGetVersion\0") {
                Ok(f) => {
                    let mut version = 0;
                    f(&mut version) == CODE_STUB_LIBRARY as std::ffi::c_int
                }
                Err(_) => false,
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

    /// Finds the address of `f`. The seam where version-aware resolution plugs in:
    /// today it binds the exact versioned symbol.
    pub fn resolve(f: &'static Function) -> Result<*mut (), &'static LoadError> {
        let lib = library()?;
        // SAFETY: the symbol is only read as an address, never called here.
        let found = unsafe { lib.library.get::<*mut c_void>(f.symbol.to_bytes_with_nul()) };
        match found {
            Ok(sym) if !(*sym).is_null() => Ok(*sym as *mut ()),
            other => {
                let error = match other {
                    Err(e) => describe(&e),
                    Ok(_) => "the symbol's address is NULL".to_string(),
                };
                Err(note(f.failure.get_or_init(|| LoadError::SymbolNotFound {
                    function: f.name,
                    symbol: f.symbol.to_str().unwrap_or(f.name),
                    library: lib.path.clone(),
                    error,
                })))
            }
        }
    }

    /// A return type that can carry a loading failure through the C ABI.
    pub trait Status: Sized {
        fn from_code(code: u32) -> Self;
        fn is_success(&self) -> bool;
    }
}
