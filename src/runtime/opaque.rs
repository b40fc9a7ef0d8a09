//! The opaque C structs that every Rust module shares: each struct that the
//! pinned headers declare but never define (`struct CUctx_st`, whose
//! pointer is `CUcontext`) lives once in the Rust runtime
//! (`cushim_runtime::opaque`), and each module re-exports it instead of
//! declaring its own, so that a C tag names one Rust type in every module,
//! as it names one type in every C translation unit: the driver's
//! `CUcontext` goes into CUPTI's `cuptiGetContextId`, the runtime's
//! `cudaStream_t` into cuBLAS's `cublasSetStream_v2`.
//!
//! This module reads bindgen's types for the tags ([`tags`]), writes the
//! runtime's file from the tags of every library and pinned release
//! ([`runtime_source`]; `cushim pinned` writes it, a test keeps it
//! committed), and rewrites a module's types to share them ([`share`]). A
//! tag that the runtime lacks (a user's own header's) stays declared in the
//! module.
//!
//! Bindgen writes a declared-only struct as an empty array field, the one
//! shape it gives no other struct:
//!
//! ```text
//! #[repr(C)]
//! #[derive(Debug)]
//! pub struct CUctx_st {
//!     _unused: [u8; 0],
//! }
//! ```
//!
//! Bindgen before 0.73 derived `Debug, Copy, Clone` for it, and code written
//! against those bindings may copy one, so the shared structs and the ones a
//! module keeps derive all three.

#[cfg(any(test, feature = "cli"))]
use std::collections::BTreeSet;

#[cfg(any(test, feature = "cli"))]
/// The struct tags of one module's types: those declared only, and those
/// defined (with their fields: a tag among these is no opaque one anywhere).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Tags {
    /// Example: `CUctx_st`.
    pub opaque: BTreeSet<String>,
    /// Example: `CUuuid_st`.
    pub defined: BTreeSet<String>,
}

/// The field line of a declared-only struct, as bindgen's output indents it.
const UNUSED_FIELD: &str = "    _unused: [u8; 0],";

/// The name after `pub struct ` (or `pub union `) on `line`. Example:
/// `pub struct CUctx_st {` → `CUctx_st`.
fn item_name<'a>(line: &'a str, kind: &str) -> Option<&'a str> {
    let rest = line.strip_prefix(kind)?;
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

/// The declared-only struct whose first line is `lines[at]`, as bindgen
/// writes it at the top level of its output: its name.
fn opaque_at<'a>(lines: &[&'a str], at: usize) -> Option<&'a str> {
    let name = item_name(lines[at], "pub struct ")?;
    (lines[at] == format!("pub struct {name} {{")
        && lines.get(at + 1) == Some(&UNUSED_FIELD)
        && lines.get(at + 2) == Some(&"}"))
    .then_some(name)
}

#[cfg(any(test, feature = "cli"))]
/// The struct tags of bindgen's `types`.
pub fn tags(types: &str) -> Tags {
    let lines: Vec<&str> = types.lines().collect();
    let mut tags = Tags::default();
    for at in 0..lines.len() {
        if let Some(name) = opaque_at(&lines, at) {
            tags.opaque.insert(name.to_string());
        } else if let Some(name) =
            item_name(lines[at], "pub struct ").or_else(|| item_name(lines[at], "pub union "))
        {
            tags.defined.insert(name.to_string());
        }
    }
    tags
}

#[cfg(any(test, feature = "cli"))]
/// Whether `tag` is reserved for the C implementation everywhere (C11
/// 7.1.3: `__` or `_` and a capital first): the C library's own
/// (`_IO_marker`, which glibc's `FILE` points to), not a CUDA library's.
fn reserved(tag: &str) -> bool {
    let mut chars = tag.chars();
    chars.next() == Some('_')
        && chars
            .next()
            .is_some_and(|c| c == '_' || c.is_ascii_uppercase())
}

#[cfg(any(test, feature = "cli"))]
/// The tags to share, from the tags of every module: each declared only in
/// some, defined in none, and no C library's (those stay in the modules).
pub fn shared(all: &[Tags]) -> BTreeSet<String> {
    let defined: BTreeSet<&String> = all.iter().flat_map(|t| &t.defined).collect();
    all.iter()
        .flat_map(|t| &t.opaque)
        .filter(|tag| !defined.contains(tag) && !reserved(tag))
        .cloned()
        .collect()
}

/// What a struct that a module keeps, or the runtime declares, derives.
const DERIVES: &str = "#[derive(Debug, Copy, Clone)]";

/// Bindgen's `types` with each declared-only struct whose tag is in
/// `shared` (the runtime's, [`cushim_runtime::opaque::TAGS`]) re-exported
/// from the runtime in its place (`pub use cushim_runtime::opaque::CUctx_st;`),
/// and every other one kept, deriving `Debug`, `Copy` and `Clone`. The
/// attributes above a struct go with it.
pub fn share(types: &str, shared: &[&str]) -> String {
    let lines: Vec<&str> = types.split('\n').collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut at = 0;
    while at < lines.len() {
        let Some(name) = opaque_at(&lines, at) else {
            out.push(lines[at].to_string());
            at += 1;
            continue;
        };
        while out.last().is_some_and(|l| l.starts_with("#[")) {
            out.pop();
        }
        if shared.contains(&name) {
            out.push(format!("pub use cushim_runtime::opaque::{name};"));
        } else {
            out.extend(["#[repr(C)]", DERIVES].map(String::from));
            out.extend(lines[at..at + 3].iter().map(|l| (*l).to_string()));
        }
        at += 3;
    }
    out.join("\n")
}

