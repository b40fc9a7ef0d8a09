// NVTX in the family programs (Rust), with the fake `libnvtx.c`: included
// by the module list `tests/family.rs` writes from the registry, beside the
// module `nvtx` and the program's own items.

/// Two nested ranges, a mark, and the function the fake lacks: what each
/// answers (NVTX has no status: the fake's nesting levels).
pub fn present() {
    ranges();
}

/// Without the library, each call answers zero.
pub fn absent() {
    ranges();
}

fn ranges() {
    let outer = unsafe { nvtx::nvtxRangePushA(c"outer".as_ptr()) };
    let inner = unsafe { nvtx::nvtxRangePushA(c"inner".as_ptr()) };
    unsafe { nvtx::nvtxMarkA(c"mark".as_ptr()) };
    let popped = unsafe { nvtx::nvtxRangePop() };
    let domain = unsafe { nvtx::nvtxDomainCreateA(c"d".as_ptr()) };
    println!("nvtx: push {outer} {inner} pop {popped} domain null {}", domain.is_null());
}
