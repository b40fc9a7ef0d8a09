//! Scenarios of the family test (`tests/family.rs`), one per run, each in a
//! fresh process: `which LIB`, `bind`, `old-nvjitlink`, `absent`,
//! `preloaded PATH`, `compile [PATH]`, `cublas`, `cublas-absent`, `more`,
//! `more-absent`, `cudart-stream`, `dnn` (cuDNN, NCCL, cuTENSOR, CUPTI, NVTX
//! and cuFile), `dnn-absent`. Prints what the test checks and `ok: SCENARIO`.

use std::ffi::{CStr, c_char, c_void};
use std::ptr;

#[allow(clippy::pedantic, missing_docs)]
mod nvrtc {
    include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/nvrtc.rs"));
}
#[allow(clippy::pedantic, missing_docs)]
mod nvml {
    include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/nvml.rs"));
}
#[allow(clippy::pedantic, missing_docs)]
mod nvjitlink {
    include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/nvjitlink.rs"));
}
#[allow(clippy::pedantic, missing_docs)]
mod cublas {
    include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/cublas.rs"));
}
#[allow(clippy::pedantic, missing_docs)]
mod cublaslt {
    include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/cublasLt.rs"));
}

#[allow(clippy::pedantic, missing_docs)]
mod cudart {
    include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/cudart.rs"));
}
#[allow(clippy::pedantic, missing_docs)]
mod cufft {
    include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/cufft.rs"));
}
#[allow(clippy::pedantic, missing_docs)]
mod curand {
    include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/curand.rs"));
}
#[allow(clippy::pedantic, missing_docs)]
mod cusparse {
    include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/cusparse.rs"));
}
#[allow(clippy::pedantic, missing_docs)]
mod cusolver {
    include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/cusolver.rs"));
}
#[allow(clippy::pedantic, missing_docs)]
mod cudnn {
    include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/cudnn.rs"));
}
#[allow(clippy::pedantic, missing_docs)]
mod nccl {
    include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/nccl.rs"));
}
#[allow(clippy::pedantic, missing_docs)]
mod cutensor {
    include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/cutensor.rs"));
}
#[allow(clippy::pedantic, missing_docs)]
mod cupti {
    include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/cupti.rs"));
}
#[allow(clippy::pedantic, missing_docs)]
mod cufile {
    include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/cufile.rs"));
}
#[allow(clippy::pedantic, missing_docs)]
mod nvtx {
    include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/nvtx.rs"));
}

/// Prints where each library's loader found it, or why it found none.
macro_rules! which {
    ($lib:ident) => {
        match $lib::CUSHIM_LIBRARY.get() {
            Ok(found) => println!("path={} version={}", found.path(), found.version()),
            Err(e) => {
                println!("error={e}");
                if let $lib::LoadError::LibraryNotFound { tried, .. } = e {
                    for a in tried {
                        println!("tried: {} | {} | {}", a.from, a.name, a.error);
                    }
                }
            }
        }
    };
}

fn which(lib: &str) {
    match lib {
        "nvrtc" => which!(nvrtc),
        "nvml" => which!(nvml),
        "nvjitlink" => which!(nvjitlink),
        "cublas" => which!(cublas),
        "cublaslt" => which!(cublaslt),
        "cudart" => which!(cudart),
        "cufft" => which!(cufft),
        "curand" => which!(curand),
        "cusparse" => which!(cusparse),
        "cusolver" => which!(cusolver),
        "cudnn" => which!(cudnn),
        "nccl" => which!(nccl),
        "cutensor" => which!(cutensor),
        "cupti" => which!(cupti),
        "nvtx" => which!(nvtx),
        "cufile" => which!(cufile),
        other => panic!("unknown library {other}"),
    }
}

