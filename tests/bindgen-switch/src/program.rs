// The program, written against bindgen's rustified bindings of cuda.h: it
// matches on variants, casts them with `as u32`, combines flags with `|`,
// prints enums with `{:?}` and calls a function that the header deprecates. Each binary includes it after its own `cuda`
// module; it must compile against both unchanged.

use std::ffi::{c_char, CStr};
use std::ptr;

use cuda::*;

fn show(what: &str, r: CUresult) {
    println!("{what}: {r:?} = {}", r as u32);
}

/// Exhaustive: no wildcard arm, so the variants must be the same.
fn memory_kind(t: CUmemorytype) -> &'static str {
    match t {
        CUmemorytype::CU_MEMORYTYPE_HOST => "host",
        CUmemorytype::CU_MEMORYTYPE_DEVICE => "device",
        CUmemorytype::CU_MEMORYTYPE_ARRAY => "array",
        CUmemorytype::CU_MEMORYTYPE_UNIFIED => "unified",
    }
}

fn verdict(r: CUresult) -> &'static str {
    match r {
        CUresult::CUDA_SUCCESS => "fine",
        CUresult::CUDA_ERROR_INVALID_VALUE => "bad argument",
        CUresult::CUDA_ERROR_INVALID_CONTEXT => "no context",
        _ => "other",
    }
}

fn main() {
    unsafe {
        show("cuInit(0)", cuInit(0));
        show("cuInit(7)", cuInit(7));
        println!("verdict of cuInit(7): {}", verdict(cuInit(7)));
        let mut version = 0;
        show("cuDriverGetVersion", cuDriverGetVersion(&mut version));
        println!("driver version {version}");
        let mut count = 0;
        show("cuDeviceGetCount", cuDeviceGetCount(&mut count));
        println!("{count} devices");
        let mut name = [0 as c_char; 32];
        show("cuDeviceGetName", cuDeviceGetName(name.as_mut_ptr(), 32, 1));
        println!("name {:?}", CStr::from_ptr(name.as_ptr()));
        let mut dptr: CUdeviceptr = 0;
        show("cuMemAlloc_v2", cuMemAlloc_v2(&mut dptr, 4096));
        println!("dptr {dptr:#x}");
        let flags = CUctx_flags::CU_CTX_SCHED_SPIN as u32 | CUctx_flags::CU_CTX_MAP_HOST as u32;
        println!(
            "flags {:?} | {:?} = {flags}",
            CUctx_flags::CU_CTX_SCHED_SPIN,
            CUctx_flags::CU_CTX_MAP_HOST
        );
        let mut ctx: CUcontext = ptr::null_mut();
        show("cuCtxCreate_v4", cuCtxCreate_v4(&mut ctx, ptr::null_mut(), flags, 1));
        println!("context {:#x}", ctx as usize);
        // Deprecated in the header: bindgen marks nothing, nor does cushim's
        // module without `#[deprecated]` attributes, so no warning either way.
        show(
            "cuTexRefSetMipmapLevelClamp",
            cuTexRefSetMipmapLevelClamp(ptr::null_mut(), 0.0, 0.0625),
        );
        let r = cuCtxSynchronize();
        show("cuCtxSynchronize", r);
        println!("verdict of cuCtxSynchronize: {}", verdict(r));
        let mut text: *const c_char = ptr::null();
        show(
            "cuGetErrorName",
            cuGetErrorName(CUresult::CUDA_ERROR_OUT_OF_MEMORY, &mut text),
        );
        println!("name {:?}", CStr::from_ptr(text));
        println!(
            "{:?} is {}",
            CUmemorytype::CU_MEMORYTYPE_UNIFIED,
            memory_kind(CUmemorytype::CU_MEMORYTYPE_UNIFIED)
        );
        println!("{:?}", CUctx_flags::CU_CTX_BLOCKING_SYNC);
    }
}
