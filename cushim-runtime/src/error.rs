//! Why a library, or one function of it, could not be used.

use std::fmt;

use crate::info::{version_text, LibraryInfo};

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

/// Why a library, or one function in it, could not be used. Each failure
/// names the library it is about, so that it can speak of it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoadError {
    /// No candidate library could be opened.
    LibraryNotFound {
        /// The library looked for.
        library: &'static LibraryInfo,
        /// Every name tried, in order, with its reason.
        tried: Vec<Attempt>,
    },
    /// The override variable is set to something other than an absolute path.
    InvalidOverride {
        /// The library looked for.
        library: &'static LibraryInfo,
        /// The variable's value.
        value: String,
    },
    /// The library is a link-time stub (the toolkit's `lib64/stubs/libcuda.so`):
    /// it answers its stub code to everything, so it is never used.
    StubLibrary {
        /// The library looked for.
        library: &'static LibraryInfo,
        /// The library that turned out to be the stub.
        path: String,
    },
    /// The only library found reports another major version than the
    /// header's (a file renamed, or a broken install).
    WrongMajor {
        /// The library looked for.
        library: &'static LibraryInfo,
        /// The library found. Example: `/opt/venv/.../libnvrtc.so.13`.
        path: String,
        /// What it reports. Example: `12090`.
        found: u32,
        /// The header's major. Example: `13`.
        needed: u32,
    },
    /// A shim was called while the library was being loaded on the same
    /// thread (for example from the library's own initializer).
    Reentrant {
        /// The library being loaded.
        library: &'static LibraryInfo,
    },
    /// This process was forked while another thread was loading the
    /// library; the child cannot finish that load.
    ForkedDuringLoad {
        /// The library being loaded.
        library: &'static LibraryInfo,
    },
    /// The library is loaded but does not provide this function.
    SymbolNotFound {
        /// The library searched.
        library: &'static LibraryInfo,
        /// The C name. Example: `cuMemAlloc`.
        function: &'static str,
        /// The export looked for. Example: `cuMemAlloc_v2`.
        symbol: &'static str,
        /// The path or name the library was opened by.
        path: String,
        /// What the library answered.
        error: String,
    },
    /// The function's ABI version is newer than the library; the library was not asked.
    TooOld {
        /// The library.
        library: &'static LibraryInfo,
        /// The C name. Example: `cuCtxCreate`.
        function: &'static str,
        /// The function's ABI version. Example: `12050`.
        required: u32,
        /// What the library reports. Example: `12020`.
        found: u32,
    },
    /// The library's lookup (`cuGetProcAddress`) knows the function but not
    /// at this ABI version.
    VersionNotSufficient {
        /// The library.
        library: &'static LibraryInfo,
        /// The C name.
        function: &'static str,
        /// The ABI version asked for.
        version: u32,
        /// What the library reports.
        found: u32,
    },
    /// The library is reached only through another one's entry point (the
    /// driver through the CUDA runtime, [`Resolve::RuntimeEntryPoint`]), and
    /// that one could not be used.
    ///
    /// [`Resolve::RuntimeEntryPoint`]: crate::Resolve::RuntimeEntryPoint
    ThroughNotFound {
        /// The library reached through it. Example: the CUDA driver.
        library: &'static LibraryInfo,
        /// Why the one it is reached through could not be used (its own
        /// search's failure, about it).
        error: Box<LoadError>,
    },
    /// The library that hands this one out was loaded, but did not hand it
    /// out: it lacks the entry point, or its entry point failed (no driver
    /// behind the CUDA runtime).
    NoEntryPoint {
        /// The library reached through it. Example: the CUDA driver.
        library: &'static LibraryInfo,
        /// The one it is reached through. Example: the CUDA runtime.
        through: &'static LibraryInfo,
        /// Where that one was loaded from. Example: `/opt/venv/.../libcudart.so.13`.
        path: String,
        /// What it answered. Example: `cudaGetDriverEntryPointByVersion returned 35 for cuDriverGetVersion`.
        error: String,
    },
}

