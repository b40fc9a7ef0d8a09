//! The same calls in either link mode; what they print must not depend on it.

use cushim_linked::cuda::{self, Api, Error};

/// The fake driver's record of the function that ran last.
fn last_called() -> String {
    // SAFETY: the fake's hooks take nothing and return a static string.
    unsafe {
        let lib = libloading::Library::new("libcuda.so.1").expect("the fake is loaded");
        let f = lib
            .get::<unsafe extern "C" fn() -> *const std::ffi::c_char>(b"fake_last_called\0")
            .expect("hook");
        std::ffi::CStr::from_ptr(f()).to_string_lossy().into_owned()
    }
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("no-library") {
        // Only the lazy build gets here: the linked one does not start.
        let e = unsafe { Api::cuInit(0) }.expect_err("no driver");
        println!("cuInit without a driver: {e}");
        return;
    }
    println!("stream mode: {:?}", cuda::stream_mode());
    unsafe {
        Api::cuInit(0).expect("cuInit");
        let mut version = 0;
        Api::cuDriverGetVersion(&mut version).expect("cuDriverGetVersion");
        println!("driver version {version}");
        let mut ptr: cuda::CUdeviceptr = 0;
        Api::cuMemAlloc(&mut ptr, 16).expect("cuMemAlloc");
        println!("cuMemAlloc -> {ptr:#x} ({})", last_called());
        let data = [7u8; 4];
        Api::cuMemcpyHtoD(ptr, data.as_ptr().cast(), 4).expect("cuMemcpyHtoD");
        println!("cuMemcpyHtoD ({})", last_called());
        Api::cuProfilerStart().expect("cuProfilerStart");
        println!("cuProfilerStart ({})", last_called());
        let mut count = 0;
        Api::cuGLGetDevices(
            &mut count,
            std::ptr::null_mut(),
            0,
            cuda::CUGLDeviceList::CU_GL_DEVICE_LIST_ALL,
        )
        .expect("cuGLGetDevices");
        println!("cuGLGetDevices -> {count} ({})", last_called());
        match Api::cuCtxSynchronize() {
            Err(Error::Status(code)) => println!("cuCtxSynchronize: {code:?}"),
            other => panic!("expected a driver error, got {other:?}"),
        }
        // The drop-in layer: the status value itself.
        println!("drop-in cuCtxSynchronize: {:?}", cuda::cuCtxSynchronize());
    }
    // The status API reports on the same library in both modes.
    let driver = cuda::CUSHIM_LIBRARY.get().expect("the driver is there");
    println!("status API: driver {}", driver.version());
    cuda::require(&["cuInit", "cuMemAlloc", "cuProfilerStop"]).expect("present");
    let late = cuda::set_stream_mode(cuda::StreamMode::Legacy);
    println!("set_stream_mode after the first call: {}", late.is_err());
    println!("ok");
}
