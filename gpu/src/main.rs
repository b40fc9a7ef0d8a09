//! The real-GPU check, in Rust, with no `-lcuda`: every driver call goes
//! through a generated module.
//!
//!   cushim-gpu-check run pinned|local      vector add on the GPU, verified
//!   cushim-gpu-check audit pinned|local    resolution vs dlsym of the IR's export
//!   cushim-gpu-check too-old               the 13.5 module on an older driver
//!   cushim-gpu-check stub                  CUSHIM_CUDA_LIBRARY set to NVIDIA's stub
//!
//! The stream mode comes from CUSHIM_PER_THREAD_DEFAULT_STREAM.

#[allow(dead_code, clippy::all)]
mod pinned {
    include!(concat!(env!("OUT_DIR"), "/pinned/cuda.rs"));
}
#[allow(dead_code, clippy::all)]
mod local {
    include!(concat!(env!("OUT_DIR"), "/local/cuda.rs"));
}

/// The kernel both programs load (`gpu/vadd.ptx`), NUL-terminated for cuModuleLoadData.
const PTX: &str = concat!(include_str!("../vadd.ptx"), "\0");

/// The whole program for one generated module.
macro_rules! vector_add {
    ($m:ident) => {{
        use std::ffi::c_void;
        use $m::{Api, CUdevice_attribute};
        fn check(step: &str, r: Result<(), $m::Error>) -> Result<(), String> {
            r.map_err(|e| format!("{step}: {e}"))
        }
        unsafe {
            println!("stream mode: {:?}", $m::stream_mode());
            check("cuInit", Api::cuInit(0))?;
            let mut version = 0;
            check("cuDriverGetVersion", Api::cuDriverGetVersion(&mut version))?;
            let mut count = 0;
            check("cuDeviceGetCount", Api::cuDeviceGetCount(&mut count))?;
            let mut dev: $m::CUdevice = 0;
            check("cuDeviceGet", Api::cuDeviceGet(&mut dev, 0))?;
            let mut name = [0 as std::ffi::c_char; 128];
            check("cuDeviceGetName", Api::cuDeviceGetName(name.as_mut_ptr(), 128, dev))?;
            let (mut major, mut minor) = (0, 0);
            check(
                "cuDeviceGetAttribute",
                Api::cuDeviceGetAttribute(&mut major, CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev),
            )?;
            check(
                "cuDeviceGetAttribute",
                Api::cuDeviceGetAttribute(&mut minor, CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev),
            )?;
            let mut total = 0usize;
            check("cuDeviceTotalMem", Api::cuDeviceTotalMem(&mut total, dev))?;
            println!(
                "driver {version}, {count} device(s); device 0: {}, compute capability {major}.{minor}, {} MiB",
                std::ffi::CStr::from_ptr(name.as_ptr()).to_string_lossy(),
                total >> 20
            );

            let mut ctx: $m::CUcontext = std::ptr::null_mut();
            check("cuDevicePrimaryCtxRetain", Api::cuDevicePrimaryCtxRetain(&mut ctx, dev))?;
            check("cuCtxSetCurrent", Api::cuCtxSetCurrent(ctx))?;

            const N: usize = 4 << 20; // 4 Mi floats, 16 MiB per buffer
            let a: Vec<f32> = (0..N).map(|i| i as f32).collect();
            let b: Vec<f32> = (0..N).map(|i| (2 * i) as f32 + 0.5).collect();
            let mut c = vec![0f32; N];
            let bytes = N * 4;
            let (mut da, mut db, mut dc): ($m::CUdeviceptr, $m::CUdeviceptr, $m::CUdeviceptr) = (0, 0, 0);
            check("cuMemAlloc", Api::cuMemAlloc(&mut da, bytes))?;
            check("cuMemAlloc", Api::cuMemAlloc(&mut db, bytes))?;
            check("cuMemAlloc", Api::cuMemAlloc(&mut dc, bytes))?;
            check("cuMemcpyHtoD", Api::cuMemcpyHtoD(da, a.as_ptr().cast(), bytes))?;
            check("cuMemcpyHtoD", Api::cuMemcpyHtoD(db, b.as_ptr().cast(), bytes))?;

            let mut module: $m::CUmodule = std::ptr::null_mut();
            check("cuModuleLoadData", Api::cuModuleLoadData(&mut module, PTX.as_ptr().cast()))?;
            let mut kernel: $m::CUfunction = std::ptr::null_mut();
            check("cuModuleGetFunction", Api::cuModuleGetFunction(&mut kernel, module, c"vadd".as_ptr()))?;

            let mut stream: $m::CUstream = std::ptr::null_mut();
            check("cuStreamCreate", Api::cuStreamCreate(&mut stream, 0))?;
            let (mut start, mut stop): ($m::CUevent, $m::CUevent) = (std::ptr::null_mut(), std::ptr::null_mut());
            check("cuEventCreate", Api::cuEventCreate(&mut start, 0))?;
            check("cuEventCreate", Api::cuEventCreate(&mut stop, 0))?;
            let mut n = N as u32;
            let mut params: [*mut c_void; 4] = [
                (&mut da as *mut $m::CUdeviceptr).cast(),
                (&mut db as *mut $m::CUdeviceptr).cast(),
                (&mut dc as *mut $m::CUdeviceptr).cast(),
                (&mut n as *mut u32).cast(),
            ];
            let block = 256u32;
            let grid = (N as u32).div_ceil(block);
            check("cuEventRecord", Api::cuEventRecord(start, stream))?;
            check(
                "cuLaunchKernel",
                Api::cuLaunchKernel(kernel, grid, 1, 1, block, 1, 1, 0, stream, params.as_mut_ptr(), std::ptr::null_mut()),
            )?;
            check("cuEventRecord", Api::cuEventRecord(stop, stream))?;
            check("cuStreamSynchronize", Api::cuStreamSynchronize(stream))?;
            let mut ms = 0f32;
            check("cuEventElapsedTime", Api::cuEventElapsedTime(&mut ms, start, stop))?;
            check("cuMemcpyDtoH", Api::cuMemcpyDtoH(c.as_mut_ptr().cast(), dc, bytes))?;
            let wrong = (0..N).filter(|&i| c[i] != a[i] + b[i]).count();

            check("cuEventDestroy", Api::cuEventDestroy(start))?;
            check("cuEventDestroy", Api::cuEventDestroy(stop))?;
            check("cuStreamDestroy", Api::cuStreamDestroy(stream))?;
            check("cuModuleUnload", Api::cuModuleUnload(module))?;
            for p in [da, db, dc] {
                check("cuMemFree", Api::cuMemFree(p))?;
            }
            check("cuDevicePrimaryCtxRelease", Api::cuDevicePrimaryCtxRelease(dev))?;
            if wrong != 0 {
                return Err(format!("{wrong} of {N} results are wrong"));
            }
            println!(
                "vector add of {N} floats: kernel {ms:.3} ms (events), all {N} results verified; {} MiB copied each way",
                (2 * bytes) >> 20
            );
            Ok::<(), String>(())
        }
    }};
}

