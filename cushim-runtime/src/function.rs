//! One shim's facts and binding state, and how it is bound.

use std::ffi::CStr;
use std::fmt;
use std::sync::atomic::{AtomicPtr, Ordering};

use crate::error::LoadError;
use crate::library::Library;
use crate::loaded::{Miss, Target};

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
    /// [`Resolve`](crate::Resolve) (see [`Loaded::find`](crate::Loaded::find)).
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
        let mode = library.lock_stream_mode();
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
