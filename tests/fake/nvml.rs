// NVML in the family programs (Rust), with the fake `libnvml.c`: included
// by the module list `tests/family.rs` writes from the registry, beside the
// module `nvml` and the program's own items.

/// The library present: `nvmlInit` binds `nvmlInit_v2` (the fake's v1
/// `nvmlInit` answers 999).
pub fn present() {
    let init = nvml::function("nvmlInit").expect("nvmlInit is a C name");
    assert_eq!(init.symbol, c"nvmlInit_v2");
    let rc = unsafe { nvml::nvmlInit() };
    assert_eq!(rc.0, 0, "nvmlInit bound nvmlInit_v2");
    let mut count = 0u32;
    unsafe { nvml::Api::nvmlDeviceGetCount(&raw mut count) }.expect("nvmlDeviceGetCount_v2");
    assert_eq!(count, 1);
    println!("nvml: nvmlInit -> {} ok, devices {count}", init.symbol.to_str().unwrap());
}

/// No library: NVML's own not-found code, a typed error, and the error
/// string from the header.
pub fn absent() {
    let rc = unsafe { nvml::nvmlInit() };
    println!("nvml: nvmlInit code {}", rc.0);
    match unsafe { nvml::Api::nvmlInit() } {
        Err(nvml::Error::Load(e @ nvml::LoadError::LibraryNotFound { .. })) => println!("nvml: {e}"),
        other => panic!("nvmlInit without NVML: {other:?}"),
    }
    let name = unsafe { CStr::from_ptr(nvml::nvmlErrorString(nvml::nvmlReturn_t(12))) };
    println!("nvml: nvmlErrorString(12) = {}", name.to_string_lossy());
}
