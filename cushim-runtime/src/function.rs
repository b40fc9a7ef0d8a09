//! One shim's facts and binding state, and how it is bound.

use std::ffi::{c_int, c_void, CStr};
use std::fmt;
use std::sync::atomic::{AtomicPtr, Ordering};

use crate::error::LoadError;
use crate::info::{Resolve, StreamMode};
use crate::library::Library;
use crate::search::{describe, GetProc, Loaded};

/// What the generator knows of one shim, from its IR: a [`Function`]'s
/// public part (`f.name` reads it through the function).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    /// The name C callers write. Example: `cuMemAlloc`.
    pub name: &'static str,
    /// Its other C names. Example: `nvmlInit` for `nvmlInit_v2`.
    pub aliases: &'static [&'static str],
    /// The exported symbol of the legacy-stream variant. Example: `cuMemAlloc_v2`.
    pub symbol: &'static CStr,
    /// The base name for the library's lookup (`cuGetProcAddress`). Example: `cuMemAlloc`.
    pub proc_name: &'static CStr,
    /// ABI version from the PFN table; 0 when the table had none. Example: `3020`.
    pub version: u32,
    /// In a merged module, the first release that declared it (`11080`); 0 otherwise.
    pub since: u32,
    /// The per-thread variant and its ABI version. Example: `("cuMemcpyHtoD_v2_ptds", 7000)`.
    pub per_thread: Option<(&'static CStr, u32)>,
}

/// One shim: its facts ([`Facts`], public through `Deref`) and its binding
/// state, which is the runtime's alone, so that no safe code can repoint a
/// shim. Its state is two atomics, so that a module's statics (one a shim)
/// are cheap to compile.
pub struct Function {
    facts: Facts,
    /// The library it belongs to.
    library: &'static Library,
    /// The shim's resolver, type-erased: the slot's first value.
    resolver: unsafe extern "C" fn(),
    /// Where the shim's call goes: its resolver until the function is bound,
    /// then the library's function. A function the library cannot give keeps
    /// its resolver, which answers as the library would be absent.
    slot: AtomicPtr<()>,
    /// Why it cannot be bound, once that is final: the library's failure or
    /// this function's own, kept for the life of the process; NULL while it
    /// is bound or not yet tried.
    reason: AtomicPtr<LoadError>,
}

impl std::ops::Deref for Function {
    type Target = Facts;

    fn deref(&self) -> &Facts {
        &self.facts
    }
}

impl fmt::Debug for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Function")
            .field("facts", &self.facts)
            .finish_non_exhaustive()
    }
}

impl Function {
    /// An unbound shim of `library`, whose calls go to `resolver` until it is
    /// bound: the generated shim's own function, with the C function's
    /// signature, type-erased.
    #[must_use]
    pub const fn new(
        library: &'static Library,
        facts: Facts,
        resolver: unsafe extern "C" fn(),
    ) -> Function {
        Function {
            facts,
            library,
            resolver,
            slot: AtomicPtr::new(resolver as *mut ()),
            reason: AtomicPtr::new(std::ptr::null_mut()),
        }
    }

    /// Where a call of the shim goes now: its resolver, or the library's
    /// function once bound. The shim calls it as the C function's type.
    #[inline]
    #[must_use]
    pub fn address(&self) -> *mut () {
        self.slot.load(Ordering::Acquire)
    }

    /// The library it belongs to.
    #[must_use]
    pub fn library(&self) -> &'static Library {
        self.library
    }

    /// Finds its address for its library's stream mode, by the module's
    /// [`Resolve`] (see [`Loaded::find`]).
    ///
    /// # Errors
    /// Why it cannot be bound; kept, so later calls get the same answer
    /// (unless the call came from inside the library's load, which fails
    /// only that once).
    pub fn resolve(&'static self) -> Result<*mut (), &'static LoadError> {
        if let Some(e) = self.failed() {
            return Err(e);
        }
        let library = self.library;
        let mode = crate::stream::lock(library);
        let loaded = match library.get() {
            Ok(loaded) => loaded,
            Err(e @ LoadError::Reentrant { .. }) => return Err(e),
            Err(e) => return Err(self.keep(e)),
        };
        let target = Target::new(
            self.proc_name,
            (self.symbol, self.version),
            self.per_thread,
            mode,
        );
        let info = library.info();
        let error = match loaded.find(&target, info.resolve) {
            Ok(p) => return Ok(p),
            Err(Miss::TooOld) => LoadError::TooOld {
                library: info,
                function: self.name,
                required: target.version,
                found: loaded.version,
            },
            Err(Miss::VersionNotSufficient) => LoadError::VersionNotSufficient {
                library: info,
                function: self.name,
                version: target.version,
                found: loaded.version,
            },
            Err(Miss::NotFound(error)) => LoadError::SymbolNotFound {
                library: info,
                function: self.name,
                symbol: target.symbol.to_str().unwrap_or(self.name),
                path: loaded.path.clone(),
                error,
            },
        };
        // Kept for the process; freed again if another thread kept one first.
        let own = Box::into_raw(Box::new(error));
        // SAFETY: `own` is a live box, freed below only when it was not kept.
        let kept = self.keep(unsafe { &*own });
        if !std::ptr::eq(kept, own) {
            // SAFETY: not kept, so nothing else refers to it.
            drop(unsafe { Box::from_raw(own) });
        }
        Err(library.note(kept))
    }

    /// Keeps `e` as the reason, unless another thread kept one first; returns
    /// the one kept.
    fn keep(&self, e: &'static LoadError) -> &'static LoadError {
        match self.reason.compare_exchange(
            std::ptr::null_mut(),
            std::ptr::from_ref(e).cast_mut(),
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            Ok(_) => e,
            // SAFETY: only `&'static LoadError` values are ever stored.
            Err(kept) => unsafe { &*kept },
        }
    }

    /// Binds it: patches its slot with the library's function and returns
    /// that; NULL when the library cannot give it, which the resolver answers
    /// as the library would be absent ([`Function::absent_code`]). After a
    /// final failure, one atomic load.
    pub fn bind(&'static self) -> *mut () {
        match self.resolve() {
            Ok(p) => {
                self.slot.store(p, Ordering::Release);
                p
            }
            Err(_) => std::ptr::null_mut(),
        }
    }

    /// The code a call answers without the function (its reason's, or "no
    /// library" before any).
    #[must_use]
    pub fn absent_code(&self) -> u32 {
        self.failed()
            .map_or(self.library.info().codes.library_not_found, LoadError::code)
    }

    /// Why the function cannot be had, once that is final; `None` while it
    /// is bound or not yet tried.
    #[must_use]
    pub fn failed(&self) -> Option<&'static LoadError> {
        let p = self.reason.load(Ordering::Acquire);
        // SAFETY: only `&'static LoadError` values are ever stored.
        unsafe { p.as_ref() }
    }

    /// Binds it now if it was not yet, and reports the failure, if any.
    ///
    /// # Errors
    /// Why it cannot be bound.
    pub fn check(&'static self) -> Result<(), &'static LoadError> {
        if self.address() == self.resolver as *mut () {
            self.bind();
        }
        match self.failed() {
            Some(e) => Err(e),
            None => Ok(()),
        }
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
            let name = crate::entry::BY_VERSION_NAME;
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