/// Every library present: each binds the export the header names.
fn bind() {
    // NVML: nvmlInit is nvmlInit_v2; the fake's v1 nvmlInit answers 999.
    let init = nvml::function("nvmlInit").expect("nvmlInit is a C name");
    assert_eq!(init.symbol, c"nvmlInit_v2");
    let rc = unsafe { nvml::nvmlInit() };
    assert_eq!(rc.0, 0, "nvmlInit bound nvmlInit_v2");
    let mut count = 0u32;
    unsafe { nvml::Api::nvmlDeviceGetCount(&raw mut count) }.expect("nvmlDeviceGetCount_v2");
    assert_eq!(count, 1);
    println!("nvml: nvmlInit -> {} ok, devices {count}", init.symbol.to_str().unwrap());

    // NVRTC: the functions the fake has work; the one it lacks fails alone.
    let mut prog: nvrtc::nvrtcProgram = ptr::null_mut();
    unsafe {
        nvrtc::Api::nvrtcCreateProgram(&raw mut prog, c"k".as_ptr(), c"k.cu".as_ptr(), 0, ptr::null(), ptr::null())
    }
    .expect("create");
    unsafe { nvrtc::Api::nvrtcCompileProgram(prog, 0, ptr::null()) }.expect("compile");
    let mut size = 0usize;
    unsafe { nvrtc::Api::nvrtcGetPTXSize(prog, &raw mut size) }.expect("ptx size");
    assert_eq!(size, 42);
    let missing = unsafe { nvrtc::Api::nvrtcGetTileIRSize(prog, &raw mut size) };
    match missing {
        Err(nvrtc::Error::Load(e @ nvrtc::LoadError::SymbolNotFound { .. })) => {
            println!("nvrtc: nvrtcGetTileIRSize: {e}");
        }
        other => panic!("nvrtcGetTileIRSize: {other:?}"),
    }
    let code = unsafe { nvrtc::nvrtcGetTileIRSize(prog, &raw mut size) };
    println!("nvrtc: nvrtcGetTileIRSize code {}", code.0);
    unsafe { nvrtc::Api::nvrtcDestroyProgram(&raw mut prog) }.expect("destroy after a missing function");
    let text = unsafe { CStr::from_ptr(nvrtc::nvrtcGetErrorString(nvrtc::nvrtcResult(0))) };
    println!("nvrtc: nvrtcGetErrorString(0) = {}", text.to_str().unwrap());

    // nvJitLink: the header's own minor.
    let create = nvjitlink::function("nvJitLinkCreate").expect("nvJitLinkCreate is a C name");
    let mut handle: nvjitlink::nvJitLinkHandle = ptr::null_mut();
    unsafe { nvjitlink::Api::nvJitLinkCreate(&raw mut handle, 0, ptr::null_mut()) }.expect("create");
    unsafe { nvjitlink::Api::nvJitLinkComplete(handle) }.expect("complete");
    unsafe { nvjitlink::Api::nvJitLinkDestroy(&raw mut handle) }.expect("destroy");
    println!("nvjitlink: nvJitLinkCreate -> {}", create.symbol.to_str().unwrap());
}

/// nvJitLink older than the header: a typed error, and OUTDATED_LIBRARY.
fn old_nvjitlink() {
    let mut handle: nvjitlink::nvJitLinkHandle = ptr::null_mut();
    match unsafe { nvjitlink::Api::nvJitLinkCreate(&raw mut handle, 0, ptr::null_mut()) } {
        Err(nvjitlink::Error::Load(
            e @ nvjitlink::LoadError::TooOld {
                required: 13050,
                found: 13020,
                ..
            },
        )) => println!("nvjitlink: {e}"),
        other => panic!("nvJitLinkCreate on 13.2: {other:?}"),
    }
    let code = unsafe { nvjitlink::nvJitLinkCreate(&raw mut handle, 0, ptr::null_mut()) };
    println!("nvjitlink: raw code {}", code.0);
    // Functions without a release in their name still work.
    let (mut major, mut minor) = (0u32, 0u32);
    unsafe { nvjitlink::Api::nvJitLinkVersion(&raw mut major, &raw mut minor) }.expect("version");
    println!("nvjitlink: version {major}.{minor}");
}

