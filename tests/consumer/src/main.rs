//! The test program. Each scenario is one process, so that "first call" and
//! "one load" mean what they mean for a user. It exits non-zero (by panicking)
//! when an expectation fails, and prints `ok: <scenario>` when all held.
#![deny(warnings)]

use std::sync::{Arc, Barrier};

mod cuda {
    include!(concat!(env!("OUT_DIR"), "/cuda.rs"));
}
#[allow(dead_code)]
mod cuda_dlsym {
    include!(concat!(env!("OUT_DIR"), "/dlsym/cuda.rs"));
}
#[allow(dead_code)]
mod merged {
    include!(concat!(env!("OUT_DIR"), "/merged/cuda.rs"));
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
    pub mod enums {
        include!(concat!(env!("OUT_DIR"), "/fixtures/enums.rs"));
    }
    pub mod params {
        include!(concat!(env!("OUT_DIR"), "/fixtures/params.rs"));
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

use cuda::{Api, CUresult, Error, LoadError, StreamMode};

/// The fake driver's test hooks, from the instance the shims loaded.
struct Fake(libloading::Library);

impl Fake {
    fn open() -> Fake {
        let name = std::env::var("CUSHIM_CUDA_LIBRARY").unwrap_or_else(|_| "libcuda.so.1".into());
        // SAFETY: the fake's constructor only counts.
        Fake(unsafe { libloading::Library::new(name) }.expect("the fake is loaded"))
    }

    /// The hooks of the library that `first_call` made the shims load.
    fn open_after(first_call: impl FnOnce() -> u32) -> Fake {
        first_call();
        Fake::open()
    }

    fn text(&self, hook: &[u8]) -> String {
        unsafe {
            let f = self
                .0
                .get::<unsafe extern "C" fn() -> *const std::ffi::c_char>(hook)
                .expect("hook");
            std::ffi::CStr::from_ptr(f()).to_string_lossy().into_owned()
        }
    }

    fn number(&self, hook: &[u8]) -> i64 {
        unsafe {
            self.0
                .get::<unsafe extern "C" fn() -> u32>(hook)
                .expect("hook")() as i64
        }
    }

    fn last_called(&self) -> String {
        self.text(b"fake_last_called\0")
    }

    fn last_bound(&self) -> String {
        self.text(b"fake_last_bound\0")
    }

    fn proc_calls(&self) -> i64 {
        self.number(b"fake_proc_calls\0")
    }

    fn flags_seen(&self) -> i64 {
        self.number(b"fake_flags_seen\0")
    }

