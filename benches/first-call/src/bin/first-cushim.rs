//! cushim's drop-in shim: loads the driver on this first call.
#[allow(dead_code, clippy::all)]
mod cuda {
    include!(concat!(env!("OUT_DIR"), "/cuda.rs"));
}

fn main() {
    cushim_bench_first_call::report(|v| unsafe { cuda::cuDriverGetVersion(v).0 as i32 });
}
