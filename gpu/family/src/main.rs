//! NVRTC → nvJitLink → driver → NVML through the shims only, on a real GPU.
//! Prints where each library was found and one `ok:`/`FAIL:` line per check.

use std::ffi::{CStr, CString, c_char, c_uint, c_void};
use std::ptr;

#[allow(clippy::pedantic, missing_docs, dead_code)]
mod cuda {
    include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/cuda.rs"));
}
#[allow(clippy::pedantic, missing_docs, dead_code)]
mod nvrtc {
    include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/nvrtc.rs"));
}
#[allow(clippy::pedantic, missing_docs, dead_code)]
mod nvjitlink {
    include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/nvjitlink.rs"));
}
#[allow(clippy::pedantic, missing_docs, dead_code)]
mod cublas {
    include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/cublas.rs"));
}
#[allow(clippy::pedantic, missing_docs, dead_code)]
mod cublaslt {
    include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/cublasLt.rs"));
}
#[allow(clippy::pedantic, missing_docs, dead_code)]
mod nvml {
    include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/nvml.rs"));
}

const KERNEL: &str = r#"
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"#;

macro_rules! found {
    ($lib:ident) => {
        match $lib::CUSHIM_LIBRARY.get() {
            Ok(d) => println!(
                "found {}: {} by {} (version {})",
                stringify!($lib),
                d.path(),
                d.found_by(),
                cushim_runtime::version_text(d.version())
            ),
            Err(e) => println!("FAIL: {}: {e}", stringify!($lib)),
        }
    };
}

fn check<T, E: std::fmt::Debug>(what: &str, r: Result<T, E>) -> T {
    r.unwrap_or_else(|e| {
        println!("FAIL: {what}: {e:?}");
        std::process::exit(1)
    })
}

/// NVRTC: the kernel as LTO-IR for the device's architecture.
fn compile(arch: &str) -> Vec<u8> {
    let source = CString::new(KERNEL).unwrap();
    let mut prog: nvrtc::nvrtcProgram = ptr::null_mut();
    check("nvrtcCreateProgram", unsafe {
        nvrtc::Api::nvrtcCreateProgram(&raw mut prog, source.as_ptr(), c"saxpy.cu".as_ptr(), 0, ptr::null(), ptr::null())
    });
    let options = [CString::new(format!("-arch={arch}")).unwrap(), CString::new("-dlto").unwrap()];
    let pointers: Vec<*const c_char> = options.iter().map(|o| o.as_ptr()).collect();
    let compiled = unsafe { nvrtc::Api::nvrtcCompileProgram(prog, 2, pointers.as_ptr()) };
    if compiled.is_err() {
        let mut size = 0usize;
        let _ = unsafe { nvrtc::Api::nvrtcGetProgramLogSize(prog, &raw mut size) };
        let mut log = vec![0u8; size.max(1)];
        let _ = unsafe { nvrtc::Api::nvrtcGetProgramLog(prog, log.as_mut_ptr().cast()) };
        println!("nvrtc log: {}", String::from_utf8_lossy(&log));
    }
    check("nvrtcCompileProgram", compiled);
    let mut size = 0usize;
    check("nvrtcGetLTOIRSize", unsafe { nvrtc::Api::nvrtcGetLTOIRSize(prog, &raw mut size) });
    let mut ltoir = vec![0u8; size];
    check("nvrtcGetLTOIR", unsafe { nvrtc::Api::nvrtcGetLTOIR(prog, ltoir.as_mut_ptr().cast()) });
    check("nvrtcDestroyProgram", unsafe { nvrtc::Api::nvrtcDestroyProgram(&raw mut prog) });
    let (mut major, mut minor) = (0, 0);
    check("nvrtcVersion", unsafe { nvrtc::Api::nvrtcVersion(&raw mut major, &raw mut minor) });
    println!("ok: nvrtc {major}.{minor} compiled saxpy to {size} bytes of LTO-IR");
    ltoir
}

