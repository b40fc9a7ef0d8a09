//! A library once loaded, and its lookup of one function by name and ABI
//! version: the library's own (`cuGetProcAddress_v2`, `cuGetProcAddress`),
//! the one the CUDA runtime hands out, or its exports.

use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::path::{Path, PathBuf};

use crate::info::{LibraryInfo, Resolve, StreamMode};
use crate::loader::describe;

/// The CUDA runtime's lookup by name and CUDA version (12.5 and later).
pub(crate) const BY_VERSION_NAME: &str = "cudaGetDriverEntryPointByVersion";

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

    /// The step of its search that found it (`cushim doctor` lists them). Example: `loaded`.
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

impl GetProc {
    /// The lookup by name and ABI version that `library` exports itself, as
    /// its description names it (`cuGetProcAddress_v2`, else `cuGetProcAddress`).
    pub(crate) fn exported(info: &LibraryInfo, library: &libloading::Library) -> GetProc {
        let Some((v2, v1)) = info.proc_address else {
            return GetProc::Missing;
        };
        // SAFETY: each prototype is the one the library has exported since it
        // introduced the symbol (cuGetProcAddress 11.3, _v2 12.0).
        unsafe {
            if let Ok(f) = library.get::<GetProcV2>(v2.to_bytes_with_nul()) {
                GetProc::V2(*f)
            } else if let Ok(f) = library.get::<GetProcV1>(v1.to_bytes_with_nul()) {
                GetProc::V1(*f)
            } else {
                GetProc::Missing
            }
        }
    }
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

    /// The step of the search that found it (`cushim doctor` lists them). Example: `pip wheel (VIRTUAL_ENV)`.
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
            (GetProc::ByVersion(_), _) => return BY_VERSION_NAME,
            (GetProc::V2(_), Some((v2, _))) => v2,
            (GetProc::V1(_), Some((_, v1))) => v1,
            _ => return "none",
        };
        name.to_str().unwrap_or("(not UTF-8)")
    }
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
    /// The target's ABI version is newer than the library; it was not asked.
    TooOld,
    /// The library's lookup (`cuGetProcAddress_v2`) knows the name, but not at this ABI version.
    VersionNotSufficient,
    /// Not provided; the text says what the library answered.
    NotFound(String),
}

impl Loaded {
    /// Finds `target` by `resolve`. Never calls the library for a target whose
    /// ABI is newer than it, never passes NULL or flags 0 to
    /// `cuGetProcAddress`, and never retries with a lower version. A library
    /// reached through another's entry point is only ever asked through it,
    /// never searched for an export.
    ///
    /// # Errors
    /// Why there is no address: too old, version not sufficient, or not found.
    pub fn find(&self, target: &Target<'_>, resolve: Resolve) -> Result<*mut (), Miss> {
        let version = target.version;
        if version != 0 && self.version != 0 && version > self.version {
            return Err(Miss::TooOld);
        }
        let by_proc = (resolve != Resolve::Dlsym || self.through.is_some()) && version != 0;
        if by_proc {
            if let Some(found) = ask(self.get_proc, target) {
                return found;
            }
        }
        if let Some(through) = &self.through {
            return Err(Miss::NotFound(format!(
                "no ABI version to ask the {}'s {} for",
                through.info.label, through.entry_point
            )));
        }
        // SAFETY: the symbol is only read as an address, never called here.
        let found = unsafe {
            self.library
                .get::<*mut c_void>(target.symbol.to_bytes_with_nul())
        };
        match found {
            Ok(sym) if !(*sym).is_null() => Ok((*sym).cast()),
            Ok(_) => Err(Miss::NotFound("the exported address is NULL".into())),
            Err(e) => Err(Miss::NotFound(describe(&e))),
        }
    }
}

/// Asks the lookup `get_proc` for `target` at its ABI version; `None` when
/// there is no lookup. Never passes NULL or flags 0.
pub(crate) fn ask(get_proc: GetProc, target: &Target<'_>) -> Option<Result<*mut (), Miss>> {
    let version = target.version;
    let not_found = |why: String| Err(Miss::NotFound(why));
    let mut pfn: *mut c_void = std::ptr::null_mut();
    let found = match get_proc {
        GetProc::V2(get) => {
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
        GetProc::V1(get) => {
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
        GetProc::ByVersion(get) => {
            let mut status: c_int = 0;
            // SAFETY: valid name, out-pointer and status pointer; flags 1
            // (`cudaEnableLegacyStream`) or 2 (`cudaEnablePerThreadDefaultStream`).
            let rc = unsafe {
                get(
                    target.proc_name.as_ptr(),
                    &raw mut pfn,
                    version,
                    target.flags,
                    &raw mut status,
                )
            };
            let name = BY_VERSION_NAME;
            match (rc, status) {
                (0, 0) if !pfn.is_null() => Ok(pfn.cast()),
                (_, 2) => Err(Miss::VersionNotSufficient),
                (0, 0) => not_found(format!("{name} succeeded with a NULL pointer")),
                (0, s) => not_found(format!("{name} status {s}")),
                (rc, _) => not_found(format!("{name} returned {rc}")),
            }
        }
        GetProc::Missing => return None,
    };
    Some(found)
}
