//! The pipeline: headers → `parse` → `ir` → `emit`, for one header set or a
//! merged range of releases. Writing is the caller's (the CLI prints progress,
//! the Builder prints `cargo:` lines).

use std::path::PathBuf;

use crate::diag::Error;
use crate::emit;
use crate::fetch;
use crate::ir::{self, Api};
use crate::library::{Library, DRIVER};
use crate::options::{Language, Options, Source};
use crate::parse;
use crate::pins;
use crate::version::{CudaVersion, Release};

/// The result of a generation, before anything is written.
#[derive(Debug)]
pub struct Generated {
    /// The IR the files were rendered from.
    pub api: Api,
    /// The files, not yet written.
    pub files: Vec<emit::File>,
    /// Every header read, for `cargo:rerun-if-changed`.
    pub inputs: Vec<PathBuf>,
    /// Example: `generated/cuda-13.5`.
    pub default_out_dir: PathBuf,
}

/// One header read, and the pinned release it came from (in a merged module).
#[derive(Clone, Debug)]
struct InputFile {
    path: PathBuf,
    release: Option<CudaVersion>,
}

/// A header set parsed into the IR.
struct Loaded {
    api: Api,
    files: Vec<InputFile>,
    /// The headers of the newest release, which the Rust types come from.
    newest: parse::Input,
}

/// The headers `source` selects, and the pinned release they belong to.
fn header_set(
    source: &Source,
    library: &Library,
) -> Result<(parse::Input, Option<CudaVersion>), Error> {
    Ok(match source {
        Source::Default | Source::Pinned(_) => {
            let pin = match source {
                Source::Pinned(v) => pins::find(*v)?,
                _ => pins::default_pin(),
            };
            (
                parse::Input::in_dir(&fetch::include_dir(&pin)?, library),
                Some(pin.cuda),
            )
        }
        Source::Toolkit(root) => (
            parse::Input::in_dir(&fetch::toolkit_include(root.as_deref())?, library),
            None,
        ),
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

fn load_one(options: &Options, library: &Library) -> Result<Loaded, Error> {
    let filter = ir::build::Filter {
        allow: regex("--allow", &options.allow)?,
        block: regex("--block", &options.block)?,
    };
    let (mut input, pinned) = header_set(&options.source, library)?;
    input.clang_args = options.clang_args.clone();
    let raw = parse::parse(&input, &library.parse)?;
    let release = match pinned.or(raw.version) {
        Some(v) => Release::One(v),
        None => Release::Unknown,
    };
    let api = ir::build(&raw, library, release, &filter)?;
    let files = raw
        .files
        .into_iter()
        .map(|path| InputFile {
            path,
            release: pinned,
        })
        .collect();
    Ok(Loaded {
        api,
        files,
        newest: input,
    })
}

fn load_all(options: &Options, library: &Library) -> Result<Loaded, Error> {
    let Source::Merged { from, to } = options.source else {
        return load_one(options, library);
    };
    let mut releases = Vec::new();
    let mut files = Vec::new();
    let mut newest = None;
    for pin in pins::range(from, to)? {
        let one = Options {
            source: Source::Pinned(pin.cuda),
            ..options.clone()
        };
        let loaded = load_one(&one, library)?;
        releases.push(loaded.api);
        files.extend(loaded.files);
        newest = Some(loaded.newest);
    }
    let newest = newest.ok_or_else(|| Error::new(format!("no pinned release in {from}..{to}")))?;
    Ok(Loaded {
        api: ir::merge::merge(&releases),
        files,
        newest,
    })
}

/// Parses the headers and builds the IR (what `cushim list` shows); also
/// returns every header read.
pub fn load(options: &Options) -> Result<(Api, Vec<PathBuf>), Error> {
    let loaded = load_all(options, &DRIVER)?;
    Ok((
        loaded.api,
        loaded.files.into_iter().map(|f| f.path).collect(),
    ))
}

/// Runs the whole pipeline short of writing.
pub fn generate(options: &Options) -> Result<Generated, Error> {
    if matches!(options.source, Source::Merged { .. })
        && !options.languages.contains(&Language::Rust)
    {
        return Err(Error::new(
            "a merged module is Rust only: a C++ pair must match one release's cuda.h",
        )
        .hint("ask for Rust (`--lang rust`), and for each release's C++ pair with `--cuda <version>` or `--all`"));
    }
    let Loaded { api, files, newest } = load_all(options, &DRIVER)?;
    let merged = matches!(api.release, Release::Range(..));
    let mut headers = Vec::new();
    for f in &files {
        let release = match (merged, f.release) {
            (true, Some(v)) => format!("{} ", v.dir_name()),
            _ => String::new(),
        };
        let name = f
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        headers.push(format!(
            "{release}{name} sha256:{}",
            fetch::file_sha256(&f.path)?
        ));
    }
    let pinned = match api.release {
        Release::One(v) => Some(v),
        _ => None,
    };
    let provenance = emit::Provenance {
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        release: api.release,
        headers,
        command: options.command(pinned),
    };
    let main_header = &newest.header;
    let stem = main_header
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "cuda".into());
    let header_name = main_header
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "cuda.h".into());
    let mut out = Vec::new();
    for lang in &options.languages {
        match lang {
            Language::Rust => {
                // Only the Rust output needs bindgen's types.
                let rust_types = parse::bindgen_types(&newest)?;
                out.push(emit::rust::emit(
                    &api,
                    &rust_types,
                    &provenance,
                    &format!("{stem}.rs"),
                    &emit::rust::RustOptions {
                        docs: options.docs,
                        resolve: options.resolve,
                        stream: options.stream,
                    },
                )?);
            }
            // A C++ pair must match one release's cuda.h, so merging is Rust only.
            Language::Cpp if merged => {}
            Language::Cpp => out.extend(emit::cpp::emit(
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
        default_out_dir: match api.release {
            Release::Range(..) => PathBuf::from("generated").join("merged"),
            Release::One(v) => PathBuf::from("generated").join(v.dir_name()),
            Release::Unknown => PathBuf::from("generated").join("cuda-unknown"),
        },
        api,
        files: out,
        inputs: files.into_iter().map(|f| f.path).collect(),
    })
}
