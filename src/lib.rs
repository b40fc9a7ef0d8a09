//! cushim generates lazy-loading Rust shims for the CUDA driver API.
//!
//! The pipeline is `parse → ir → emit → write`, driven by one [`Options`]
//! that both the `cushim` CLI and [`Builder`] (for `build.rs`) fill.

mod builder;
pub mod check;
pub mod cli;
mod columns;
pub mod diag;
pub mod diff;
pub mod doctor;
pub mod emit;
pub mod fetch;
pub mod ir;
pub mod library;
pub mod options;
pub mod parse;
pub mod pins;
mod runtime;
pub mod write;

use std::path::PathBuf;

pub use builder::Builder;
pub use diag::{Diagnostic, Error};
pub use options::{Language, Options, Resolve, Source, StreamMode};

/// The result of a generation, before anything is written.
#[derive(Debug)]
pub struct Generated {
    pub api: ir::Api,
    pub files: Vec<emit::File>,
    /// Every header read, for `cargo:rerun-if-changed`.
    pub inputs: Vec<PathBuf>,
    /// Example: `generated/cuda-13.5`.
    pub default_out_dir: PathBuf,
}

/// The headers selected by `source`, and the CUDA release they belong to when known.
fn resolve_source(source: &Source) -> Result<(parse::Input, Option<String>), Error> {
    let toolkit = |include: PathBuf| parse::Input {
        header: include.join("cuda.h"),
        typedefs: Some(include.join("cudaTypedefs.h")),
        clang_args: Vec::new(),
    };
    Ok(match source {
        Source::Default => {
            let pin = pins::default_pin();
            (toolkit(fetch::include_dir(&pin)?), Some(pin.cuda))
        }
        Source::Pinned(v) => {
            let pin = pins::find(v)?;
            (toolkit(fetch::include_dir(&pin)?), Some(pin.cuda))
        }
        Source::Toolkit(root) => (toolkit(fetch::toolkit_include(root.as_deref())?), None),
        Source::Merged { from, to } => {
            return Err(Error::new(format!(
                "{from}..{to} names several releases; they are loaded one by one and merged"
            )))
        }
        Source::Files { header, typedefs } => (
            parse::Input {
                header: header.clone(),
                typedefs: typedefs.clone(),
                clang_args: Vec::new(),
            },
            None,
        ),
    })
}

fn regex(flag: &str, pattern: &Option<String>) -> Result<Option<regex::Regex>, Error> {
    pattern
        .as_deref()
        .map(|p| {
            regex::Regex::new(p).map_err(|e| {
                Error::new(format!("invalid {flag} regex `{p}`: {e}"))
                    .hint("the syntax is that of the `regex` crate, e.g. `^cu(Init|MemAlloc)`")
            })
        })
        .transpose()
}

/// The header's `CUDA_VERSION` macro, as bindgen rendered it
/// (`pub const CUDA_VERSION: u32 = 13050;`) → `13.5`.
fn header_cuda_version(rust_types: &str) -> Option<String> {
    rust_types.lines().find_map(|l| {
        let v = l.trim().strip_prefix("pub const CUDA_VERSION: u32 = ")?;
        v.trim_end_matches(';').parse().ok().map(ir::version_text)
    })
}

/// The pinned releases from `from` to `to`, oldest first.
fn release_range(from: &str, to: &str) -> Result<Vec<pins::Pin>, Error> {
    let (first, last) = (pins::find(from)?, pins::find(to)?);
    let all = pins::all();
    let start = all.iter().position(|p| *p == first).unwrap_or(0);
    let end = all.iter().position(|p| *p == last).unwrap_or(0);
    if start > end {
        return Err(Error::new(format!("the range {from}..{to} is empty"))
            .hint("write the older release first"));
    }
    Ok(all[start..=end].to_vec())
}

/// Parses the headers and builds the IR (what `cushim list` shows).
pub fn load(options: &Options) -> Result<(ir::Api, Vec<PathBuf>), Error> {
    if let Source::Merged { from, to } = &options.source {
        let mut releases = Vec::new();
        let mut inputs = Vec::new();
        for pin in release_range(from, to)? {
            let one = Options {
                source: Source::Pinned(pin.cuda.clone()),
                ..options.clone()
            };
            let (api, files) = load(&one)?;
            releases.push(api);
            inputs.extend(files);
        }
        return Ok((ir::merge::merge(&releases), inputs));
    }
    let filter = ir::build::Filter {
        allow: regex("--allow", &options.allow)?,
        block: regex("--block", &options.block)?,
    };
    let (mut input, pinned) = resolve_source(&options.source)?;
    input.clang_args = options.clang_args.clone();
    let raw = parse::parse(&input)?;
    let rust_types = parse::bindgen_types(&input)?;
    let cuda_version = pinned
        .or_else(|| header_cuda_version(&rust_types))
        .unwrap_or_else(|| "unknown".into());
    let api = ir::build(&raw, &library::DRIVER, &cuda_version, rust_types, &filter)?;
    Ok((api, raw.files))
}

/// Runs the whole pipeline short of writing.
pub fn generate(options: &Options) -> Result<Generated, Error> {
    let (api, inputs) = load(options)?;
    let merged = matches!(options.source, Source::Merged { .. });
    let mut headers = Vec::new();
    for p in &inputs {
        let release = if merged {
            p.parent()
                .and_then(|d| d.parent())
                .and_then(|d| d.file_name())
                .map(|d| format!("{} ", d.to_string_lossy()))
                .unwrap_or_default()
        } else {
            String::new()
        };
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        headers.push(format!("{release}{name} sha256:{}", fetch::file_sha256(p)?));
    }
    let provenance = emit::Provenance {
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        cuda_version: api.cuda_version.clone(),
        headers,
        command: options.command(&api.cuda_version),
    };
    let stem = inputs[0]
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "cuda".into());
    let header_name = inputs[0]
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "cuda.h".into());
    let mut files = Vec::new();
    for lang in &options.languages {
        match lang {
            Language::Rust => files.push(emit::rust::emit(
                &api,
                &provenance,
                &format!("{stem}.rs"),
                &emit::rust::RustOptions {
                    docs: options.docs,
                    resolve: options.resolve,
                    stream: options.stream,
                },
            )?),
            // A C++ pair must match one release's cuda.h, so merging is Rust only.
            Language::Cpp if merged => {}
            Language::Cpp => files.extend(emit::cpp::emit(
                &api,
                &provenance,
                &stem,
                &header_name,
                &emit::cpp::CppOptions {
                    prefix: options.cpp_prefix.clone(),
                    docs: options.docs,
                    resolve: options.resolve,
                    stream: options.stream,
                },
            )?),
        }
    }
    Ok(Generated {
        default_out_dir: if merged {
            PathBuf::from("generated").join("merged")
        } else {
            PathBuf::from("generated").join(format!("cuda-{}", api.cuda_version))
        },
        api,
        files,
        inputs,
    })
}
