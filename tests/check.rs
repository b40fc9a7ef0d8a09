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