/// No library at all: each library's own not-found code, a typed error, and
/// the error strings from the header.
fn absent() {
    let rc = unsafe { nvml::nvmlInit() };
    println!("nvml: nvmlInit code {}", rc.0);
    match unsafe { nvml::Api::nvmlInit() } {
        Err(nvml::Error::Load(e @ nvml::LoadError::LibraryNotFound { .. })) => println!("nvml: {e}"),
        other => panic!("nvmlInit without NVML: {other:?}"),
    }
    let mut prog: nvrtc::nvrtcProgram = ptr::null_mut();
    let rc = unsafe {
        nvrtc::nvrtcCreateProgram(&raw mut prog, c"k".as_ptr(), c"k.cu".as_ptr(), 0, ptr::null(), ptr::null())
    };
    println!("nvrtc: nvrtcCreateProgram code {}", rc.0);
    let text = |code: u32| -> String {
        let p: *const c_char = unsafe { nvrtc::nvrtcGetErrorString(nvrtc::nvrtcResult(code)) };
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    };
    println!("nvrtc: nvrtcGetErrorString(3) = {}", text(3));
    println!("nvrtc: nvrtcGetErrorString(12345) = {}", text(12345));
    let name = unsafe { CStr::from_ptr(nvml::nvmlErrorString(nvml::nvmlReturn_t(12))) };
    println!("nvml: nvmlErrorString(12) = {}", name.to_string_lossy());
    let mut handle: nvjitlink::nvJitLinkHandle = ptr::null_mut();
    let rc = unsafe { nvjitlink::nvJitLinkCreate(&raw mut handle, 0, ptr::null_mut()) };
    println!("nvjitlink: nvJitLinkCreate code {}", rc.0);
    let e = nvjitlink::last_load_error().expect("a load error");
    println!("nvjitlink: {e}");
}

/// cuBLAS binds `cublasSgemm_v2` for `cublasSgemm` (the fake's legacy
/// `cublasSgemm` aborts), with cuBLASLt loaded first from its directory.
fn cublas_sgemm() {
    let sgemm = cublas::function("cublasSgemm").expect("cublasSgemm is a C name");
    assert_eq!(sgemm.symbol, c"cublasSgemm_v2");
    let mut handle: cublas::cublasHandle_t = ptr::null_mut();
    unsafe { cublas::Api::cublasCreate(&raw mut handle) }.expect("cublasCreate_v2");
    // Column-major 2x2: A = [1 3; 2 4], B = I, C = A * B.
    let a = [1.0f32, 2.0, 3.0, 4.0];
    let b = [1.0f32, 0.0, 0.0, 1.0];
    let mut c = [0.0f32; 4];
    let (alpha, beta) = (1.0f32, 0.0f32);
    let op = cublas::cublasOperation_t::CUBLAS_OP_N;
    unsafe {
        cublas::Api::cublasSgemm(
            handle, op, op, 2, 2, 2, &raw const alpha, a.as_ptr(), 2, b.as_ptr(), 2, &raw const beta,
            c.as_mut_ptr(), 2,
        )
    }
    .expect("cublasSgemm_v2");
    assert_eq!(c, a);
    unsafe { cublas::Api::cublasDestroy(handle) }.expect("cublasDestroy_v2");
    println!("cublas: cublasSgemm -> {} ok", sgemm.symbol.to_str().unwrap());
    which("cublas");
    let mut lt: cublaslt::cublasLtHandle_t = ptr::null_mut();
    unsafe { cublaslt::Api::cublasLtCreate(&raw mut lt) }.expect("cublasLtCreate");
    unsafe { cublaslt::Api::cublasLtDestroy(lt) }.expect("cublasLtDestroy");
    which("cublaslt");
}

/// Without cuBLAS: CUBLAS_STATUS_NOT_INITIALIZED, and the names from the header.
fn cublas_absent() {
    let mut handle: cublas::cublasHandle_t = ptr::null_mut();
    let rc = unsafe { cublas::cublasCreate(&raw mut handle) };
    println!("cublas: cublasCreate code {}", rc.0);
    let name = unsafe { CStr::from_ptr(cublas::cublasGetStatusName(cublas::cublasStatus_t(7))) };
    println!("cublas: cublasGetStatusName(7) = {}", name.to_string_lossy());
}

