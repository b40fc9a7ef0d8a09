//! No NVIDIA driver is installed; a planted nvcuda.dll sits in the
//! executable's directory and in the working directory. The module must
//! report "library not found" and must never load the planted DLL; a control
//! load through the default search shows that the plant works.

#[allow(dead_code)]
mod cuda {
    include!("../../../generated/cuda-13.5/cuda.rs");
}
#[allow(dead_code)]
mod nvrtc {
    include!("../../../generated/cuda-13.5/nvrtc.rs");
}
#[allow(dead_code)]
mod nvtx {
    include!("../../../generated/cuda-13.5/nvtx.rs");
}

fn main() {
    let marker = std::env::args().nth(1).unwrap_or_default();
    let planted_ran = || std::path::Path::new(&marker).exists();
    let mut ok = true;
    // NVRTC: the DLL of the header's major, from the pip wheel that
    // VIRTUAL_ENV names (or, run from a venv's `Scripts`, from the venv
    // above it), never the copy planted beside the program.
    let (mut major, mut minor) = (0, 0);
    // SAFETY: two valid out-pointers.
    match unsafe { nvrtc::Api::nvrtcVersion(&raw mut major, &raw mut minor) } {
        Ok(()) => match nvrtc::CUSHIM_LIBRARY.get() {
            Ok(found) => println!(
                "nvrtc: path={} version={major}.{minor} (found by {})",
                found.path(),
                found.found_by()
            ),
            Err(e) => println!("nvrtc: {e}"),
        },
        Err(e) => {
            println!("nvrtc: {e}");
            ok = false;
        }
    }
    // The steps of its search on Windows, as `cushim doctor` lists them.
    println!(
        "nvrtc steps: {}",
        cushim_runtime::doctor::steps(&nvrtc::CUSHIM_INFO).join(", ")
    );
    // SAFETY: cuInit takes flags only.
    match unsafe { cuda::Api::cuInit(0) } {
        Err(e @ cuda::Error::Load(cuda::LoadError::LibraryNotFound { .. })) => {
            println!("cuInit: {e}");
            ok &= e.to_string().contains("nvcuda.dll");
        }
        other => {
            println!("cuInit: unexpected {other:?}");
            ok = false;
        }
    }
    if planted_ran() {
        println!("the planted DLL ran: {marker} exists");
        ok = false;
    }
    let mut name: *const std::ffi::c_char = std::ptr::null();
    // SAFETY: a valid out-pointer.
    let rc = unsafe { cuda::cuGetErrorName(cuda::CUresult::CUDA_ERROR_NO_DEVICE, &raw mut name) };
    // SAFETY: on success the pointer is a static C string.
    let text = (rc == cuda::CUresult::CUDA_SUCCESS)
        .then(|| unsafe { std::ffi::CStr::from_ptr(name) }.to_string_lossy().into_owned());
    println!("cuGetErrorName -> {:?}", text);
    // cudaGL.h's Windows-only function is a shim here, and typed like the rest.
    let wgl = cuda::function("cuWGLGetDevice").map(|f| f.version);
    println!("cuWGLGetDevice: {wgl:?}");
    ok &= wgl == Some(2020);
    let mut device = 0;
    // SAFETY: a valid out-pointer; the handle is only passed on.
    let e = unsafe { cuda::Api::cuWGLGetDevice(&raw mut device, std::ptr::null_mut()) };
    ok &= matches!(e, Err(cuda::Error::Load(cuda::LoadError::LibraryNotFound { .. })));
    ok &= text.as_deref() == Some("CUDA_ERROR_NO_DEVICE");
    // Control: the default search order finds the planted DLL.
    // SAFETY: the planted DLL's initializer only writes the marker.
    let control = unsafe { libloading::Library::new("nvcuda.dll") };
    let planted_works = control.is_ok() && planted_ran();
    println!(
        "control: the default search {} the planted DLL",
        if planted_works { "loads" } else { "does not load" }
    );
    ok &= planted_works;
    // NVTX has no Windows library (its description names no file there),
    // and says so.
    match nvtx::CUSHIM_LIBRARY.get() {
        Err(e @ nvtx::LoadError::LibraryNotFound { .. }) => println!("nvtx: {e}"),
        Err(e) => {
            println!("nvtx: unexpected {e}");
            ok = false;
        }
        Ok(_) => {
            println!("nvtx: loaded");
            ok = false;
        }
    }
    println!("{}", if ok { "ok: windows" } else { "FAILED" });
    std::process::exit(if ok { 0 } else { 1 });
}
