//! `cushim doctor`: loads the driver of this machine the way the generated
//! shims do, and reports what the header's functions would bind to.
//!
//! The rules are the runtime's (see `templates/rust/loader.rs`): `libcuda.so.1`
//! or an absolute `CUSHIM_CUDA_LIBRARY`, the stub check through
//! `cuDriverGetVersion`, then per function `cuGetProcAddress_v2`, v1 or the
//! exact export, with the function's own ABI version and never a lower one.

use std::ffi::{c_char, c_int, c_void, CString};
use std::fmt::Write as _;
use std::path::Path;

use crate::diag::Error;
use crate::ir::{version_text, Api, Function};
use crate::options::StreamMode;

const STUB_LIBRARY: c_int = 34;

type DriverGetVersion = unsafe extern "C" fn(*mut c_int) -> c_int;
type GetProcV2 =
    unsafe extern "C" fn(*const c_char, *mut *mut c_void, c_int, u64, *mut c_int) -> c_int;
type GetProcV1 = unsafe extern "C" fn(*const c_char, *mut *mut c_void, c_int, u64) -> c_int;

/// The driver as the shims see it.
struct Driver {
    library: libloading::Library,
    path: String,
    version: u32,
    v2: Option<GetProcV2>,
    v1: Option<GetProcV1>,
}

/// What one function would bind to.
enum Binding {
    Bound,
    TooOld,
    VersionNotSufficient,
    Missing(String),
}

fn open() -> Result<Driver, Error> {
    let path = match std::env::var_os("CUSHIM_CUDA_LIBRARY").filter(|v| !v.is_empty()) {
        Some(v) if !Path::new(&v).is_absolute() => {
            return Err(Error::new(format!(
                "CUSHIM_CUDA_LIBRARY=`{}` is not an absolute path; relative paths are refused",
                v.to_string_lossy()
            )))
        }
        Some(v) => v.to_string_lossy().into_owned(),
        None => "libcuda.so.1".to_string(),
    };
    // SAFETY: loading the driver runs its initializers, as the shims would.
    let library = unsafe { libloading::Library::new(&path) }.map_err(|e| {
        let why = std::error::Error::source(&e).map_or(e.to_string(), |s| s.to_string());
        Error::new(format!("no CUDA driver: cannot load `{path}` ({why})")).hint(
            "install the NVIDIA driver, or set CUSHIM_CUDA_LIBRARY to the absolute path of libcuda",
        )
    })?;
    // SAFETY: these prototypes are the driver's since the symbols appeared.
    unsafe {
        let mut version: c_int = 0;
        if let Ok(f) = library.get::<DriverGetVersion>(b"cuDriverGetVersion\0") {
            if f(&mut version) == STUB_LIBRARY {
                return Err(Error::new(format!(
                    "`{path}` is NVIDIA's stub library, not a driver (cuDriverGetVersion answered CUDA_ERROR_STUB_LIBRARY)"
                ))
                .hint("remove the toolkit's lib64/stubs directory from LD_LIBRARY_PATH"));
            }
        }
        let v2 = library
            .get::<GetProcV2>(b"cuGetProcAddress_v2\0")
            .ok()
            .map(|f| *f);
        let v1 = library
            .get::<GetProcV1>(b"cuGetProcAddress\0")
            .ok()
            .map(|f| *f);
        Ok(Driver {
            library,
            path,
            version: version.max(0) as u32,
            v2,
            v1,
        })
    }
}