/// nvJitLink: the LTO-IR linked into a cubin.
fn link(arch: &str, ltoir: &[u8]) -> Vec<u8> {
    let options = [CString::new(format!("-arch={arch}")).unwrap(), CString::new("-lto").unwrap()];
    let mut pointers: Vec<*const c_char> = options.iter().map(|o| o.as_ptr()).collect();
    let mut handle: nvjitlink::nvJitLinkHandle = ptr::null_mut();
    check("nvJitLinkCreate", unsafe {
        nvjitlink::Api::nvJitLinkCreate(&raw mut handle, 2, pointers.as_mut_ptr())
    });
    check("nvJitLinkAddData", unsafe {
        nvjitlink::Api::nvJitLinkAddData(
            handle,
            nvjitlink::nvJitLinkInputType::NVJITLINK_INPUT_LTOIR,
            ltoir.as_ptr().cast(),
            ltoir.len(),
            c"saxpy".as_ptr(),
        )
    });
    check("nvJitLinkComplete", unsafe { nvjitlink::Api::nvJitLinkComplete(handle) });
    let mut size = 0usize;
    check("nvJitLinkGetLinkedCubinSize", unsafe {
        nvjitlink::Api::nvJitLinkGetLinkedCubinSize(handle, &raw mut size)
    });
    let mut cubin = vec![0u8; size];
    check("nvJitLinkGetLinkedCubin", unsafe {
        nvjitlink::Api::nvJitLinkGetLinkedCubin(handle, cubin.as_mut_ptr().cast())
    });
    check("nvJitLinkDestroy", unsafe { nvjitlink::Api::nvJitLinkDestroy(&raw mut handle) });
    let create = nvjitlink::function("nvJitLinkCreate").unwrap();
    println!(
        "ok: nvjitlink linked a {size}-byte cubin through {}",
        create.symbol.to_str().unwrap()
    );
    cubin
}

/// The driver: the cubin loaded and launched; y = 2x + y checked.
fn launch(cubin: &[u8]) {
    use cuda::Api;
    check("cuInit", unsafe { Api::cuInit(0) });
    let mut device = 0;
    check("cuDeviceGet", unsafe { Api::cuDeviceGet(&raw mut device, 0) });
    let mut ctx: cuda::CUcontext = ptr::null_mut();
    check("cuDevicePrimaryCtxRetain", unsafe { Api::cuDevicePrimaryCtxRetain(&raw mut ctx, device) });
    check("cuCtxSetCurrent", unsafe { Api::cuCtxSetCurrent(ctx) });
    let mut module: cuda::CUmodule = ptr::null_mut();
    check("cuModuleLoadData", unsafe { Api::cuModuleLoadData(&raw mut module, cubin.as_ptr().cast()) });
    let mut function: cuda::CUfunction = ptr::null_mut();
    check("cuModuleGetFunction", unsafe {
        Api::cuModuleGetFunction(&raw mut function, module, c"saxpy".as_ptr())
    });
    let n: i32 = 1 << 20;
    let count = n as usize;
    let x: Vec<f32> = (0..count).map(|i| i as f32).collect();
    let y: Vec<f32> = (0..count).map(|i| (i % 7) as f32).collect();
    let bytes = count * 4;
    let (mut dx, mut dy): (cuda::CUdeviceptr, cuda::CUdeviceptr) = (0, 0);
    check("cuMemAlloc", unsafe { Api::cuMemAlloc(&raw mut dx, bytes) });
    check("cuMemAlloc", unsafe { Api::cuMemAlloc(&raw mut dy, bytes) });
    check("cuMemcpyHtoD", unsafe { Api::cuMemcpyHtoD(dx, x.as_ptr().cast(), bytes) });
    check("cuMemcpyHtoD", unsafe { Api::cuMemcpyHtoD(dy, y.as_ptr().cast(), bytes) });
    let mut a = 2.0f32;
    let mut params: [*mut c_void; 4] = [
        (&raw mut a).cast(),
        (&raw mut dx).cast(),
        (&raw mut dy).cast(),
        (&raw const n).cast_mut().cast(),
    ];
    let blocks = (n as u32).div_ceil(256);
    check("cuLaunchKernel", unsafe {
        Api::cuLaunchKernel(function, blocks, 1, 1, 256, 1, 1, 0, ptr::null_mut(), params.as_mut_ptr(), ptr::null_mut())
    });
    check("cuCtxSynchronize", unsafe { Api::cuCtxSynchronize() });
    let mut out = vec![0f32; count];
    check("cuMemcpyDtoH", unsafe { Api::cuMemcpyDtoH(out.as_mut_ptr().cast(), dy, bytes) });
    let wrong = (0..count).filter(|&i| out[i] != 2.0 * x[i] + y[i]).count();
    check("cuMemFree", unsafe { Api::cuMemFree(dx) });
    check("cuMemFree", unsafe { Api::cuMemFree(dy) });
    if wrong == 0 {
        println!("ok: driver launched saxpy on {n} elements, all exact");
    } else {
        println!("FAIL: saxpy: {wrong} of {n} wrong");
        std::process::exit(1);
    }
}

