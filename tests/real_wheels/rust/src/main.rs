//! The real-wheel program of `tests/real_wheels/main.cpp` in Rust, through
//! the committed 13.0 modules: NVRTC compiles a saxpy kernel
//! ([`compile`]), nvJitLink links one written in PTX ([`link`]). Prints the
//! same lines as the C++ parts: `<library> <what> <size> <hash>`, or
//! `<library>: <call> failed: <code>`.

#[allow(dead_code)]
#[path = "../../../../generated/cuda-13.0/nvrtc.rs"]
mod nvrtc;

#[allow(dead_code)]
#[path = "../../../../generated/cuda-13.0/nvjitlink.rs"]
mod nvjitlink;

mod compile;
mod link;

/// Prints `<library> <what> <size> <hash>`: the FNV-1a hash of `bytes`.
fn print_hashed(library: &str, what: &str, bytes: &[u8]) {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    println!("{library} {what} {} {hash:016x}", bytes.len());
}

/// `Err` when `code` is a failure (not 0), after printing it.
fn check(library: &str, call: &str, code: u32) -> Result<(), ()> {
    if code == 0 {
        return Ok(());
    }
    println!("{library}: {call} failed: {code}");
    Err(())
}

fn main() {
    // A failure is printed where it happens; the next library runs anyway.
    let _ = compile::run();
    let _ = link::run();
}
