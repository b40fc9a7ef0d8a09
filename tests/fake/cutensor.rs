// cuTENSOR in the family programs (Rust), with the fake `libcutensor.c`:
// included by the module list `tests/family.rs` writes from the registry,
// beside the module `cutensor` and the program's own items.

/// The library present, after cuBLASLt: a contraction with the compute
/// descriptor the library exports, and the function the fake lacks fails
/// alone.
pub fn present() {
    println!("cutensor: version {}", unsafe { cutensor::cutensorGetVersion() });
    let mut tensor: cutensor::cutensorHandle_t = ptr::null_mut();
    unsafe { cutensor::Api::cutensorCreate(&raw mut tensor) }.expect("cutensorCreate");
    println!("cutensor: cutensorLoggerSetLevel code {}", unsafe { cutensor::cutensorLoggerSetLevel(1) }.0);
    // The compute descriptor is an object the library exports, read from it.
    let compute = cutensor::CUTENSOR_COMPUTE_DESC_32F().expect("the library's CUTENSOR_COMPUTE_DESC_32F");
    let mut operation: cutensor::cutensorOperationDescriptor_t = ptr::null_mut();
    let none = ptr::null_mut();
    let identity = cutensor::cutensorOperator_t::CUTENSOR_OP_IDENTITY;
    let contraction = unsafe {
        cutensor::cutensorCreateContraction(
            tensor, &raw mut operation, none, ptr::null(), identity, none, ptr::null(), identity, none,
            ptr::null(), identity, none, ptr::null(), compute,
        )
    };
    println!("cutensor: contraction with the library's 32F descriptor code {}", contraction.0);
    unsafe { cutensor::Api::cutensorDestroy(tensor) }.expect("cutensorDestroy after a missing function");
}

/// No library: its own not-found code, and no descriptor to read.
pub fn absent() {
    let mut tensor: cutensor::cutensorHandle_t = ptr::null_mut();
    println!("cutensor: cutensorCreate code {}", unsafe { cutensor::cutensorCreate(&raw mut tensor) }.0);
    println!("cutensor: CUTENSOR_COMPUTE_DESC_32F {:?}", cutensor::CUTENSOR_COMPUTE_DESC_32F());
}