impl LoadError {
    /// The library this failure is about.
    #[must_use]
    pub fn library(&self) -> &'static LibraryInfo {
        match self {
            LoadError::LibraryNotFound { library, .. }
            | LoadError::InvalidOverride { library, .. }
            | LoadError::StubLibrary { library, .. }
            | LoadError::WrongMajor { library, .. }
            | LoadError::Reentrant { library }
            | LoadError::ForkedDuringLoad { library }
            | LoadError::SymbolNotFound { library, .. }
            | LoadError::TooOld { library, .. }
            | LoadError::VersionNotSufficient { library, .. }
            | LoadError::ThroughNotFound { library, .. }
            | LoadError::NoEntryPoint { library, .. } => library,
        }
    }

    /// The status value the drop-in layer returns for this failure.
    #[must_use]
    pub fn code(&self) -> u32 {
        let codes = self.library().codes;
        match self {
            LoadError::SymbolNotFound { .. } => codes.symbol_not_found,
            LoadError::StubLibrary { .. } => codes.stub_library,
            LoadError::TooOld { .. } | LoadError::VersionNotSufficient { .. } => codes.too_old,
            LoadError::ForkedDuringLoad { .. } => codes.not_initialized,
            _ => codes.library_not_found,
        }
    }
}

/// `` `path` is NVRTC 12.9, but the header is for NVRTC 13.x ``.
pub(crate) fn wrong_major(info: &LibraryInfo, path: &str, found: u32, needed: u32) -> String {
    format!(
        "`{path}` is {} {}, but the header is for {} {needed}.x",
        info.label,
        version_text(found),
        info.product
    )
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let info = self.library();
        let short = info.short_name;
        match self {
            // cuFile on Windows: no file name to search for.
            LoadError::LibraryNotFound { .. } if info.names.is_empty() => write!(
                f,
                "{} has no library for {}; set {} to the absolute path of one to use it",
                info.label,
                if cfg!(windows) { "Windows" } else { "this system" },
                info.override_var
            ),
            LoadError::LibraryNotFound { tried, .. } => {
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
            LoadError::InvalidOverride { value, .. } => write!(
                f,
                "{}=`{value}` is not an absolute path; relative paths are refused so that no library is picked up from the working directory",
                info.override_var
            ),
            LoadError::WrongMajor {
                path,
                found,
                needed,
                ..
            } => write!(
                f,
                "{}; install the {needed}.x library, or regenerate from the {} headers",
                wrong_major(info, path, *found, *needed),
                version_text(*found),
            ),
            LoadError::StubLibrary { path, .. } => write!(
                f,
                "`{path}` is NVIDIA's stub library, not a {short} ({} answered the stub code); remove the toolkit's lib64/stubs directory from LD_LIBRARY_PATH",
                info.version_function.to_string_lossy(),
            ),
            LoadError::ForkedDuringLoad { .. } => write!(
                f,
                "this process was forked while another thread was loading the {}; the child cannot use it",
                info.label
            ),
            LoadError::Reentrant { .. } => write!(
                f,
                "a {} shim was called while the library was being loaded on the same thread",
                info.label
            ),
            LoadError::SymbolNotFound {
                function,
                symbol,
                path,
                error,
                ..
            } => write!(
                f,
                "`{function}`: the {short} at `{path}` does not provide `{symbol}` ({error}); the {short} is older than the header, or does not export every function the header declares",
            ),
            LoadError::TooOld {
                function,
                required,
                found,
                ..
            } => write!(
                f,
                "{short} too old: `{function}` needs {} {}, {short} is {}",
                info.product,
                version_text(*required),
                version_text(*found),
            ),
            LoadError::VersionNotSufficient {
                function,
                version,
                found,
                ..
            } => {
                let lookup = info
                    .proc_address
                    .map_or("its lookup".into(), |(_, v1)| v1.to_string_lossy());
                write!(
                    f,
                    "{short} too old: {lookup} knows `{function}` but not its {} {} ABI ({short} is {})",
                    info.product,
                    version_text(*version),
                    version_text(*found),
                )
            }
            LoadError::ThroughNotFound { .. } | LoadError::NoEntryPoint { .. } => {
                self.fmt_through(f)
            }
        }
    }
}

impl LoadError {
    /// The messages of a library reached through another's entry point.
    fn fmt_through(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let info = self.library();
        match self {
            LoadError::ThroughNotFound { error, .. } => write!(
                f,
                "the {} is reached only through the {} (`--resolve runtime-entry-point`), which could not be used: {error}",
                info.label,
                error.library().label,
            ),
            LoadError::NoEntryPoint {
                through,
                path,
                error,
                ..
            } => write!(
                f,
                "the {} at `{path}` did not hand out the {} ({error}). {}",
                through.label, info.label, info.install,
            ),
            _ => Ok(()),
        }
    }
}

impl std::error::Error for LoadError {}
