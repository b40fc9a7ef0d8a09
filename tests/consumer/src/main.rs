//! The test program. Each scenario is one process, so that "first call" and
//! "one load" mean what they mean for a user. It exits non-zero (by panicking)
//! when an expectation fails, and prints `ok: <scenario>` when all held.
#![deny(warnings)]

use std::sync::{Arc, Barrier};

mod cuda {
    include!(concat!(env!("OUT_DIR"), "/cuda.rs"));
}
#[allow(dead_code)]
mod cuda_11_8 {
    include!(concat!(env!("OUT_DIR"), "/cuda-11.8/cuda.rs"));
}
#[allow(dead_code)]
mod cuda_12_9 {
    include!(concat!(env!("OUT_DIR"), "/cuda-12.9/cuda.rs"));
}
#[allow(dead_code)]
mod fixtures {
    pub mod aliases {
        include!(concat!(env!("OUT_DIR"), "/fixtures/aliases.rs"));
    }
    pub mod cudaapi {
        include!(concat!(env!("OUT_DIR"), "/fixtures/cudaapi.rs"));
    }
    pub mod deprecated {
        include!(concat!(env!("OUT_DIR"), "/fixtures/deprecated.rs"));
    }
    pub mod per_thread {
        include!(concat!(env!("OUT_DIR"), "/fixtures/per_thread.rs"));
    }
    pub mod pfn_table {
        include!(concat!(env!("OUT_DIR"), "/fixtures/pfn_table.rs"));
    }
    pub mod types {
        include!(concat!(env!("OUT_DIR"), "/fixtures/types.rs"));
    }
}
mod calls {
    use super::cuda;
    include!(concat!(env!("OUT_DIR"), "/calls.rs"));
}

use cuda::{Api, CUresult, Error, LoadError};

fn library_not_found(e: &Error) -> &[cuda::cushim_loader::Attempt] {
    match e {
        Error::Load(LoadError::LibraryNotFound { tried }) => tried,
        other => panic!("expected LibraryNotFound, got {other:?}"),
    }
}

/// No library: every shim, through both layers, reports it; one dlopen in all.
fn no_library(expected_name: &str) {
    let typed = calls::typed();
    assert!(typed.len() > 400, "only {} functions", typed.len());
    for (name, r) in &typed {
        let e = r.as_ref().expect_err(name);
        let tried = library_not_found(e);
        assert_eq!(tried.len(), 1, "{name}: {tried:?}");
        assert_eq!(tried[0].name, expected_name, "{name}");
        assert!(!tried[0].error.is_empty(), "{name}: no reason given");
    }
    for (name, code) in calls::drop_in() {
        assert_eq!(code.0, 303, "{name}");
    }
    for _ in 0..1000 {
        assert!(unsafe { Api::cuInit(0) }.is_err());
    }
    assert_eq!(cuda::cushim_loader::open_attempts(), 1, "the failure must be cached");
    let last = cuda::last_load_error().expect("the failure is kept");
    assert!(last.to_string().contains(expected_name), "{last}");
    println!("checked {} shims: {}", typed.len(), last);
}

/// The fake driver: arguments and results go through several shims.
fn fake() {
    unsafe {
        Api::cuInit(0).expect("cuInit");
        let mut version = 0;
        Api::cuDriverGetVersion(&mut version).expect("cuDriverGetVersion");
        assert_eq!(version, 13050);
        let mut count = 0;
        Api::cuDeviceGetCount(&mut count).expect("cuDeviceGetCount");
        assert_eq!(count, 2);

        let mut name = [0 as std::ffi::c_char; 64];
        Api::cuDeviceGetName(name.as_mut_ptr(), name.len() as i32, 1).expect("cuDeviceGetName");
        let name = std::ffi::CStr::from_ptr(name.as_ptr()).to_str().unwrap();
        assert_eq!(name, "Fake GPU 1");

        let mut uuid = cuda::CUuuid::default();
        Api::cuDeviceGetUuid(&mut uuid, 2).expect("cuDeviceGetUuid");
        let want: Vec<i8> = (0..16).map(|i| (i * 3 + 2) as i8).collect();
        assert_eq!(uuid.bytes.iter().map(|b| *b as i8).collect::<Vec<_>>(), want);

        // `cuMemAlloc` must bind `cuMemAlloc_v2`, not the v1 export beside it.
        let mut ptr: cuda::CUdeviceptr = 0;
        Api::cuMemAlloc(&mut ptr, 4096).expect("cuMemAlloc");
        assert_eq!(ptr, 0x7f00_0000_0000 + 4096);
        assert_eq!(cuda::cuMemAlloc_v2(&mut ptr, 8).0, 0);
        assert_eq!(ptr, 0x7f00_0000_0000 + 8);

        let data = [1u8, 2, 3, 250];
        Api::cuMemcpyHtoD(ptr, data.as_ptr().cast(), data.len()).expect("cuMemcpyHtoD");

        let mut text: *const std::ffi::c_char = std::ptr::null();
        Api::cuGetErrorName(CUresult::CUDA_ERROR_OUT_OF_MEMORY, &mut text).expect("cuGetErrorName");
        assert_eq!(std::ffi::CStr::from_ptr(text).to_str().unwrap(), "CUDA_ERROR_OUT_OF_MEMORY");

        let mut affinity = cuda::CUexecAffinityParam::default();
        affinity.param.smCount.val = 7;
        let mut params = cuda::CUctxCreateParams {
            execAffinityParams: &mut affinity,
            numExecAffinityParams: 1,
            cigParams: std::ptr::null_mut(),
        };
        let mut ctx: cuda::CUcontext = std::ptr::null_mut();
        Api::cuCtxCreate(&mut ctx, &mut params, 3, 1).expect("cuCtxCreate");
        assert_eq!(ctx as usize, 0x1000 + 3 * 16 + 1 + (7 << 20));

        // A driver failure is a driver failure, not a loading one.
        assert_eq!(Api::cuInit(5), Err(Error::Driver(CUresult::CUDA_ERROR_INVALID_VALUE)));
        assert_eq!(Api::cuCtxSynchronize(), Err(Error::Driver(CUresult::CUDA_ERROR_INVALID_CONTEXT)));

        // A function the fake lacks fails alone, with its own name.
        match Api::cuCtxGetCurrent(&mut ctx) {
            Err(Error::Load(LoadError::SymbolNotFound { symbol, .. })) => assert_eq!(*symbol, "cuCtxGetCurrent"),
            other => panic!("expected SymbolNotFound, got {other:?}"),
        }
        assert_eq!(cuda::cuCtxGetCurrent(&mut ctx).0, 500);
        Api::cuInit(0).expect("others keep working");
    }
    assert_eq!(cuda::cushim_loader::open_attempts(), 1);
}

