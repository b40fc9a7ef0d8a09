//! Generated code is clean in a strict downstream crate: `tests/lint-consumer`
//! (a library with `#![deny(missing_docs)]` and a binary, built as edition
//! 2024 and, through `edition2021/Cargo.toml`, as edition 2021)
//! vendors the committed modules of every library of the registry (each
//! library's newest and oldest committed release) and the merged module, and
//! must pass `cargo clippy -D warnings -W clippy::pedantic` with no finding.

use crate::common;

use std::process::Command;

use common::{root, text};

/// The strict consumer's modules, from the registry: each library's newest
/// and oldest committed module (`generated/`), named `<library>_<release>`
/// and documented by the library's label, and the driver's merged module.
/// Modules other than the driver's and the first other library's newest are
/// under the `every-library` feature. Also asserts that every library has
/// committed modules.
pub(crate) fn modules_rs() -> String {
    use cushim::library::{DRIVER, LIBRARIES};
    let mut text = format!(
        "/// Every driver API from 11.8 to 13.5.\npub mod merged {{\n    include!({:?});\n}}\n",
        root()
            .join("generated/merged/cuda.rs")
            .display()
            .to_string()
    );
    let mut shown = false;
    for library in LIBRARIES {
        let vendored = cushim::pins::vendored_for(library);
        let (Some(oldest), Some(newest)) = (vendored.first(), vendored.last()) else {
            panic!("{} has no committed module", library.name);
        };
        let pins = if newest == oldest {
            vec![newest]
        } else {
            vec![newest, oldest]
        };
        for pin in pins {
            let path = root()
                .join("generated")
                .join(pin.cuda.dir_name())
                .join(format!("{}.rs", library.stem));
            assert!(path.is_file(), "{}", path.display());
            // The driver's, and one other library's newest, in every edition.
            let always = library.name == DRIVER.name || (pin == newest && !shown);
            shown |= always && library.name != DRIVER.name;
            let feature = if always {
                ""
            } else {
                "#[cfg(feature = \"every-library\")]\n"
            };
            text.push_str(&format!(
                "\n/// {} of CUDA {}.\n{feature}pub mod {}_{} {{\n    include!({:?});\n}}\n",
                library.words.label,
                pin.cuda,
                library.name,
                pin.cuda.to_string().replace('.', "_"),
                path.display().to_string(),
            ));
        }
    }
    let newest = cushim::pins::vendored_for(&DRIVER).pop().unwrap().cuda;
    text.push_str(&format!(
        "\n/// The driver's newest module, which the binary calls.\npub use {}_{} as cuda;\n",
        DRIVER.name,
        newest.to_string().replace('.', "_")
    ));
    text
}

/// Lints and runs the strict consumer whose manifest is `manifest`.
fn lint_and_run(manifest: &std::path::Path) {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let target = common::nested_target();
    // Written only when it changes, so that cargo keeps its build.
    let list = target.join(format!(
        "lint-modules-{}.rs",
        manifest
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
    ));
    let modules = modules_rs();
    std::fs::create_dir_all(&target).unwrap();
    if std::fs::read_to_string(&list).ok().as_deref() != Some(modules.as_str()) {
        std::fs::write(&list, &modules).unwrap();
    }
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
        .env("CUSHIM_LINT_MODULES", &list)
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
        .env("CUSHIM_LINT_MODULES", &list)
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
