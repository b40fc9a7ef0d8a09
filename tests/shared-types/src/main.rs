//! One library's handles in another's functions, as C passes them: the
//! driver's `CUcontext` to CUPTI, the CUDA runtime's `cudaStream_t` to
//! cuBLAS and, the same type, to the driver and CUPTI. It compiles only if
//! each struct that the headers declare but never define is one type in
//! every module; the asserts below hold its layout to bindgen's.

use std::mem::{align_of, size_of};
use std::ptr;

#[allow(dead_code)]
mod cuda {
    include!("../../../generated/cuda-13.0/cuda.rs");
}
#[allow(dead_code)]
mod cudart {
    include!("../../../generated/cuda-13.0/cudart.rs");
}
#[allow(dead_code)]
mod cupti {
    include!("../../../generated/cuda-13.0/cupti.rs");
}
#[allow(dead_code)]
mod cublas {
    include!("../../../generated/cuda-13.0/cublas.rs");
}

/// A declared-only struct as bindgen writes it.
#[repr(C)]
struct Bindgen {
    _unused: [u8; 0],
}

/// Each type has bindgen's layout, and each handle is one pointer.
macro_rules! layouts {
    (structs $($s:ty),*; handles $($h:ty),*) => {
        $(const _: () = assert!(
            size_of::<$s>() == size_of::<Bindgen>() && align_of::<$s>() == align_of::<Bindgen>()
        );)*
        $(const _: () = assert!(
            size_of::<$h>() == size_of::<*mut u8>() && align_of::<$h>() == align_of::<*mut u8>()
        );)*
    };
}

layouts!(
    structs cuda::CUctx_st, cuda::CUstream_st, cuda::CUevent_st, cupti::CUctx_st,
        cudart::CUstream_st, cudart::CUevent_st, cublas::CUstream_st, cublas::cublasContext;
    handles cuda::CUcontext, cuda::CUstream, cuda::CUevent, cupti::CUcontext, cudart::cudaStream_t,
        cudart::cudaEvent_t, cublas::cudaStream_t, cublas::cublasHandle_t
);

/// Bindgen (before 0.73) derived `Copy` and `Clone` for these.
fn copied<T: Copy + Clone + std::fmt::Debug>(_: Option<T>) {}

/// The driver's context, as CUPTI takes it.
fn context_id(context: cuda::CUcontext) -> (cupti::CUptiResult, u32) {
    let mut id = 0;
    // SAFETY: an out-pointer; CUPTI reads the context, null or not.
    (unsafe { cupti::cuptiGetContextId(context, &raw mut id) }, id)
}

/// The runtime's stream, as cuBLAS takes it.
fn set_stream(handle: cublas::cublasHandle_t, stream: cudart::cudaStream_t) -> cublas::cublasStatus_t {
    // SAFETY: handles only.
    unsafe { cublas::cublasSetStream(handle, stream) }
}

fn main() {
    copied::<cuda::CUstream_st>(None);
    copied::<cupti::CUctx_st>(None);
    let mut context: cuda::CUcontext = ptr::null_mut();
    // SAFETY: an out-pointer.
    let rc = unsafe { cuda::cuCtxGetCurrent(&raw mut context) };
    println!("cuCtxGetCurrent: {rc:?}");
    let (rc, id) = context_id(context);
    println!("cuptiGetContextId: {rc:?} ({id})");

    let mut stream: cudart::cudaStream_t = ptr::null_mut();
    // SAFETY: an out-pointer.
    let rc = unsafe { cudart::cudaStreamCreate(&raw mut stream) };
    println!("cudaStreamCreate: {rc:?}");
    let mut handle: cublas::cublasHandle_t = ptr::null_mut();
    // SAFETY: an out-pointer.
    let rc = unsafe { cublas::cublasCreate(&raw mut handle) };
    println!("cublasCreate: {rc:?}");
    println!("cublasSetStream: {:?}", set_stream(handle, stream));

    // The runtime's stream is the driver's, and CUPTI's.
    let driver_stream: cuda::CUstream = stream;
    // SAFETY: a stream handle.
    let rc = unsafe { cuda::cuStreamQuery(driver_stream) };
    println!("cuStreamQuery: {rc:?}");
    let mut stream_id = 0;
    // SAFETY: handles and an out-pointer.
    let rc = unsafe { cupti::cuptiGetStreamId(context, driver_stream, &raw mut stream_id) };
    println!("cuptiGetStreamId: {rc:?}");
}
