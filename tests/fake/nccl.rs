// NCCL in the family programs (Rust), with the fake `libnccl.c`: included
// by the module list `tests/family.rs` writes from the registry, beside the
// module `nccl` and the program's own items.

/// The library present: an all-reduce of one rank, `ncclGroupStart` (which
/// the fake has as `ncclX` only), and the function the fake lacks fails alone.
pub fn present() {
    let mut version = 0;
    unsafe { nccl::Api::ncclGetVersion(&raw mut version) }.expect("ncclGetVersion");
    println!("nccl: version {version}");
    let mut comm: nccl::ncclComm_t = ptr::null_mut();
    unsafe { nccl::Api::ncclCommInitAll(&raw mut comm, 1, ptr::null()) }.expect("ncclCommInitAll");
    let send = [1.5f32, 2.5, 3.5];
    let mut recv = [0.0f32; 3];
    unsafe { nccl::Api::ncclGroupStart() }.expect("ncclGroupStart, which the fake has as ncclX only");
    unsafe {
        nccl::Api::ncclAllReduce(
            send.as_ptr().cast(),
            recv.as_mut_ptr().cast(),
            3,
            nccl::ncclDataType_t::ncclFloat32,
            nccl::ncclRedOp_t::ncclSum,
            comm,
            ptr::null_mut(),
        )
    }
    .expect("ncclAllReduce");
    unsafe { nccl::Api::ncclGroupEnd() }.expect("ncclGroupEnd");
    println!("nccl: all-reduce {recv:?}");
    let mut count = 0;
    println!("nccl: ncclCommCount code {}", unsafe { nccl::ncclCommCount(comm, &raw mut count) }.0);
    unsafe { nccl::Api::ncclCommDestroy(comm) }.expect("ncclCommDestroy after a missing function");
}

/// No library: its own not-found code, and a status's text from the header.
pub fn absent() {
    let mut version = 0;
    println!("nccl: ncclGetVersion code {}", unsafe { nccl::ncclGetVersion(&raw mut version) }.0);
    let text = unsafe { std::ffi::CStr::from_ptr(nccl::ncclGetErrorString(nccl::ncclResult_t::ncclSystemError)) };
    println!("nccl: ncclGetErrorString(2) = {}", text.to_string_lossy());
}
