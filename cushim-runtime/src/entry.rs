//! The driver reached through the CUDA runtime's entry point
//! ([`Resolve::RuntimeEntryPoint`]): the loader never opens the driver
//! itself. It finds the runtime as the runtime's own module would (a copy
//! already loaded first), and takes the driver's functions from it:
//!
//! - from a runtime that exports `cudaGetDriverEntryPointByVersion` (12.5
//!   and later), each function by its name and ABI version, as
//!   `cuGetProcAddress` would be asked;
//! - from an older one, whose `cudaGetDriverEntryPoint` takes no version and
//!   hands out each function at the ABI of the runtime's own release (for
//!   `cuCtxCreate` from a 12.2 runtime, `cuCtxCreate_v3`, which a 12.9
//!   header's `cuCtxCreate` is not), only the driver's own lookup
//!   (`cuGetProcAddress`, whose ABI is the one that release's header
//!   declares), through which every function is then bound at its ABI
//!   version. The entry point takes 3 arguments before 12.0 and 4 from 12.0
//!   on (the 4th is a status the runtime writes), chosen by the runtime's
//!   version: never the 3-argument call into a 12.x runtime.
//!
//! [`Resolve::RuntimeEntryPoint`]: crate::Resolve::RuntimeEntryPoint

use std::ffi::{c_char, c_int, c_void, CStr};

use crate::error::LoadError;
use crate::info::{version_text, LibraryInfo};
use crate::loaded::{
    ask, ByVersion, GetProc, GetProcV1, GetProcV2, Loaded, Miss, Target, Through, BY_VERSION_NAME,
};
use crate::loader::file_of;
use crate::version::call_version;

const BY_VERSION: &CStr = c"cudaGetDriverEntryPointByVersion";
/// The runtime's lookup by name at its own release (11.3 and later).
const ENTRY_POINT_NAME: &str = "cudaGetDriverEntryPoint";
const ENTRY_POINT: &CStr = c"cudaGetDriverEntryPoint";

/// `cudaGetDriverEntryPoint(symbol, &pfn, flags)`, 11.3 to 11.8.
type EntryPoint3 = unsafe extern "C" fn(*const c_char, *mut *mut c_void, u64) -> c_int;
/// `cudaGetDriverEntryPoint(symbol, &pfn, flags, &driverStatus)`, 12.0 and later.
type EntryPoint4 = unsafe extern "C" fn(*const c_char, *mut *mut c_void, u64, *mut c_int) -> c_int;

/// The step that [`Loaded::found_by`] names for a library handed out by
/// another's entry point.
pub(crate) const STEP: &str = "runtime entry point";

/// The ABI version of the driver's version function (`cuDriverGetVersion`,
/// one ABI since CUDA 2.2), asked for to learn the driver's version.
const VERSION_FUNCTION_ABI: u32 = 2020;

/// The `cudaEnableLegacyStream` flag: the lookups themselves have no
/// per-thread variant.
const LEGACY: u64 = 1;

/// Which `cudaGetDriverEntryPoint` a runtime of `version` exports, by its
/// number of arguments: 3 from 11.3 on, 4 from 12.0 on; `None` before 11.3
/// (none). A runtime that did not report its version (11.8's answers
/// `cudaErrorInsufficientDriver` without a driver) is told by the major its
/// file name carries (`major`, 0 when unknown): 11 (whose entry point, where
/// it has one, is 11.3's or later) or later; else `None`: no call is safe.
#[must_use]
pub(crate) fn entry_point_arity(version: u32, major: u32) -> Option<u8> {
    match (version, major) {
        (0, 12..) | (12_000.., _) => Some(4),
        (0, 11) | (11_030.., _) => Some(3),
        _ => None,
    }
}

/// `info`'s library as `runtime` (loaded) hands it out: its lookup, its
/// version (asked through the lookup) and the file it lives in.
pub(crate) fn through(info: &'static LibraryInfo, runtime: Loaded) -> Result<Loaded, LoadError> {
    let shown = runtime
        .file
        .as_ref()
        .map_or_else(|| runtime.path.clone(), |f| f.display().to_string());
    let no_entry = |error: String| LoadError::NoEntryPoint {
        library: info,
        through: runtime.info,
        path: shown.clone(),
        error,
    };
    let (get_proc, entry_point) = lookup(info, &runtime).map_err(&no_entry)?;
    let function = info.version_function;
    let target = Target {
        proc_name: function,
        symbol: function,
        version: VERSION_FUNCTION_ABI,
        flags: LEGACY,
    };
    let address = match ask(get_proc, &target) {
        Some(Ok(p)) => p.cast::<c_void>(),
        Some(Err(miss)) => {
            let why = match miss {
                Miss::NotFound(why) => why,
                Miss::VersionNotSufficient => "version not sufficient".into(),
                Miss::TooOld => "too old".into(),
            };
            return Err(no_entry(format!(
                "{entry_point} did not hand out `{}`: {why}",
                function.to_string_lossy()
            )));
        }
        None => return Err(no_entry(format!("{entry_point} was not found"))),
    };
    // SAFETY: the runtime handed out the driver's version function, at the
    // ABI the description's prototype is.
    let (code, version) = unsafe { call_version(info.version_query, address) };
    let file = file_of(address);
    let path = file.as_ref().map_or_else(
        || format!("the {} behind `{shown}`", info.label),
        |f| f.display().to_string(),
    );
    if info.stub_code.is_some_and(|stub| code == Some(stub)) {
        return Err(LoadError::StubLibrary {
            library: info,
            path,
        });
    }
    Ok(Loaded {
        through: Some(Box::new(Through {
            info: runtime.info,
            path: runtime.path,
            file: runtime.file,
            from: runtime.from,
            version: runtime.version,
            entry_point,
        })),
        // The runtime's handle: kept, never unloaded, never searched for
        // an export of the driver.
        library: runtime.library,
        info,
        path,
        file,
        from: STEP,
        version,
        get_proc,
        siblings: Vec::new(),
    })
}