/// A copy the program loaded itself is the one the shims use.
fn preloaded(path: &str) {
    let library = unsafe { libloading::Library::new(path) }.expect("the program loads its own copy");
    let _keep: *mut c_void = ptr::null_mut();
    which("nvrtc");
    std::mem::forget(library);
}

/// NVRTC compiles (a fake built with `FAKE_BUILTINS` opens its builtins by
/// bare name then, as the real one does), after the program loaded `path`
/// itself if given: prints the status, the program log (the builtins' file,
/// or the loader's error), where NVRTC was found and its siblings.
fn compile(path: Option<&str>) {
    if let Some(path) = path {
        let library = unsafe { libloading::Library::new(path) }.expect("the program loads its own copy");
        std::mem::forget(library);
    }
    let mut prog: nvrtc::nvrtcProgram = ptr::null_mut();
    unsafe {
        nvrtc::Api::nvrtcCreateProgram(&raw mut prog, c"k".as_ptr(), c"k.cu".as_ptr(), 0, ptr::null(), ptr::null())
    }
    .expect("create");
    let rc = unsafe { nvrtc::nvrtcCompileProgram(prog, 0, ptr::null()) };
    let mut size = 0usize;
    unsafe { nvrtc::Api::nvrtcGetProgramLogSize(prog, &raw mut size) }.expect("log size");
    let mut log: Vec<c_char> = vec![0; size.max(1)];
    unsafe { nvrtc::Api::nvrtcGetProgramLog(prog, log.as_mut_ptr()) }.expect("log");
    let log = unsafe { CStr::from_ptr(log.as_ptr()) }.to_string_lossy().into_owned();
    println!("nvrtc: compile code {} log {log}", rc.0);
    which("nvrtc");
    let found = nvrtc::CUSHIM_LIBRARY.get().expect("NVRTC loaded");
    for sibling in found.siblings() {
        println!("sibling: {} {}", sibling.path, sibling.skipped.as_deref().unwrap_or("loaded"));
    }
    unsafe { nvrtc::Api::nvrtcDestroyProgram(&raw mut prog) }.expect("destroy");
}

