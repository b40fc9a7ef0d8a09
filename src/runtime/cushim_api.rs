//! The typed layer and the introspection of a generated module: the same for
//! every header, so it is real source that cushim compiles and tests, and the
//! Rust emitter copies verbatim. The enclosing module provides `cushim_loader`,
//! `CushimStatus` (the status type), `CUSHIM_STATUS_NAME`, `CUSHIM_CODES`,
//! `CUSHIM_LIBRARY`, `CUSHIM_STATUS_TEXTS` and `FUNCTIONS`.

use std::ffi::{c_char, CStr};

use super::cushim_loader::{self, LoadError, Status as _};

/// One constant of the status enum, for the answers that need no library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatusText {
    /// Example: `2`.
    pub code: i64,
    /// Example: `CUDA_ERROR_OUT_OF_MEMORY`.
    pub name: &'static CStr,
    /// Example: `out of memory`.
    pub text: &'static CStr,
}

/// The header's name of a status value. Example: `1` → `CUDA_ERROR_INVALID_VALUE`.
#[must_use]
pub fn status_name(code: i64) -> Option<&'static str> {
    status_text_of(code).and_then(|t| t.name.to_str().ok())
}

fn status_text_of(code: i64) -> Option<&'static StatusText> {
    super::CUSHIM_STATUS_TEXTS.iter().find(|t| t.code == code)
}

/// Which answer a driver-less fallback gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// `cuGetErrorName`: the constant's name.
    Name,
    /// `cuGetErrorString`: a description of it.
    Text,
}

/// What `cuGetErrorName`/`cuGetErrorString` answer without the library, as the
/// C++ stubs do: the name or description of `code` in `*out`, or the invalid
/// value code (and `*out` = NULL) for a code the header does not list.
///
/// # Safety
/// `out` is NULL or valid for one pointer write.
pub unsafe fn status_fallback(
    code: super::CushimStatus,
    out: *mut *const c_char,
    which: Fallback,
) -> super::CushimStatus {
    let codes = super::CUSHIM_CODES;
    if out.is_null() {
        return super::CushimStatus::from_code(codes.invalid_value);
    }
    let found = status_text_of(code.code()).map(|t| match which {
        Fallback::Name => t.name,
        Fallback::Text => t.text,
    });
    // SAFETY: the caller passes a valid out-pointer; the text is static.
    unsafe { *out = found.map_or(std::ptr::null(), CStr::as_ptr) };
    super::CushimStatus::from_code(if found.is_some() {
        codes.success
    } else {
        codes.invalid_value
    })
}

/// What a function that returns a status's name or text (`nvrtcGetErrorString`)
/// answers without the library: the name or description of `code`, or
/// `unrecognized status` for a code the header does not list (never NULL).
#[must_use]
pub fn returned_fallback(code: super::CushimStatus, which: Fallback) -> *const c_char {
    status_text_of(code.code())
        .map_or(c"unrecognized status", |t| match which {
            Fallback::Name => t.name,
            Fallback::Text => t.text,
        })
        .as_ptr()
}

/// The typed layer's error: a driver that answered with a failure code, or a
/// driver (or one function of it) that could not be loaded.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Error {
    /// The driver ran and returned this code.
    Driver(super::CushimStatus),
    /// The call never reached the driver.
    Load(&'static LoadError),
}

/// `CUDA_ERROR_INVALID_VALUE (1)`, or `CUresult 999` for a value the header does not list.
struct Code(i64);

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match status_name(self.0) {
            Some(name) => write!(f, "{name} ({})", self.0),
            None => write!(f, "{} {}", super::CUSHIM_STATUS_NAME, self.0),
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Driver(code) => write!(
                f,
                "{} call failed: {}",
                super::CUSHIM_LIBRARY.label,
                Code(code.code())
            ),
            Error::Load(e) => e.fmt(f),
        }
    }
}

impl std::fmt::Debug for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Driver(code) => write!(f, "Driver({})", Code(code.code())),
            Error::Load(e) => f.debug_tuple("Load").field(e).finish(),
        }
    }
}

impl std::error::Error for Error {}

/// Tells a loading failure from a driver failure; only on the error path.
#[cold]
pub(super) fn cushim_classify(
    f: &'static cushim_loader::Function,
    code: super::CushimStatus,
) -> Error {
    match cushim_loader::failed(f) {
        Some(e) => Error::Load(e),
        None => Error::Driver(code),
    }
}

/// The typed layer: every function as `Api::name(...) -> Result<(), Error>`.
pub struct Api;

/// Why the most recent shim that could not reach the driver failed.
#[must_use]
pub fn last_load_error() -> Option<&'static LoadError> {
    cushim_loader::last_error()
}

/// The shim with this C name or symbol (`cuMemAlloc` or `cuMemAlloc_v2`;
/// `nvmlInit`, which the header maps to `nvmlInit_v2`).
#[must_use]
pub fn function(name: &str) -> Option<&'static cushim_loader::Function> {
    super::FUNCTIONS.iter().copied().find(|f| {
        f.name == name || f.symbol.to_bytes() == name.as_bytes() || f.aliases.contains(&name)
    })
}

/// Whether the driver provides this function (binding it now if needed).
#[must_use]
pub fn is_available(name: &str) -> bool {
    function(name).is_some_and(|f| cushim_loader::check(f).is_ok())
}

/// Functions that a program needs but cannot have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    /// Each missing function with the reason; `None` when the header has no such function.
    pub functions: Vec<(String, Option<&'static LoadError>)>,
}

impl std::fmt::Display for Missing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} required CUDA function(s) unavailable:",
            self.functions.len()
        )?;
        for (name, why) in &self.functions {
            match why {
                Some(e) => write!(f, "\n  {name}: {e}")?,
                None => write!(f, "\n  {name}: not a function of this header")?,
            }
        }
        Ok(())
    }
}

impl std::error::Error for Missing {}

/// Checks every function in `names` and returns one error listing all that are missing.
///
/// # Errors
/// `Missing`, with each function this driver cannot provide and why.
pub fn require(names: &[&str]) -> Result<(), Missing> {
    let functions: Vec<(String, Option<&'static LoadError>)> = names
        .iter()
        .filter_map(|name| match function(name) {
            None => Some((name.to_string(), None)),
            Some(f) => cushim_loader::check(f)
                .err()
                .map(|e| (name.to_string(), Some(e))),
        })
        .collect();
    if functions.is_empty() {
        Ok(())
    } else {
        Err(Missing { functions })
    }
}

/// Binds every shim now. `Err` when the library itself cannot be used;
/// otherwise the functions this driver lacks (empty when it has them all).
///
/// # Errors
/// Why the library cannot be used at all.
pub fn preload_all() -> Result<Vec<(&'static str, &'static LoadError)>, &'static LoadError> {
    cushim_loader::driver()?;
    Ok(super::FUNCTIONS
        .iter()
        .filter_map(|f| cushim_loader::check(f).err().map(|e| (f.name, e)))
        .collect())
}
