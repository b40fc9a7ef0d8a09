//! A hand-written `dlopen` + `dlsym` (libloading) on the first call.
fn main() {
    cushim_bench_first_call::report(|v| unsafe {
        let lib = libloading::Library::new("libcuda.so.1").expect("libcuda.so.1 loads");
        let f: libloading::Symbol<unsafe extern "C" fn(*mut i32) -> i32> =
            lib.get(b"cuDriverGetVersion\0").expect("cuDriverGetVersion");
        let rc = f(v);
        std::mem::forget(lib);
        rc
    });
}