/// cudart, cuFFT, cuRAND, cuSPARSE and cuSOLVER found by path, each after
/// the libraries it needs from its directory: each works, and the function
/// each fake lacks (as the real library lacks it) fails alone.
fn more() {
    // cudart: device memory is host memory in the fake.
    let mut device: *mut c_void = ptr::null_mut();
    unsafe { cudart::Api::cudaMalloc(&raw mut device, 8) }.expect("cudaMalloc");
    unsafe { cudart::Api::cudaMemset(device, 7, 8) }.expect("cudaMemset");
    let mut host = [0u8; 8];
    let kind = cudart::cudaMemcpyKind::cudaMemcpyDeviceToHost;
    unsafe { cudart::Api::cudaMemcpy(host.as_mut_ptr().cast(), device, 8, kind) }.expect("cudaMemcpy");
    unsafe { cudart::Api::cudaFree(device) }.expect("cudaFree");
    let mut prop: cudart::cudaDeviceProp = unsafe { std::mem::zeroed() };
    unsafe { cudart::Api::cudaGetDeviceProperties(&raw mut prop, 0) }.expect("cudaGetDeviceProperties");
    let name = unsafe { CStr::from_ptr(prop.name.as_ptr()) }.to_string_lossy().into_owned();
    println!("cudart: memory {host:?}, device {name}");
    // The fake lacks cudaDeviceReset: it alone fails, with
    // cudaErrorSharedObjectSymbolNotFound.
    println!("cudart: cudaDeviceReset code {}", unsafe { cudart::cudaDeviceReset() }.0);
    unsafe { cudart::Api::cudaFree(ptr::null_mut()) }.expect("cudaFree after a missing function");

    // cuFFT: the forward DFT of [1, 2, 3, 4].
    let mut plan: cufft::cufftHandle = 0;
    unsafe { cufft::Api::cufftPlan1d(&raw mut plan, 4, cufft::cufftType_t::CUFFT_C2C, 1) }.expect("plan");
    let mut input: Vec<cufft::cufftComplex> =
        [1.0f32, 2.0, 3.0, 4.0].iter().map(|&x| cufft::cufftComplex { x, y: 0.0 }).collect();
    let mut output = vec![cufft::cufftComplex { x: 0.0, y: 0.0 }; 4];
    unsafe { cufft::Api::cufftExecC2C(plan, input.as_mut_ptr(), output.as_mut_ptr(), -1) }.expect("exec");
    // Rounded, and + 0.0 turns a rounding's -0 into 0.
    let shown: Vec<String> =
        output.iter().map(|c| format!("{:.0}{:+.0}i", c.x.round() + 0.0, c.y.round() + 0.0)).collect();
    println!("cufft: forward {}", shown.join(" "));
    let rc = unsafe { cufft::cufftXtSetJITCallback(plan, c"f".as_ptr(), ptr::null(), 0, cufft::cufftXtCallbackType(0), ptr::null_mut()) };
    println!("cufft: cufftXtSetJITCallback code {}", rc.0);
    unsafe { cufft::Api::cufftDestroy(plan) }.expect("destroy after a missing function");

    // cuRAND: found after cudart from its directory.
    let mut generator: curand::curandGenerator_t = ptr::null_mut();
    let philox = curand::curandRngType::CURAND_RNG_PSEUDO_PHILOX4_32_10;
    unsafe { curand::Api::curandCreateGenerator(&raw mut generator, philox) }.expect("generator");
    unsafe { curand::Api::curandSetPseudoRandomGeneratorSeed(generator, 1234) }.expect("seed");
    let mut numbers = [0.0f32; 3];
    unsafe { curand::Api::curandGenerateUniform(generator, numbers.as_mut_ptr(), 3) }.expect("uniform");
    println!("curand: uniform [{:.6}, {:.6}, {:.6}]", numbers[0], numbers[1], numbers[2]);
    let mut counts = [0u32; 2];
    match unsafe { curand::Api::curandGenerateBinomial(generator, counts.as_mut_ptr(), 2, 10, 0.5) } {
        Err(curand::Error::Load(e @ curand::LoadError::SymbolNotFound { .. })) => println!("curand: {e}"),
        other => panic!("curandGenerateBinomial: {other:?}"),
    }
    unsafe { curand::Api::curandDestroyGenerator(generator) }.expect("destroy after a missing function");

    // cuSPARSE: found after nvJitLink from its directory.
    let mut sparse: cusparse::cusparseHandle_t = ptr::null_mut();
    unsafe { cusparse::Api::cusparseCreate(&raw mut sparse) }.expect("cusparseCreate");
    let rc = unsafe {
        cusparse::cusparseXgebsr2csr(
            sparse, cusparse::cusparseDirection_t(0), 0, 0, ptr::null_mut(), ptr::null(), ptr::null(), 1, 1,
            ptr::null_mut(), ptr::null_mut(), ptr::null_mut(),
        )
    };
    println!("cusparse: cusparseXgebsr2csr code {}", rc.0);
    unsafe { cusparse::Api::cusparseDestroy(sparse) }.expect("cusparseDestroy");

    // cuSOLVER: found after nvJitLink, cuSPARSE, cuBLASLt and cuBLAS.
    let mut dense: cusolver::cusolverDnHandle_t = ptr::null_mut();
    unsafe { cusolver::Api::cusolverDnCreate(&raw mut dense) }.expect("cusolverDnCreate");
    let rc = unsafe { cusolver::cusolverDnLoggerSetLevel(1) };
    println!("cusolver: cusolverDnLoggerSetLevel code {}", rc.0);
    unsafe { cusolver::Api::cusolverDnDestroy(dense) }.expect("cusolverDnDestroy");
    for lib in ["cudart", "cufft", "curand", "cusparse", "cusolver"] {
        which(lib);
    }
}

