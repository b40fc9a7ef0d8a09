//! The modules of `src/` depend on each other one way: each layer uses only
//! the layers below it. This reads every `crate::` path in the sources, so a
//! new arrow back up (or a cycle) fails here, not in review.

use std::collections::BTreeMap;
use std::path::Path;

/// Bottom first. Modules in one layer do not use each other.
const LAYERS: &[&[&str]] = &[
    &["diag", "columns", "version", "c", "library", "temp"],
    &["runtime", "pins", "parse", "weave"],
    &["ir", "options", "fetch"],
    &["emit", "diff", "doctor", "pinned"],
    &["write", "pipeline"],
    &["builder", "check"],
    &["cli"],
];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

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

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn every_module_uses_only_the_layers_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut arrows: BTreeMap<(String, String), String> = BTreeMap::new();
    for file in &files {
        let module = module_of(file, &src);
        if matches!(module.as_str(), "lib" | "main") {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for (i, _) in text.match_indices("crate::") {
            let rest = &text[i + "crate::".len()..];
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
    assert!(!arrows.is_empty());
    let mut wrong = Vec::new();
    for ((from, to), file) in &arrows {
        let (Some(a), Some(b)) = (layer(from), layer(to)) else {
            wrong.push(format!("{file}: `{from}` -> `{to}`: a module missing from LAYERS (or a path through the crate root)"));
            continue;
        };
        if b >= a {
            wrong.push(format!(
                "{file}: `{from}` (layer {a}) uses `{to}` (layer {b})"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "arrows that do not point down:\n{}",
        wrong.join("\n")
    );
}
