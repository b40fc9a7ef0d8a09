//! gpu/dnn.cpp's computations in Rust, through cushim's modules for CUDA
//! 13.0: each result printed as the FNV-1a hash of its bytes, which must
//! equal the C++ program's linked directly.

use std::ffi::c_void;
use std::ptr;

#[allow(clippy::pedantic, missing_docs, dead_code)]
mod cudart {
    include!(concat!(env!("CUSHIM_DNN_DIR"), "/cudart.rs"));
}
#[allow(clippy::pedantic, missing_docs, dead_code)]
mod cudnn {
    include!(concat!(env!("CUSHIM_DNN_DIR"), "/cudnn.rs"));
}
#[allow(clippy::pedantic, missing_docs, dead_code)]
mod cupti {
    include!(concat!(env!("CUSHIM_DNN_DIR"), "/cupti.rs"));
}
#[allow(clippy::pedantic, missing_docs, dead_code)]
mod nvtx {
    include!(concat!(env!("CUSHIM_DNN_DIR"), "/nvtx.rs"));
}
#[allow(clippy::pedantic, missing_docs, dead_code)]
mod cutensor {
    include!(concat!(env!("CUSHIM_DNN_DIR"), "/cutensor.rs"));
}
#[allow(clippy::pedantic, missing_docs, dead_code)]
mod cufile {
    include!(concat!(env!("CUSHIM_DNN_DIR"), "/cufile.rs"));
}
#[allow(clippy::pedantic, missing_docs, dead_code)]
mod nccl {
    include!(concat!(env!("CUSHIM_DNN_DIR"), "/nccl.rs"));
}

/// Every status type is a newtype over its code: 0 is success.
macro_rules! check {
    ($call:expr) => {{
        let rc = unsafe { $call };
        assert_eq!(rc.0, 0, "{} = {:?}", stringify!($call), rc);
    }};
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(1469598103934665603u64, |h, b| (h ^ u64::from(*b)).wrapping_mul(1099511628211))
}

fn device_hash(device: *const f32, count: usize) -> u64 {
    let size = count * 4;
    let mut host = vec![0u8; size];
    check!(cudart::cudaMemcpy(host.as_mut_ptr().cast(), device.cast(), size, cudart::cudaMemcpyKind::cudaMemcpyDeviceToHost));
    fnv1a(&host)
}

/// gpu/dnn.cpp's `pattern`: a small integer pattern, scaled.
fn pattern(n: usize, seed: u32) -> Vec<f32> {
    // In 64 bits, as the C++ program's `size_t` arithmetic.
    (0..n as u64).map(|i| ((i * 7919 + u64::from(seed)) % 17) as i32 - 8).map(|v| v as f32 / 8.0).collect()
}

fn upload(host: &[f32]) -> *mut f32 {
    let mut p: *mut c_void = ptr::null_mut();
    check!(cudart::cudaMalloc(&raw mut p, host.len() * 4));
    check!(cudart::cudaMemcpy(p, host.as_ptr().cast(), host.len() * 4, cudart::cudaMemcpyKind::cudaMemcpyHostToDevice));
    p.cast()
}