/// For every shim: the address our resolution yields against dlsym of the
/// export the IR names for the process's stream mode.
macro_rules! audit {
    ($m:ident) => {{
        use $m::cushim_loader::{self, LoadError, StreamMode};
        let driver = cushim_loader::driver().map_err(|e| e.to_string())?;
        let lib = unsafe { libloading::Library::new("libcuda.so.1") }.map_err(|e| e.to_string())?;
        let mode = $m::stream_mode();
        let (mut matched, mut too_old, mut not_exported) = (0, 0, 0);
        let mut mismatches = Vec::new();
        let mut unresolved = Vec::new();
        for f in $m::FUNCTIONS {
            let export = match (mode, f.per_thread) {
                (StreamMode::PerThread, Some((twin, _))) => twin,
                _ => f.symbol,
            };
            match cushim_loader::resolve(f) {
                Ok(p) => match unsafe { lib.get::<*mut std::ffi::c_void>(export.to_bytes_with_nul()) } {
                    Ok(sym) if *sym as *mut () == p => matched += 1,
                    Ok(sym) => mismatches.push(format!("{} -> {:?}, dlsym({:?}) -> {:?}", f.name, p, export, *sym)),
                    Err(_) => not_exported += 1,
                },
                Err(LoadError::DriverTooOld { .. }) => too_old += 1,
                Err(e) => unresolved.push(format!("{}: {e}", f.name)),
            }
        }
        println!(
            "audit ({:?}, driver {}, via {}): {} shims; {matched} match dlsym, {} mismatch, {too_old} newer than the driver, {not_exported} resolved but not exported, {} unresolved",
            mode,
            driver.version(),
            driver.proc_address(),
            $m::FUNCTIONS.len(),
            mismatches.len(),
            unresolved.len()
        );
        for m in &mismatches {
            println!("  MISMATCH {m}");
        }
        for u in &unresolved {
            println!("  unresolved {u}");
        }
        std::mem::forget(lib);
        if mismatches.is_empty() {
            Ok(())
        } else {
            Err(format!("{} mismatches", mismatches.len()))
        }
    }};
}

