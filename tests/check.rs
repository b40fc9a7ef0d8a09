//! `cushim check` over our own `generated/`, over an edited copy, and over a
//! downstream crate's vendored (renamed) copy.

mod common;

use std::fs;

use common::{cushim, root, scratch, text};

#[test]
fn the_committed_generated_tree_is_fresh() {
    let out = cushim(&["check", "--dir", "generated"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    // 16 releases, each a Rust module and a C++ pair, and the merged module.
    assert!(stdout.contains("generated files are fresh"), "{stdout}");
}

#[test]
fn an_edited_copy_is_reported_stale_with_the_fix() {
    let dir = scratch("check-edited");
    let copy = dir.join("cuda-13.5");
    fs::create_dir_all(&copy).unwrap();
    for f in ["cuda.rs", "cuda_shim.h", "cuda_shim.cpp"] {
        fs::copy(root().join("generated/cuda-13.5").join(f), copy.join(f)).unwrap();
    }
    let rs = copy.join("cuda.rs");
    let edited = fs::read_to_string(&rs)
        .unwrap()
        .replacen("version 3020", "version 3021", 1);
    fs::write(&rs, edited).unwrap();
    let out = cushim(&["check", "--dir", dir.to_str().unwrap()]);
    let (stdout, _) = text(&out);
    assert_eq!(
        out.status.code(),
        Some(cushim::check::STALE_EXIT),
        "{stdout}"
    );
    assert!(
        stdout.contains("1 of 3 generated files are stale"),
        "{stdout}"
    );
    assert!(stdout.contains(&format!("  {}", rs.display())), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "cushim generate --cuda 13.5 --out {}",
            copy.display()
        )),
        "{stdout}"
    );
}

#[test]
fn a_vendored_renamed_copy_is_checked_too() {
    let dir = scratch("check-vendored");
    fs::create_dir_all(dir.join("src")).unwrap();
    fs::copy(
        root().join("generated/cuda-12.9/cuda.rs"),
        dir.join("src/driver.rs"),
    )
    .unwrap();
    fs::write(dir.join("src/main.rs"), "mod driver;\nfn main() {}\n").unwrap();
    let out = cushim(&["check", "--dir", dir.to_str().unwrap()]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("1 generated files are fresh"), "{stdout}");
}

#[test]
fn a_directory_without_generated_files_is_an_error() {
    let dir = scratch("check-empty");
    let out = cushim(&["check", "--dir", dir.to_str().unwrap()]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("no cushim-generated files"), "{stderr}");
}

/// A vendored file is untrusted: a provenance line that records clang
/// arguments (here the ones that make clang write a dependency file over
/// any path) is refused and nothing is run, unless `check` is given the same
/// arguments itself.
#[test]
fn recorded_clang_arguments_are_refused_and_never_run() {
    let dir = scratch("check-clang-args");
    let victim = dir.join("victim.txt");
    fs::write(&victim, "precious\n").unwrap();
    let original = fs::read_to_string(root().join("generated/cuda-13.5/cuda.rs")).unwrap();
    let crafted = original.replacen(
        "// Regenerate with: cushim generate --cuda 13.5\n",
        &format!(
            "// Regenerate with: cushim generate --cuda 13.5 --clang-arg -MD --clang-arg -MF --clang-arg {}\n",
            victim.display()
        ),
        1,
    );
    assert_ne!(crafted, original, "the provenance line was replaced");
    fs::write(dir.join("cuda.rs"), crafted).unwrap();
    let out = cushim(&["check", "--dir", dir.to_str().unwrap()]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("check does not run arguments read from a file"),
        "{stderr}"
    );
    assert!(stderr.contains("--clang-arg -MF"), "{stderr}");
    assert!(stderr.contains("cuda.rs"), "the file is named: {stderr}");
    assert!(stderr.contains("hint: if you trust them"), "{stderr}");
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");

    // Different trusted arguments do not unlock it either.
    let out = cushim(&[
        "check",
        "--dir",
        dir.to_str().unwrap(),
        "--clang-arg",
        "-DX",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");
}

/// A value with a newline would end the provenance comment and inject code:
/// it is refused before anything is written.
#[test]
fn a_control_character_in_a_recorded_value_is_refused() {
    let dir = scratch("check-injection");
    let out = cushim(&[
        "generate",
        "--cuda",
        "13.5",
        "--lang",
        "rust",
        "--allow",
        "cu|x\npub const INJECTED: u32 = 1; //",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("`--allow` holds a control character"),
        "{stderr}"
    );
    assert_eq!(common::files_under(&dir), Vec::<std::path::PathBuf>::new());
}

/// A quote in a recorded value round-trips: the file checks fresh.
#[test]
fn a_quote_in_a_recorded_value_round_trips_through_check() {
    let dir = scratch("check-quote");
    let out = cushim(&[
        "generate",
        "--cuda",
        "13.5",
        "--lang",
        "rust",
        "--allow",
        "cuInit|it's",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let (_, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let module = fs::read_to_string(dir.join("cuda.rs")).unwrap();
    assert!(
        module.contains(r"--allow 'cuInit|it'\''s'"),
        "{}",
        module.lines().take(4).collect::<Vec<_>>().join("\n")
    );
    let out = cushim(&["check", "--dir", dir.to_str().unwrap()]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("1 generated files are fresh"), "{stdout}");
}
