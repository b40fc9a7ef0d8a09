//! criterion: the same schemes as `cushim-bench-calls table`.

use criterion::{criterion_group, criterion_main, Criterion};
use cushim_bench_calls::*;

type Scheme<'a> = (&'static str, &'a dyn Fn(&mut i32) -> i32);

fn calls(c: &mut Criterion) {
    init_raw();
    let mut g = c.benchmark_group("cuDriverGetVersion");
    let schemes: [Scheme; 9] = [
        ("direct", &direct),
        ("raw-static", &raw_static),
        ("raw-pointer", &raw_pointer),
        ("cushim-drop-in", &cushim_drop_in),
        ("cushim-typed", &|v| i32::from(!cushim_typed(v))),
        ("libloading-get", &libloading_get_per_call),
        ("bindgen-style", &bindgen_style),
        ("oncelock", &once_lock),
        ("cudarc", &cudarc_sys),
    ];
    for (name, f) in schemes {
        let mut v = 0;
        f(&mut v);
        g.bench_function(name, |b| {
            b.iter(|| std::hint::black_box(f(std::hint::black_box(&mut v))))
        });
    }
    g.finish();
}

criterion_group!(benches, calls);
criterion_main!(benches);
