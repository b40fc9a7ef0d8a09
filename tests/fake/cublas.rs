// cuBLAS in the family programs (Rust), with the fake `libcublas.c`:
// included by the module list `tests/family.rs` writes from the registry,
// beside the module `cublas` and the program's own items.

/// The library present: `cublasSgemm` binds `cublasSgemm_v2` (the fake's
/// legacy `cublasSgemm` aborts), with cuBLASLt loaded first from its directory.
pub fn present() {
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
}

/// No library: CUBLAS_STATUS_NOT_INITIALIZED, and the names from the header.
pub fn absent() {
    let mut handle: cublas::cublasHandle_t = ptr::null_mut();
    let rc = unsafe { cublas::cublasCreate(&raw mut handle) };
    println!("cublas: cublasCreate code {}", rc.0);
    let name = unsafe { CStr::from_ptr(cublas::cublasGetStatusName(cublas::cublasStatus_t(7))) };
    println!("cublas: cublasGetStatusName(7) = {}", name.to_string_lossy());
}
