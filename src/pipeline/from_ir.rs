//! Generation from the IR: headers (or the IR shipped for a pinned release)
//! → `ir` → `emit`, for one header set or a merged range of releases.

use std::path::PathBuf;

use super::Generated;
use crate::diag::Error;
use crate::emit;
use crate::ir::{self, Api};
use crate::library::{Library, DRIVER};
use crate::options::{Language, Options, Source};
#[cfg(feature = "parse")]
use crate::parse;
use crate::pinned;
use crate::pins;
use crate::version::{CudaVersion, Release};

/// One header a release was read from: a provenance line.
#[derive(Clone, Debug)]
struct Header {
    /// The pinned release, named in a merged module's lines.
    release: Option<CudaVersion>,
    /// Example: `cuda.h`.
    name: String,
    sha256: String,
}

/// Where the Rust types come from: the shipped data, or bindgen on the headers.
enum RustTypes {
    Shipped(String),
    /// The headers, and the target triple their functions were read for.
    #[cfg(feature = "parse")]
    Headers(parse::Input, String),
}

impl RustTypes {
    /// The types that `api`'s module exports, but its enums, which the
    /// emitter renders: from the headers, `api.enums` keeps only those the
    /// module reaches (shipped data holds no others).
    #[cfg_attr(not(feature = "parse"), allow(unused_variables))]
    fn text(&self, api: &mut Api) -> Result<String, Error> {
        match self {
            RustTypes::Shipped(text) => Ok(text.clone()),
            #[cfg(feature = "parse")]
            RustTypes::Headers(input, triple) => {
                let names: Vec<String> = api.enums.iter().map(|e| e.name.clone()).collect();
                let types = parse::bindgen_types(input, &names, triple)?;
                api.enums.retain(|e| types.enums.contains(&e.name));
                Ok(types.text)
            }
        }
    }
}

/// A header set (or shipped release) loaded into the IR.
struct Loaded {
    api: Api,
    headers: Vec<Header>,
    /// Every file read, for `cargo:rerun-if-changed`; none for shipped data.
    inputs: Vec<PathBuf>,
    /// The newest release's types, in a merged module.
    types: RustTypes,
    /// The header that declares the functions. Example: `cuda.h`.
    header_name: String,
}

fn regex(flag: &str, pattern: &Option<String>) -> Result<Option<regex_lite::Regex>, Error> {
    pattern
        .as_deref()
        .map(|p| {
            regex_lite::Regex::new(p).map_err(|e| {
                Error::new(format!("invalid {flag} regex `{p}`: {e}"))
                    .hint("the syntax is that of the `regex` crate without Unicode classes, e.g. `^cu(Init|MemAlloc)`")
            })
        })
        .transpose()
}

/// Options that only the headers can serve: their docs, or clang arguments.
fn needs_headers(options: &Options) -> bool {
    options.docs || !options.clang_args.is_empty()
}

/// A pinned release from its shipped data.
fn from_shipped(shipped: pinned::Loaded, cuda: CudaVersion, library: &Library) -> Loaded {
    Loaded {
        api: shipped.api,
        headers: shipped
            .headers
            .into_iter()
            .map(|(name, sha256)| Header {
                release: Some(cuda),
                name,
                sha256,
            })
            .collect(),
        inputs: Vec::new(),
        types: RustTypes::Shipped(shipped.rust_types),
        header_name: library.main_header().name.to_string(),
    }
}

fn load_one(options: &Options, library: &Library) -> Result<Loaded, Error> {
    let filter = ir::build::Filter {
        allow: regex("--allow", &options.allow)?,
        block: regex("--block", &options.block)?,
    };
    let pinned = match options.source {
        Source::Default => Some(pins::default_pin().cuda),
        Source::Pinned(v) => Some(pins::find_for(library, v)?.cuda),
        _ => None,
    };
    if let Some(cuda) = pinned.filter(|_| !needs_headers(options)) {
        if let Some(shipped) = pinned::load(cuda, library, &filter) {
            return Ok(from_shipped(shipped?, cuda, library));
        }
    }
    from_headers(options, library, &filter, pinned)
}