fn convolution() {
    use cudnn::*;
    let (n, c, h, w, k, r, s) = (2, 3, 64, 64, 16, 3, 3);
    let mut handle: cudnnHandle_t = ptr::null_mut();
    check!(cudnnCreate(&raw mut handle));
    let (mut x_desc, mut y_desc): (cudnnTensorDescriptor_t, cudnnTensorDescriptor_t) = (ptr::null_mut(), ptr::null_mut());
    let mut w_desc: cudnnFilterDescriptor_t = ptr::null_mut();
    let mut conv: cudnnConvolutionDescriptor_t = ptr::null_mut();
    check!(cudnnCreateTensorDescriptor(&raw mut x_desc));
    check!(cudnnCreateTensorDescriptor(&raw mut y_desc));
    check!(cudnnCreateFilterDescriptor(&raw mut w_desc));
    check!(cudnnCreateConvolutionDescriptor(&raw mut conv));
    let nchw = cudnnTensorFormat_t::CUDNN_TENSOR_NCHW;
    let float = cudnnDataType_t::CUDNN_DATA_FLOAT;
    check!(cudnnSetTensor4dDescriptor(x_desc, nchw, float, n, c, h, w));
    check!(cudnnSetFilter4dDescriptor(w_desc, float, nchw, k, c, r, s));
    check!(cudnnSetConvolution2dDescriptor(conv, 1, 1, 1, 1, 1, 1, cudnnConvolutionMode_t::CUDNN_CROSS_CORRELATION, float));
    check!(cudnnSetConvolutionMathType(conv, cudnnMathType_t::CUDNN_FMA_MATH));
    let (mut on, mut oc, mut oh, mut ow) = (0, 0, 0, 0);
    check!(cudnnGetConvolution2dForwardOutputDim(conv, x_desc, w_desc, &raw mut on, &raw mut oc, &raw mut oh, &raw mut ow));
    check!(cudnnSetTensor4dDescriptor(y_desc, nchw, float, on, oc, oh, ow));
    let algo = cudnnConvolutionFwdAlgo_t::CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
    let mut workspace = 0usize;
    check!(cudnnGetConvolutionForwardWorkspaceSize(handle, x_desc, w_desc, conv, y_desc, algo, &raw mut workspace));
    let x = upload(&pattern((n * c * h * w) as usize, 1));
    let filter = upload(&pattern((k * c * r * s) as usize, 2));
    let out = (on * oc * oh * ow) as usize;
    let y = upload(&vec![0.0; out]);
    let mut ws: *mut c_void = ptr::null_mut();
    if workspace > 0 {
        check!(cudart::cudaMalloc(&raw mut ws, workspace));
    }
    let (alpha, beta) = (1.0f32, 0.0f32);
    check!(cudnnConvolutionForward(
        handle,
        (&raw const alpha).cast(),
        x_desc,
        x.cast(),
        w_desc,
        filter.cast(),
        conv,
        algo,
        ws,
        workspace,
        (&raw const beta).cast(),
        y_desc,
        y.cast()
    ));
    check!(cudart::cudaDeviceSynchronize());
    println!(
        "cudnn conv forward {n}x{c}x{h}x{w} * {k}x{c}x{r}x{s} -> {on}x{oc}x{oh}x{ow} {:016x}",
        device_hash(y, out)
    );
    for p in [x, filter, y] {
        check!(cudart::cudaFree(p.cast()));
    }
    if !ws.is_null() {
        check!(cudart::cudaFree(ws));
    }
    check!(cudnnDestroyConvolutionDescriptor(conv));
    check!(cudnnDestroyFilterDescriptor(w_desc));
    check!(cudnnDestroyTensorDescriptor(y_desc));
    check!(cudnnDestroyTensorDescriptor(x_desc));
    check!(cudnnDestroy(handle));
}

fn collectives() {
    use nccl::*;
    let count = 1usize << 20;
    let mut comm: ncclComm_t = ptr::null_mut();
    let devices = [0];
    check!(ncclCommInitAll(&raw mut comm, 1, devices.as_ptr()));
    let mut stream: cudart::cudaStream_t = ptr::null_mut();
    check!(cudart::cudaStreamCreate(&raw mut stream));
    let s: nccl::cudaStream_t = stream.cast();
    let f32_ = ncclDataType_t::ncclFloat32;
    let send = upload(&pattern(count, 3));
    let recv = upload(&vec![0.0; count]);
    check!(ncclAllReduce(send.cast(), recv.cast(), count, f32_, ncclRedOp_t::ncclSum, comm, s));
    check!(cudart::cudaStreamSynchronize(stream));
    println!("nccl all-reduce n={count} {:016x}", device_hash(recv, count));
    let bcast = upload(&vec![0.0; count]);
    check!(ncclBroadcast(send.cast(), bcast.cast(), count, f32_, 0, comm, s));
    check!(cudart::cudaStreamSynchronize(stream));
    println!("nccl broadcast n={count} {:016x}", device_hash(bcast, count));
    let gathered = upload(&vec![0.0; count]);
    check!(ncclAllGather(send.cast(), gathered.cast(), count, f32_, comm, s));
    check!(cudart::cudaStreamSynchronize(stream));
    println!("nccl all-gather n={count} {:016x}", device_hash(gathered, count));
    let mut version = 0;
    check!(ncclGetVersion(&raw mut version));
    let mut ranks = 0;
    check!(ncclCommCount(comm, &raw mut ranks));
    println!("nccl ranks {ranks}");
    for p in [send, recv, bcast, gathered] {
        check!(cudart::cudaFree(p.cast()));
    }
    check!(cudart::cudaStreamDestroy(stream));
    check!(ncclCommDestroy(comm));
}

/// The kernel records' names, as CUPTI completes its buffers.
static KERNELS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
const BUFFER: usize = 8 << 20;