    fn proc_calls_for(&self, base: &std::ffi::CStr) -> i32 {
        unsafe {
            let f = self
                .0
                .get::<unsafe extern "C" fn(*const std::ffi::c_char) -> i32>(
                    b"fake_proc_calls_for\0",
                )
                .expect("hook");
            f(base.as_ptr())
        }
    }
}

fn load_error<T: std::fmt::Debug>(r: Result<T, Error>) -> &'static LoadError {
    match r {
        Err(Error::Load(e)) => e,
        other => panic!("expected a loading failure, got {other:?}"),
    }
}

/// Which symbol each call binds, through cuGetProcAddress (v2 or v1) or by exact export.
fn binds(expect_proc: bool) {
    let fake = Fake::open();
    unsafe {
        let mut ptr: cuda::CUdeviceptr = 0;
        Api::cuMemAlloc(&mut ptr, 16).expect("cuMemAlloc");
        assert_eq!(fake.last_called(), "cuMemAlloc_v2");
        assert_eq!(ptr, 0x7f00_0000_0000 + 16);
        let data = [7u8; 4];
        Api::cuMemcpyHtoD(ptr, data.as_ptr().cast(), 4).expect("cuMemcpyHtoD");
        assert_eq!(fake.last_called(), "cuMemcpyHtoD_v2");
        Api::cuStreamQuery(std::ptr::null_mut()).expect("cuStreamQuery");
        assert_eq!(fake.last_called(), "cuStreamQuery");
        let mut uuid = cuda::CUuuid::default();
        Api::cuDeviceGetUuid(&mut uuid, 0).expect("cuDeviceGetUuid");
        assert_eq!(fake.last_called(), "cuDeviceGetUuid_v2");
        // The profiler and interop functions bind their header's ABI, never
        // the v1 export of the same name.
        Api::cuProfilerStart().expect("cuProfilerStart");
        assert_eq!(fake.last_called(), "cuProfilerStart");
        Api::cuProfilerStop().expect("cuProfilerStop");
        assert_eq!(fake.last_called(), "cuProfilerStop");
        let mut count = 0;
        Api::cuGLGetDevices(
            &mut count,
            std::ptr::null_mut(),
            0,
            cuda::CUGLDeviceList::CU_GL_DEVICE_LIST_ALL,
        )
        .expect("cuGLGetDevices");
        assert_eq!((fake.last_called().as_str(), count), ("cuGLGetDevices_v2", 1));
        let mut size = 0;
        #[allow(deprecated)]
        Api::cuGLMapBufferObject(&mut ptr, &mut size, 5).expect("cuGLMapBufferObject");
        assert_eq!(fake.last_called(), "cuGLMapBufferObject_v2");
        assert_eq!((ptr, size), (0x9005, 64));
        let mut ctx: cuda::CUcontext = std::ptr::null_mut();
        Api::cuVDPAUCtxCreate(&mut ctx, 1, 0, 0, None).expect("cuVDPAUCtxCreate");
        assert_eq!(fake.last_called(), "cuVDPAUCtxCreate_v2");
        assert_eq!(ctx as usize, 0x5010);
        let mut resource: cuda::CUgraphicsResource = std::ptr::null_mut();
        Api::cuGraphicsEGLRegisterImage(&mut resource, std::ptr::null_mut(), 3)
            .expect("cuGraphicsEGLRegisterImage");
        assert_eq!(fake.last_called(), "cuGraphicsEGLRegisterImage");
    }
    if expect_proc {
        assert_eq!(fake.last_bound(), "cuGraphicsEGLRegisterImage");
        assert!(fake.proc_calls() >= 4);
        assert_eq!(fake.flags_seen(), 1, "legacy mode sends flags 1 only");
    } else {
        assert_eq!(fake.proc_calls(), 0, "no cuGetProcAddress to call");
    }
    println!(
        "bound through {}",
        cuda::CUSHIM_LIBRARY.get().unwrap().proc_address()
    );
}

/// Per-thread mode binds the `_ptds`/`_ptsz` variants with flags 2.
fn per_thread(set_at_run_time: bool) {
    if set_at_run_time {
        cuda::set_stream_mode(StreamMode::PerThread).expect("before first use");
    }
    let fake = Fake::open();
    unsafe {
        let mut ptr: cuda::CUdeviceptr = 0;
        Api::cuMemAlloc(&mut ptr, 16).expect("cuMemAlloc");
        assert_eq!(fake.last_called(), "cuMemAlloc_v2");
        let data = [7u8; 4];
        Api::cuMemcpyHtoD(ptr, data.as_ptr().cast(), 4).expect("cuMemcpyHtoD");
        assert_eq!(fake.last_called(), "cuMemcpyHtoD_v2_ptds");
        Api::cuStreamQuery(std::ptr::null_mut()).expect("cuStreamQuery");
        assert_eq!(fake.last_called(), "cuStreamQuery_ptsz");
        let mut size = 0;
        #[allow(deprecated)]
        Api::cuGLMapBufferObject(&mut ptr, &mut size, 5).expect("cuGLMapBufferObject");
        assert_eq!(fake.last_called(), "cuGLMapBufferObject_v2_ptds");
    }
    assert_eq!(
        fake.flags_seen(),
        1 | 2,
        "flags 1 for plain functions, 2 for the twins"
    );
    assert_eq!(cuda::stream_mode(), StreamMode::PerThread);
    let late = cuda::set_stream_mode(StreamMode::Legacy).expect_err("too late");
    assert_eq!(late.current, StreamMode::PerThread);
    assert!(
        late.to_string().contains("before the first CUDA call"),
        "{late}"
    );
}

/// A driver older than a function's ABI: typed error, no call into the driver.
fn too_old(driver: u32) {
    let fake = Fake::open();
    unsafe {
        let mut ctx: cuda::CUcontext = std::ptr::null_mut();
        let e = load_error(Api::cuCtxCreate(&mut ctx, std::ptr::null_mut(), 0, 0));
        assert_eq!(
            *e,
            LoadError::TooOld {
                library: &cuda::CUSHIM_INFO,
                function: "cuCtxCreate",
                required: 12050,
                found: driver
            }
        );
        let text = e.to_string();
        let want = format!(
            "driver too old: `cuCtxCreate` needs CUDA 12.5, driver is {}",
            cushim_runtime::version_text(driver)
        );
        assert_eq!(text, want);
        assert_eq!(
            cuda::cuCtxCreate_v4(&mut ctx, std::ptr::null_mut(), 0, 0).0,
            36
        );
        assert_eq!(
            fake.proc_calls_for(c"cuCtxCreate"),
            0,
            "the driver was never asked"
        );
        assert!(fake.last_called() != "cuCtxCreate_v4");
        let mut ptr: cuda::CUdeviceptr = 0;
        Api::cuMemAlloc(&mut ptr, 16).expect("older functions keep working");
        assert_eq!(fake.last_called(), "cuMemAlloc_v2");
    }
}

/// What cuGetProcAddress_v2 can answer besides success, each typed.
fn quirks() {
    unsafe {
        let mut n = 0;
        let e = load_error(Api::cuDeviceGetCount(&mut n));
        assert!(matches!(e, LoadError::SymbolNotFound { .. }), "{e:?}");
        assert!(e.to_string().contains("NULL pointer"), "{e}");
        let mut name = [0 as std::ffi::c_char; 8];
        let e = load_error(Api::cuDeviceGetName(name.as_mut_ptr(), 8, 0));
        assert!(e.to_string().contains("returned 500"), "{e}");
        let mut uuid = cuda::CUuuid::default();
        let e = load_error(Api::cuDeviceGetUuid(&mut uuid, 0));
        assert!(
            matches!(e, LoadError::VersionNotSufficient { version: 11040, .. }),
            "{e:?}"
        );
        assert_eq!(cuda::cuDeviceGetUuid_v2(&mut uuid, 0).0, 36);
        Api::cuInit(0).expect("the others keep working");
    }
}

/// The dlsym-generated module: exact exports only, even with cuGetProcAddress present.
fn dlsym_module() {
    let fake = Fake::open();
    unsafe {
        let mut ptr: cuda_dlsym::CUdeviceptr = 0;
        cuda_dlsym::Api::cuMemAlloc(&mut ptr, 16).expect("cuMemAlloc");
        assert_eq!(ptr, 0x7f00_0000_0000 + 16);
        assert_eq!(fake.last_called(), "cuMemAlloc_v2");
    }
    assert_eq!(fake.proc_calls(), 0);
}

/// is_available, require and preload_all.
fn introspection() {
    assert!(cuda::is_available("cuInit"));
    assert!(cuda::is_available("cuMemAlloc_v2"));
    assert!(!cuda::is_available("cuCtxGetCurrent"));
    let missing = cuda::require(&["cuInit", "cuCtxGetCurrent", "cuNoSuchThing", "cuMemAlloc"])
        .expect_err("two missing");
    let names: Vec<&str> = missing.functions.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["cuCtxGetCurrent", "cuNoSuchThing"]);
    let text = missing.to_string();
    assert!(
        text.contains("2 required CUDA driver function(s) unavailable"),
        "{text}"
    );
    assert!(
        text.contains("cuNoSuchThing: not a function of this header"),
        "{text}"
    );
    cuda::require(&["cuInit", "cuMemAlloc"]).expect("both present");
    let lacking = cuda::preload_all().expect("the library loads");
    assert!(lacking.iter().any(|(n, _)| *n == "cuCtxGetCurrent"));
    assert!(!lacking
        .iter()
        .any(|(n, _)| *n == "cuInit" || *n == "cuMemcpyHtoD"));
    let mut available: Vec<&str> = cuda::FUNCTIONS
        .iter()
        .map(|f| f.name)
        .filter(|n| !lacking.iter().any(|(m, _)| m == n))
        .collect();
    available.sort_unstable();
    assert_eq!(
        available,
        [
            // cuCtxSynchronize_v2 asks for the 13.0 ABI of cuCtxSynchronize; the fake
            // knows only the 2.0 one and, as cuGetProcAddress does, returns the
            // newest variant not newer than the one asked for.
            "cuCtxCreate",
            "cuCtxSynchronize",
            "cuCtxSynchronize_v2",
            "cuDeviceGetCount",
            "cuDeviceGetName",
            "cuDeviceGetUuid",
            "cuDriverGetVersion",
            "cuGLGetDevices",
            "cuGLMapBufferObject",
            "cuGetErrorName",
            "cuGetErrorString",
            "cuGraphicsEGLRegisterImage",
            "cuInit",
            "cuLaunchKernel",
            "cuMemAlloc",
            "cuMemcpyHtoD",
            "cuProfilerStart",
            "cuProfilerStop",
            "cuStreamQuery",
            "cuTexRefSetMipmapLevelClamp",
            "cuVDPAUCtxCreate"
        ],
        "exactly what the fake's table has"
    );
    // cudaGL.h's Windows-only function is not part of this (Linux) build.
    assert!(cuda::function("cuWGLGetDevice").is_none());
    assert!(cuda::function("cuGLGetDevices").is_some());
    let f = cuda::function("cuMemcpyHtoD").expect("metadata");
    assert_eq!(
        (f.symbol, f.proc_name, f.version),
        (c"cuMemcpyHtoD_v2", c"cuMemcpyHtoD", 3020)
    );
    assert_eq!(f.per_thread, Some((c"cuMemcpyHtoD_v2_ptds", 7000)));
}