#[cfg(feature = "parse")]
fn from_headers(
    options: &Options,
    library: &Library,
    filter: &ir::build::Filter,
    pinned: Option<CudaVersion>,
) -> Result<Loaded, Error> {
    let mut toolkit_release = None;
    let mut input = match &options.source {
        Source::Default => headers::pinned(pins::default_pin().cuda, library)?,
        Source::Pinned(cuda) => headers::pinned(*cuda, library)?,
        Source::Toolkit(root) => {
            let include = parse::toolkit_include(root.as_deref())?;
            toolkit_release = parse::toolkit_release(&include);
            parse::Input::in_dir(&include, library)
        }
        Source::Merged { from, to } => {
            return Err(Error::new(format!(
                "{from}..{to} names several releases; they are loaded one by one and merged"
            )))
        }
        Source::Files { header, typedefs } => parse::Input::files(header.clone(), typedefs.clone()),
    };
    // The library's own defines (NVTX's `NVTX_NO_IMPL`), then the user's.
    input.clang_args = library
        .parse
        .defines
        .iter()
        .map(|d| format!("-D{d}"))
        .chain(options.clang_args.iter().cloned())
        .collect();
    parse::settle(&mut input)?;
    let raw = parse::parse(&input, &library.parse)?;
    let release = match pinned.or(raw.version).or(toolkit_release) {
        Some(v) => Release::One(v),
        None => Release::Unknown,
    };
    let api = ir::build(&raw, library, release, filter)?;
    let mut headers = Vec::new();
    for path in &raw.files {
        headers.push(Header {
            release: pinned,
            name: path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            sha256: parse::file_sha256(path)?,
        });
    }
    Ok(Loaded {
        api,
        headers,
        inputs: raw.files,
        header_name: input.main().file_name().map_or_else(
            || library.main_header().name.into(),
            |s| s.to_string_lossy().into_owned(),
        ),
        types: RustTypes::Headers(input, raw.triple),
    })
}

/// Without the `parse` feature, only the shipped data is there.
#[cfg(not(feature = "parse"))]
fn from_headers(
    options: &Options,
    library: &Library,
    _: &ir::build::Filter,
    pinned: Option<CudaVersion>,
) -> Result<Loaded, Error> {
    let why = match pinned {
        Some(v) if needs_headers(options) => format!(
            "docs and clang arguments need CUDA {v}'s headers, which this build of cushim cannot fetch"
        ),
        Some(v) => format!(
            "this build of cushim ships no data for {} of CUDA {v}",
            library.words.label
        ),
        None => "reading headers needs libclang, which this build of cushim leaves out".into(),
    };
    let needs = if pinned.is_some() {
        super::FETCH_NEEDS
    } else {
        super::PARSE_NEEDS
    };
    Err(Error::new(why).hint(format!("turn on {needs}")))
}

/// Where a pinned release's headers are: fetched, with the `fetch` feature.
#[cfg(feature = "parse")]
mod headers {
    use super::{parse, CudaVersion, Error, Library};

    #[cfg(feature = "fetch")]
    pub(super) fn pinned(cuda: CudaVersion, library: &Library) -> Result<parse::Input, Error> {
        let pin = crate::pins::find_for(library, cuda)?;
        if !crate::fetch::is_cached(library, &pin) {
            lacks_nothing_a_fetch_needs(cuda, library)?;
        }
        let include = crate::fetch::library_include_dir(library, &pin)?;
        let mut input = parse::Input::in_dir(&include, library);
        input.own = crate::fetch::own_files(library, &pin)?
            .into_iter()
            .map(|h| include.join(h))
            .collect();
        Ok(input)
    }

