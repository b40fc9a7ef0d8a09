//! The typed layer and the introspection of a generated module: the same for
//! every header, so it is real source that cushim compiles and tests, and the
//! Rust emitter copies verbatim. The enclosing module provides `cushim_loader`,
//! `CushimStatus` (the status type), `CUSHIM_STATUS_NAME` and `FUNCTIONS`.

use super::cushim_loader::{self, LoadError};

/// The typed layer's error: a driver that answered with a failure code, or a
/// driver (or one function of it) that could not be loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// The driver ran and returned this code.
    Driver(super::CushimStatus),
    /// The call never reached the driver.
    Load(&'static LoadError),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Driver(code) => write!(
                f,
                "CUDA driver call failed with {} {}",
                super::CUSHIM_STATUS_NAME,
                code.0
            ),
            Error::Load(e) => e.fmt(f),
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
pub fn last_load_error() -> Option<&'static LoadError> {
    cushim_loader::last_error()
}

/// The shim with this C name or symbol (`cuMemAlloc` or `cuMemAlloc_v2`).
pub fn function(name: &str) -> Option<&'static cushim_loader::Function> {
    super::FUNCTIONS
        .iter()
        .copied()
        .find(|f| f.name == name || f.symbol.to_bytes() == name.as_bytes())
}

/// Whether the driver provides this function (binding it now if needed).
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
pub fn preload_all() -> Result<Vec<(&'static str, &'static LoadError)>, &'static LoadError> {
    cushim_loader::driver()?;
    Ok(super::FUNCTIONS
        .iter()
        .filter_map(|f| cushim_loader::check(f).err().map(|e| (f.name, e)))
        .collect())
}