fn run_pinned() -> Result<(), String> {
    vector_add!(pinned)
}

fn run_local() -> Result<(), String> {
    vector_add!(local)
}

fn audit_pinned() -> Result<(), String> {
    audit!(pinned)
}

fn audit_local() -> Result<(), String> {
    audit!(local)
}

fn too_old() -> Result<(), String> {
    use pinned::cushim_loader::LoadError;
    let lacking = pinned::preload_all().map_err(|e| e.to_string())?;
    let too_old: Vec<&str> = lacking
        .iter()
        .filter(|(_, e)| matches!(e, LoadError::DriverTooOld { .. }))
        .map(|(n, _)| *n)
        .collect();
    let other: Vec<String> = lacking
        .iter()
        .filter(|(_, e)| !matches!(e, LoadError::DriverTooOld { .. }))
        .map(|(n, e)| format!("{n}: {e}"))
        .collect();
    println!(
        "13.5 module on this driver: {} of {} functions available; {} newer than the driver; {} other failures",
        pinned::FUNCTIONS.len() - lacking.len(),
        pinned::FUNCTIONS.len(),
        too_old.len(),
        other.len()
    );
    for o in &other {
        println!("  {o}");
    }
    if let Some(name) = too_old.first() {
        let f = pinned::function(name).expect("listed");
        let e = pinned::cushim_loader::check(f).expect_err("too old");
        println!("first of them: {e}");
        println!("all of them: {}", too_old.join(" "));
    }
    Ok(())
}

fn stub() -> Result<(), String> {
    match unsafe { pinned::Api::cuInit(0) } {
        Err(pinned::Error::Load(e @ pinned::LoadError::StubLibrary { .. })) => {
            println!("stub detected (typed): {e}");
            println!("drop-in cuDeviceGetCount -> {}", unsafe {
                pinned::cuDeviceGetCount(&mut 0).0
            });
            Ok(())
        }
        other => Err(format!("expected StubLibrary, got {other:?}")),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(2).map(String::as_str).unwrap_or("pinned");
    let result = match (args.get(1).map(String::as_str), which) {
        (Some("run"), "pinned") => run_pinned(),
        (Some("run"), "local") => run_local(),
        (Some("audit"), "pinned") => audit_pinned(),
        (Some("audit"), "local") => audit_local(),
        (Some("too-old"), _) => too_old(),
        (Some("stub"), _) => stub(),
        _ => Err("usage: cushim-gpu-check run|audit pinned|local, too-old, stub".into()),
    };
    match result {
        Ok(()) => println!("ok"),
        Err(e) => {
            println!("FAILED: {e}");
            std::process::exit(1);
        }
    }
}
