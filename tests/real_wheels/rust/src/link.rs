//! nvJitLink's part, as `tests/real_wheels/nvjitlink.cpp`: links the same
//! saxpy kernel written in PTX into a cubin for sm_90 and prints `nvjitlink
//! cubin <size> <hash>`.

use crate::nvjitlink;
use std::ffi::CStr;

/// The PTX of `tests/real_wheels/nvjitlink.cpp`, line for line, NUL-terminated:
/// without a NUL after the size given, nvJitLinkAddData of 13.0 answers
/// NVJITLINK_ERROR_INCORRECT_INPUT_TYPE (12).
const PTX: &CStr = c"\
.version 8.0
.target sm_90
.address_size 64

.visible .entry saxpy(.param .f32 a, .param .u64 x, .param .u64 y, .param .u32 n)
{
    .reg .pred %p;
    .reg .f32 %f<5>;
    .reg .b32 %r<5>;
    .reg .b64 %rd<6>;
    ld.param.f32 %f1, [a];
    ld.param.u64 %rd1, [x];
    ld.param.u64 %rd2, [y];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r2, %r2, %r3, %r4;
    setp.ge.s32 %p, %r2, %r1;
    @%p bra done;
    cvta.to.global.u64 %rd1, %rd1;
    cvta.to.global.u64 %rd2, %rd2;
    mul.wide.s32 %rd3, %r2, 4;
    add.s64 %rd4, %rd1, %rd3;
    add.s64 %rd5, %rd2, %rd3;
    ld.global.f32 %f2, [%rd4];
    ld.global.f32 %f3, [%rd5];
    fma.rn.f32 %f4, %f1, %f2, %f3;
    st.global.f32 [%rd5], %f4;
done:
    ret;
}
";

fn check(call: &str, r: nvjitlink::nvJitLinkResult) -> Result<(), ()> {
    crate::check("nvjitlink", call, r.0)
}

pub fn run() -> Result<(), ()> {
    let mut handle: nvjitlink::nvJitLinkHandle = std::ptr::null_mut();
    let options = [c"-arch=sm_90".as_ptr()];
    let mut size = 0usize;
    // SAFETY: valid pointers and NUL-terminated strings throughout; the PTX
    // is passed with its length, and the cubin buffer holds the size
    // nvJitLink reported.
    let cubin = unsafe {
        check(
            "nvJitLinkCreate",
            nvjitlink::nvJitLinkCreate(&mut handle, 1, options.as_ptr()),
        )?;
        check(
            "nvJitLinkAddData",
            nvjitlink::nvJitLinkAddData(
                handle,
                nvjitlink::nvJitLinkInputType::NVJITLINK_INPUT_PTX,
                PTX.as_ptr().cast(),
                PTX.count_bytes(),
                c"saxpy.ptx".as_ptr(),
            ),
        )?;
        check("nvJitLinkComplete", nvjitlink::nvJitLinkComplete(handle))?;
        check(
            "nvJitLinkGetLinkedCubinSize",
            nvjitlink::nvJitLinkGetLinkedCubinSize(handle, &mut size),
        )?;
        let mut cubin = vec![0u8; size];
        check(
            "nvJitLinkGetLinkedCubin",
            nvjitlink::nvJitLinkGetLinkedCubin(handle, cubin.as_mut_ptr().cast()),
        )?;
        nvjitlink::nvJitLinkDestroy(&mut handle);
        cubin
    };
    crate::print_hashed("nvjitlink", "cubin", &cubin);
    Ok(())
}
