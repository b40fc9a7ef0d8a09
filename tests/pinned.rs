//! The data cushim ships for every library's pinned releases
//! (`generated/cuda-<v>/<stem>.ir.json` and `<stem>.types.rs`) is what the
//! pinned headers give today: `cushim pinned --all` rewrites it from the
//! fetched headers into a scratch directory, and every file must match the
//! committed one byte for byte. A parser change that alters the IR fails
//! here until the data is rewritten.

mod common;

use common::{cushim, root, scratch, text};

#[test]
fn the_shipped_data_matches_a_fresh_parse_of_every_pinned_release() {
    let out_dir = scratch("pinned-data");
    let out = cushim(&["pinned", "--all", "--out", out_dir.to_str().unwrap()]);
    let (_, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let written = common::files_under(&out_dir);
    let committed = common::files_under(&root().join("generated"))
        .into_iter()
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.ends_with(".ir.json") || name.ends_with(".types.rs")
        })
        .count();
    // Six libraries in 16 releases, but nvJitLink has none for 11.8.
    assert_eq!(written.len(), 2 * (6 * 16 - 1), "{written:?}");
    assert_eq!(
        written.len(),
        committed,
        "every committed data file is rewritten"
    );
    let mut stale = Vec::new();
    for path in written {
        let rel = path.strip_prefix(&out_dir).unwrap();
        let committed = std::fs::read(root().join("generated").join(rel)).unwrap_or_default();
        if std::fs::read(&path).unwrap() != committed {
            stale.push(rel.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale shipped data: {stale:?}; rewrite it with `cargo run -- pinned --all`"
    );
}

#[test]
fn docs_are_read_from_the_headers_and_never_shipped() {
    for dir in std::fs::read_dir(root().join("generated"))
        .unwrap()
        .flatten()
    {
        let Ok(entries) = std::fs::read_dir(dir.path()) else {
            continue;
        };
        for ir in entries.flatten().map(|e| e.path()) {
            if !ir.to_string_lossy().ends_with(".ir.json") {
                continue;
            }
            let text = std::fs::read_to_string(&ir).unwrap();
            assert!(!text.contains("\"doc\""), "{} holds docs", ir.display());
        }
    }
    // A generation with docs parses, so the briefs are there.
    let out_dir = scratch("pinned-docs");
    let out = cushim(&[
        "generate",
        "--cuda",
        "13.5",
        "--docs",
        "--lang",
        "rust",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let (_, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let module = std::fs::read_to_string(out_dir.join("cuda.rs")).unwrap();
    assert!(
        module.contains("#[doc = \"Initialize the CUDA driver API"),
        "no brief for cuInit"
    );
}
