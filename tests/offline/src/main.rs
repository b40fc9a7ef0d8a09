//! Calls the driver through both generated modules; without a driver each
//! call answers with the loader's error instead of failing to start.

#[allow(dead_code)]
mod cuda {
    include!(concat!(env!("OUT_DIR"), "/cuda.rs"));
}

#[allow(dead_code)]
mod merged {
    include!(concat!(env!("OUT_DIR"), "/merged/cuda.rs"));
}

fn main() {
    let one = unsafe { cuda::Api::cuInit(0) };
    let all = unsafe { merged::Api::cuInit(0) };
    println!("13.5: {one:?}");
    println!("11.8..13.5: {all:?}");
}