/// The lookup `runtime` offers for `info`'s functions: its
/// `cudaGetDriverEntryPointByVersion`, or the driver's own lookup
/// (`cuGetProcAddress`) as its `cudaGetDriverEntryPoint` hands it out.
fn lookup(info: &LibraryInfo, runtime: &Loaded) -> Result<(GetProc, &'static str), String> {
    // SAFETY: only the address is taken; the prototype is the one NVIDIA's
    // runtime has exported since 12.5.
    if let Ok(f) = unsafe {
        runtime
            .library
            .get::<ByVersion>(BY_VERSION.to_bytes_with_nul())
    } {
        return Ok((GetProc::ByVersion(*f), BY_VERSION_NAME));
    }
    // SAFETY: only the address is taken.
    let exported = unsafe {
        runtime
            .library
            .get::<*mut c_void>(ENTRY_POINT.to_bytes_with_nul())
            .map(|f| *f)
    };
    let Ok(entry) = exported else {
        return Err(format!(
            "it exports neither `{BY_VERSION_NAME}` (12.5 and later) nor `{ENTRY_POINT_NAME}` (11.3 and later)"
        ));
    };
    let version = runtime.version;
    let Some(arity) = entry_point_arity(version, runtime.info.major) else {
        return Err(if version == 0 {
            format!(
                "it lacks `{BY_VERSION_NAME}`, and its version, which tells the arguments of its `{ENTRY_POINT_NAME}`, is unknown"
            )
        } else {
            format!(
                "it is {} {}, whose `{ENTRY_POINT_NAME}` is not known (11.3 and later have one)",
                runtime.info.label,
                version_text(version)
            )
        });
    };
    let Some((_, name)) = info.proc_address else {
        return Err(format!(
            "it lacks `{BY_VERSION_NAME}`, and the {} has no lookup by ABI version to ask its `{ENTRY_POINT_NAME}` for",
            info.label
        ));
    };
    let mut pfn: *mut c_void = std::ptr::null_mut();
    let mut status: c_int = 0;
    // SAFETY: the prototype of the runtime's release (4 arguments from 12.0
    // on, the 4th written by the runtime; 3 before); valid name, out-pointer
    // and status pointer; flags 1.
    let rc = unsafe {
        if arity == 4 {
            let f = std::mem::transmute::<*mut c_void, EntryPoint4>(entry);
            f(name.as_ptr(), &raw mut pfn, LEGACY, &raw mut status)
        } else {
            let f = std::mem::transmute::<*mut c_void, EntryPoint3>(entry);
            f(name.as_ptr(), &raw mut pfn, LEGACY)
        }
    };
    let name = name.to_string_lossy();
    if rc != 0 || status != 0 || pfn.is_null() {
        return Err(format!(
            "its {arity}-argument `{ENTRY_POINT_NAME}` answered {rc}, status {status}, {} for `{name}`",
            if pfn.is_null() { "no address" } else { "an address" }
        ));
    }
    // SAFETY: the runtime hands out the lookup at its release's ABI: the
    // 5-argument `cuGetProcAddress_v2` from 12.0 on, the 4-argument one before.
    let get_proc = unsafe {
        if arity == 4 {
            GetProc::V2(std::mem::transmute::<*mut c_void, GetProcV2>(pfn))
        } else {
            GetProc::V1(std::mem::transmute::<*mut c_void, GetProcV1>(pfn))
        }
    };
    Ok((get_proc, ENTRY_POINT_NAME))
}

#[cfg(test)]
mod tests {
    use super::entry_point_arity;

    #[test]
    fn the_arity_follows_the_runtime_release_and_is_never_guessed() {
        for major in [0, 11, 12, 13] {
            assert_eq!(entry_point_arity(11_020, major), None);
            assert_eq!(entry_point_arity(11_030, major), Some(3));
            assert_eq!(entry_point_arity(11_080, major), Some(3));
            assert_eq!(entry_point_arity(12_000, major), Some(4));
            assert_eq!(entry_point_arity(12_040, major), Some(4));
            assert_eq!(entry_point_arity(13_050, major), Some(4));
        }
        // An unknown version: the file name's major, else nothing.
        assert_eq!(entry_point_arity(0, 0), None);
        assert_eq!(entry_point_arity(0, 10), None);
        assert_eq!(entry_point_arity(0, 11), Some(3));
        assert_eq!(entry_point_arity(0, 12), Some(4));
        assert_eq!(entry_point_arity(0, 13), Some(4));
    }
}
