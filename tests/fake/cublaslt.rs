// cuBLASLt in the family programs (Rust), with the fake `libcublaslt.c`:
// included by the module list `tests/family.rs` writes from the registry,
// beside the module `cublaslt` and the program's own items.

/// The library present: a handle created and destroyed.
pub fn present() {
    let mut lt: cublaslt::cublasLtHandle_t = ptr::null_mut();
    unsafe { cublaslt::Api::cublasLtCreate(&raw mut lt) }.expect("cublasLtCreate");
    unsafe { cublaslt::Api::cublasLtDestroy(lt) }.expect("cublasLtDestroy");
}

/// No library: its own not-found code.
pub fn absent() {
    let mut lt: cublaslt::cublasLtHandle_t = ptr::null_mut();
    println!("cublaslt: cublasLtCreate code {}", unsafe { cublaslt::cublasLtCreate(&raw mut lt) }.0);
}
