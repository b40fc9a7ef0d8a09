//! The generated 13.5 module, compiled into a downstream crate whose build.rs
//! uses `cushim::Builder`, run against a fake `libcuda.so.1` written in C and
//! built here with the system C compiler.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use common::{fake_driver, root};

/// Builds `tests/consumer` once; returns its binary.
fn consumer() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let target = root().join("target/consumer");
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let out = Command::new(cargo)
            .args(["build", "--quiet", "--manifest-path"])
            .arg(root().join("tests/consumer/Cargo.toml"))
            .arg("--target-dir")
            .arg(&target)
            .env_remove("RUSTFLAGS")
            .output()
            .expect("cargo runs");
        assert!(
            out.status.success(),
            "the consumer crate must build without warnings:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        target.join("debug/cushim-consumer")
    })
}

/// Runs one scenario of the consumer; the Rust loader prints nothing on its own.
fn run(scenario: &[&str], env: &[(&str, &Path)]) -> String {
    let (stdout, stderr) = common::scenario(consumer(), scenario, env);
    assert!(
        stderr.is_empty(),
        "the loader prints nothing on its own: {stderr}"
    );
    stdout
}

fn system_has_libcuda() -> bool {
    Command::new("/sbin/ldconfig")
        .arg("-p")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains("libcuda.so.1"))
        .unwrap_or(false)
}

#[test]
fn without_a_library_every_shim_reports_library_not_found() {
    let missing = root().join("target/test-scratch/no-such-dir/libcuda.so.1");
    let out = run(
        &["no-library", missing.to_str().unwrap()],
        &[("CUSHIM_CUDA_LIBRARY", &missing)],
    );
    assert!(out.contains("checked 492 shims"), "{out}");
    assert!(
        out.contains("cannot open shared object file"),
        "dlerror's reason is kept: {out}"
    );

    if system_has_libcuda() {
        eprintln!("this machine has a libcuda.so.1: the default-search half is not run");
        return;
    }
    let empty = common::scratch("empty-lib-dir");
    let out = run(
        &["no-library", "libcuda.so.1"],
        &[("LD_LIBRARY_PATH", &empty)],
    );
    assert!(out.contains("tried `libcuda.so.1`"), "{out}");
}

#[test]
fn with_the_fake_driver_calls_round_trip() {
    let lib = fake_driver("full", &[]);
    run(&["fake"], &[("LD_LIBRARY_PATH", lib.parent().unwrap())]);
}

#[test]
fn a_missing_symbol_fails_that_function_alone() {
    let lib = fake_driver("no-memalloc", &["-DFAKE_OMIT_cuMemAlloc_v2"]);
    let nm = Command::new("nm")
        .arg("-D")
        .arg(&lib)
        .output()
        .expect("nm runs");
    let exports = String::from_utf8_lossy(&nm.stdout);
    assert!(
        !exports.contains(" cuMemAlloc_v2"),
        "the knob removes the export"
    );
    assert!(
        exports.contains(" cuMemAlloc\n"),
        "the v1 export stays, as a trap"
    );
    run(&["missing-symbol"], &[("CUSHIM_CUDA_LIBRARY", &lib)]);
}

#[test]
fn thirty_two_threads_racing_on_the_first_call_load_once() {
    let lib = fake_driver("race", &[]);
    for _ in 0..5 {
        run(&["race"], &[("CUSHIM_CUDA_LIBRARY", &lib)]);
    }
    let missing = root().join("target/test-scratch/no-such-dir/libcuda.so.1");
    for _ in 0..5 {
        run(&["race-no-library"], &[("CUSHIM_CUDA_LIBRARY", &missing)]);
    }
}

#[test]
fn the_builder_tells_cargo_about_every_header_it_read() {
    consumer();
    let build = root().join("target/consumer/debug/build");
    let outputs: Vec<String> = std::fs::read_dir(&build)
        .expect("the consumer's build dir")
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("cushim-consumer-")
        })
        .filter_map(|e| std::fs::read_to_string(e.path().join("output")).ok())
        .collect();
    let output = outputs.join("\n");
    for header in [
        "cuda-13.5/include/cuda.h",
        "cuda-13.5/include/cudaTypedefs.h",
        "cuda-11.8/include/cuda.h",
        "fixtures/common/base.h",
        "fixtures/types.h",
    ] {
        assert!(
            output
                .lines()
                .any(|l| l.starts_with("cargo:rerun-if-changed=") && l.ends_with(header)),
            "no rerun-if-changed for {header}:\n{output}"
        );
    }
}

#[test]
fn the_toolkit_stub_is_detected_and_never_used() {
    let lib = fake_driver("stub", &["-DFAKE_STUB"]);
    run(
        &["stub", lib.to_str().unwrap()],
        &[("CUSHIM_CUDA_LIBRARY", &lib)],
    );
}

