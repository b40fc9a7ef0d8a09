//! The typed layer and the introspection of a generated module, generic
//! over the module ([`Module`]): the same for every library.

use std::ffi::{c_char, CStr};
use std::fmt;

use crate::error::LoadError;
use crate::function::Function;
use crate::library::Library;

/// A return type that can carry a loading failure through the C ABI: the
/// library's status type.
pub trait Status: Copy + Eq + 'static {
    /// The status with this value.
    fn from_code(code: u32) -> Self;
    /// The value, to compare and to look its name up. Example: `1`.
    fn code(&self) -> i64;
    /// Whether it is the success value: 0 in every CUDA library, unless the
    /// generated type says otherwise.
    #[inline]
    fn is_success(&self) -> bool {
        self.code() == 0
    }
}

macro_rules! integer_status {
    ($($t:ty)*) => {$(
        /// A status type that bindgen spells as a plain integer.
        impl Status for $t {
            #[inline]
            #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation, clippy::cast_lossless)]
            fn from_code(code: u32) -> Self {
                code as Self
            }
            #[inline]
            #[allow(clippy::cast_possible_wrap, clippy::cast_lossless)]
            fn code(&self) -> i64 {
                *self as i64
            }
        }
    )*};
}
integer_status!(i8 u8 i16 u16 i32 u32 i64 u64);

/// One constant of the status enum, for messages and for the answers that
/// need no library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatusName {
    /// Example: `2`.
    pub code: i64,
    /// Example: `CUDA_ERROR_OUT_OF_MEMORY`.
    pub name: &'static CStr,
}

/// What a generated module tells the typed layer: its library, its status
/// type and constants, and its functions. Each module implements it on one
/// type of its own.
pub trait Module: 'static {
    /// The status type every function returns. Example: `CUresult`.
    type Status: Status;
    /// Its C name, for messages. Example: `CUresult`.
    const STATUS_NAME: &'static str;
    /// The module's library.
    fn library() -> &'static Library;
    /// The status constants.
    fn status_names() -> &'static [StatusName];
    /// Every shim, sorted by symbol.
    fn functions() -> &'static [&'static Function];
}

/// The header's name of a status value. Example: `1` → `CUDA_ERROR_INVALID_VALUE`.
#[must_use]
pub fn status_name<M: Module>(code: i64) -> Option<&'static str> {
    name_of::<M>(code).and_then(|t| t.name.to_str().ok())
}

fn name_of<M: Module>(code: i64) -> Option<&'static StatusName> {
    M::status_names().iter().find(|t| t.code == code)
}

/// What a status's text function (`cuGetErrorName`, `cuGetErrorString`)
/// answers without the library, as the C++ stubs do: the constant's exact C
/// name in `*out` (never a description, which only the library knows), or
/// the invalid value code (and `*out` = NULL) for a code the header does not
/// list.
///
/// # Safety
/// `out` is NULL or valid for one pointer write.
pub unsafe fn status_fallback<M: Module>(code: M::Status, out: *mut *const c_char) -> M::Status {
    let codes = M::library().info().codes;
    if out.is_null() {
        return M::Status::from_code(codes.invalid_value);
    }
    let found = name_of::<M>(code.code()).map(|t| t.name);
    // SAFETY: the caller passes a valid out-pointer; the name is static.
    unsafe { *out = found.map_or(std::ptr::null(), CStr::as_ptr) };
    M::Status::from_code(if found.is_some() {
        codes.success
    } else {
        codes.invalid_value
    })
}

/// What a function that returns a status's text (`nvrtcGetErrorString`)
/// answers without the library: the constant's exact C name, or
/// `unrecognized status` for a code the header does not list (never NULL).
#[must_use]
pub fn returned_fallback<M: Module>(code: M::Status) -> *const c_char {
    name_of::<M>(code.code())
        .map_or(c"unrecognized status", |t| t.name)
        .as_ptr()
}

/// The typed layer's error: a library that answered with a failure code, or
/// a library (or one function of it) that could not be loaded.
pub enum Error<M: Module> {
    /// The library ran and returned this code.
    Status(M::Status),
    /// The call never reached the library.
    Load(&'static LoadError),
}

impl<M: Module> Clone for Error<M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M: Module> Copy for Error<M> {}

impl<M: Module> PartialEq for Error<M> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Error::Status(a), Error::Status(b)) => a == b,
            (Error::Load(a), Error::Load(b)) => a == b,
            _ => false,
        }
    }
}

