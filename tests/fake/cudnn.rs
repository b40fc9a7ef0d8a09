// cuDNN in the family programs (Rust), with the fake `libcudnn.c`: included
// by the module list `tests/family.rs` writes from the registry, beside the
// module `cudnn` and the program's own items.

/// The library present, with its graph library and its ops library loaded
/// from its directory before its first call (its own open of the ops
/// library by name then finds that copy); the function the fake lacks
/// fails alone.
pub fn present() {
    let version = unsafe { cudnn::cudnnGetVersion() };
    println!("cudnn: version {version}");
    let mut handle: cudnn::cudnnHandle_t = ptr::null_mut();
    unsafe { cudnn::Api::cudnnCreate(&raw mut handle) }.expect("cudnnCreate");
    let found = cudnn::CUSHIM_LIBRARY.get().expect("cuDNN loaded");
    let library = unsafe { libloading::Library::new(found.path()) }.expect("loaded already");
    let ops = unsafe { library.get::<unsafe extern "C" fn() -> *const c_char>(b"fake_cudnn_ops_file") }
        .expect("the hook");
    println!("cudnn: ops from {}", unsafe { CStr::from_ptr(ops()) }.to_string_lossy());
    let kind = cudnn::cudnnBackendDescriptorType_t(0);
    let rc = unsafe { cudnn::cudnnBackendCreateDescriptor(kind, ptr::null_mut()) };
    println!("cudnn: cudnnBackendCreateDescriptor code {}", rc.0);
    unsafe { cudnn::Api::cudnnDestroy(handle) }.expect("cudnnDestroy after a missing function");
}

/// No library: its own code, and its version function (no status) 0.
pub fn absent() {
    let mut handle: cudnn::cudnnHandle_t = ptr::null_mut();
    println!("cudnn: cudnnCreate code {}", unsafe { cudnn::cudnnCreate(&raw mut handle) }.0);
    println!("cudnn: cudnnGetVersion {}", unsafe { cudnn::cudnnGetVersion() });
}
