//! Generated code is clean in a strict downstream crate: `tests/lint-consumer`
//! (a library with `#![deny(missing_docs)]` and a binary, built as edition
//! 2024 and, through `edition2021/Cargo.toml`, as edition 2021)
//! vendors the committed 13.5, 11.8 and merged modules, and must pass
//! `cargo clippy -D warnings -W clippy::pedantic` with no finding.

use crate::common;

use std::process::Command;

use common::{root, text};

/// Lints and runs the strict consumer whose manifest is `manifest`.
fn lint_and_run(manifest: &std::path::Path) {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let target = common::nested_target();
    let out = Command::new(&cargo)
        .args([
            "clippy",
            "--quiet",
            "--locked",
            // The library and the binary: a test target would check the same
            // modules again, with no test of their own.
            "--lib",
            "--bins",
            "--manifest-path",
        ])
        .arg(manifest)
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
        // The binary calls the driver's module only: built without the
        // other libraries' modules, which clippy has seen.
        .args([
            "run",
            "--quiet",
            "--locked",
            "--no-default-features",
            "--manifest-path",
        ])
        .arg(manifest)
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

#[test]
fn the_vendored_modules_pass_pedantic_clippy_and_missing_docs_in_edition_2024() {
    lint_and_run(&root().join("tests/lint-consumer/Cargo.toml"));
}

#[test]
fn the_vendored_modules_pass_pedantic_clippy_and_missing_docs_in_edition_2021() {
    lint_and_run(&root().join("tests/lint-consumer/edition2021/Cargo.toml"));
}

/// `cargo fmt` in a crate that vendors the output changes nothing, so
/// `cushim check` keeps calling the vendored copy fresh.
#[test]
fn rustfmt_leaves_every_generated_module_unchanged() {
    let mut modules = vec![root().join("generated/merged/cuda.rs")];
    for library in cushim::library::LIBRARIES {
        for pin in cushim::pins::vendored_for(library) {
            modules.push(
                root()
                    .join("generated")
                    .join(pin.cuda.dir_name())
                    .join(format!("{}.rs", library.stem)),
            );
        }
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

/// The shims' state is private to the generated module: code outside it can
/// read a shim's metadata but cannot repoint its slot.
#[test]
fn safe_code_outside_the_module_cannot_repoint_a_shim() {
    let dir = common::scratch("private-state");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"private-state\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\nlibloading = \"0.9\"\ncushim-runtime = {{ path = {:?} }}\n\n[workspace]\n",
            root().join("cushim-runtime")
        ),
    )
    .unwrap();
    let module = root().join("generated/cuda-13.5/cuda.rs");
    let main = |body: &str| {
        format!(
            "#[allow(dead_code)]\nmod cuda {{\n    include!({module:?});\n}}\n\nfn main() {{\n    let f = cuda::FUNCTIONS[0];\n    {body}\n}}\n"
        )
    };
    let build = || {
        Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args(["build", "--quiet", "--offline", "--manifest-path"])
            .arg(dir.join("Cargo.toml"))
            .arg("--target-dir")
            .arg(common::nested_target())
            .env_remove("RUSTFLAGS")
            .output()
            .expect("cargo runs")
    };
    // Reading the metadata and the address compiles (the control that the
    // crate builds at all).
    std::fs::write(
        dir.join("src/main.rs"),
        main("println!(\"{} {:?} {:?}\", f.name, f.symbol, f.address());"),
    )
    .unwrap();
    let out = build();
    assert!(out.status.success(), "{}", text(&out).1);
    // Writing the slot does not.
    std::fs::write(
        dir.join("src/main.rs"),
        main("f.slot.store(std::ptr::null_mut(), std::sync::atomic::Ordering::Release);"),
    )
    .unwrap();
    let out = build();
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(
        stderr.contains("field `slot` of struct `Function` is private"),
        "{stderr}"
    );
}