/// FNV-1a over the bytes of `v`: equal sums mean equal bits.
fn fnv1a(v: &[f32]) -> u64 {
    let mut h: u64 = 1_469_598_103_934_665_603;
    for x in v {
        for b in x.to_ne_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(1_099_511_628_211);
        }
    }
    h
}

/// cuBLAS SGEMM on the same 4096x4096 inputs as gpu/family.cpp (its checksum
/// must equal the C++ builds'), then the product through cuBLASLt.
fn blas() {
    use cuda::Api;
    let n: usize = 4096;
    let count = n * n;
    let bytes = count * 4;
    let a: Vec<f32> = (0..count).map(|i| ((i * 7) % 13) as f32 / 13.0 - 0.5).collect();
    let b: Vec<f32> = (0..count).map(|i| ((i * 11) % 17) as f32 / 17.0 - 0.5).collect();
    let (mut da, mut db, mut dc, mut dd, mut work): (cuda::CUdeviceptr, cuda::CUdeviceptr, cuda::CUdeviceptr, cuda::CUdeviceptr, cuda::CUdeviceptr) = (0, 0, 0, 0, 0);
    let work_size = 32usize << 20;
    for (p, size) in [(&mut da, bytes), (&mut db, bytes), (&mut dc, bytes), (&mut dd, bytes), (&mut work, work_size)] {
        check("cuMemAlloc", unsafe { Api::cuMemAlloc(p, size) });
    }
    check("cuMemcpyHtoD", unsafe { Api::cuMemcpyHtoD(da, a.as_ptr().cast(), bytes) });
    check("cuMemcpyHtoD", unsafe { Api::cuMemcpyHtoD(db, b.as_ptr().cast(), bytes) });
    let mut handle: cublas::cublasHandle_t = ptr::null_mut();
    check("cublasCreate", unsafe { cublas::Api::cublasCreate(&raw mut handle) });
    let (alpha, beta) = (1.0f32, 0.0f32);
    let op = cublas::cublasOperation_t::CUBLAS_OP_N;
    let m = n as i32;
    check("cublasSgemm", unsafe {
        cublas::Api::cublasSgemm(
            handle, op, op, m, m, m, &raw const alpha, da as *const f32, m, db as *const f32, m, &raw const beta,
            dc as *mut f32, m,
        )
    });
    check("cuCtxSynchronize", unsafe { Api::cuCtxSynchronize() });
    let mut c = vec![0f32; count];
    check("cuMemcpyDtoH", unsafe { Api::cuMemcpyDtoH(c.as_mut_ptr().cast(), dc, bytes) });
    check("cublasDestroy", unsafe { cublas::Api::cublasDestroy(handle) });
    let sgemm = cublas::function("cublasSgemm").unwrap();
    println!(
        "ok: cublasSgemm ({}) {n}x{n} fnv1a={:016x} c[0]={:.6} c[last]={:.6}",
        sgemm.symbol.to_str().unwrap(),
        fnv1a(&c),
        c[0],
        c[count - 1]
    );

    let mut lt: cublaslt::cublasLtHandle_t = ptr::null_mut();
    check("cublasLtCreate", unsafe { cublaslt::Api::cublasLtCreate(&raw mut lt) });
    let mut desc: cublaslt::cublasLtMatmulDesc_t = ptr::null_mut();
    check("cublasLtMatmulDescCreate", unsafe {
        cublaslt::Api::cublasLtMatmulDescCreate(&raw mut desc, cublaslt::cublasComputeType_t::CUBLAS_COMPUTE_32F, cublaslt::cudaDataType_t::CUDA_R_32F)
    });
    let mut layout: cublaslt::cublasLtMatrixLayout_t = ptr::null_mut();
    check("cublasLtMatrixLayoutCreate", unsafe {
        cublaslt::Api::cublasLtMatrixLayoutCreate(&raw mut layout, cublaslt::cudaDataType_t::CUDA_R_32F, n as u64, n as u64, n as i64)
    });
    check("cublasLtMatmul", unsafe {
        cublaslt::Api::cublasLtMatmul(
            lt, desc, (&raw const alpha).cast(), da as *const c_void, layout, db as *const c_void, layout,
            (&raw const beta).cast(), dd as *const c_void, layout, dd as *mut c_void, layout, ptr::null(),
            work as *mut c_void, work_size, ptr::null_mut(),
        )
    });
    check("cuCtxSynchronize", unsafe { Api::cuCtxSynchronize() });
    let mut d = vec![0f32; count];
    check("cuMemcpyDtoH", unsafe { Api::cuMemcpyDtoH(d.as_mut_ptr().cast(), dd, bytes) });
    let worst = c.iter().zip(&d).map(|(x, y)| f64::from((x - y).abs())).fold(0.0, f64::max);
    check("cublasLtMatrixLayoutDestroy", unsafe { cublaslt::Api::cublasLtMatrixLayoutDestroy(layout) });
    check("cublasLtMatmulDescDestroy", unsafe { cublaslt::Api::cublasLtMatmulDescDestroy(desc) });
    check("cublasLtDestroy", unsafe { cublaslt::Api::cublasLtDestroy(lt) });
    for p in [da, db, dc, dd, work] {
        check("cuMemFree", unsafe { Api::cuMemFree(p) });
    }
    if worst > 1e-2 {
        println!("FAIL: cublasLtMatmul differs from cublasSgemm by {worst}");
        std::process::exit(1);
    }
    println!("ok: cublasLtMatmul {n}x{n}, largest difference from cublasSgemm {worst:.3e}");
}

