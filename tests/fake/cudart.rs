// The CUDA runtime in the family programs (Rust), with the fake
// `libcudart.c`: included by the module list `tests/family.rs` writes from
// the registry, beside the module `cudart` and the program's own items.

/// The library present: device memory is host memory in the fake, and the
/// function it lacks (`cudaDeviceReset`) fails alone, with
/// cudaErrorSharedObjectSymbolNotFound.
pub fn present() {
    let mut device: *mut c_void = ptr::null_mut();
    unsafe { cudart::Api::cudaMalloc(&raw mut device, 8) }.expect("cudaMalloc");
    unsafe { cudart::Api::cudaMemset(device, 7, 8) }.expect("cudaMemset");
    let mut host = [0u8; 8];
    let kind = cudart::cudaMemcpyKind::cudaMemcpyDeviceToHost;
    unsafe { cudart::Api::cudaMemcpy(host.as_mut_ptr().cast(), device, 8, kind) }.expect("cudaMemcpy");
    unsafe { cudart::Api::cudaFree(device) }.expect("cudaFree");
    let mut prop: cudart::cudaDeviceProp = unsafe { std::mem::zeroed() };
    unsafe { cudart::Api::cudaGetDeviceProperties(&raw mut prop, 0) }.expect("cudaGetDeviceProperties");
    let name = unsafe { CStr::from_ptr(prop.name.as_ptr()) }.to_string_lossy().into_owned();
    println!("cudart: memory {host:?}, device {name}");
    println!("cudart: cudaDeviceReset code {}", unsafe { cudart::cudaDeviceReset() }.0);
    // Constants of the runtime's own driver_types.h that no signature
    // reaches, and the profiler header's function, which the fake lacks.
    let flags = [cudart::cudaStreamNonBlocking, cudart::cudaHostAllocMapped, cudart::cudaEventDisableTiming];
    println!("cudart: flags {flags:?}, cudaProfilerStop code {}", unsafe { cudart::cudaProfilerStop() }.0);
    unsafe { cudart::Api::cudaFree(ptr::null_mut()) }.expect("cudaFree after a missing function");
}

/// No library: its own not-found code.
pub fn absent() {
    let mut device: *mut c_void = ptr::null_mut();
    println!("cudart: cudaMalloc code {}", unsafe { cudart::cudaMalloc(&raw mut device, 8) }.0);
}
