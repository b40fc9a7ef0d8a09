// cuSOLVERMg in the family programs (Rust), with the fake `libcusolvermg.c`:
// included by the module list `tests/family.rs` writes from the registry,
// beside the module `cusolvermg` and the program's own items. CUDA 13.0
// deprecates its functions.

/// The library present, found after nvJitLink, cuBLASLt and cuBLAS: a
/// handle, one device and its grid; a function the fake lacks fails alone.
#[allow(deprecated)]
pub fn present() {
    let mut handle: cusolvermg::cusolverMgHandle_t = ptr::null_mut();
    unsafe { cusolvermg::Api::cusolverMgCreate(&raw mut handle) }.expect("cusolverMgCreate");
    let mut devices = [0i32];
    unsafe { cusolvermg::Api::cusolverMgDeviceSelect(handle, 1, devices.as_mut_ptr()) }
        .expect("cusolverMgDeviceSelect");
    let mut grid: cusolvermg::cudaLibMgGrid_t = ptr::null_mut();
    unsafe {
        cusolvermg::Api::cusolverMgCreateDeviceGrid(
            &raw mut grid,
            1,
            1,
            devices.as_ptr(),
            cusolvermg::cusolverMgGridMapping_t::CUDALIBMG_GRID_MAPPING_COL_MAJOR,
        )
    }
    .expect("cusolverMgCreateDeviceGrid");
    println!("cusolvermg: grid of 1 device {}", if grid.is_null() { "null" } else { "made" });
    let rc = unsafe { cusolvermg::cusolverMgDestroyMatrixDesc(ptr::null_mut()) };
    println!("cusolvermg: cusolverMgDestroyMatrixDesc code {}", rc.0);
    unsafe { cusolvermg::Api::cusolverMgDestroyGrid(grid) }.expect("cusolverMgDestroyGrid");
    unsafe { cusolvermg::Api::cusolverMgDestroy(handle) }.expect("cusolverMgDestroy");
}

/// No library: its own not-found code.
#[allow(deprecated)]
pub fn absent() {
    let mut handle: cusolvermg::cusolverMgHandle_t = ptr::null_mut();
    println!("cusolvermg: cusolverMgCreate code {}", unsafe { cusolvermg::cusolverMgCreate(&raw mut handle) }.0);
}