/// The merged module on an old driver and a new one: each name binds its
/// newest variant, older variants stay callable by their own names.
fn merged_module(driver: u32) {
    let fake = Fake::open_after(|| unsafe { merged::cuInit(0) }.0);
    unsafe {
        let mut ctx: merged::CUcontext = std::ptr::null_mut();
        let newest = merged::Api::cuCtxCreate(&mut ctx, std::ptr::null_mut(), 0, 0);
        if driver >= 12050 {
            newest.expect("cuCtxCreate");
            assert_eq!(fake.last_called(), "cuCtxCreate_v4");
        } else {
            match newest {
                Err(merged::Error::Load(merged::LoadError::TooOld {
                    required: 12050,
                    ..
                })) => {}
                other => panic!("expected TooOld, got {other:?}"),
            }
            merged::Api::cuCtxCreate_v3(&mut ctx, std::ptr::null_mut(), 0, 0, 0)
                .expect("the 11.4 variant");
            assert_eq!(fake.last_called(), "cuCtxCreate_v3");
        }
        let mut uuid = merged::CUuuid::default();
        merged::Api::cuDeviceGetUuid(&mut uuid, 1).expect("cuDeviceGetUuid");
        assert_eq!(fake.last_called(), "cuDeviceGetUuid_v2");
        merged::Api::cuDeviceGetUuid_v9020(&mut uuid, 1).expect("the 9.2 variant");
        assert_eq!(fake.last_called(), "cuDeviceGetUuid");
    }
    let f = merged::function("cuCtxCreate_v3").expect("metadata");
    assert_eq!((f.version, f.since), (11040, 11080));
    assert_eq!(
        merged::function("cuCtxCreate").expect("metadata").symbol,
        c"cuCtxCreate_v4"
    );
}

