// cuFFT in the family programs (Rust), with the fake `libcufft.c`: included
// by the module list `tests/family.rs` writes from the registry, beside the
// module `cufft` and the program's own items.

/// The library present: the forward DFT of [1, 2, 3, 4], and the function
/// the fake lacks fails alone.
pub fn present() {
    let mut plan: cufft::cufftHandle = 0;
    unsafe { cufft::Api::cufftPlan1d(&raw mut plan, 4, cufft::cufftType_t::CUFFT_C2C, 1) }.expect("plan");
    let mut input: Vec<cufft::cufftComplex> =
        [1.0f32, 2.0, 3.0, 4.0].iter().map(|&x| cufft::cufftComplex { x, y: 0.0 }).collect();
    let mut output = vec![cufft::cufftComplex { x: 0.0, y: 0.0 }; 4];
    unsafe { cufft::Api::cufftExecC2C(plan, input.as_mut_ptr(), output.as_mut_ptr(), -1) }.expect("exec");
    // Rounded, and + 0.0 turns a rounding's -0 into 0.
    let shown: Vec<String> =
        output.iter().map(|c| format!("{:.0}{:+.0}i", c.x.round() + 0.0, c.y.round() + 0.0)).collect();
    println!("cufft: forward {}", shown.join(" "));
    let rc = unsafe { cufft::cufftXtSetJITCallback(plan, c"f".as_ptr(), ptr::null(), 0, cufft::cufftXtCallbackType(0), ptr::null_mut()) };
    println!("cufft: cufftXtSetJITCallback code {}", rc.0);
    unsafe { cufft::Api::cufftDestroy(plan) }.expect("destroy after a missing function");
}

/// No library: its own not-found code, and the file it looked for.
pub fn absent() {
    let mut plan: cufft::cufftHandle = 0;
    let rc = unsafe { cufft::cufftPlan1d(&raw mut plan, 4, cufft::cufftType_t::CUFFT_C2C, 1) };
    println!("cufft: cufftPlan1d code {}", rc.0);
    println!("cufft: {}", cufft::last_load_error().expect("a load error"));
}