#[test]
fn each_driver_generation_binds_the_right_symbol() {
    // 12.x and later: cuGetProcAddress_v2.
    let modern = fake_driver("modern", &[]);
    let out = run(&["binds-proc"], &[("CUSHIM_CUDA_LIBRARY", &modern)]);
    assert!(out.contains("bound through cuGetProcAddress_v2"), "{out}");
    // 11.3 to 11.8: only the 4-argument cuGetProcAddress.
    let v1 = fake_driver(
        "v1",
        &["-DFAKE_PROC_ADDRESS=1", "-DFAKE_DRIVER_VERSION=11080"],
    );
    let out = run(&["binds-proc"], &[("CUSHIM_CUDA_LIBRARY", &v1)]);
    assert!(out.contains("bound through cuGetProcAddress\n"), "{out}");
    // Before 11.3: exact exports.
    let old = fake_driver(
        "old",
        &["-DFAKE_PROC_ADDRESS=0", "-DFAKE_DRIVER_VERSION=12080"],
    );
    let out = run(&["binds-dlsym"], &[("CUSHIM_CUDA_LIBRARY", &old)]);
    assert!(out.contains("bound through none"), "{out}");
    // A module generated with --resolve dlsym ignores cuGetProcAddress.
    run(&["dlsym-module"], &[("CUSHIM_CUDA_LIBRARY", &modern)]);
}

#[test]
fn per_thread_mode_binds_the_twins() {
    let lib = fake_driver("per-thread", &[]);
    run(&["per-thread"], &[("CUSHIM_CUDA_LIBRARY", &lib)]);
    let on = [
        ("CUSHIM_CUDA_LIBRARY", lib.as_path()),
        ("CUSHIM_PER_THREAD_DEFAULT_STREAM", Path::new("1")),
    ];
    run(&["per-thread-env"], &on);
    // "0" means off: legacy binding.
    let off = [
        ("CUSHIM_CUDA_LIBRARY", lib.as_path()),
        ("CUSHIM_PER_THREAD_DEFAULT_STREAM", Path::new("0")),
    ];
    run(&["binds-proc"], &off);
}

#[test]
fn a_driver_older_than_the_function_gets_a_typed_error_and_no_call() {
    let lib = fake_driver("12.2", &["-DFAKE_DRIVER_VERSION=12020"]);
    run(&["too-old", "12020"], &[("CUSHIM_CUDA_LIBRARY", &lib)]);
    let old = fake_driver(
        "11.2-no-proc",
        &["-DFAKE_PROC_ADDRESS=0", "-DFAKE_DRIVER_VERSION=11020"],
    );
    run(&["too-old", "11020"], &[("CUSHIM_CUDA_LIBRARY", &old)]);
}

#[test]
fn every_odd_cu_get_proc_address_answer_is_typed() {
    let lib = fake_driver("quirks", &["-DFAKE_QUIRKS"]);
    run(&["quirks"], &[("CUSHIM_CUDA_LIBRARY", &lib)]);
}

#[test]
fn introspection_lists_what_the_driver_lacks() {
    let lib = fake_driver("introspection", &[]);
    run(&["introspection"], &[("CUSHIM_CUDA_LIBRARY", &lib)]);
}

#[test]
fn a_relative_override_is_refused() {
    run(
        &["relative-override"],
        &[("CUSHIM_CUDA_LIBRARY", Path::new("libcuda.so.1"))],
    );
}

#[test]
fn the_merged_module_binds_the_right_variant_for_old_and_new_drivers() {
    let old = fake_driver("merged-12.2", &["-DFAKE_DRIVER_VERSION=12020"]);
    run(&["merged", "12020"], &[("CUSHIM_CUDA_LIBRARY", &old)]);
    let new = fake_driver("merged-13.5", &[]);
    run(&["merged", "13050"], &[("CUSHIM_CUDA_LIBRARY", &new)]);
}

#[test]
fn a_program_defining_cu_init_itself_still_reaches_the_driver() {
    let lib = fake_driver("interposition", &[]);
    run(&["interposition"], &[("CUSHIM_CUDA_LIBRARY", &lib)]);
    let nm = Command::new("nm")
        .arg("-D")
        .arg(consumer())
        .output()
        .expect("nm runs");
    let exported = String::from_utf8_lossy(&nm.stdout);
    assert!(
        exported.contains(" T cuInit\n"),
        "the program does export its own cuInit"
    );
    assert!(
        !exported.contains(" T cuMemAlloc"),
        "the generated shims export nothing"
    );
}

#[test]
fn a_fork_during_the_first_load_does_not_hang_the_child() {
    let lib = fake_driver("slow-load", &["-DFAKE_SLOW_LOAD=400"]);
    run(&["fork-during-load"], &[("CUSHIM_CUDA_LIBRARY", &lib)]);
}

#[test]
fn a_driver_calling_back_during_its_own_load_does_not_deadlock() {
    let lib = fake_driver("reenter", &["-DFAKE_REENTER"]);
    run(&["reentrant"], &[("CUSHIM_CUDA_LIBRARY", &lib)]);
}
