//! The schemes compared, each behind one `fn(&mut i32) -> i32` that calls
//! `cuDriverGetVersion` (`cuCtxGetCurrent` has the same shape of cost).
#![allow(clippy::missing_safety_doc)]

use std::ffi::c_int;
use std::sync::OnceLock;

#[allow(dead_code, clippy::all)]
pub mod cuda {
    include!(concat!(env!("OUT_DIR"), "/cuda.rs"));
}

/// Where the fake driver was built, for `LD_LIBRARY_PATH` when run here.
pub const FAKE_DIR: &str = env!("CUSHIM_BENCH_FAKE_DIR");

// Direct dynamic linking: ld.so binds the symbol before main.
#[link(name = "cuda")]
extern "C" {
    #[link_name = "cuDriverGetVersion"]
    fn linked_cuDriverGetVersion(version: *mut c_int) -> c_int;
}

type GetVersion = unsafe extern "C" fn(*mut c_int) -> c_int;

fn library() -> &'static libloading::Library {
    static LIB: OnceLock<libloading::Library> = OnceLock::new();
    LIB.get_or_init(|| unsafe { libloading::Library::new("libcuda.so.1") }.expect("libcuda.so.1"))
}

/// The floor: a direct call through the PLT.
#[inline(always)]
pub fn direct(v: &mut i32) -> i32 {
    unsafe { linked_cuDriverGetVersion(v) }
}

/// A raw function pointer, resolved once.
#[inline(always)]
pub fn raw_pointer(v: &mut i32) -> i32 {
    static F: OnceLock<GetVersion> = OnceLock::new();
    // The pointer is read from a plain static after the first call.
    let f = *F.get_or_init(|| unsafe {
        *library()
            .get::<GetVersion>(b"cuDriverGetVersion\0")
            .unwrap()
    });
    unsafe { f(v) }
}

/// A pointer in a plain static, set before the loop: the cheapest possible
/// indirect call, against which "instructions over a raw pointer" are counted.
pub static mut RAW: GetVersion = unbound;

unsafe extern "C" fn unbound(_: *mut c_int) -> c_int {
    -1
}

pub fn init_raw() {
    unsafe {
        RAW = *library()
            .get::<GetVersion>(b"cuDriverGetVersion\0")
            .unwrap()
    };
}

#[inline(always)]
pub fn raw_static(v: &mut i32) -> i32 {
    unsafe { RAW(v) }
}

/// cushim's drop-in layer: the exact C signature.
#[inline(always)]
pub fn cushim_drop_in(v: &mut i32) -> i32 {
    unsafe { cuda::cuDriverGetVersion(v).0 as i32 }
}

/// cushim's typed layer: `Result<(), Error>`, used the way `?` uses it (a
/// branch on success), so that the loop keeps a plain value like the others.
#[inline(always)]
pub fn cushim_typed(v: &mut i32) -> bool {
    unsafe { cuda::Api::cuDriverGetVersion(v) }.is_ok()
}

/// The naive way: `Library::get` on every call.
#[inline(always)]
pub fn libloading_get_per_call(v: &mut i32) -> i32 {
    unsafe {
        let f = library()
            .get::<GetVersion>(b"cuDriverGetVersion\0")
            .unwrap();
        f(v)
    }
}

/// bindgen `--dynamic-loading` style: a struct of `Result` fields, resolved
/// eagerly, kept where bindgen's users keep it (a global).
pub struct BindgenStyle {
    _lib: &'static libloading::Library,
    cu_driver_get_version: Result<GetVersion, libloading::Error>,
}

impl BindgenStyle {
    pub fn global() -> &'static BindgenStyle {
        static S: OnceLock<BindgenStyle> = OnceLock::new();
        S.get_or_init(|| {
            let lib = library();
            BindgenStyle {
                cu_driver_get_version: unsafe {
                    lib.get::<GetVersion>(b"cuDriverGetVersion\0").map(|s| *s)
                },
                _lib: lib,
            }
        })
    }
}

#[inline(always)]
pub fn bindgen_style(v: &mut i32) -> i32 {
    let f = BindgenStyle::global()
        .cu_driver_get_version
        .as_ref()
        .expect("symbol");
    unsafe { f(v) }
}

/// A `OnceLock<fn>` per function, as cudarc does.
#[inline(always)]
pub fn once_lock(v: &mut i32) -> i32 {
    static F: OnceLock<Option<GetVersion>> = OnceLock::new();
    match F.get_or_init(|| unsafe {
        library()
            .get::<GetVersion>(b"cuDriverGetVersion\0")
            .ok()
            .map(|s| *s)
    }) {
        Some(f) => unsafe { f(v) },
        None => -1,
    }
}

/// cudarc's `driver::sys`, lazy loading.
#[inline(always)]
pub fn cudarc_sys(v: &mut i32) -> i32 {
    unsafe { cudarc::driver::sys::cuDriverGetVersion(v) as i32 }
}
