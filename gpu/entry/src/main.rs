//! gpu/entry.cpp's calls in Rust, through a driver module generated with
//! `--resolve runtime-entry-point`: the same hash, and where the driver came
//! from.

#[allow(clippy::pedantic, missing_docs, dead_code)]
mod cuda {
    include!(concat!(env!("CUSHIM_ENTRY_DIR"), "/cuda.rs"));
}

macro_rules! check {
    ($call:expr) => {{
        let rc = unsafe { $call };
        assert_eq!(rc.0, 0, "{} = {:?}", stringify!($call), rc);
    }};
}

fn main() {
    check!(cuda::cuInit(0));
    let mut version = 0;
    check!(cuda::cuDriverGetVersion(&raw mut version));
    let mut device = 0;
    check!(cuda::cuDeviceGet(&raw mut device, 0));
    let mut name = [0 as std::ffi::c_char; 256];
    check!(cuda::cuDeviceGetName(name.as_mut_ptr(), 256, device));
    let mut context = std::ptr::null_mut();
    check!(cuda::cuDevicePrimaryCtxRetain(&raw mut context, device));
    check!(cuda::cuCtxSetCurrent(context));
    let size = 1usize << 20;
    let mut memory = 0;
    check!(cuda::cuMemAlloc_v2(&raw mut memory, size));
    check!(cuda::cuMemsetD8_v2(memory, 0x5a, size));
    let mut host = vec![0u8; size];
    for i in (0..size).step_by(4096) {
        host[i] = (i >> 12) as u8;
    }
    check!(cuda::cuMemcpyHtoD_v2(memory + 4096, host[4096..].as_ptr().cast(), 65536));
    check!(cuda::cuMemcpyDtoH_v2(host.as_mut_ptr().cast(), memory, size));
    let hash = host.iter().fold(1469598103934665603u64, |h, b| (h ^ u64::from(*b)).wrapping_mul(1099511628211));
    check!(cuda::cuMemFree_v2(memory));
    check!(cuda::cuDevicePrimaryCtxRelease_v2(device));
    let name = unsafe { std::ffi::CStr::from_ptr(name.as_ptr()) }.to_string_lossy().into_owned();
    println!("driver {version} device {name} memory {hash:016x}");
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap_or_default();
    let mut last = "";
    for line in maps.lines() {
        let Some(at) = line.find('/') else { continue };
        let path = &line[at..];
        if path.rsplit('/').next().is_some_and(|f| f.starts_with("libcuda.")) && path != last {
            eprintln!("mapped: {path}");
            last = path;
        }
    }
}
