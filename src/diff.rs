//! `cushim diff`: the API difference between two header sets, from their IRs.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde_json::json;

use crate::ir::{Api, Function, Shape, Type};
use crate::version::CudaVersion;

/// One function as the diff shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Example: `cuMemAlloc`.
    pub name: String,
    /// Example: `cuMemAlloc_v2`.
    pub symbol: String,
    /// Example: `3020` (0: unknown).
    pub version: u32,
    /// Example: `CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)`.
    pub signature: String,
}

/// A type whose ABI description changed, and the functions that mention it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeChange {
    pub name: String,
    /// Members (fields, enum constants, size) only the old side has.
    pub old: Vec<String>,
    /// Members only the new side has.
    pub new: Vec<String>,
    pub used_by: Vec<String>,
}

/// What changed from `from` to `to`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diff {
    pub from: String,
    pub to: String,
    pub counts: (usize, usize),
    pub added: Vec<Entry>,
    pub removed: Vec<Entry>,
    /// Same C name, a different symbol: a new ABI variant.
    pub new_abi: Vec<(Entry, Entry)>,
    /// Same C name and symbol, a different signature.
    pub changed: Vec<(Entry, Entry)>,
    pub deprecated: Vec<String>,
    pub types: Vec<TypeChange>,
}

fn entry(name: &str, f: &Function) -> Entry {
    Entry {
        name: name.to_string(),
        symbol: f.symbol.clone(),
        version: f.version.map_or(0, CudaVersion::number),
        signature: f.c_signature(),
    }
}

/// Every C name of `api` (names and aliases) with its function.
fn by_name(api: &Api) -> BTreeMap<&str, &Function> {
    let mut m = BTreeMap::new();
    for f in &api.functions {
        for n in std::iter::once(&f.name).chain(&f.aliases) {
            m.insert(n.as_str(), f);
        }
    }
    m
}

fn named_in(t: &Type, out: &mut BTreeSet<String>) {
    match t {
        Type::Named(n) => {
            out.insert(n.clone());
        }
        Type::Pointer { pointee, .. } => named_in(pointee, out),
        Type::FnPointer { ret, params } => {
            named_in(ret, out);
            params.iter().for_each(|p| named_in(p, out));
        }
        Type::Builtin(_) => {}
    }
}

/// Compares two IRs.
pub fn diff(a: &Api, b: &Api) -> Diff {
    let (old, new) = (by_name(a), by_name(b));
    let mut d = Diff {
        from: a.release.to_string(),
        to: b.release.to_string(),
        counts: (a.functions.len(), b.functions.len()),
        ..Diff::default()
    };
    // A name stays callable while it is a C name or the exported symbol of one
    // (`cuCtxCreate_v4` in 13.0, where only `cuCtxCreate` is declared).
    let symbols = |api: &Api| -> BTreeSet<String> {
        api.functions.iter().map(|f| f.symbol.clone()).collect()
    };
    let (old_symbols, new_symbols) = (symbols(a), symbols(b));
    for (name, f) in &old {
        if !new.contains_key(name) && !new_symbols.contains(*name) {
            d.removed.push(entry(name, f));
        }
    }
    for (name, g) in &new {
        let Some(f) = old.get(name) else {
            if !old_symbols.contains(*name) {
                d.added.push(entry(name, g));
            }
            continue;
        };
        if f.symbol != g.symbol {
            d.new_abi.push((entry(name, f), entry(name, g)));
        } else if f.params != g.params || f.ret != g.ret {
            d.changed.push((entry(name, f), entry(name, g)));
        }
        if g.deprecated && !f.deprecated {
            d.deprecated.push(name.to_string());
        }
    }
    for (name, new_desc) in &b.types {
        let Some(old_desc) = a.types.get(name) else {
            continue;
        };
        if old_desc == new_desc {
            continue;
        }
        let (was, now) = (old_desc.members(), new_desc.members());
        let gone: Vec<String> = was.iter().filter(|m| !now.contains(m)).cloned().collect();
        let came: Vec<String> = now.iter().filter(|m| !was.contains(m)).cloned().collect();
        // New enum constants change no signature; a struct's new field does.
        if gone.is_empty() && matches!(new_desc, Shape::Enum(_)) {
            continue;
        }
        let used_by = b
            .functions
            .iter()
            .filter(|f| {
                let mut names = BTreeSet::new();
                named_in(&f.ret, &mut names);
                f.params.iter().for_each(|p| named_in(&p.ty, &mut names));
                names.contains(name)
            })
            .map(|f| f.name.clone())
            .collect();
        d.types.push(TypeChange {
            name: name.clone(),
            old: gone,
            new: came,
            used_by,
        });
    }
    d
}

/// The first few users of a type, and how many more.
fn used_by(names: &[String], show: impl Fn(&str) -> String) -> String {
    const SHOWN: usize = 6;
    let mut list: Vec<String> = names.iter().take(SHOWN).map(|n| show(n)).collect();
    if names.len() > SHOWN {
        list.push(format!("and {} more", names.len() - SHOWN));
    }
    list.join(", ")
}

/// ` (ABI 13.5)`, or nothing for a function without an ABI version (every
/// function of a library that versions none, such as cuBLAS).
fn abi(v: u32) -> String {
    if v == 0 {
        String::new()
    } else {
        format!(" (ABI {})", CudaVersion::from_number(v))
    }
}