/// This program defines and exports its own `cuInit` (a name clash a user can
/// hit): the shims must still reach the driver's, never this one.
#[no_mangle]
pub extern "C" fn cuInit(_flags: u32) -> u32 {
    12345
}

/// A program that re-exports a drop-in name itself (say, to stand in for
/// libcuda), forwarding to the shim: a driver that calls it during its own load
/// re-enters the loader (RELIABILITY 14).
#[no_mangle]
pub extern "C" fn cuDriverGetVersion(version: *mut std::ffi::c_int) -> u32 {
    unsafe { cuda::cuDriverGetVersion(version).0 }
}

fn reentrant() {
    unsafe {
        Api::cuInit(0).expect("the load completes");
        let fake = Fake::open();
        assert_eq!(
            fake.number(b"fake_reentry_result\0"),
            303,
            "the call from inside the load failed once"
        );
        let mut version = 0;
        Api::cuDriverGetVersion(&mut version).expect("and binds normally afterwards");
        assert_eq!(version, 13050);
    }
}

fn interposition() {
    unsafe {
        assert_eq!(
            Api::cuInit(5),
            Err(Error::Status(CUresult::CUDA_ERROR_INVALID_VALUE))
        );
        assert_eq!(
            cuda_dlsym::Api::cuInit(5),
            Err(cuda_dlsym::Error::Status(
                cuda_dlsym::CUresult::CUDA_ERROR_INVALID_VALUE
            ))
        );
        Api::cuInit(0).expect("the driver's cuInit");
    }
    assert_eq!(
        cuInit(0),
        12345,
        "the program's own cuInit is still its own"
    );
}

