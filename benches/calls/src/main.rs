//! Prints one table: ns per call of every scheme, side by side in this run,
//! as the median of repeated timed loops, and the ratio to direct linking.
//!
//!   cushim-bench-calls table [calls per loop]
//!   cushim-bench-calls loop <scheme> <calls>   (for callgrind: one scheme only)
//!   cushim-bench-calls first <scheme>          (first-call latency, fresh process)

use std::time::Instant;

use cushim_bench_calls::*;

/// Whether a scheme's answer says the call succeeded.
trait Success {
    fn is_success(&self) -> bool;
}

impl Success for i32 {
    fn is_success(&self) -> bool {
        *self == 0
    }
}

impl Success for bool {
    fn is_success(&self) -> bool {
        *self
    }
}

const SCHEMES: &[&str] = &[
    "direct",
    "raw-static",
    "raw-pointer",
    "cushim-drop-in",
    "cushim-typed",
    "libloading-get",
    "bindgen-style",
    "oncelock",
    "cudarc",
];

/// `calls` calls of `$f`, inlined into the loop: the loop measures the call path itself.
macro_rules! timed {
    ($f:expr, $calls:expr) => {{
        let mut v = 0;
        let t = Instant::now();
        for _ in 0..$calls {
            let _ = std::hint::black_box($f(std::hint::black_box(&mut v)));
        }
        t.elapsed().as_nanos() as f64 / $calls as f64
    }};
}

/// Runs `$body` (a loop of one scheme) for the scheme named `$name`.
macro_rules! each_scheme {
    ($name:expr, |$f:ident| $body:expr) => {
        match $name {
            "direct" => {
                let $f = direct;
                $body
            }
            "raw-static" => {
                let $f = raw_static;
                $body
            }
            "raw-pointer" => {
                let $f = raw_pointer;
                $body
            }
            "cushim-drop-in" => {
                let $f = cushim_drop_in;
                $body
            }
            "cushim-typed" => {
                let $f = cushim_typed;
                $body
            }
            "libloading-get" => {
                let $f = libloading_get_per_call;
                $body
            }
            "bindgen-style" => {
                let $f = bindgen_style;
                $body
            }
            "oncelock" => {
                let $f = once_lock;
                $body
            }
            "cudarc" => {
                let $f = cudarc_sys;
                $body
            }
            other => panic!("unknown scheme {other}"),
        }
    };
}

fn median_ns(name: &str, calls: u64, loops: usize) -> f64 {
    let mut runs: Vec<f64> = (0..loops)
        .map(|_| each_scheme!(name, |f| timed!(f, calls)))
        .collect::<Vec<f64>>();
    runs.sort_by(f64::total_cmp);
    runs[runs.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("loop") => {
            init_raw();
            let n: u64 = args[3].parse().expect("calls");
            let v = each_scheme!(args[2].as_str(), |f| {
                let mut v = 0;
                let _ = f(&mut v); // bind first, outside the counted difference
                for _ in 0..n {
                    let _ = std::hint::black_box(f(std::hint::black_box(&mut v)));
                }
                v
            });
            assert!(v > 0, "the driver answered");
        }
        Some("first") => {
            let t = Instant::now();
            let mut v = 0;
            match args[2].as_str() {
                "cushim-preload-all" => {
                    let missing = cuda::preload_all().map(|m| m.len()).unwrap_or(usize::MAX);
                    std::hint::black_box(missing);
                }
                name => {
                    let _ = each_scheme!(name, |f| std::hint::black_box(f(&mut v)).is_success());
                }
            }
            println!("{:.1}", t.elapsed().as_nanos() as f64 / 1000.0);
        }
        _ => {
            init_raw();
            let calls: u64 = args
                .get(2)
                .and_then(|c| c.parse().ok())
                .unwrap_or(5_000_000);
            let mut v = 0;
            for name in SCHEMES {
                let _ = each_scheme!(*name, |f| f(&mut v).is_success()); // every scheme bound before timing
            }
            let rows: Vec<(&str, f64)> = SCHEMES
                .iter()
                .map(|n| (*n, median_ns(n, calls, 25)))
                .collect();
            let direct = rows[0].1;
            println!("| scheme | ns/call (median of 25) | x direct |");
            println!("|---|---|---|");
            for (name, ns) in rows {
                println!("| {name} | {ns:.2} | {:.3} |", ns / direct);
            }
        }
    }
}
