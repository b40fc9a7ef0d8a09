//! The README's example crate, as a reader copies it: its `Cargo.toml`
//! dependencies, `build.rs` and `src/main.rs` blocks become a crate (with
//! cushim and cushim-runtime patched to this checkout), which must build
//! offline and run without a driver. An edit that breaks the example fails
//! here, so the README cannot go stale.

mod common;

use std::process::Command;

use common::{root, text};

/// The body of the README's fenced block of `lang` whose first line is
/// `first` (`// build.rs`), or of the first block of `lang` when `first` is
/// empty.
fn block(readme: &str, lang: &str, first: &str) -> String {
    let fence = format!("```{lang}\n");
    let mut rest = readme;
    while let Some(start) = rest.find(&fence) {
        let body = &rest[start + fence.len()..];
        let end = body.find("```\n").expect("every fence closes");
        let code = &body[..end];
        if first.is_empty() || code.starts_with(first) {
            return code.to_string();
        }
        rest = &body[end..];
    }
    panic!("the README has no ```{lang} block starting with {first:?}");
}

#[test]
fn the_readme_s_build_script_example_builds_offline_and_runs_without_a_driver() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let dir = common::scratch("readme-example");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let manifest = format!(
        "[package]\nname = \"readme-example\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n{}\n[patch.crates-io]\ncushim = {{ path = {:?} }}\ncushim-runtime = {{ path = {:?} }}\n\n[workspace]\n",
        block(&readme, "toml", "[dependencies]"),
        root().display().to_string(),
        root().join("cushim-runtime").display().to_string(),
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(dir.join("build.rs"), block(&readme, "rust", "// build.rs")).unwrap();
    std::fs::write(
        dir.join("src/main.rs"),
        block(&readme, "rust", "// src/main.rs"),
    )
    .unwrap();
    // This checkout's lock file pins the versions the example resolves to.
    std::fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["run", "--quiet", "--offline"])
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(common::target().join("readme-example"))
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .env("CUSHIM_CUDA_LIBRARY", common::missing_library())
        .output()
        .expect("cargo runs");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("no CUDA here: "), "{stdout}");
    assert!(stdout.contains("cuDeviceGetCount -> "), "{stdout}");
}
