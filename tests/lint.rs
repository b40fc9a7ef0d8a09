//! Generated code is clean in a strict downstream crate: `tests/lint-consumer`
//! (edition 2024, a library with `#![deny(missing_docs)]` and a binary)
//! vendors the committed 13.5, 11.8 and merged modules, and must pass
//! `cargo clippy -D warnings -W clippy::pedantic` with no finding.

mod common;

use std::process::Command;

use common::{root, text};

#[test]
fn the_vendored_modules_pass_pedantic_clippy_and_missing_docs_in_edition_2024() {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let manifest = root().join("tests/lint-consumer/Cargo.toml");
    let target = root().join("target/lint-consumer");
    let out = Command::new(&cargo)
        .args([
            "clippy",
            "--quiet",
            "--locked",
            "--all-targets",
            "--manifest-path",
        ])
        .arg(&manifest)
        .arg("--target-dir")
        .arg(&target)
        .args(["--", "-D", "warnings", "-W", "clippy::pedantic"])
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    let (_, stderr) = text(&out);
    assert!(
        out.status.success(),
        "findings in generated code:\n{stderr}"
    );
    assert!(stderr.trim().is_empty(), "{stderr}");

    let out = Command::new(&cargo)
        .args(["run", "--quiet", "--locked", "--manifest-path"])
        .arg(&manifest)
        .arg("--target-dir")
        .arg(&target)
        .env("CUSHIM_CUDA_LIBRARY", common::missing_library())
        .output()
        .expect("cargo runs");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.contains("no CUDA here: CUDA driver library not found"),
        "{stdout}"
    );
    assert!(stdout.contains("cuGetErrorName -> 0"), "{stdout}");
}
