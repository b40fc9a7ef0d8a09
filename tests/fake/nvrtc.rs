// NVRTC in the family programs (Rust), with the fake `libnvrtc.c`: included
// by the module list `tests/family.rs` writes from the registry, beside the
// module `nvrtc` and the program's own items.

/// The library present: the functions the fake has work; the one it lacks
/// fails alone.
pub fn present() {
    let mut prog: nvrtc::nvrtcProgram = ptr::null_mut();
    unsafe {
        nvrtc::Api::nvrtcCreateProgram(&raw mut prog, c"k".as_ptr(), c"k.cu".as_ptr(), 0, ptr::null(), ptr::null())
    }
    .expect("create");
    unsafe { nvrtc::Api::nvrtcCompileProgram(prog, 0, ptr::null()) }.expect("compile");
    let mut size = 0usize;
    unsafe { nvrtc::Api::nvrtcGetPTXSize(prog, &raw mut size) }.expect("ptx size");
    assert_eq!(size, 42);
    let missing = unsafe { nvrtc::Api::nvrtcGetTileIRSize(prog, &raw mut size) };
    match missing {
        Err(nvrtc::Error::Load(e @ nvrtc::LoadError::SymbolNotFound { .. })) => {
            println!("nvrtc: nvrtcGetTileIRSize: {e}");
        }
        other => panic!("nvrtcGetTileIRSize: {other:?}"),
    }
    let code = unsafe { nvrtc::nvrtcGetTileIRSize(prog, &raw mut size) };
    println!("nvrtc: nvrtcGetTileIRSize code {}", code.0);
    unsafe { nvrtc::Api::nvrtcDestroyProgram(&raw mut prog) }.expect("destroy after a missing function");
    let text = unsafe { CStr::from_ptr(nvrtc::nvrtcGetErrorString(nvrtc::nvrtcResult(0))) };
    println!("nvrtc: nvrtcGetErrorString(0) = {}", text.to_str().unwrap());
}

/// No library: NVRTC's own not-found code, and the error strings from the
/// header.
pub fn absent() {
    let mut prog: nvrtc::nvrtcProgram = ptr::null_mut();
    let rc = unsafe {
        nvrtc::nvrtcCreateProgram(&raw mut prog, c"k".as_ptr(), c"k.cu".as_ptr(), 0, ptr::null(), ptr::null())
    };
    println!("nvrtc: nvrtcCreateProgram code {}", rc.0);
    let text = |code: u32| -> String {
        let p: *const c_char = unsafe { nvrtc::nvrtcGetErrorString(nvrtc::nvrtcResult(code)) };
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    };
    println!("nvrtc: nvrtcGetErrorString(6) = {}", text(6));
    println!("nvrtc: nvrtcGetErrorString(12345) = {}", text(12345));
}