impl<M: Module> Eq for Error<M> {}

/// `CUDA_ERROR_INVALID_VALUE (1)`, or `CUresult 999` for a value the header does not list.
struct Code<M>(i64, std::marker::PhantomData<M>);

impl<M: Module> fmt::Display for Code<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match status_name::<M>(self.0) {
            Some(name) => write!(f, "{name} ({})", self.0),
            None => write!(f, "{} {}", M::STATUS_NAME, self.0),
        }
    }
}

impl<M: Module> Error<M> {
    fn shown(code: M::Status) -> Code<M> {
        Code(code.code(), std::marker::PhantomData)
    }
}

impl<M: Module> fmt::Display for Error<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Status(code) => write!(
                f,
                "{} call failed: {}",
                M::library().info().label,
                Self::shown(*code)
            ),
            Error::Load(e) => e.fmt(f),
        }
    }
}

impl<M: Module> fmt::Debug for Error<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Status(code) => write!(f, "Status({})", Self::shown(*code)),
            Error::Load(e) => f.debug_tuple("Load").field(e).finish(),
        }
    }
}

impl<M: Module> std::error::Error for Error<M> {}

/// The typed layer's answer for a call that returned `code`: `Ok` on the
/// library's success value, else the library's code or, when the call never
/// reached the library, why.
///
/// # Errors
/// See `classify`.
#[inline]
pub fn status_result<M: Module>(f: &'static Function, code: M::Status) -> Result<(), Error<M>> {
    if code.is_success() {
        Ok(())
    } else {
        Err(classify(f, code))
    }
}

/// The typed layer's answer for a call that returned `value`, not a status:
/// the value, unless the call never reached the library.
///
/// # Errors
/// `Error::Load`, why the function cannot be had.
#[inline]
pub fn value_result<M: Module, T>(f: &'static Function, value: T) -> Result<T, Error<M>> {
    match f.failed() {
        Some(e) => Err(Error::Load(e)),
        None => Ok(value),
    }
}

/// Tells a loading failure from a library's failure; only on the error path.
#[cold]
#[must_use]
pub fn classify<M: Module>(f: &'static Function, code: M::Status) -> Error<M> {
    match f.failed() {
        Some(e) => Error::Load(e),
        None => Error::Status(code),
    }
}

/// The shim with this C name or symbol (`cuMemAlloc` or `cuMemAlloc_v2`;
/// `nvmlInit`, which the header maps to `nvmlInit_v2`).
#[must_use]
pub fn function<M: Module>(name: &str) -> Option<&'static Function> {
    M::functions().iter().copied().find(|f| {
        f.name == name || f.symbol.to_bytes() == name.as_bytes() || f.aliases.contains(&name)
    })
}

/// Whether the library provides this function (binding it now if needed).
#[must_use]
pub fn is_available<M: Module>(name: &str) -> bool {
    function::<M>(name).is_some_and(|f| f.check().is_ok())
}

/// Functions that a program needs but cannot have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    /// The library's name. Example: `cuBLAS`.
    pub library: &'static str,
    /// Each missing function with the reason; `None` when the header has no such function.
    pub functions: Vec<(String, Option<&'static LoadError>)>,
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} required {} function(s) unavailable:",
            self.functions.len(),
            self.library
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
/// `Missing`, with each function the library cannot provide and why.
pub fn require<M: Module>(names: &[&str]) -> Result<(), Missing> {
    let functions: Vec<(String, Option<&'static LoadError>)> = names
        .iter()
        .filter_map(|name| match function::<M>(name) {
            None => Some(((*name).to_string(), None)),
            Some(f) => f.check().err().map(|e| ((*name).to_string(), Some(e))),
        })
        .collect();
    if functions.is_empty() {
        Ok(())
    } else {
        Err(Missing {
            library: M::library().info().label,
            functions,
        })
    }
}

/// Binds every shim now. `Err` when the library itself cannot be used;
/// otherwise the functions it lacks (empty when it has them all).
///
/// # Errors
/// Why the library cannot be used at all.
pub fn preload_all<M: Module>(
) -> Result<Vec<(&'static str, &'static LoadError)>, &'static LoadError> {
    M::library().get()?;
    Ok(M::functions()
        .iter()
        .filter_map(|f| f.check().err().map(|e| (f.name, e)))
        .collect())
}
