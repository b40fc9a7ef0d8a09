//! What every first-call binary prints: the first call's time in µs, its
//! status and the version it read.

use std::time::Instant;

/// Times `first` (the process's first driver call) and prints one line:
/// `<µs> <status> <version>`.
pub fn report(first: impl FnOnce(&mut i32) -> i32) {
    let mut version = 0;
    let t = Instant::now();
    let rc = first(&mut version);
    let us = t.elapsed().as_secs_f64() * 1e6;
    println!("{us:.1} {rc} {version}");
}
