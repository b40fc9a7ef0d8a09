//! The pipeline: headers → `parse` → `ir` → `emit`, for one header set or a
//! merged range of releases; or, without the `emit` feature, the output that
//! cushim ships rendered for the pinned releases. Writing is the caller's
//! (the CLI prints progress, the Builder prints `cargo:` lines).

#[cfg(feature = "emit")]
mod from_ir;
#[cfg(not(feature = "emit"))]
mod from_rendered;

use std::path::PathBuf;

use crate::diag::Error;
use crate::emit;
use crate::ir::Api;
use crate::options::{Language, Link, Options, Resolve, Source};
use crate::version::Release;

/// The result of a generation, before anything is written.
#[derive(Debug)]
pub struct Generated {
    /// The IR the files were rendered from; `None` for output that cushim
    /// ships rendered (without the `emit` feature).
    pub api: Option<Api>,
    /// The files, not yet written.
    pub files: Vec<emit::File>,
    /// Every header read, for `cargo:rerun-if-changed`.
    pub inputs: Vec<PathBuf>,
    /// Example: `generated/cuda-13.5`.
    pub default_out_dir: PathBuf,
}

/// Where the CLI writes a release's files by default. Example: `generated/cuda-13.5`.
fn default_out_dir(release: Release) -> PathBuf {
    match release {
        Release::Range(..) => PathBuf::from("generated").join("merged"),
        Release::One(v) => PathBuf::from("generated").join(v.dir_name()),
        Release::Unknown => PathBuf::from("generated").join("cuda-unknown"),
    }
}

/// Runs the whole pipeline short of writing.
pub fn generate(options: &Options) -> Result<Generated, Error> {
    options.check_recordable()?;
    check_resolve(options)?;
    if matches!(options.source, Source::Merged { .. })
        && !options.languages.contains(&Language::Rust)
    {
        return Err(Error::new(
            "a merged module is Rust only: a C++ pair must match one release's cuda.h",
        )
        .hint("ask for Rust (`--lang rust`), and for each release's C++ pair with `--cuda <version>` or `--all`"));
    }
    #[cfg(feature = "emit")]
    return from_ir::generate(options);
    #[cfg(not(feature = "emit"))]
    return from_rendered::generate(options);
}

/// Refuses a resolution mode that the library or the link mode cannot have:
/// the CUDA runtime hands out the driver's functions only, and a linked
/// module's shims resolve nothing.
fn check_resolve(options: &Options) -> Result<(), Error> {
    if options.resolve != Resolve::RuntimeEntryPoint {
        return Ok(());
    }
    let driver = crate::library::DRIVER.name;
    if options.library != driver {
        let label = crate::library::LIBRARIES
            .iter()
            .find(|l| l.name == options.library)
            .map_or(options.library.as_str(), |l| l.words.label);
        return Err(Error::new(format!(
            "`--resolve runtime-entry-point` is for the driver only: the CUDA runtime's entry point hands out driver functions, not {label}'s"
        ))
        .hint(format!(
            "generate the driver's module with it (`--lib {driver}`), and {label}'s with `--resolve proc-address`"
        )));
    }
    if options.link == Link::Linked {
        return Err(Error::new(
            "`--resolve runtime-entry-point` says how lazy shims find the driver's functions, and `--link linked` has no lazy shims: its program links libcuda",
        )
        .hint("leave the link mode lazy (the default), or let a cargo feature choose (`--link feature=NAME`)"));
    }
    Ok(())
}

/// Parses the headers and builds the IR (what `cushim list` shows); also
/// returns every header read.
///
/// # Errors
/// Without the `emit` feature, always: the IR is not shipped then.
pub fn load(options: &Options) -> Result<(Api, Vec<PathBuf>), Error> {
    #[cfg(feature = "emit")]
    return from_ir::load(options);
    #[cfg(not(feature = "emit"))]
    {
        let _ = options;
        Err(Error::new("loading the IR needs cushim's `emit` feature")
            .hint("turn on cushim's `emit` feature in [build-dependencies]"))
    }
}

/// A library's data for the crate to ship: one weave per file of every
/// pinned release of it (`<stem>.ir.json.weave`, `<stem>.types.rs.weave` and
/// the rendered files'). The releases in `fresh` are parsed from their fetched
/// headers, the others come from the data already shipped.
#[cfg(feature = "cli")]
pub fn ship(
    library: &crate::library::Library,
    fresh: &[crate::version::CudaVersion],
) -> Result<Vec<emit::File>, Error> {
    from_ir::ship(library, fresh)
}
