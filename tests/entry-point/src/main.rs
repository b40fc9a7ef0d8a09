//! Driver modules generated with `--resolve runtime-entry-point`, run as
//! `cushim-entry-point MAJOR SCENARIO [CUDART]`: MAJOR 11, 12 or 13 picks
//! the module of the 11.8, 12.9 or 13.0 headers. Scenarios:
//!
//! - `calls`: driver calls, through whatever CUDA runtime the module's
//!   search finds; prints what reached the fake driver and how, what the
//!   fake runtime was asked, and every `libcuda` file mapped in the process;
//! - `preloaded CUDART`: the same, after the program loaded the runtime at
//!   that path itself (as a program that uses the runtime does);
//! - `unusable`: no usable runtime or driver: prints the codes and the
//!   message.
//!
//! Each prints `ok: SCENARIO` at the end. tests/entry_point.rs runs it, and
//! the C++ program tests/cpp/entry_point.cpp prints the same lines.

use std::ffi::{c_char, c_int, c_uint, CStr};

mod cuda11 {
    include!(concat!(env!("CUSHIM_ENTRY_MODULES"), "/cuda-11.8/cuda.rs"));
}
mod cuda12 {
    include!(concat!(env!("CUSHIM_ENTRY_MODULES"), "/cuda-12.9/cuda.rs"));
}
mod cuda13 {
    include!(concat!(env!("CUSHIM_ENTRY_MODULES"), "/cuda-13.0/cuda.rs"));
}

/// A test hook of a fake library, only if the library is loaded already:
/// looking must not load it.
fn hook<T: Copy>(path: &std::path::Path, name: &[u8]) -> Option<T> {
    use libloading::os::unix::{Library, RTLD_NOW};
    const RTLD_NOLOAD: c_int = 4;
    // SAFETY: the fake's hooks have the prototypes asked for, and opening a
    // loaded library runs nothing.
    unsafe {
        let library = Library::open(Some(path), RTLD_NOW | RTLD_NOLOAD).ok()?;
        let f = library.get::<T>(name).ok().map(|f| *f);
        // Never closed: the process keeps using it.
        std::mem::forget(library);
        f
    }
}