    /// Before a fetch starts (pip, the network): everything it and the parse
    /// after it need that this machine lacks, in one error, so that a build
    /// does not learn of pip, then of libclang, one failure at a time.
    #[cfg(feature = "fetch")]
    fn lacks_nothing_a_fetch_needs(cuda: CudaVersion, library: &Library) -> Result<(), Error> {
        let mut lacking = Vec::new();
        if let Err(e) = parse::libclang_available() {
            lacking.push(format!("libclang ({e})"));
        }
        if let Some(e) = crate::fetch::pip_unavailable() {
            lacking.push(format!("Python 3 with pip ({e})"));
        }
        if lacking.is_empty() {
            return Ok(());
        }
        Err(Error::new(format!(
            "{}'s CUDA {cuda} headers are not in the header cache: fetching them needs Python 3 with pip and the network once, and reading them needs libclang; this machine lacks {}",
            library.words.label,
            lacking.join(", and ")
        ))
        .hint(format!(
            "install what it lacks (`apt-get install -y libclang-dev python3-pip`, or set LIBCLANG_PATH), and let this build reach the package index once; or leave out `docs` and `clang_arg`: CUDA {cuda}'s output ships with cushim and needs none of this"
        )))
    }

    #[cfg(not(feature = "fetch"))]
    pub(super) fn pinned(cuda: CudaVersion, _: &Library) -> Result<parse::Input, Error> {
        Err(Error::new(format!(
            "docs and clang arguments need the headers of CUDA {cuda}, which this build of cushim cannot fetch"
        ))
        .hint(format!("turn on {}", super::super::FETCH_NEEDS)))
    }
}

fn load_all(options: &Options, library: &Library) -> Result<Loaded, Error> {
    let Source::Merged { from, to } = options.source else {
        return load_one(options, library);
    };
    if library.name != DRIVER.name {
        return Err(Error::new(format!(
            "merging releases is for the driver only so far, not {}",
            library.name
        ))
        .hint("name one release, e.g. `--cuda 13.5`"));
    }
    let mut releases = Vec::new();
    let mut headers = Vec::new();
    let mut inputs = Vec::new();
    let mut newest = None;
    for pin in pins::range(from, to)? {
        let one = Options {
            source: Source::Pinned(pin.cuda),
            ..options.clone()
        };
        let loaded = load_one(&one, library)?;
        releases.push(loaded.api);
        headers.extend(loaded.headers);
        inputs.extend(loaded.inputs);
        newest = Some((loaded.types, loaded.header_name));
    }
    let (types, header_name) =
        newest.ok_or_else(|| Error::new(format!("no pinned release in {from}..{to}")))?;
    Ok(Loaded {
        api: ir::merge::merge(&releases),
        headers,
        inputs,
        types,
        header_name,
    })
}

/// A library's data for the crate to ship (`src/pinned`): one weave per
/// file of every pinned release of `library`. The IR and types of the
/// releases in `fresh` come from their fetched headers, the others' from the
/// data already shipped; then every release is rendered from that IR with
/// default options.
#[cfg(feature = "cli")]
pub(super) fn ship(
    library: &'static Library,
    fresh: &[CudaVersion],
) -> Result<Vec<emit::File>, Error> {
    let (ir_name, types_name) = pinned::file_names(library);
    // Each file's text per release, in the order the files first appear.
    let mut woven: Vec<(String, Vec<(String, String)>)> = Vec::new();
    let mut add = |name: &str, release: &str, text: String| {
        let at = match woven.iter().position(|(n, _)| n == name) {
            Some(at) => at,
            None => {
                woven.push((name.to_string(), Vec::new()));
                woven.len() - 1
            }
        };
        woven[at].1.push((release.to_string(), text));
    };
    let runtime = [
        crate::runtime::cpp::HEADER_NAME,
        crate::runtime::cpp::SOURCE_NAME,
    ];
    for pin in pins::all_for(library) {
        let cuda = pin.cuda;
        let (ir, types) = if fresh.contains(&cuda) {
            parsed(cuda, library)?
        } else {
            pinned::texts(cuda, library).ok_or_else(|| {
                Error::new(format!(
                    "cushim ships no data of {} for CUDA {cuda} yet",
                    library.words.label
                ))
                .hint(format!(
                    "parse it from its headers: `cushim pinned --lib {} {cuda}`",
                    library.name
                ))
            })??
        };
        let shipped = pinned::decode(&ir, types.clone(), library, &ir::build::Filter::default())?;
        let release = cuda.to_string();
        let options = Options {
            source: Source::Pinned(cuda),
            library,
            ..Options::default()
        };
        let generated = render(&options, from_shipped(shipped, cuda, library))?;
        add(&ir_name, &release, ir);
        add(&types_name, &release, types);
        for file in generated.files {
            if !runtime.contains(&file.name.as_str()) {
                add(&file.name, &release, file.contents);
            }
        }
    }
    woven
        .into_iter()
        .map(|(name, texts)| {
            Ok(emit::File {
                name: format!("{name}.weave"),
                contents: crate::weave::weave(&texts)?,
            })
        })
        .collect()
}