/// cudaMemcpyAsync through the stubs: the fake says whether its plain export
/// or its per-thread twin ran (the stream mode comes from the environment).
fn cudart_stream() {
    let src = [1u8; 4];
    let mut dst = [0u8; 4];
    let kind = cudart::cudaMemcpyKind::cudaMemcpyHostToHost;
    unsafe { cudart::Api::cudaMemcpyAsync(dst.as_mut_ptr().cast(), src.as_ptr().cast(), 4, kind, ptr::null_mut()) }
        .expect("cudaMemcpyAsync");
    let found = cudart::CUSHIM_LIBRARY.get().expect("cudart loaded");
    let library = unsafe { libloading::Library::new(found.path()) }.expect("loaded already");
    let last = unsafe { library.get::<unsafe extern "C" fn() -> *const c_char>(b"fake_last_copy") }.expect("the hook");
    println!("cudart: ran {}", unsafe { CStr::from_ptr(last()) }.to_string_lossy());
}

/// Without the five: each answers its own code, and names the file it looked for.
fn more_absent() {
    let mut device: *mut c_void = ptr::null_mut();
    println!("cudart: cudaMalloc code {}", unsafe { cudart::cudaMalloc(&raw mut device, 8) }.0);
    let mut plan: cufft::cufftHandle = 0;
    let rc = unsafe { cufft::cufftPlan1d(&raw mut plan, 4, cufft::cufftType_t::CUFFT_C2C, 1) };
    println!("cufft: cufftPlan1d code {}", rc.0);
    let mut generator: curand::curandGenerator_t = ptr::null_mut();
    let philox = curand::curandRngType::CURAND_RNG_PSEUDO_PHILOX4_32_10;
    println!("curand: curandCreateGenerator code {}", unsafe { curand::curandCreateGenerator(&raw mut generator, philox) }.0);
    let mut sparse: cusparse::cusparseHandle_t = ptr::null_mut();
    println!("cusparse: cusparseCreate code {}", unsafe { cusparse::cusparseCreate(&raw mut sparse) }.0);
    let mut dense: cusolver::cusolverDnHandle_t = ptr::null_mut();
    println!("cusolver: cusolverDnCreate code {}", unsafe { cusolver::cusolverDnCreate(&raw mut dense) }.0);
    println!("cufft: {}", cufft::last_load_error().expect("a load error"));
}