unsafe extern "C" fn buffer_requested(buffer: *mut *mut u8, size: *mut usize, max_records: *mut usize) {
    let layout = std::alloc::Layout::from_size_align(BUFFER, 8).unwrap();
    unsafe {
        *buffer = std::alloc::alloc(layout);
        *size = BUFFER;
        *max_records = 0;
    }
}

unsafe extern "C" fn buffer_completed(_: cupti::CUcontext, _: u32, buffer: *mut u8, _: usize, valid: usize) {
    let mut record: *mut cupti::CUpti_Activity = ptr::null_mut();
    while unsafe { cupti::cuptiActivityGetNextRecord(buffer, valid, &raw mut record) }.0 == 0 {
        if unsafe { (*record).kind } == cupti::CUpti_ActivityKind::CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL {
            let kernel = record.cast::<cupti::CUpti_ActivityKernel10>();
            let name = unsafe { std::ffi::CStr::from_ptr((*kernel).name) };
            KERNELS.lock().unwrap().push(name.to_string_lossy().into_owned());
        }
    }
    unsafe { std::alloc::dealloc(buffer, std::alloc::Layout::from_size_align(BUFFER, 8).unwrap()) };
}

/// gpu/dnn.cpp's `trace`: the convolution's kernels, recorded by CUPTI.
fn trace() {
    check!(cupti::cuptiActivityRegisterCallbacks(Some(buffer_requested), Some(buffer_completed)));
    check!(cupti::cuptiActivityEnable(cupti::CUpti_ActivityKind::CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    convolution();
    check!(cupti::cuptiActivityFlushAll(1));
    let mut kernels = KERNELS.lock().unwrap().clone();
    kernels.sort();
    let names: String = kernels.iter().map(|k| format!("{k}\n")).collect();
    println!("cupti kernels {} names {:016x}", kernels.len(), fnv1a(names.as_bytes()));
}

/// gpu/dnn.cpp's `file`: cuFile's answers, and a 1 MiB read into device memory.
fn file() {
    use std::io::Write;
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    let mut version = 0;
    let asked = unsafe { cufile::cuFileGetVersion(&raw mut version) };
    println!("cufile version {version} err {}", asked.err.0);
    let opened = unsafe { cufile::cuFileDriverOpen() };
    println!("cufile cuFileDriverOpen err {} cu_err {}", opened.err.0, opened.cu_err.0);
    if opened.err.0 != 0 {
        return;
    }
    let size = 1usize << 20;
    let bytes: Vec<u8> = (0..size).map(|i| ((i * 131 + 7) & 255) as u8).collect();
    let path = std::env::temp_dir().join(format!("cushim-cufile-{}", std::process::id()));
    std::fs::File::create(&path).and_then(|mut f| f.write_all(&bytes)).expect("the file");
    // O_DIRECT where the file system takes it (GPUDirect Storage needs it).
    const O_DIRECT: i32 = 0o40000;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(O_DIRECT)
        .open(&path)
        .or_else(|_| std::fs::File::open(&path))
        .expect("the file");
    let mut descr: cufile::CUfileDescr_t = unsafe { std::mem::zeroed() };
    descr.handle.fd = file.as_raw_fd();
    descr.type_ = cufile::CUfileFileHandleType::CU_FILE_HANDLE_TYPE_OPAQUE_FD;
    let mut handle: cufile::CUfileHandle_t = ptr::null_mut();
    let registered = unsafe { cufile::cuFileHandleRegister(&raw mut handle, &raw mut descr) };
    println!("cufile cuFileHandleRegister err {}", registered.err.0);
    if registered.err.0 == 0 {
        let mut device: *mut c_void = ptr::null_mut();
        check!(cudart::cudaMalloc(&raw mut device, size));
        check!(cudart::cudaMemset(device, 0, size));
        let read = unsafe { cufile::cuFileRead(handle, device, size, 0, 0) };
        let mut host = vec![0u8; size];
        check!(cudart::cudaMemcpy(host.as_mut_ptr().cast(), device, size, cudart::cudaMemcpyKind::cudaMemcpyDeviceToHost));
        println!("cufile read {read} hash {:016x}", fnv1a(&host));
        unsafe { cufile::cuFileHandleDeregister(handle) };
        check!(cudart::cudaFree(device));
    }
    drop(file);
    let _ = std::fs::remove_file(&path);
    let closed = unsafe { cufile::cuFileDriverClose() };
    println!("cufile cuFileDriverClose err {}", closed.err.0);
}

/// gpu/dnn.cpp's `tensor`: C[m,n] = A[m,k] B[k,n] with cuTENSOR, its compute
/// descriptor read from the library's export.
fn tensor() {
    use cutensor::*;
    let mut handle: cutensorHandle_t = ptr::null_mut();
    check!(cutensorCreate(&raw mut handle));
    let (m, n, k) = (256i64, 128i64, 64i64);
    let (mode_a, mode_b, mode_c) = ([b'm' as i32, b'k' as i32], [b'k' as i32, b'n' as i32], [b'm' as i32, b'n' as i32]);
    let (extent_a, extent_b, extent_c) = ([m, k], [k, n], [m, n]);
    let f32_type = cudaDataType_t::CUDA_R_32F;
    let (mut da, mut db, mut dc): (cutensorTensorDescriptor_t, cutensorTensorDescriptor_t, cutensorTensorDescriptor_t) =
        (ptr::null_mut(), ptr::null_mut(), ptr::null_mut());
    check!(cutensorCreateTensorDescriptor(handle, &raw mut da, 2, extent_a.as_ptr(), ptr::null(), f32_type, 128));
    check!(cutensorCreateTensorDescriptor(handle, &raw mut db, 2, extent_b.as_ptr(), ptr::null(), f32_type, 128));
    check!(cutensorCreateTensorDescriptor(handle, &raw mut dc, 2, extent_c.as_ptr(), ptr::null(), f32_type, 128));
    let compute = CUTENSOR_COMPUTE_DESC_32F().expect("the library's CUTENSOR_COMPUTE_DESC_32F");
    let identity = cutensorOperator_t::CUTENSOR_OP_IDENTITY;
    let mut op: cutensorOperationDescriptor_t = ptr::null_mut();
    check!(cutensorCreateContraction(
        handle, &raw mut op, da, mode_a.as_ptr(), identity, db, mode_b.as_ptr(), identity, dc, mode_c.as_ptr(), identity, dc,
        mode_c.as_ptr(), compute
    ));
    let mut pref: cutensorPlanPreference_t = ptr::null_mut();
    check!(cutensorCreatePlanPreference(handle, &raw mut pref, cutensorAlgo_t::CUTENSOR_ALGO_DEFAULT, cutensorJitMode_t::CUTENSOR_JIT_MODE_NONE));
    let mut workspace_size = 0u64;
    check!(cutensorEstimateWorkspaceSize(handle, op, pref, cutensorWorksizePreference_t::CUTENSOR_WORKSPACE_DEFAULT, &raw mut workspace_size));
    let mut plan: cutensorPlan_t = ptr::null_mut();
    check!(cutensorCreatePlan(handle, &raw mut plan, op, pref, workspace_size));
    let a = upload(&pattern((m * k) as usize, 3));
    let b = upload(&pattern((k * n) as usize, 5));
    let c = upload(&vec![0.0f32; (m * n) as usize]);
    let mut work: *mut c_void = ptr::null_mut();
    if workspace_size > 0 {
        check!(cudart::cudaMalloc(&raw mut work, workspace_size as usize));
    }
    let (alpha, beta) = (1.0f32, 0.0f32);
    check!(cutensorContract(
        handle, plan, (&raw const alpha).cast(), a.cast(), b.cast(), (&raw const beta).cast(), c.cast(), c.cast(), work,
        workspace_size, ptr::null_mut()
    ));
    check!(cudart::cudaDeviceSynchronize());
    println!("cutensor contraction {m}x{k} * {k}x{n} {:016x}", device_hash(c, (m * n) as usize));
    for p in [a.cast::<c_void>(), b.cast(), c.cast(), work] {
        if !p.is_null() {
            check!(cudart::cudaFree(p));
        }
    }
    check!(cutensorDestroyPlan(plan));
    check!(cutensorDestroyPlanPreference(pref));
    check!(cutensorDestroyOperationDescriptor(op));
    for d in [da, db, dc] {
        check!(cutensorDestroyTensorDescriptor(d));
    }
    check!(cutensorDestroy(handle));
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("tensor") {
        tensor();
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("file") {
        file();
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("trace") {
        trace();
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("nvtx") {
        let outer = unsafe { nvtx::nvtxRangePushA(c"outer".as_ptr()) };
        let inner = unsafe { nvtx::nvtxRangePushA(c"inner".as_ptr()) };
        unsafe { nvtx::nvtxMarkA(c"mark".as_ptr()) };
        let first = unsafe { nvtx::nvtxRangePop() };
        let second = unsafe { nvtx::nvtxRangePop() };
        println!("nvtx push {outer} {inner} pop {first} {second}");
        return;
    }
    convolution();
    collectives();
}
