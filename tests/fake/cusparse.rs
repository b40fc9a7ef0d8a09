// cuSPARSE in the family programs (Rust), with the fake `libcusparse.c`:
// included by the module list `tests/family.rs` writes from the registry,
// beside the module `cusparse` and the program's own items.

/// The library present, found after nvJitLink from its directory; the
/// function the fake lacks fails alone (declared deprecated, and not
/// exported by the real library either).
#[allow(deprecated)]
pub fn present() {
    let mut sparse: cusparse::cusparseHandle_t = ptr::null_mut();
    unsafe { cusparse::Api::cusparseCreate(&raw mut sparse) }.expect("cusparseCreate");
    let rc = unsafe {
        cusparse::cusparseXgebsr2csr(
            sparse, cusparse::cusparseDirection_t(0), 0, 0, ptr::null_mut(), ptr::null(), ptr::null(), 1, 1,
            ptr::null_mut(), ptr::null_mut(), ptr::null_mut(),
        )
    };
    println!("cusparse: cusparseXgebsr2csr code {}", rc.0);
    unsafe { cusparse::Api::cusparseDestroy(sparse) }.expect("cusparseDestroy");
}

/// No library: its own not-found code.
pub fn absent() {
    let mut sparse: cusparse::cusparseHandle_t = ptr::null_mut();
    println!("cusparse: cusparseCreate code {}", unsafe { cusparse::cusparseCreate(&raw mut sparse) }.0);
}