/// The device's compute capability as `sm_XY`.
fn arch() -> String {
    use cuda::Api;
    check("cuInit", unsafe { Api::cuInit(0) });
    let (mut major, mut minor) = (0, 0);
    check("cuDeviceGetAttribute", unsafe {
        Api::cuDeviceGetAttribute(&raw mut major, cuda::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0)
    });
    check("cuDeviceGetAttribute", unsafe {
        Api::cuDeviceGetAttribute(&raw mut minor, cuda::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0)
    });
    format!("sm_{major}{minor}")
}

/// NVML: the name, memory and temperature that nvidia-smi shows too.
#[allow(deprecated)]
fn nvml_report() {
    use nvml::Api;
    check("nvmlInit", unsafe { Api::nvmlInit() });
    let init = nvml::function("nvmlInit").unwrap();
    let mut device: nvml::nvmlDevice_t = ptr::null_mut();
    check("nvmlDeviceGetHandleByIndex", unsafe { Api::nvmlDeviceGetHandleByIndex(0, &raw mut device) });
    let mut name = [0 as c_char; 96];
    check("nvmlDeviceGetName", unsafe { Api::nvmlDeviceGetName(device, name.as_mut_ptr(), 96) });
    let mut memory = nvml::nvmlMemory_t { total: 0, free: 0, used: 0 };
    check("nvmlDeviceGetMemoryInfo", unsafe { Api::nvmlDeviceGetMemoryInfo(device, &raw mut memory) });
    let mut temperature: c_uint = 0;
    check("nvmlDeviceGetTemperature", unsafe {
        Api::nvmlDeviceGetTemperature(device, nvml::nvmlTemperatureSensors_enum::NVML_TEMPERATURE_GPU, &raw mut temperature)
    });
    let name = unsafe { CStr::from_ptr(name.as_ptr()) }.to_string_lossy();
    println!(
        "ok: nvml ({}) name={name}; memory.total={} MiB; temperature.gpu={temperature}",
        init.symbol.to_str().unwrap(),
        memory.total / (1024 * 1024)
    );
    check("nvmlShutdown", unsafe { Api::nvmlShutdown() });
}

fn main() {
    found!(nvrtc);
    found!(nvjitlink);
    found!(cuda);
    found!(nvml);
    found!(cublas);
    found!(cublaslt);
    let arch = arch();
    let ltoir = compile(&arch);
    let cubin = link(&arch, &ltoir);
    launch(&cubin);
    blas();
    nvml_report();
    println!("ok: all (rust)");
}
