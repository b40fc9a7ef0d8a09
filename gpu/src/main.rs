//! The real-GPU check, in Rust, with no `-lcuda`: every driver call goes
//! through a generated module.
//!
//!   cushim-gpu-check run pinned|local      vector add on the GPU, verified
//!   cushim-gpu-check audit pinned|local    resolution vs dlsym of the IR's export
//!   cushim-gpu-check too-old               the 13.5 module on an older driver
//!   cushim-gpu-check stub                  CUSHIM_CUDA_LIBRARY set to NVIDIA's stub
//!   cushim-gpu-check gl                    an OpenGL buffer (headless EGL) registered,
//!                                          mapped, written and read back through the shims
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
            // cudaProfiler.h's functions, through the shims, around the kernel.
            check("cuProfilerStart", Api::cuProfilerStart())?;
            check("cuEventRecord", Api::cuEventRecord(start, stream))?;
            check(
                "cuLaunchKernel",
                Api::cuLaunchKernel(kernel, grid, 1, 1, block, 1, 1, 0, stream, params.as_mut_ptr(), std::ptr::null_mut()),
            )?;
            check("cuEventRecord", Api::cuEventRecord(stop, stream))?;
            check("cuStreamSynchronize", Api::cuStreamSynchronize(stream))?;
            check("cuProfilerStop", Api::cuProfilerStop())?;
            println!("cuProfilerStart and cuProfilerStop around the kernel: CUDA_SUCCESS");
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
        use cushim_runtime::{LoadError, StreamMode};
        let driver = $m::CUSHIM_LIBRARY.get().map_err(|e| e.to_string())?;
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
            match f.resolve() {
                Ok(p) => match unsafe { lib.get::<*mut std::ffi::c_void>(export.to_bytes_with_nul()) } {
                    Ok(sym) if *sym as *mut () == p => matched += 1,
                    Ok(sym) => mismatches.push(format!("{} -> {:?}, dlsym({:?}) -> {:?}", f.name, p, export, *sym)),
                    Err(_) => not_exported += 1,
                },
                Err(LoadError::TooOld { .. }) => too_old += 1,
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
    use cushim_runtime::LoadError;
    let lacking = pinned::preload_all().map_err(|e| e.to_string())?;
    let too_old: Vec<&str> = lacking
        .iter()
        .filter(|(_, e)| matches!(e, LoadError::TooOld { .. }))
        .map(|(n, _)| *n)
        .collect();
    let other: Vec<String> = lacking
        .iter()
        .filter(|(_, e)| !matches!(e, LoadError::TooOld { .. }))
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
        let e = f.check().expect_err("too old");
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

/// The few EGL and OpenGL entry points the interop check needs, from the
/// system's libEGL (glvnd) at run time: no GL headers or link line.
mod egl {
    use std::ffi::{c_char, c_void, CStr};

    pub const EGL_NONE: i32 = 0x3038;
    pub const EGL_SURFACE_TYPE: i32 = 0x3033;
    pub const EGL_PBUFFER_BIT: i32 = 0x0001;
    pub const EGL_RENDERABLE_TYPE: i32 = 0x3040;
    pub const EGL_OPENGL_BIT: i32 = 0x0008;
    pub const EGL_OPENGL_API: u32 = 0x30A2;
    pub const EGL_PLATFORM_DEVICE_EXT: u32 = 0x313F;
    pub const GL_ARRAY_BUFFER: u32 = 0x8892;
    pub const GL_DYNAMIC_DRAW: u32 = 0x88E8;

    pub struct Egl {
        _lib: libloading::Library,
        get_proc: unsafe extern "C" fn(*const c_char) -> *mut c_void,
    }

    impl Egl {
        pub fn open() -> Result<Egl, String> {
            let lib = unsafe { libloading::Library::new("libEGL.so.1") }
                .map_err(|e| format!("libEGL.so.1: {e}"))?;
            let get_proc = *unsafe {
                lib.get::<unsafe extern "C" fn(*const c_char) -> *mut c_void>(b"eglGetProcAddress\0")
            }
            .map_err(|e| format!("eglGetProcAddress: {e}"))?;
            Ok(Egl { _lib: lib, get_proc })
        }

        /// An EGL or GL function by name, as type `F` (a function pointer).
        pub fn get<F: Copy>(&self, name: &CStr) -> Result<F, String> {
            let p = unsafe { (self.get_proc)(name.as_ptr()) };
            if p.is_null() {
                return Err(format!("eglGetProcAddress({name:?}) is NULL"));
            }
            assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<*mut c_void>());
            Ok(unsafe { std::mem::transmute_copy::<*mut c_void, F>(&p) })
        }
    }
}

