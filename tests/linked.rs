//! The two link modes of one module (`Link::Feature`), against the fake
//! driver: `tests/linked` built without and with its `linked` feature runs
//! the same calls and prints the same. Linked, the binary needs
//! `libcuda.so.1` from the dynamic linker (and cannot start without it);
//! lazy, it does not, and answers a typed error instead.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{root, run_ok, text};

/// Builds `tests/linked` with `features`; returns a copy of its binary in
/// `fake_dir`, named `kept`.
fn build(fake_dir: &Path, features: &[&str], kept: &str) -> PathBuf {
    let target = common::nested_target();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(&cargo)
        .args(["build", "--quiet", "--offline", "--locked"])
        .args(features.iter().flat_map(|f| ["--features", f]))
        .arg("--manifest-path")
        .arg(root().join("tests/linked/Cargo.toml"))
        .arg("--target-dir")
        .arg(&target)
        .env("CUSHIM_LINKED_FAKE_DIR", fake_dir)
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    let (_, stderr) = text(&out);
    assert!(out.status.success(), "tests/linked must build:\n{stderr}");
    assert!(
        !stderr.contains("warning"),
        "tests/linked must build without warnings:\n{stderr}"
    );
    let kept = fake_dir.join(kept);
    common::keep_binary("cushim-linked", &kept);
    kept
}

fn run(
    bin: &Path,
    library_dir: Option<&Path>,
    env: &[(&str, &str)],
    arg: &str,
) -> std::process::Output {
    let mut cmd = Command::new(bin);
    for var in [
        "CUSHIM_CUDA_LIBRARY",
        "LD_LIBRARY_PATH",
        "LD_PRELOAD",
        "CUSHIM_PER_THREAD_DEFAULT_STREAM",
    ] {
        cmd.env_remove(var);
    }
    if let Some(dir) = library_dir {
        cmd.env("LD_LIBRARY_PATH", dir);
    }
    cmd.envs(env.iter().copied())
        .arg(arg)
        .output()
        .expect("runs")
}

/// Both modes of the module (the crate's library) pass pedantic clippy with
/// no finding and `missing_docs` denied, as the
/// vendored lazy modules do (`tests/lint.rs`).
#[test]
fn both_link_modes_pass_pedantic_clippy() {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    for features in [&[][..], &["--features", "linked"][..]] {
        let out = Command::new(&cargo)
            .args(["clippy", "--quiet", "--offline", "--locked", "--lib"])
            .args(features)
            .arg("--manifest-path")
            .arg(root().join("tests/linked/Cargo.toml"))
            .arg("--target-dir")
            .arg(common::nested_target())
            .args(["--", "-D", "warnings", "-W", "clippy::pedantic"])
            .env_remove("RUSTFLAGS")
            .output()
            .expect("cargo runs");
        let (_, stderr) = text(&out);
        assert!(out.status.success(), "{features:?}: findings:\n{stderr}");
        assert!(stderr.trim().is_empty(), "{features:?}: {stderr}");
    }
}

#[test]
fn lazy_and_linked_builds_of_one_module_behave_alike_on_the_fake_driver() {
    let fake = common::fake_driver("linked", &[]);
    let fake_dir = fake.parent().unwrap().to_path_buf();
    // What -lcuda looks for.
    std::os::unix::fs::symlink("libcuda.so.1", fake_dir.join("libcuda.so")).unwrap();
    let lazy = build(&fake_dir, &[], "linked-lazy");
    let linked = build(&fake_dir, &["linked"], "linked-linked");

    let needed = |bin: &Path| run_ok(Command::new("readelf").arg("-d").arg(bin));
    assert!(
        needed(&linked).contains("[libcuda.so.1]"),
        "linked: libcuda.so.1 is NEEDED"
    );
    assert!(
        !needed(&lazy).contains("libcuda"),
        "lazy: no libcuda dependency"
    );

    for (mode, expect_copy, expect_twin) in [
        ("0", "cuMemcpyHtoD_v2", "legacy"),
        ("1", "cuMemcpyHtoD_v2_ptds", "per-thread"),
    ] {
        let env = [("CUSHIM_PER_THREAD_DEFAULT_STREAM", mode)];
        let outputs: Vec<String> = [&lazy, &linked]
            .iter()
            .map(|bin| {
                let out = run(bin, Some(&fake_dir), &env, "calls");
                let (stdout, stderr) = text(&out);
                assert!(
                    out.status.success(),
                    "{}: {stdout}\n{stderr}",
                    bin.display()
                );
                stdout
            })
            .collect();
        assert_eq!(
            outputs[0], outputs[1],
            "lazy and linked print the same ({expect_twin})"
        );
        let out = &outputs[0];
        for line in [
            "driver version 13050",
            "cuMemAlloc -> 0x7f0000000010 (cuMemAlloc_v2)",
            &format!("cuMemcpyHtoD ({expect_copy})"),
            "cuProfilerStart (cuProfilerStart)",
            "cuGLGetDevices -> 1 (cuGLGetDevices_v2)",
            "cuCtxSynchronize: CUDA_ERROR_INVALID_CONTEXT",
            "drop-in cuCtxSynchronize: CUDA_ERROR_INVALID_CONTEXT",
            "status API: driver 13050",
            "set_stream_mode after the first call: true",
            "ok",
        ] {
            assert!(out.contains(line), "{line}:\n{out}");
        }
    }

    // The one difference: without the library, the linked build does not start.
    let empty = common::scratch("linked-no-library");
    let out = run(&linked, Some(&empty), &[], "no-library");
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(stderr.contains("libcuda.so.1"), "{stderr}");
    let out = run(
        &lazy,
        Some(&empty),
        &[(
            "CUSHIM_CUDA_LIBRARY",
            &empty.join("libcuda.so.1").display().to_string(),
        )],
        "no-library",
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("cuInit without a driver: "), "{stdout}");
}
