// cuFile in the family programs (Rust), with the fake `libcufile.c`:
// included by the module list `tests/family.rs` writes from the registry,
// beside the module `cufile` and the program's own items.

/// The library present: a status struct; the header's `cuFileDriverClose`
/// is `cuFileDriverClose_v2`; `libcufile_rdma.so.1` from beside it; the
/// function the fake lacks fails alone.
pub fn present() {
    let mut version = 0;
    unsafe { cufile::Api::cuFileGetVersion(&raw mut version) }.expect("cuFileGetVersion");
    println!("cufile: version {version}");
    unsafe { cufile::Api::cuFileDriverOpen() }.expect("cuFileDriverOpen");
    let found = cufile::CUSHIM_LIBRARY.get().expect("cuFile loaded");
    let library = unsafe { libloading::Library::new(found.path()) }.expect("loaded already");
    let rdma = unsafe { library.get::<unsafe extern "C" fn() -> *const c_char>(b"fake_rdma_file") }
        .expect("the hook");
    println!("cufile: rdma from {}", unsafe { CStr::from_ptr(rdma()) }.to_string_lossy());
    unsafe { cufile::Api::cuFileDriverClose() }.expect("cuFileDriverClose, which is cuFileDriverClose_v2");
    let mut bytes = [0u8; 4];
    let read = unsafe { cufile::cuFileRead(ptr::null_mut(), bytes.as_mut_ptr().cast(), 4, 0, 0) };
    println!("cufile: read {read} {bytes:?}");
    let registered = unsafe { cufile::cuFileBufRegister(bytes.as_ptr().cast(), 4, 0) };
    println!("cufile: cuFileBufRegister code {} cu_err {}", registered.err.0, registered.cu_err.0);
}

/// No library: its own code in the status struct, and a byte count of zero.
pub fn absent() {
    let opened = unsafe { cufile::cuFileDriverOpen() };
    println!("cufile: cuFileDriverOpen code {} cu_err {}", opened.err.0, opened.cu_err.0);
    println!("cufile: cuFileRead {}", unsafe { cufile::cuFileRead(ptr::null_mut(), ptr::null_mut(), 4, 0, 0) });
}
