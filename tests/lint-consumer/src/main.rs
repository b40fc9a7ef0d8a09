//! A binary using the typed layer, the drop-in layer and the error names.

use cushim_lint_consumer::cuda;

fn main() {
    // SAFETY: cuInit takes flags only.
    match unsafe { cuda::Api::cuInit(0) } {
        Ok(()) => println!("driver ready"),
        Err(e) => println!("no CUDA here: {e}"),
    }
    let mut name: *const std::ffi::c_char = std::ptr::null();
    // SAFETY: a valid out-pointer.
    let rc = unsafe { cuda::cuGetErrorName(cuda::CUresult::CUDA_ERROR_INVALID_VALUE, &raw mut name) };
    println!("cuGetErrorName -> {}", rc.0);
}
