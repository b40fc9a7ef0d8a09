//! The modules of each crate depend on each other one way: each layer uses
//! only the layers below it. This reads every `crate::` path in the sources
//! (comments aside), so a new arrow back up (or a cycle) fails here, not in
//! review. The C++ runtime's parts are checked in `cpp_parts`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The generator (`src/`), bottom first. Modules in one layer do not use
/// each other.
const GENERATOR: &[&[&str]] = &[
    &["diag", "columns", "version", "c", "library", "temp"],
    &["runtime", "parse", "weave"],
    &["pins"],
    &["ir", "options", "fetch"],
    &["emit", "diff", "doctor", "pinned"],
    &["write", "pipeline"],
    &["builder", "check"],
    &["cli"],
];

/// The runtime crate (`cushim-runtime/src/`), bottom first: the
/// description and the opaque structs; the pieces that know one thing (a
/// file, a directory's owners, the platform's loader, the stream mode); the
/// candidates, a loaded library and its version; one candidate admitted, or
/// the driver taken through the CUDA runtime; the search; a library's state;
/// a shim's; the typed layer.
const RUNTIME: &[&[&str]] = &[
    &["info", "opaque"],
    &["error", "file", "fmt", "loader", "stream", "trust"],
    &["candidates", "loaded", "version"],
    &["admit", "entry"],
    &["search"],
    &["library"],
    &["function"],
    &["api"],
];

/// The top-level module a source file belongs to: `src/ir/build.rs` → `ir`.
fn module_of(path: &Path, src: &Path) -> String {
    let rel = path.strip_prefix(src).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Each arrow `(from, to)` between top-level modules of the crate whose
/// sources are in `src`, with the first file that draws it. The crate root
/// (`lib.rs`, `main.rs`) declares and re-exports: it draws none.
fn arrows(src: &Path) -> BTreeMap<(String, String), String> {
    let mut files = Vec::new();
    sources(src, &mut files);
    let mut arrows = BTreeMap::new();
    for file in &files {
        let module = module_of(file, src);
        if matches!(module.as_str(), "lib" | "main") {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        let code = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for (i, _) in code.match_indices("crate::") {
            let rest = &code[i + "crate::".len()..];
            let mut names: Vec<String> = Vec::new();
            if let Some(group) = rest.strip_prefix('{') {
                // `use crate::{fetch, pins};`
                let group = &group[..group.find('}').unwrap_or(0)];
                names.extend(
                    group
                        .split(',')
                        .map(|n| n.trim().split("::").next().unwrap_or("").to_string()),
                );
            } else {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                names.push(name);
            }
            for to in names.into_iter().filter(|n| !n.is_empty() && *n != module) {
                arrows
                    .entry((module.clone(), to))
                    .or_insert_with(|| file.display().to_string());
            }
        }
    }
    arrows
}

/// The arrows that do not point down `layers`, one line each.
fn wrong_arrows(arrows: &BTreeMap<(String, String), String>, layers: &[&[&str]]) -> Vec<String> {
    let layer = |module: &str| layers.iter().position(|l| l.contains(&module));
    let mut wrong = Vec::new();
    for ((from, to), file) in arrows {
        let (Some(a), Some(b)) = (layer(from), layer(to)) else {
            wrong.push(format!("{file}: `{from}` -> `{to}`: a module missing from the layers (or a path through the crate root)"));
            continue;
        };
        if b >= a {
            wrong.push(format!(
                "{file}: `{from}` (layer {a}) uses `{to}` (layer {b})"
            ));
        }
    }
    wrong
}

/// Every module of the crate at `src` is in `layers`, and each uses only
/// the layers below its own.
fn check(src: &Path, layers: &[&[&str]]) {
    let arrows = arrows(src);
    assert!(!arrows.is_empty(), "no arrows read in {}", src.display());
    let mut wrong = wrong_arrows(&arrows, layers);
    let mut files = Vec::new();
    sources(src, &mut files);
    for file in &files {
        let module = module_of(file, src);
        let known = layers.iter().any(|l| l.contains(&module.as_str()));
        if !known && !matches!(module.as_str(), "lib" | "main") {
            wrong.push(format!(
                "{}: module `{module}` is in no layer",
                file.display()
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "arrows that do not point down in {}:\n{}",
        src.display(),
        wrong.join("\n")
    );
}

#[test]
fn every_module_uses_only_the_layers_below_it() {
    check(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        GENERATOR,
    );
}

#[test]
fn every_runtime_module_uses_only_the_layers_below_it() {
    check(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("cushim-runtime/src"),
        RUNTIME,
    );
}

/// The check sees an arrow back up, and a circle, in code that draws them.
#[test]
fn an_arrow_back_up_is_caught() {
    let dir = std::env::temp_dir().join(format!("cushim-layers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("lib.rs"), "mod low;\nmod high;\n").unwrap();
    std::fs::write(
        dir.join("low.rs"),
        "// crate::high in a comment is no arrow\nuse crate::high::f;\n",
    )
    .unwrap();
    std::fs::write(dir.join("high.rs"), "use crate::{low, x::y};\n").unwrap();
    let found = wrong_arrows(&arrows(&dir), &[&["low"], &["high"]]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].contains("`high` -> `x`"), "{found:#?}");
    assert!(
        found[1].contains("`low` (layer 0) uses `high` (layer 1)"),
        "{found:#?}"
    );
}