fn text(p: *const c_char) -> String {
    if p.is_null() {
        return "(null)".into();
    }
    // SAFETY: the fakes return static NUL-terminated strings.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

/// Every file named `libcuda*` mapped in this process, sorted, each once.
fn libcuda_mappings() -> Vec<String> {
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap_or_default();
    let mut files: Vec<String> = maps
        .lines()
        .filter_map(|l| l.split_whitespace().nth(5))
        .filter(|p| {
            std::path::Path::new(p)
                .file_name()
                .is_some_and(|f| f.to_string_lossy().starts_with("libcuda."))
        })
        .map(str::to_string)
        .collect();
    files.sort();
    files.dedup();
    files
}

/// The calls and the report, for one module.
macro_rules! calls {
    ($cuda:ident) => {{
        use $cuda as cuda;
        // SAFETY: each call passes valid pointers, as the C API asks.
        unsafe {
            println!("cuInit -> {}", cuda::cuInit(0).0);
            let mut version = 0;
            println!(
                "cuDriverGetVersion -> {} ({version})",
                cuda::cuDriverGetVersion(&mut version).0
            );
            let mut count = 0;
            println!(
                "cuDeviceGetCount -> {} ({count})",
                cuda::cuDeviceGetCount(&mut count).0
            );
        }
        let loaded = match cuda::CUSHIM_LIBRARY.get() {
            Ok(loaded) => loaded,
            Err(e) => {
                println!("no driver: {e}");
                return;
            }
        };
        let driver = loaded.file().map(|f| f.to_path_buf()).unwrap_or_default();
        let Some(through) = loaded.through() else {
            println!("not reached through the runtime");
            return;
        };
        let cudart = through.file().map(|f| f.to_path_buf()).unwrap_or_default();
        println!("driver: {}", driver.display());
        println!("driver found by: {}", loaded.found_by());
        println!("driver version: {}", loaded.version());
        println!(
            "runtime: {} {} found by {}",
            through.info().label,
            through.version(),
            through.found_by()
        );
        println!("runtime file: {}", cudart.display());
        println!("entry point: {}", through.entry_point());
        println!("lookup: {}", loaded.proc_address());
        let last_called: Option<unsafe extern "C" fn() -> *const c_char> =
            hook(&driver, b"fake_last_called");
        let last_bound: Option<unsafe extern "C" fn() -> *const c_char> =
            hook(&driver, b"fake_last_bound");
        let last_version: Option<unsafe extern "C" fn() -> c_int> =
            hook(&cudart, b"fake_cudart_last_version");
        let called = || last_called.map_or("?".into(), |f| text(unsafe { f() }));
        let bound = || last_bound.map_or("?".into(), |f| text(unsafe { f() }));
        let asked = || last_version.map_or(-1, |f| unsafe { f() });
        // SAFETY: as above.
        unsafe {
            let mut dptr = 0;
            let rc = cuda::cuMemAlloc(&mut dptr, 16).0;
            println!(
                "cuMemAlloc -> {rc} ({dptr:#x}) called {} bound {} asked at {}",
                called(),
                bound(),
                asked()
            );
            let bytes = [1u8; 8];
            let rc = cuda::cuMemcpyHtoD(dptr, bytes.as_ptr().cast(), bytes.len()).0;
            println!("cuMemcpyHtoD -> {rc} called {}", called());
            let rc = cuda::cuStreamQuery(std::ptr::null_mut()).0;
            println!("cuStreamQuery -> {rc} called {}", called());
            let rc = cuda::cuCtxSynchronize().0;
            println!("cuCtxSynchronize -> {rc} called {}", called());
            let mut bytes = 0;
            let rc = cuda::cuDeviceTotalMem(&mut bytes, 0).0;
            println!("cuDeviceTotalMem -> {rc}");
            if let Some(e) = cuda::last_load_error() {
                println!("cuDeviceTotalMem: {e}");
            }
        }
        // Bound, not called: its signature is each header's own.
        match cuda::function("cuCtxCreate").map(|f| f.check()) {
            Some(Ok(())) => println!("cuCtxCreate: available"),
            Some(Err(e)) => println!("cuCtxCreate -> {}: {e}", e.code()),
            None => println!("cuCtxCreate: not in the module"),
        }
        let count = |name: &[u8]| {
            hook::<unsafe extern "C" fn() -> c_int>(&cudart, name).map_or(-1, |f| unsafe { f() })
        };
        let flags: Option<unsafe extern "C" fn() -> c_uint> = hook(&cudart, b"fake_cudart_flags_seen");
        let symbol: Option<unsafe extern "C" fn() -> *const c_char> =
            hook(&cudart, b"fake_cudart_last_symbol");
        println!(
            "runtime asked: by version {}, entry point {}, flags {}, last {}",
            count(b"fake_cudart_by_version_calls"),
            count(b"fake_cudart_entry_point_calls"),
            flags.map_or(0, |f| unsafe { f() }),
            symbol.map_or("?".into(), |f| text(unsafe { f() }))
        );
        println!("open attempts: {}", cuda::CUSHIM_LIBRARY.open_attempts());
        for file in libcuda_mappings() {
            println!("mapped: {file}");
        }
    }};
}

/// What every call answers without a usable runtime or driver.
macro_rules! unusable {
    ($cuda:ident) => {{
        use $cuda as cuda;
        // SAFETY: valid pointers.
        unsafe {
            println!("cuInit -> {}", cuda::cuInit(0).0);
            let mut dptr = 0;
            println!("cuMemAlloc -> {}", cuda::cuMemAlloc(&mut dptr, 16).0);
        }
        match cuda::CUSHIM_LIBRARY.get() {
            Ok(_) => println!("unexpectedly loaded"),
            Err(e) => println!("error {}: {e}", e.code()),
        }
        for file in libcuda_mappings() {
            println!("mapped: {file}");
        }
    }};
}

fn run(major: &str, scenario: &str) {
    match (major, scenario) {
        ("11", "unusable") => unusable!(cuda11),
        ("12", "unusable") => unusable!(cuda12),
        ("13", "unusable") => unusable!(cuda13),
        ("11", _) => calls!(cuda11),
        ("12", _) => calls!(cuda12),
        ("13", _) => calls!(cuda13),
        _ => println!("unknown module {major}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(major), Some(scenario)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: cushim-entry-point 11|12|13 calls|preloaded CUDART|unusable");
        std::process::exit(2);
    };
    if scenario == "preloaded" {
        let Some(path) = args.get(3) else {
            eprintln!("preloaded: which runtime?");
            std::process::exit(2);
        };
        // SAFETY: loading the fake runtime runs nothing of note.
        let runtime = unsafe { libloading::Library::new(path) }.expect("the runtime loads");
        std::mem::forget(runtime);
    }
    run(major, scenario);
    println!("ok: {scenario}");
}
