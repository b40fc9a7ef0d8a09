// nvJitLink in the family programs (Rust), with the fake `libnvjitlink.c`:
// included by the module list `tests/family.rs` writes from the registry,
// beside the module `nvjitlink` and the program's own items.

/// The library present: `nvJitLinkCreate` binds the export of the header's
/// own minor.
pub fn present() {
    let create = nvjitlink::function("nvJitLinkCreate").expect("nvJitLinkCreate is a C name");
    let mut handle: nvjitlink::nvJitLinkHandle = ptr::null_mut();
    unsafe { nvjitlink::Api::nvJitLinkCreate(&raw mut handle, 0, ptr::null_mut()) }.expect("create");
    unsafe { nvjitlink::Api::nvJitLinkComplete(handle) }.expect("complete");
    unsafe { nvjitlink::Api::nvJitLinkDestroy(&raw mut handle) }.expect("destroy");
    println!("nvjitlink: nvJitLinkCreate -> {}", create.symbol.to_str().unwrap());
}

/// No library: nvJitLink's own not-found code, and why.
pub fn absent() {
    let mut handle: nvjitlink::nvJitLinkHandle = ptr::null_mut();
    let rc = unsafe { nvjitlink::nvJitLinkCreate(&raw mut handle, 0, ptr::null_mut()) };
    println!("nvjitlink: nvJitLinkCreate code {}", rc.0);
    let e = nvjitlink::last_load_error().expect("a load error");
    println!("nvjitlink: {e}");
}
