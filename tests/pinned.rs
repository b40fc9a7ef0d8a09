//! The data cushim ships for every library's pinned releases (the weaves in
//! `generated/data/`: each release's IR, bindgen's types and the output
//! rendered with default options), and the runtime's opaque structs
//! (`cushim-runtime/src/opaque.rs`), are what the pinned headers give today:
//! `cushim pinned --all` parses every release again from the fetched headers
//! and renders it, into a scratch directory, and every file must match the
//! committed one byte for byte. A parser or emitter change that alters the
//! data fails here until the data is rewritten.

use crate::common;

use common::{cushim, root, scratch, text};

#[test]
fn the_shipped_data_matches_a_fresh_parse_and_render_of_every_pinned_release() {
    let out_dir = scratch("pinned-data");
    let runtime = scratch("pinned-runtime").join("opaque.rs");
    let out = cushim(&[
        "pinned",
        "--all",
        "--out",
        out_dir.to_str().unwrap(),
        "--runtime",
        runtime.to_str().unwrap(),
    ]);
    let (_, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    // The runtime's opaque structs, from the types of that parse.
    assert!(
        std::fs::read(&runtime).unwrap()
            == std::fs::read(root().join("cushim-runtime/src/opaque.rs")).unwrap(),
        "stale cushim-runtime/src/opaque.rs; rewrite it with `cargo run -- pinned --all`"
    );
    let data = root().join("generated/data");
    let written = common::files_under(&out_dir);
    let committed = common::files_under(&data);
    // Five weaves per library: IR, types, Rust, C++ header and source.
    assert_eq!(
        written.len(),
        cushim::library::LIBRARIES.len() * 5,
        "{written:?}"
    );
    assert_eq!(
        written.len(),
        committed.len(),
        "every committed data file is rewritten"
    );
    let mut stale = Vec::new();
    for path in written {
        let rel = path.strip_prefix(&out_dir).unwrap();
        let committed = std::fs::read(data.join(rel)).unwrap_or_default();
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
    let mut weaves = 0;
    for ir in common::files_under(&root().join("generated/data")) {
        if !ir.to_string_lossy().ends_with(".ir.json.weave") {
            continue;
        }
        weaves += 1;
        let text = std::fs::read_to_string(&ir).unwrap();
        assert!(!text.contains("\"doc\""), "{} holds docs", ir.display());
    }
    assert_eq!(
        weaves,
        cushim::library::LIBRARIES.len(),
        "one IR weave per library"
    );
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
