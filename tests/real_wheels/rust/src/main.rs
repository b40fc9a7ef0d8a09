//! Compiles a saxpy kernel with NVRTC for compute_90 through the committed
//! 13.0 module and prints the PTX's size and FNV-1a hash, as
//! `tests/real_wheels/saxpy.cpp` does: `ptx <size> <hash>`.

#[allow(dead_code)]
#[path = "../../../../generated/cuda-13.0/nvrtc.rs"]
mod nvrtc;

use std::ffi::{c_char, CStr};
use std::process::exit;

const KERNEL: &CStr =
    c"extern \"C\" __global__ void saxpy(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
";

fn check(r: nvrtc::nvrtcResult, what: &str) {
    if r != nvrtc::nvrtcResult::NVRTC_SUCCESS {
        println!("{what}: {r:?}");
        exit(1);
    }
}

fn main() {
    let mut program: nvrtc::nvrtcProgram = std::ptr::null_mut();
    let options = [c"--gpu-architecture=compute_90".as_ptr()];
    let mut size = 0usize;
    // SAFETY: valid pointers and NUL-terminated strings throughout; the PTX
    // buffer holds the size NVRTC reported.
    let ptx = unsafe {
        check(
            nvrtc::nvrtcCreateProgram(
                &mut program,
                KERNEL.as_ptr(),
                c"saxpy.cu".as_ptr(),
                0,
                std::ptr::null(),
                std::ptr::null(),
            ),
            "nvrtcCreateProgram",
        );
        check(
            nvrtc::nvrtcCompileProgram(program, 1, options.as_ptr()),
            "nvrtcCompileProgram",
        );
        check(
            nvrtc::nvrtcGetPTXSize(program, &mut size),
            "nvrtcGetPTXSize",
        );
        let mut ptx = vec![0u8; size];
        check(
            nvrtc::nvrtcGetPTX(program, ptx.as_mut_ptr().cast::<c_char>()),
            "nvrtcGetPTX",
        );
        nvrtc::nvrtcDestroyProgram(&mut program);
        ptx
    };
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in ptx {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    println!("ptx {size} {hash:016x}");
}