/// A headless EGL context on the first EGL device, an OpenGL buffer in it,
/// and the buffer registered with CUDA, mapped, filled by the GPU and read
/// back by OpenGL, every CUDA call through the shims.
fn gl_interop() -> Result<(), String> {
    use egl::*;
    use pinned::{Api, CUGLDeviceList, CUgraphicsRegisterFlags};
    use std::ffi::c_void;
    type Ptr = *mut c_void;
    let e = Egl::open()?;
    unsafe {
        let query_devices: unsafe extern "C" fn(i32, *mut Ptr, *mut i32) -> u32 = e.get(c"eglQueryDevicesEXT")?;
        let platform_display: unsafe extern "C" fn(u32, Ptr, *const i32) -> Ptr = e.get(c"eglGetPlatformDisplayEXT")?;
        let initialize: unsafe extern "C" fn(Ptr, *mut i32, *mut i32) -> u32 = e.get(c"eglInitialize")?;
        let bind_api: unsafe extern "C" fn(u32) -> u32 = e.get(c"eglBindAPI")?;
        let choose_config: unsafe extern "C" fn(Ptr, *const i32, *mut Ptr, i32, *mut i32) -> u32 = e.get(c"eglChooseConfig")?;
        let create_context: unsafe extern "C" fn(Ptr, Ptr, Ptr, *const i32) -> Ptr = e.get(c"eglCreateContext")?;
        let make_current: unsafe extern "C" fn(Ptr, Ptr, Ptr, Ptr) -> u32 = e.get(c"eglMakeCurrent")?;
        let get_error: unsafe extern "C" fn() -> i32 = e.get(c"eglGetError")?;
        let fail = |what: &str| format!("{what} failed (EGL error {:#x})", get_error());

        let mut devices = [std::ptr::null_mut(); 8];
        let mut n = 0;
        if query_devices(8, devices.as_mut_ptr(), &mut n) == 0 || n == 0 {
            return Err(fail("eglQueryDevicesEXT"));
        }
        let display = platform_display(EGL_PLATFORM_DEVICE_EXT, devices[0], std::ptr::null());
        let (mut major, mut minor) = (0, 0);
        if display.is_null() || initialize(display, &mut major, &mut minor) == 0 {
            return Err(fail("eglInitialize"));
        }
        if bind_api(EGL_OPENGL_API) == 0 {
            return Err(fail("eglBindAPI"));
        }
        let attributes = [EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE];
        let mut config = std::ptr::null_mut();
        let mut configs = 0;
        if choose_config(display, attributes.as_ptr(), &mut config, 1, &mut configs) == 0 || configs == 0 {
            return Err(fail("eglChooseConfig"));
        }
        let context = create_context(display, config, std::ptr::null_mut(), std::ptr::null());
        if context.is_null() || make_current(display, std::ptr::null_mut(), std::ptr::null_mut(), context) == 0 {
            return Err(fail("eglCreateContext/eglMakeCurrent (surfaceless)"));
        }
        println!("EGL {major}.{minor}: headless OpenGL context on EGL device 0 of {n}");

        let gen_buffers: unsafe extern "C" fn(i32, *mut u32) = e.get(c"glGenBuffers")?;
        let bind_buffer: unsafe extern "C" fn(u32, u32) = e.get(c"glBindBuffer")?;
        let buffer_data: unsafe extern "C" fn(u32, isize, *const c_void, u32) = e.get(c"glBufferData")?;
        let get_buffer_sub_data: unsafe extern "C" fn(u32, isize, isize, *mut c_void) = e.get(c"glGetBufferSubData")?;
        let finish: unsafe extern "C" fn() = e.get(c"glFinish")?;
        const N: usize = 1 << 20;
        let mut buffer = 0u32;
        gen_buffers(1, &mut buffer);
        bind_buffer(GL_ARRAY_BUFFER, buffer);
        buffer_data(GL_ARRAY_BUFFER, (N * 4) as isize, std::ptr::null(), GL_DYNAMIC_DRAW);
        finish();

        let step = |what: &str, r: Result<(), pinned::Error>| r.map_err(|e| format!("{what}: {e}"));
        step("cuInit", Api::cuInit(0))?;
        let mut gl_devices = [0; 4];
        let mut count = 0u32;
        step(
            "cuGLGetDevices",
            Api::cuGLGetDevices(&mut count, gl_devices.as_mut_ptr(), 4, CUGLDeviceList::CU_GL_DEVICE_LIST_ALL),
        )?;
        println!("cuGLGetDevices (cuGLGetDevices_v2): {count} CUDA device(s) for the GL context, first {}", gl_devices[0]);
        if count == 0 {
            return Err("no CUDA device for the GL context".into());
        }
        let mut ctx = std::ptr::null_mut();
        step("cuDevicePrimaryCtxRetain", Api::cuDevicePrimaryCtxRetain(&mut ctx, gl_devices[0]))?;
        step("cuCtxSetCurrent", Api::cuCtxSetCurrent(ctx))?;
        let mut resource = std::ptr::null_mut();
        step(
            "cuGraphicsGLRegisterBuffer",
            Api::cuGraphicsGLRegisterBuffer(&mut resource, buffer, CUgraphicsRegisterFlags::CU_GRAPHICS_REGISTER_FLAGS_NONE.0),
        )?;
        step("cuGraphicsMapResources", Api::cuGraphicsMapResources(1, &mut resource, std::ptr::null_mut()))?;
        let (mut dptr, mut size) = (0, 0usize);
        step(
            "cuGraphicsResourceGetMappedPointer",
            Api::cuGraphicsResourceGetMappedPointer(&mut dptr, &mut size, resource),
        )?;
        step("cuMemsetD32", Api::cuMemsetD32(dptr, 1.5f32.to_bits(), N))?;
        step("cuCtxSynchronize", Api::cuCtxSynchronize())?;
        step("cuGraphicsUnmapResources", Api::cuGraphicsUnmapResources(1, &mut resource, std::ptr::null_mut()))?;
        step("cuGraphicsUnregisterResource", Api::cuGraphicsUnregisterResource(resource))?;
        let mut back = vec![0f32; N];
        get_buffer_sub_data(GL_ARRAY_BUFFER, 0, (N * 4) as isize, back.as_mut_ptr().cast());
        let wrong = back.iter().filter(|&&v| v != 1.5).count();
        step("cuDevicePrimaryCtxRelease", Api::cuDevicePrimaryCtxRelease(gl_devices[0]))?;
        if wrong != 0 || size != N * 4 {
            return Err(format!("{wrong} of {N} values wrong, mapped size {size}"));
        }
        println!(
            "GL buffer {buffer} ({} MiB) registered, mapped at {dptr:#x}, filled by cuMemsetD32, read back by glGetBufferSubData: all {N} values 1.5",
            (N * 4) >> 20
        );
    }
    Ok(())
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
        (Some("gl"), _) => gl_interop(),
        _ => Err("usage: cushim-gpu-check run|audit pinned|local, too-old, stub, gl".into()),
    };
    match result {
        Ok(()) => println!("ok"),
        Err(e) => {
            println!("FAILED: {e}");
            std::process::exit(1);
        }
    }
}
