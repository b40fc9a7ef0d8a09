//! NVRTC's part, as `tests/real_wheels/nvrtc.cpp`: compiles a saxpy kernel
//! for compute_90 and prints `nvrtc ptx <size> <hash>`.

use crate::nvrtc;
use std::ffi::{c_char, CStr};

const KERNEL: &CStr =
    c"extern \"C\" __global__ void saxpy(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
";

fn check(call: &str, r: nvrtc::nvrtcResult) -> Result<(), ()> {
    crate::check("nvrtc", call, r.0)
}

pub fn run() -> Result<(), ()> {
    let mut program: nvrtc::nvrtcProgram = std::ptr::null_mut();
    let options = [c"--gpu-architecture=compute_90".as_ptr()];
    let mut size = 0usize;
    // SAFETY: valid pointers and NUL-terminated strings throughout; the PTX
    // buffer holds the size NVRTC reported.
    let ptx = unsafe {
        check(
            "nvrtcCreateProgram",
            nvrtc::nvrtcCreateProgram(
                &mut program,
                KERNEL.as_ptr(),
                c"saxpy.cu".as_ptr(),
                0,
                std::ptr::null(),
                std::ptr::null(),
            ),
        )?;
        check(
            "nvrtcCompileProgram",
            nvrtc::nvrtcCompileProgram(program, 1, options.as_ptr()),
        )?;
        check(
            "nvrtcGetPTXSize",
            nvrtc::nvrtcGetPTXSize(program, &mut size),
        )?;
        let mut ptx = vec![0u8; size];
        check(
            "nvrtcGetPTX",
            nvrtc::nvrtcGetPTX(program, ptx.as_mut_ptr().cast::<c_char>()),
        )?;
        nvrtc::nvrtcDestroyProgram(&mut program);
        ptx
    };
    crate::print_hashed("nvrtc", "ptx", &ptx);
    Ok(())
}