extern "C" {
    fn fork() -> i32;
    fn waitpid(pid: i32, status: *mut i32, options: i32) -> i32;
    fn alarm(seconds: u32) -> u32;
    fn _exit(code: i32) -> !;
}

/// RELIABILITY 18: the child of a fork made while another thread is inside
/// the first (slow) load must not hang: it gets a typed error (and the drop-in
/// layer CUDA_ERROR_NOT_INITIALIZED, as the driver answers in a forked child),
/// while the parent's load completes.
fn fork_during_load() {
    let loader = std::thread::spawn(|| unsafe { Api::cuInit(0) });
    std::thread::sleep(std::time::Duration::from_millis(100));
    // SAFETY: the child only calls the shims and exits.
    let pid = unsafe { fork() };
    if pid == 0 {
        unsafe {
            alarm(10); // a hang becomes SIGALRM, which the parent sees
            let mut version = 0;
            let code = match Api::cuDriverGetVersion(&mut version) {
                Err(Error::Load(LoadError::ForkedDuringLoad { .. })) => 0,
                _ => 1,
            };
            let drop_in = cuda::cuInit(0).0;
            _exit(if drop_in == 3 { code } else { 2 });
        }
    }
    let mut status = 0;
    assert_eq!(unsafe { waitpid(pid, &mut status, 0) }, pid);
    assert_eq!(
        status, 0,
        "the child finished its call (wait status {status:#x})"
    );
    loader
        .join()
        .expect("no panic")
        .expect("the parent's load completes");
}

/// A relative override is refused.
fn relative_override() {
    let e = load_error(unsafe { Api::cuInit(0) });
    assert_eq!(
        *e,
        LoadError::InvalidOverride {
            library: &cuda::CUSHIM_INFO,
            value: "libcuda.so.1".into()
        }
    );
    assert!(e.to_string().contains("not an absolute path"), "{e}");
    assert_eq!(unsafe { cuda::cuInit(0) }.0, 303);
    assert_eq!(
        cuda::CUSHIM_LIBRARY.open_attempts(),
        0,
        "nothing was opened"
    );
}

fn library_not_found(e: &Error) -> &[cushim_runtime::Attempt] {
    match e {
        Error::Load(LoadError::LibraryNotFound { tried, .. }) => tried,
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
        // The two error-text functions answer from the header's table instead;
        // with a NULL out-pointer that is CUDA_ERROR_INVALID_VALUE.
        let expected = match name {
            "cuGetErrorName" | "cuGetErrorString" => 1,
            _ => 303,
        };
        assert_eq!(code.0, expected, "{name}");
    }
    error_texts_without_a_driver();
    for _ in 0..1000 {
        assert!(unsafe { Api::cuInit(0) }.is_err());
    }
    assert_eq!(
        cuda::CUSHIM_LIBRARY.open_attempts(),
        1,
        "the failure must be cached"
    );
    let last = cuda::last_load_error().expect("the failure is kept");
    assert!(last.to_string().contains(expected_name), "{last}");
    println!("checked {} shims: {}", typed.len(), last);
}

