//! `cushim doctor`: loads the driver of this machine with the loader runtime
//! that generated modules carry (the same source, compiled into cushim), and
//! reports what the header's functions would bind to.

use std::ffi::CString;
use std::fmt::Write as _;

use crate::diag::Error;
use crate::ir::{Api, Function};
use crate::options::StreamMode;
use crate::runtime::cushim_loader::{self as loader, version_text, LoadError, Miss, Target};
use crate::version::CudaVersion;

/// The driver as the shims see it, or an error that says why there is none.
fn open() -> Result<&'static loader::Driver, Error> {
    loader::driver().map_err(|e| match e {
        LoadError::LibraryNotFound { tried } => {
            let attempts: Vec<String> = tried
                .iter()
                .map(|a| format!("`{}` ({})", a.name, a.error))
                .collect();
            Error::new(format!(
                "no CUDA driver: cannot load {}",
                attempts.join(", ")
            ))
            .hint(format!(
                "install the NVIDIA driver, or set {} to the absolute path of `{}`",
                loader::OVERRIDE_VAR,
                crate::runtime::CUSHIM_LIBRARY_NAMES.join("` or `")
            ))
        }
        LoadError::StubLibrary { path } => Error::new(format!(
            "`{path}` is NVIDIA's stub library, not a driver (cuDriverGetVersion answered CUDA_ERROR_STUB_LIBRARY)"
        ))
        .hint("remove the toolkit's lib64/stubs directory from LD_LIBRARY_PATH"),
        other => Error::new(other.to_string()),
    })
}

fn number(v: Option<CudaVersion>) -> u32 {
    v.map_or(0, CudaVersion::number)
}

/// What one function binds to in `mode`: its symbol, ABI version and the miss, if any.
fn bind(driver: &loader::Driver, f: &Function, mode: StreamMode) -> (String, u32, Option<Miss>) {
    let names = (
        CString::new(f.proc_name.as_str()),
        CString::new(f.symbol.as_str()),
        f.per_thread
            .as_ref()
            .map(|t| CString::new(t.symbol.as_str()))
            .transpose(),
    );
    let (Ok(proc_name), Ok(symbol), Ok(twin)) = names else {
        let why = Miss::NotFound("name contains NUL".into());
        return (f.symbol.clone(), number(f.version), Some(why));
    };
    let per_thread = f
        .per_thread
        .as_ref()
        .zip(twin.as_deref())
        .map(|(t, name)| (name, number(t.version)));
    let target = Target::new(&proc_name, (&symbol, number(f.version)), per_thread, mode);
    let miss = driver.find(&target, loader::Resolve::ProcAddress).err();
    (
        target.symbol.to_string_lossy().into_owned(),
        target.version,
        miss,
    )
}

/// The report, or an error when there is no usable driver.
pub fn report(api: &Api, mode: StreamMode) -> Result<String, Error> {
    let driver = open()?;
    let mut out = String::new();
    let proc = match driver.proc_address() {
        "cuGetProcAddress_v2" => "cuGetProcAddress_v2",
        "cuGetProcAddress" => "cuGetProcAddress (v1)",
        _ => "none (exact exports)",
    };
    let _ = writeln!(out, "library:          {}", driver.path());
    let _ = writeln!(
        out,
        "driver version:   {} ({})",
        version_text(driver.version()),
        driver.version()
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
    // Only this system's functions (not `cuWGLGetDevice` on Linux).
    let here: Vec<&Function> = api
        .functions
        .iter()
        .filter(|f| f.is_for_this_system())
        .collect();
    for f in &here {
        let (symbol, version, miss) = bind(driver, f, mode);
        let why = match miss {
            None => continue,
            Some(Miss::TooOld) => format!(
                "driver too old: needs {}, driver is {}",
                version_text(version),
                version_text(driver.version())
            ),
            Some(Miss::VersionNotSufficient) => {
                format!(
                    "version not sufficient: driver lacks the {} ABI",
                    version_text(version)
                )
            }
            Some(Miss::NotFound(how)) => format!("missing ({how})"),
        };
        rows.push([f.name.clone(), symbol, version.to_string(), why]);
    }
    let _ = writeln!(
        out,
        "header:           CUDA {}, {} functions; {} available, {} not",
        api.release,
        here.len(),
        here.len() - rows.len(),
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
