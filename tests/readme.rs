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

/// The README's table of libraries names every library of the registry
/// (`cushim::library::LIBRARIES`) by its label and its `--lib` name, and no
/// other: a new library's description fails here until the README says what
/// it binds.
#[test]
fn the_readme_s_table_names_every_library_of_the_registry() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme
        .find("| library | `--lib` | binds | without the library |")
        .expect("the README's table of libraries");
    let rows: Vec<(String, String)> = readme[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (cells[1].to_string(), cells[2].trim_matches('`').to_string())
        })
        .collect();
    let registry: Vec<(String, String)> = cushim::library::LIBRARIES
        .iter()
        .map(|l| {
            let label = if l.name == cushim::library::DRIVER.name {
                "CUDA driver"
            } else {
                l.words.label
            };
            (label.to_string(), l.name.to_string())
        })
        .collect();
    assert_eq!(rows, registry, "the README's rows, against the registry");
}