/// `cuGetErrorName`/`cuGetErrorString` answer without a driver, as in C++, and
/// errors print the constant's name.
fn error_texts_without_a_driver() {
    let text = |f: unsafe extern "C" fn(CUresult, *mut *const std::ffi::c_char) -> CUresult,
                code: CUresult| {
        let mut p: *const std::ffi::c_char = std::ptr::null();
        let rc = unsafe { f(code, &mut p) };
        let s = (!p.is_null())
            .then(|| unsafe { std::ffi::CStr::from_ptr(p) }.to_string_lossy().into_owned());
        (rc, s)
    };
    assert_eq!(
        text(cuda::cuGetErrorName, CUresult::CUDA_ERROR_OUT_OF_MEMORY),
        (CUresult::CUDA_SUCCESS, Some("CUDA_ERROR_OUT_OF_MEMORY".into()))
    );
    assert_eq!(
        text(cuda::cuGetErrorString, CUresult::CUDA_ERROR_OUT_OF_MEMORY),
        (CUresult::CUDA_SUCCESS, Some("CUDA_ERROR_OUT_OF_MEMORY".into()))
    );
    assert_eq!(
        text(cuda::cuGetErrorName, CUresult(123456)),
        (CUresult::CUDA_ERROR_INVALID_VALUE, None)
    );
    let e = Error::Status(CUresult::CUDA_ERROR_INVALID_VALUE);
    assert_eq!(
        e.to_string(),
        "CUDA driver call failed: CUDA_ERROR_INVALID_VALUE (1)"
    );
    assert_eq!(format!("{e:?}"), "Status(CUDA_ERROR_INVALID_VALUE (1))");
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
        assert_eq!(
            uuid.bytes.iter().map(|b| *b as i8).collect::<Vec<_>>(),
            want
        );

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
        assert_eq!(
            std::ffi::CStr::from_ptr(text).to_str().unwrap(),
            "CUDA_ERROR_OUT_OF_MEMORY"
        );

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
        assert_eq!(
            Api::cuInit(5),
            Err(Error::Status(CUresult::CUDA_ERROR_INVALID_VALUE))
        );
        assert_eq!(
            Api::cuCtxSynchronize(),
            Err(Error::Status(CUresult::CUDA_ERROR_INVALID_CONTEXT))
        );

        // A function the fake lacks fails alone, with its own name.
        match Api::cuCtxGetCurrent(&mut ctx) {
            Err(Error::Load(LoadError::SymbolNotFound { symbol, .. })) => {
                assert_eq!(*symbol, "cuCtxGetCurrent")
            }
            other => panic!("expected SymbolNotFound, got {other:?}"),
        }
        assert_eq!(cuda::cuCtxGetCurrent(&mut ctx).0, 500);
        Api::cuInit(0).expect("others keep working");
    }
    assert_eq!(cuda::CUSHIM_LIBRARY.open_attempts(), 1);
}

/// The fake without `cuMemAlloc_v2`: that function alone fails, with one
/// kept reason however many threads race on its first call.
fn missing_symbol() {
    const THREADS: usize = 16;
    // SAFETY: no arguments to check.
    unsafe { Api::cuInit(0).expect("cuInit") };
    let reasons = on_threads(THREADS, |_| {
        let mut ptr: cuda::CUdeviceptr = 0;
        // SAFETY: a valid out-pointer.
        match unsafe { Api::cuMemAlloc(&mut ptr, 64) } {
            Err(Error::Load(e)) => std::ptr::from_ref(e) as usize,
            other => panic!("expected a load error, got {other:?}"),
        }
    });
    let kept = cuda::function("cuMemAlloc")
        .and_then(|f| f.failed())
        .expect("the failure is kept");
    for reason in reasons {
        assert_eq!(reason, std::ptr::from_ref(kept) as usize, "one kept reason");
    }
    unsafe {
        Api::cuInit(0).expect("cuInit");
        let mut ptr: cuda::CUdeviceptr = 0;
        match Api::cuMemAlloc(&mut ptr, 64) {
            Err(Error::Load(
                e @ LoadError::SymbolNotFound {
                    function, symbol, ..
                },
            )) => {
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
            Err(Error::Load(LoadError::StubLibrary { path: p, .. })) => assert_eq!(p, path),
            other => panic!("expected StubLibrary, got {other:?}"),
        }
        let mut n = 0;
        assert_eq!(cuda::cuDeviceGetCount(&mut n).0, 34);
        assert_eq!(n, 0);
        let message = cuda::last_load_error().expect("kept").to_string();
        assert!(
            message.contains("stub library") && message.contains(path),
            "{message}"
        );
        let lib = libloading::Library::new(path).expect("the stub is still mapped");
        let init_calls = lib
            .get::<unsafe extern "C" fn() -> i32>(b"fake_init_calls\0")
            .expect("test hook");
        assert_eq!(init_calls(), 0, "cuInit never reached the stub");
        std::mem::forget(lib);
    }
}

/// `f(i)` on each of `threads` threads, started together; their answers in order.
fn on_threads<T: Send + 'static>(
    threads: usize,
    f: impl Fn(usize) -> T + Send + Sync + 'static,
) -> Vec<T> {
    let barrier = Arc::new(Barrier::new(threads));
    let f = Arc::new(f);
    let handles: Vec<_> = (0..threads)
        .map(|i| {
            let barrier = Arc::clone(&barrier);
            let f = Arc::clone(&f);
            std::thread::spawn(move || {
                barrier.wait();
                f(i)
            })
        })
        .collect();
    handles
        .into_iter()
        .map(|h| h.join().expect("no thread panics"))
        .collect()
}