impl Diff {
    /// Readable text.
    pub fn text(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(
            o,
            "CUDA {} -> {}: {} -> {} functions",
            self.from, self.to, self.counts.0, self.counts.1
        );
        let _ = writeln!(o, "\nadded ({}):", self.added.len());
        for e in &self.added {
            let _ = writeln!(o, "  + {}{}  {}", e.name, abi(e.version), e.signature);
        }
        let _ = writeln!(o, "\nremoved ({}):", self.removed.len());
        for e in &self.removed {
            let _ = writeln!(o, "  - {}{}  {}", e.name, abi(e.version), e.signature);
        }
        let _ = writeln!(o, "\nnew ABI version ({}):", self.new_abi.len());
        for (f, g) in &self.new_abi {
            let _ = writeln!(
                o,
                "  {}: {}{} -> {}{}",
                f.name,
                f.symbol,
                abi(f.version),
                g.symbol,
                abi(g.version)
            );
            let _ = writeln!(o, "    - {}", f.signature);
            let _ = writeln!(o, "    + {}", g.signature);
        }
        let _ = writeln!(o, "\nsignature changed ({}):", self.changed.len());
        for (f, g) in &self.changed {
            let _ = writeln!(o, "  {}:", f.name);
            let _ = writeln!(o, "    - {}", f.signature);
            let _ = writeln!(o, "    + {}", g.signature);
        }
        let _ = writeln!(o, "\nnewly deprecated ({}):", self.deprecated.len());
        for n in &self.deprecated {
            let _ = writeln!(o, "  {n}");
        }
        let _ = writeln!(
            o,
            "\ntypes changed that signatures use ({}):",
            self.types.len()
        );
        for t in &self.types {
            let _ = writeln!(
                o,
                "  {} (used by {})",
                t.name,
                used_by(&t.used_by, |u| u.to_string())
            );
            for m in &t.old {
                let _ = writeln!(o, "    - {m}");
            }
            for m in &t.new {
                let _ = writeln!(o, "    + {m}");
            }
        }
        o
    }

    /// Markdown, for release notes and pull requests.
    pub fn markdown(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(o, "# CUDA {} → {}\n", self.from, self.to);
        let _ = writeln!(o, "{} → {} functions.\n", self.counts.0, self.counts.1);
        let section = |o: &mut String, title: &str, n: usize| {
            let _ = writeln!(o, "## {title} ({n})\n");
        };
        section(&mut o, "Added", self.added.len());
        for e in &self.added {
            let _ = writeln!(o, "- `{}`{}: `{}`", e.name, abi(e.version), e.signature);
        }
        o.push('\n');
        section(&mut o, "Removed", self.removed.len());
        for e in &self.removed {
            let _ = writeln!(o, "- `{}`{}: `{}`", e.name, abi(e.version), e.signature);
        }
        o.push('\n');
        section(&mut o, "New ABI version", self.new_abi.len());
        for (f, g) in &self.new_abi {
            let _ = writeln!(
                o,
                "- `{}`: `{}`{} → `{}`{}\n  - was `{}`\n  - now `{}`",
                f.name,
                f.symbol,
                abi(f.version),
                g.symbol,
                abi(g.version),
                f.signature,
                g.signature
            );
        }
        o.push('\n');
        section(&mut o, "Signature changed", self.changed.len());
        for (f, g) in &self.changed {
            let _ = writeln!(
                o,
                "- `{}`\n  - was `{}`\n  - now `{}`",
                f.name, f.signature, g.signature
            );
        }
        o.push('\n');
        section(&mut o, "Newly deprecated", self.deprecated.len());
        for n in &self.deprecated {
            let _ = writeln!(o, "- `{n}`");
        }
        o.push('\n');
        section(
            &mut o,
            "Types changed that signatures use",
            self.types.len(),
        );
        for t in &self.types {
            let _ = writeln!(
                o,
                "- `{}` (used by {})",
                t.name,
                used_by(&t.used_by, |u| format!("`{u}`"))
            );
            for m in &t.old {
                let _ = writeln!(o, "  - removed `{m}`");
            }
            for m in &t.new {
                let _ = writeln!(o, "  - added `{m}`");
            }
        }
        o
    }

    /// JSON, for tools.
    pub fn json(&self) -> String {
        let e = |e: &Entry| json!({"name": e.name, "symbol": e.symbol, "version": e.version, "signature": e.signature});
        let value = json!({
            "from": self.from,
            "to": self.to,
            "functions": {"from": self.counts.0, "to": self.counts.1},
            "added": self.added.iter().map(e).collect::<Vec<_>>(),
            "removed": self.removed.iter().map(e).collect::<Vec<_>>(),
            "new_abi": self.new_abi.iter().map(|(f, g)| json!({"old": e(f), "new": e(g)})).collect::<Vec<_>>(),
            "signature_changed": self.changed.iter().map(|(f, g)| json!({"old": e(f), "new": e(g)})).collect::<Vec<_>>(),
            "newly_deprecated": self.deprecated,
            "types_changed": self.types.iter().map(|t| json!({"name": t.name, "old": t.old, "new": t.new, "used_by": t.used_by})).collect::<Vec<_>>(),
        });
        let mut s = serde_json::to_string_pretty(&value).unwrap_or_default();
        s.push('\n');
        s
    }
}