/// The fake without `cuMemAlloc_v2`: that function alone fails.
fn missing_symbol() {
    unsafe {
        Api::cuInit(0).expect("cuInit");
        let mut ptr: cuda::CUdeviceptr = 0;
        match Api::cuMemAlloc(&mut ptr, 64) {
            Err(Error::Load(e @ LoadError::SymbolNotFound { function, symbol, .. })) => {
                assert_eq!((*function, *symbol), ("cuMemAlloc", "cuMemAlloc_v2"));
                assert!(e.to_string().contains("cuMemAlloc_v2"), "{e}");
            }
            other => panic!("expected SymbolNotFound, got {other:?}"),
        }
        assert_eq!(ptr, 0, "out-parameters stay untouched");
        assert_eq!(cuda::cuMemAlloc(&mut ptr, 64).0, 500);
        let mut version = 0;
        Api::cuDriverGetVersion(&mut version).expect("the others keep working");
        assert_eq!(version, 13050);
    }
}

/// NVIDIA's stub library (here the fake built as one): detected before any
/// other call, reported with its path, and never called again.
fn stub(path: &str) {
    unsafe {
        match Api::cuInit(0) {
            Err(Error::Load(LoadError::StubLibrary { path: p })) => assert_eq!(p, path),
            other => panic!("expected StubLibrary, got {other:?}"),
        }
        let mut n = 0;
        assert_eq!(cuda::cuDeviceGetCount(&mut n).0, 34);
        assert_eq!(n, 0);
        let message = cuda::last_load_error().expect("kept").to_string();
        assert!(message.contains("stub library") && message.contains(path), "{message}");
        let lib = libloading::Library::new(path).expect("the stub is still mapped");
        let init_calls = lib.get::<unsafe extern "C" fn() -> i32>(b"fake_init_calls\0").expect("test hook");
        assert_eq!(init_calls(), 0, "cuInit never reached the stub");
        std::mem::forget(lib);
    }
}

/// 32 threads race on the first call of different shims.
fn race(expect_driver: bool) {
    const THREADS: usize = 32;
    let barrier = Arc::new(Barrier::new(THREADS));
    let handles: Vec<_> = (0..THREADS)
        .map(|i| {
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                barrier.wait();
                let mut n = 0;
                let r = unsafe {
                    match i % 3 {
                        0 => Api::cuInit(0),
                        1 => Api::cuDriverGetVersion(&mut n),
                        _ => Api::cuDeviceGetCount(&mut n),
                    }
                };
                (i % 3, r, n)
            })
        })
        .collect();
    let results: Vec<_> = handles.into_iter().map(|h| h.join().expect("no thread panics")).collect();
    assert_eq!(cuda::cushim_loader::open_attempts(), 1, "exactly one load");
    let first_error = results[0].1;
    for (kind, r, n) in results {
        if expect_driver {
            r.expect("every call succeeds");
            match kind {
                1 => assert_eq!(n, 13050),
                2 => assert_eq!(n, 2),
                _ => {}
            }
        } else {
            assert_eq!(r, first_error, "every thread sees the same failure");
            library_not_found(&r.unwrap_err());
        }
    }
}

fn main() {
    let scenario = std::env::args().nth(1).unwrap_or_default();
    match scenario.as_str() {
        "no-library" => no_library(&std::env::args().nth(2).expect("expected library name")),
        "fake" => fake(),
        "missing-symbol" => missing_symbol(),
        "stub" => stub(&std::env::args().nth(2).expect("expected the stub's path")),
        "race" => race(true),
        "race-no-library" => race(false),
        other => panic!("unknown scenario `{other}`"),
    }
    println!("ok: {scenario}");
}
