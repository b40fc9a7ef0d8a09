// CUPTI in the family programs (Rust), with the fake `libcupti.c`: included
// by the module list `tests/family.rs` writes from the registry, beside the
// module `cupti` and the program's own items.

/// The library present (from a toolkit's extras/CUPTI/lib64), kept though
/// its cuptiGetVersion answers CUPTI_ERROR_UNKNOWN without a driver; the
/// function the fake lacks fails alone.
pub fn present() {
    let mut stamp = 0u64;
    unsafe { cupti::Api::cuptiGetTimestamp(&raw mut stamp) }.expect("cuptiGetTimestamp");
    println!("cupti: timestamp {stamp}");
    println!("cupti: cuptiActivityFlushAll code {}", unsafe { cupti::cuptiActivityFlushAll(0) }.0);
    // PC sampling's function (the fake lacks it), a callback id of
    // cupti_driver_cbid.h and a parameter struct of generated_cuda_meta.h.
    let mut data: cupti::CUpti_PCSamplingGetDataParams = unsafe { std::mem::zeroed() };
    let id = cupti::CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel.0;
    let params = std::mem::size_of::<cupti::cuLaunchKernel_params>();
    let code = unsafe { cupti::cuptiPCSamplingGetData(&raw mut data) }.0;
    println!("cupti: cuLaunchKernel id {id}, params {params} bytes, cuptiPCSamplingGetData code {code}");
}

/// No library: its own not-found code.
pub fn absent() {
    let mut stamp = 0u64;
    println!("cupti: cuptiGetTimestamp code {}", unsafe { cupti::cuptiGetTimestamp(&raw mut stamp) }.0);
}