/// 32 threads race on the first call of different shims.
fn race(expect_driver: bool) {
    let results = on_threads(32, |i| {
        let mut n = 0;
        let r = unsafe {
            match i % 3 {
                0 => Api::cuInit(0),
                1 => Api::cuDriverGetVersion(&mut n),
                _ => Api::cuDeviceGetCount(&mut n),
            }
        };
        (i % 3, r, n)
    });
    assert_eq!(cuda::CUSHIM_LIBRARY.open_attempts(), 1, "exactly one load");
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

/// RELIABILITY 17: a shim called from an atexit handler, after main
/// returned, still reaches the driver (nothing is unloaded at exit).
fn at_exit() {
    extern "C" fn after_main() {
        let mut version = 0;
        // SAFETY: a valid out-pointer.
        let rc = unsafe { cuda::cuDriverGetVersion(&mut version) };
        if rc != CUresult::CUDA_SUCCESS || version != 13050 {
            std::process::abort();
        }
        println!("atexit: driver {version}");
    }
    extern "C" {
        fn atexit(f: extern "C" fn()) -> std::ffi::c_int;
    }
    unsafe { Api::cuInit(0) }.expect("cuInit");
    // SAFETY: registers a plain function.
    assert_eq!(unsafe { atexit(after_main) }, 0);
}

/// RELIABILITY 24: a driver already loaded by someone else (here
/// LD_PRELOAD) is the instance the shims use; no second copy is mapped.
fn preloaded() {
    unsafe { Api::cuInit(0) }.expect("cuInit");
    assert_eq!(Fake::open().number(b"fake_load_count\0"), 1);
    let path = std::env::var("CUSHIM_CUDA_LIBRARY").expect("the fake's path");
    let maps = std::fs::read_to_string("/proc/self/maps").expect("/proc/self/maps");
    let text_mappings = maps
        .lines()
        .filter(|l| l.contains(" r-xp ") && l.contains(&path))
        .count();
    assert_eq!(text_mappings, 1, "{maps}");
}

fn main() {
    let scenario = std::env::args().nth(1).unwrap_or_default();
    match scenario.as_str() {
        "no-library" => no_library(&std::env::args().nth(2).expect("expected library name")),
        "fake" => fake(),
        "missing-symbol" => missing_symbol(),
        "stub" => stub(&std::env::args().nth(2).expect("expected the stub's path")),
        "binds-proc" => binds(true),
        "binds-dlsym" => binds(false),
        "per-thread" => per_thread(true),
        "per-thread-env" => per_thread(false),
        "too-old" => too_old(
            std::env::args()
                .nth(2)
                .and_then(|v| v.parse().ok())
                .expect("driver version"),
        ),
        "quirks" => quirks(),
        "dlsym-module" => dlsym_module(),
        "introspection" => introspection(),
        "relative-override" => relative_override(),
        "interposition" => interposition(),
        "reentrant" => reentrant(),
        "fork-during-load" => fork_during_load(),
        "merged" => merged_module(
            std::env::args()
                .nth(2)
                .and_then(|v| v.parse().ok())
                .expect("driver version"),
        ),
        "at-exit" => at_exit(),
        "preloaded" => preloaded(),
        "race" => race(true),
        "race-no-library" => race(false),
        other => panic!("unknown scenario `{other}`"),
    }
    println!("ok: {scenario}");
}