#[cfg(any(test, feature = "cli"))]
/// The runtime's `src/opaque.rs`, declaring each of `tags`.
pub fn runtime_source(tags: &BTreeSet<String>) -> String {
    let mut text = String::from(
        "// Generated by `cushim pinned` from the data cushim ships: every struct that the
// headers of every library and pinned release declare but never define. Do
// not edit: regenerate (`tests/pinned.rs` checks it).

//! The C structs that the CUDA headers declare but never define, whose
//! pointers are handles (`CUcontext` is `*mut CUctx_st`, `cudaStream_t` is
//! `*mut CUstream_st`). A C tag names one type in every translation unit;
//! here it names one Rust type in every module: each generated module
//! re-exports these instead of declaring its own, so that the driver's
//! `CUcontext` is CUPTI's, and the CUDA runtime's `cudaStream_t` is
//! cuBLAS's. Each has bindgen's layout (no size, alignment 1) and derives
//! what bindgen derived before 0.73.
#![allow(non_camel_case_types)]

/// The tags declared here, which a generated module re-exports.
#[doc(hidden)]
pub const TAGS: &[&str] = &[
",
    );
    for tag in tags {
        text.push_str(&format!("    {tag:?},\n"));
    }
    text.push_str("];\n");
    for tag in tags {
        text.push_str(&format!(
            "\n/// `struct {tag}`: declared, never defined; only pointers to it are used.
#[repr(C)]
{DERIVES}
pub struct {tag} {{
{UNUSED_FIELD}
}}
"
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const TYPES: &str = "pub type CUdevice = CUdevice_v1;
#[repr(C)]
#[derive(Debug)]
pub struct CUctx_st {
    _unused: [u8; 0],
}
pub type CUcontext = *mut CUctx_st;
#[repr(C)]
#[derive(Debug)]
pub struct mine_st {
    _unused: [u8; 0],
}
pub type mine = *mut mine_st;
#[repr(C)]
#[derive(Debug, Default, Copy, Clone)]
pub struct CUuuid_st {
    pub bytes: [::core::ffi::c_char; 16usize],
}
#[repr(C)]
#[derive(Copy, Clone)]
pub union CUlaunchAttributeValue_union {
    pub pad: [::core::ffi::c_char; 64usize],
}
";

    #[test]
    fn declared_only_structs_are_told_from_defined_ones() {
        let t = tags(TYPES);
        assert_eq!(t.opaque.iter().collect::<Vec<_>>(), ["CUctx_st", "mine_st"]);
        assert_eq!(
            t.defined.iter().collect::<Vec<_>>(),
            ["CUlaunchAttributeValue_union", "CUuuid_st"]
        );
    }

    /// A tag that one module declares only and another defines is shared
    /// by none, nor is one that the C library declares.
    #[test]
    fn a_tag_defined_anywhere_or_the_c_librarys_is_not_shared() {
        let mut other = Tags::default();
        other.defined.insert("mine_st".into());
        other.opaque.insert("CUstream_st".into());
        other.opaque.insert("_IO_marker".into());
        other.opaque.insert("__locale_data".into());
        let shared = shared(&[tags(TYPES), other]);
        assert_eq!(
            shared.iter().collect::<Vec<_>>(),
            ["CUctx_st", "CUstream_st"]
        );
    }

    /// A shared tag becomes one `pub use` line in the struct's place, with
    /// its attributes; another keeps its struct, deriving bindgen's old
    /// three; everything else is untouched.
    #[test]
    fn a_shared_tag_is_re_exported_and_another_kept() {
        let text = share(TYPES, &["CUctx_st", "CUstream_st"]);
        let expected = TYPES
            .replace(
                "#[repr(C)]\n#[derive(Debug)]\npub struct CUctx_st {\n    _unused: [u8; 0],\n}",
                "pub use cushim_runtime::opaque::CUctx_st;",
            )
            .replace(
                "#[derive(Debug)]\npub struct mine_st",
                "#[derive(Debug, Copy, Clone)]\npub struct mine_st",
            );
        assert_eq!(text, expected);
        // Standalone: every one kept.
        assert_eq!(
            share(TYPES, &[])
                .matches("#[derive(Debug, Copy, Clone)]")
                .count(),
            2
        );
    }

    /// The runtime's file declares each tag once, in order, and lists it.
    #[test]
    fn the_runtime_file_declares_and_lists_each_tag() {
        let tags: BTreeSet<String> = ["CUstream_st", "CUctx_st"].map(String::from).into();
        let text = runtime_source(&tags);
        let ctx = text
            .find("pub struct CUctx_st {\n    _unused: [u8; 0],\n}")
            .unwrap();
        let stream = text.find("pub struct CUstream_st {").unwrap();
        assert!(ctx < stream);
        assert!(text
            .contains("pub const TAGS: &[&str] = &[\n    \"CUctx_st\",\n    \"CUstream_st\",\n];"));
        assert_eq!(text.matches("#[derive(Debug, Copy, Clone)]").count(), 2);
    }
}