fn bind(driver: &Driver, f: &Function, mode: StreamMode) -> (String, u32, Binding) {
    let (symbol, version, flags) = match (mode, &f.per_thread) {
        (StreamMode::PerThread, Some(t)) => (t.symbol.clone(), t.version.unwrap_or(0), 2u64),
        _ => (f.symbol.clone(), f.version.unwrap_or(0), 1u64),
    };
    if version != 0 && driver.version != 0 && version > driver.version {
        return (symbol, version, Binding::TooOld);
    }
    let (Ok(proc_name), Ok(c_symbol)) = (
        CString::new(f.proc_name.as_str()),
        CString::new(symbol.as_str()),
    ) else {
        return (
            symbol,
            version,
            Binding::Missing("name contains NUL".into()),
        );
    };
    let mut pfn: *mut c_void = std::ptr::null_mut();
    let binding = if let (Some(get), true) = (driver.v2, version != 0) {
        let mut status: c_int = 0;
        // SAFETY: valid name, out-pointer and status; flags 1 or 2.
        let rc = unsafe {
            get(
                proc_name.as_ptr(),
                &mut pfn,
                version as c_int,
                flags,
                &mut status,
            )
        };
        match (rc, status) {
            (0, 0) if !pfn.is_null() => Binding::Bound,
            (0, 2) => Binding::VersionNotSufficient,
            (0, 0) => Binding::Missing("cuGetProcAddress_v2 gave a NULL pointer".into()),
            (0, s) => Binding::Missing(format!("cuGetProcAddress_v2 status {s}")),
            (rc, _) => Binding::Missing(format!("cuGetProcAddress_v2 returned {rc}")),
        }
    } else if let (Some(get), true) = (driver.v1, version != 0) {
        // SAFETY: valid name and out-pointer; flags 1 or 2.
        let rc = unsafe { get(proc_name.as_ptr(), &mut pfn, version as c_int, flags) };
        match rc {
            0 if !pfn.is_null() => Binding::Bound,
            rc => Binding::Missing(format!("cuGetProcAddress returned {rc}")),
        }
    } else {
        // SAFETY: only the address is read.
        match unsafe {
            driver
                .library
                .get::<*mut c_void>(c_symbol.as_bytes_with_nul())
        } {
            Ok(p) if !(*p).is_null() => Binding::Bound,
            _ => Binding::Missing("not exported".into()),
        }
    };
    (symbol, version, binding)
}

/// The report, or an error when there is no usable driver.
pub fn report(api: &Api, mode: StreamMode) -> Result<String, Error> {
    let driver = open()?;
    let mut out = String::new();
    let proc = match (driver.v2.is_some(), driver.v1.is_some()) {
        (true, _) => "cuGetProcAddress_v2",
        (false, true) => "cuGetProcAddress (v1)",
        _ => "none (exact exports)",
    };
    let _ = writeln!(out, "library:          {}", driver.path);
    let _ = writeln!(
        out,
        "driver version:   {} ({})",
        version_text(driver.version),
        driver.version
    );
    let _ = writeln!(out, "resolution:       {proc}");
    let _ = writeln!(
        out,
        "stream mode:      {}",
        match mode {
            StreamMode::Legacy => "legacy (flag 1)",
            StreamMode::PerThread => "per-thread (flag 2 for _ptds/_ptsz variants)",
        }
    );
    let mut rows = Vec::new();
    for f in &api.functions {
        let (symbol, version, binding) = bind(&driver, f, mode);
        let why = match binding {
            Binding::Bound => continue,
            Binding::TooOld => format!(
                "driver too old: needs {}, driver is {}",
                version_text(version),
                version_text(driver.version)
            ),
            Binding::VersionNotSufficient => {
                format!(
                    "version not sufficient: driver lacks the {} ABI",
                    version_text(version)
                )
            }
            Binding::Missing(how) => format!("missing ({how})"),
        };
        rows.push([f.name.clone(), symbol, version.to_string(), why]);
    }
    let _ = writeln!(
        out,
        "header:           CUDA {}, {} functions; {} available, {} not",
        api.cuda_version,
        api.functions.len(),
        api.functions.len() - rows.len(),
        rows.len()
    );
    if !rows.is_empty() {
        out.push('\n');
        let mut table = vec![["function", "symbol", "ABI", "why"].map(String::from)];
        table.extend(rows);
        out.push_str(&crate::columns::columns(&table));
    }
    Ok(out)
}
