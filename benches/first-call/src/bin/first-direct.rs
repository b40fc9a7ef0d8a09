//! Direct linking: ld.so maps the driver before `main`, so the in-process
//! time is one call; compare whole-process times instead.
#[link(name = "cuda")]
extern "C" {
    fn cuDriverGetVersion(version: *mut i32) -> i32;
}

fn main() {
    cushim_bench_first_call::report(|v| unsafe { cuDriverGetVersion(v) });
}