/// cuDNN, NCCL and cuTENSOR found by path: cuDNN with its graph library
/// and its ops library loaded from its directory before its first call (its
/// own open of the ops library by name then finds that copy), cuTENSOR after
/// cuBLASLt; each works, and the function each fake lacks fails alone.
fn dnn() {
    let version = unsafe { cudnn::cudnnGetVersion() };
    println!("cudnn: version {version}");
    let mut handle: cudnn::cudnnHandle_t = ptr::null_mut();
    unsafe { cudnn::Api::cudnnCreate(&raw mut handle) }.expect("cudnnCreate");
    let found = cudnn::CUSHIM_LIBRARY.get().expect("cuDNN loaded");
    let library = unsafe { libloading::Library::new(found.path()) }.expect("loaded already");
    let ops = unsafe { library.get::<unsafe extern "C" fn() -> *const c_char>(b"fake_cudnn_ops_file") }
        .expect("the hook");
    println!("cudnn: ops from {}", unsafe { CStr::from_ptr(ops()) }.to_string_lossy());
    let kind = cudnn::cudnnBackendDescriptorType_t(0);
    let rc = unsafe { cudnn::cudnnBackendCreateDescriptor(kind, ptr::null_mut()) };
    println!("cudnn: cudnnBackendCreateDescriptor code {}", rc.0);
    unsafe { cudnn::Api::cudnnDestroy(handle) }.expect("cudnnDestroy after a missing function");

    let mut version = 0;
    unsafe { nccl::Api::ncclGetVersion(&raw mut version) }.expect("ncclGetVersion");
    println!("nccl: version {version}");
    let mut comm: nccl::ncclComm_t = ptr::null_mut();
    unsafe { nccl::Api::ncclCommInitAll(&raw mut comm, 1, ptr::null()) }.expect("ncclCommInitAll");
    let send = [1.5f32, 2.5, 3.5];
    let mut recv = [0.0f32; 3];
    unsafe { nccl::Api::ncclGroupStart() }.expect("ncclGroupStart, which the fake has as ncclX only");
    unsafe {
        nccl::Api::ncclAllReduce(
            send.as_ptr().cast(),
            recv.as_mut_ptr().cast(),
            3,
            nccl::ncclDataType_t::ncclFloat32,
            nccl::ncclRedOp_t::ncclSum,
            comm,
            ptr::null_mut(),
        )
    }
    .expect("ncclAllReduce");
    unsafe { nccl::Api::ncclGroupEnd() }.expect("ncclGroupEnd");
    println!("nccl: all-reduce {recv:?}");
    let mut count = 0;
    println!("nccl: ncclCommCount code {}", unsafe { nccl::ncclCommCount(comm, &raw mut count) }.0);
    unsafe { nccl::Api::ncclCommDestroy(comm) }.expect("ncclCommDestroy after a missing function");

    println!("cutensor: version {}", unsafe { cutensor::cutensorGetVersion() });
    let mut tensor: cutensor::cutensorHandle_t = ptr::null_mut();
    unsafe { cutensor::Api::cutensorCreate(&raw mut tensor) }.expect("cutensorCreate");
    println!("cutensor: cutensorLoggerSetLevel code {}", unsafe { cutensor::cutensorLoggerSetLevel(1) }.0);
    // The compute descriptor is an object the library exports, read from it.
    let compute = cutensor::CUTENSOR_COMPUTE_DESC_32F().expect("the library's CUTENSOR_COMPUTE_DESC_32F");
    let mut operation: cutensor::cutensorOperationDescriptor_t = ptr::null_mut();
    let none = ptr::null_mut();
    let identity = cutensor::cutensorOperator_t::CUTENSOR_OP_IDENTITY;
    let contraction = unsafe {
        cutensor::cutensorCreateContraction(
            tensor, &raw mut operation, none, ptr::null(), identity, none, ptr::null(), identity, none,
            ptr::null(), identity, none, ptr::null(), compute,
        )
    };
    println!("cutensor: contraction with the library's 32F descriptor code {}", contraction.0);
    unsafe { cutensor::Api::cutensorDestroy(tensor) }.expect("cutensorDestroy after a missing function");

    // CUPTI from the toolkit's extras/CUPTI/lib64, kept though its
    // cuptiGetVersion answers CUPTI_ERROR_UNKNOWN without a driver.
    let mut stamp = 0u64;
    unsafe { cupti::Api::cuptiGetTimestamp(&raw mut stamp) }.expect("cuptiGetTimestamp");
    println!("cupti: timestamp {stamp}");
    println!("cupti: cuptiActivityFlushAll code {}", unsafe { cupti::cuptiActivityFlushAll(0) }.0);

    // NVTX: no status; each call answers its value.
    nvtx_ranges();

    // cuFile: a status struct; the header's cuFileDriverClose is
    // cuFileDriverClose_v2; libcufile_rdma.so.1 from beside it.
    let mut version = 0;
    unsafe { cufile::Api::cuFileGetVersion(&raw mut version) }.expect("cuFileGetVersion");
    println!("cufile: version {version}");
    unsafe { cufile::Api::cuFileDriverOpen() }.expect("cuFileDriverOpen");
    let found = cufile::CUSHIM_LIBRARY.get().expect("cuFile loaded");
    let library = unsafe { libloading::Library::new(found.path()) }.expect("loaded already");
    let rdma = unsafe { library.get::<unsafe extern "C" fn() -> *const c_char>(b"fake_rdma_file") }
        .expect("the hook");
    println!("cufile: rdma from {}", unsafe { CStr::from_ptr(rdma()) }.to_string_lossy());
    unsafe { cufile::Api::cuFileDriverClose() }.expect("cuFileDriverClose, which is cuFileDriverClose_v2");
    let mut bytes = [0u8; 4];
    let read = unsafe { cufile::cuFileRead(ptr::null_mut(), bytes.as_mut_ptr().cast(), 4, 0, 0) };
    println!("cufile: read {read} {bytes:?}");
    let registered = unsafe { cufile::cuFileBufRegister(bytes.as_ptr().cast(), 4, 0) };
    println!("cufile: cuFileBufRegister code {} cu_err {}", registered.err.0, registered.cu_err.0);
    for lib in ["cudnn", "nccl", "cutensor", "cupti", "nvtx", "cufile"] {
        which(lib);
    }
}