/// One release's IR and Rust types, parsed from its fetched headers.
#[cfg(feature = "cli")]
fn parsed(cuda: CudaVersion, library: &'static Library) -> Result<(String, String), Error> {
    let options = Options {
        source: Source::Pinned(cuda),
        library,
        ..Options::default()
    };
    let mut loaded = from_headers(&options, library, &ir::build::Filter::default(), Some(cuda))?;
    // The types first: they decide which enums the module renders.
    let types = loaded.types.text(&mut loaded.api)?;
    let headers = loaded
        .headers
        .into_iter()
        .map(|h| (h.name, h.sha256))
        .collect();
    Ok((pinned::encode(&loaded.api, headers)?, types))
}

/// Parses the headers and builds the IR (what `cushim list` shows); also
/// returns every header read.
pub(super) fn load(options: &Options) -> Result<(Api, Vec<PathBuf>), Error> {
    let loaded = load_all(options, options.library)?;
    Ok((loaded.api, loaded.inputs))
}

/// Runs the whole pipeline short of writing.
pub(super) fn generate(options: &Options) -> Result<Generated, Error> {
    render(options, load_all(options, options.library)?)
}

/// Renders what `options` asks of a loaded header set.
fn render(options: &Options, loaded: Loaded) -> Result<Generated, Error> {
    let Loaded {
        mut api,
        headers,
        inputs,
        types,
        header_name,
    } = loaded;
    let merged = matches!(api.release, Release::Range(..));
    let headers = headers
        .iter()
        .map(|h| {
            let release = match (merged, h.release) {
                (true, Some(v)) => format!("{} ", v.dir_name()),
                _ => String::new(),
            };
            format!("{release}{} sha256:{}", h.name, h.sha256)
        })
        .collect();
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
    // A library's own headers give files named for the library (`nvjitlink.rs`,
    // `cublas_shim.cpp`); a header of the user's, files named for it.
    let stem = if header_name == api.library.main_header().name {
        api.library.stem.to_string()
    } else {
        header_name
            .strip_suffix(".h")
            .unwrap_or(&header_name)
            .to_string()
    };
    let mut out = Vec::new();
    for lang in &options.languages {
        match lang {
            Language::Rust => {
                // Only the Rust output needs bindgen's types.
                let rust_types = types.text(&mut api)?;
                out.push(emit::rust::emit(
                    &api,
                    &rust_types,
                    &provenance,
                    &format!("{stem}.rs"),
                    options,
                )?);
            }
            // A C++ pair must match one release's cuda.h, so merging is Rust only.
            Language::Cpp if merged => {}
            Language::Cpp => {
                // The stubs include the header: it must be C++ too. (The
                // pinned releases' headers are, as the committed pairs show.)
                #[cfg(feature = "parse")]
                if let RustTypes::Headers(input, _) = &types {
                    parse::check_cpp(input)?;
                }
                out.extend(emit::cpp::emit(
                    &api,
                    &provenance,
                    &stem,
                    &header_name,
                    options,
                )?);
            }
        }
    }
    Ok(Generated {
        default_out_dir: super::default_out_dir(api.release),
        api: Some(api),
        files: out,
        inputs,
    })
}
