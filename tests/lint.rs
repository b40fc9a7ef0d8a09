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

/// `cargo fmt` in a crate that vendors the output changes nothing, so
/// `cushim check` keeps calling the vendored copy fresh.
#[test]
fn rustfmt_leaves_every_generated_module_unchanged() {
    let mut modules = vec![root().join("generated/merged/cuda.rs")];
    for pin in cushim::pins::all() {
        modules.push(
            root()
                .join("generated")
                .join(pin.cuda.dir_name())
                .join("cuda.rs"),
        );
    }
    for edition in ["2021", "2024"] {
        let out = Command::new("rustfmt")
            .args(["--check", "--edition", edition])
            .args(&modules)
            .output()
            .expect("rustfmt runs");
        let (stdout, stderr) = text(&out);
        assert!(
            out.status.success(),
            "rustfmt (edition {edition}) would change generated code:\n{}\n{stderr}",
            stdout.lines().take(40).collect::<Vec<_>>().join("\n")
        );
    }
}