/// Two nested NVTX ranges, a mark, and the function the fake lacks: what each
/// answers (with the library, the fake's nesting levels; without it, zero).
fn nvtx_ranges() {
    let outer = unsafe { nvtx::nvtxRangePushA(c"outer".as_ptr()) };
    let inner = unsafe { nvtx::nvtxRangePushA(c"inner".as_ptr()) };
    unsafe { nvtx::nvtxMarkA(c"mark".as_ptr()) };
    let popped = unsafe { nvtx::nvtxRangePop() };
    let domain = unsafe { nvtx::nvtxDomainCreateA(c"d".as_ptr()) };
    println!("nvtx: push {outer} {inner} pop {popped} domain null {}", domain.is_null());
}

/// Without them: each answers its own code, and says why.
fn dnn_absent() {
    let mut handle: cudnn::cudnnHandle_t = ptr::null_mut();
    println!("cudnn: cudnnCreate code {}", unsafe { cudnn::cudnnCreate(&raw mut handle) }.0);
    println!("cudnn: cudnnGetVersion {}", unsafe { cudnn::cudnnGetVersion() });
    let mut version = 0;
    println!("nccl: ncclGetVersion code {}", unsafe { nccl::ncclGetVersion(&raw mut version) }.0);
    let mut tensor: cutensor::cutensorHandle_t = ptr::null_mut();
    println!("cutensor: cutensorCreate code {}", unsafe { cutensor::cutensorCreate(&raw mut tensor) }.0);
    println!("cutensor: CUTENSOR_COMPUTE_DESC_32F {:?}", cutensor::CUTENSOR_COMPUTE_DESC_32F());
    let mut stamp = 0u64;
    println!("cupti: cuptiGetTimestamp code {}", unsafe { cupti::cuptiGetTimestamp(&raw mut stamp) }.0);
    nvtx_ranges();
    let opened = unsafe { cufile::cuFileDriverOpen() };
    println!("cufile: cuFileDriverOpen code {} cu_err {}", opened.err.0, opened.cu_err.0);
    println!("cufile: cuFileRead {}", unsafe { cufile::cuFileRead(ptr::null_mut(), ptr::null_mut(), 4, 0, 0) });
    for lib in ["cudnn", "nccl", "cutensor", "cupti", "nvtx", "cufile"] {
        which(lib);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("which") => which(&args[2]),
        Some("bind") => bind(),
        Some("old-nvjitlink") => old_nvjitlink(),
        Some("absent") => absent(),
        Some("preloaded") => preloaded(&args[2]),
        Some("compile") => compile(args.get(2).map(String::as_str)),
        Some("cublas") => cublas_sgemm(),
        Some("cublas-absent") => cublas_absent(),
        Some("more") => more(),
        Some("more-absent") => more_absent(),
        Some("cudart-stream") => cudart_stream(),
        Some("dnn") => dnn(),
        Some("dnn-absent") => dnn_absent(),
        other => panic!("unknown scenario {other:?}"),
    }
    println!("ok: {}", args[1]);
}
