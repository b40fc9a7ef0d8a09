//! cudarc's lazy `driver::sys`: loads the driver on this first call.
fn main() {
    cushim_bench_first_call::report(|v| unsafe {
        cudarc::driver::sys::cuDriverGetVersion(v) as i32
    });
}
