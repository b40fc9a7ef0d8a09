// cuSOLVER in the family programs (Rust), with the fake `libcusolver.c`:
// included by the module list `tests/family.rs` writes from the registry,
// beside the module `cusolver` and the program's own items.

/// The library present, found after nvJitLink, cuSPARSE, cuBLASLt and
/// cuBLAS; the function the fake lacks fails alone.
pub fn present() {
    let mut dense: cusolver::cusolverDnHandle_t = ptr::null_mut();
    unsafe { cusolver::Api::cusolverDnCreate(&raw mut dense) }.expect("cusolverDnCreate");
    let rc = unsafe { cusolver::cusolverDnLoggerSetLevel(1) };
    println!("cusolver: cusolverDnLoggerSetLevel code {}", rc.0);
    unsafe { cusolver::Api::cusolverDnDestroy(dense) }.expect("cusolverDnDestroy");
}

/// No library: its own not-found code.
pub fn absent() {
    let mut dense: cusolver::cusolverDnHandle_t = ptr::null_mut();
    println!("cusolver: cusolverDnCreate code {}", unsafe { cusolver::cusolverDnCreate(&raw mut dense) }.0);
}
