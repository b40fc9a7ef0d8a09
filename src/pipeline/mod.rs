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

/// What a generation that reads a pinned release's headers (for `docs` or
/// `clang_arg`) needs, said once: the feature and all the machine needs.
const FETCH_NEEDS: &str = "cushim's `fetch` feature in [build-dependencies]; the build then needs libclang (`apt-get install -y libclang-dev`, or LIBCLANG_PATH), Python 3 with pip, and the network once (the headers are cached after)";

/// What a generation from headers on disk needs, said once.
const PARSE_NEEDS: &str = "cushim's `parse` feature in [build-dependencies]; the build then needs libclang (`apt-get install -y libclang-dev`, or LIBCLANG_PATH)";

/// What this build of cushim cannot serve in `options` because it reads
/// headers, as one error that names the feature and everything the machine
/// then needs, so that one build, not three, says it. `None` when it can.
fn beyond_this_build(options: &Options) -> Option<Error> {
    let on_disk = matches!(options.source, Source::Toolkit(_) | Source::Files { .. });
    if on_disk && !cfg!(feature = "parse") {
        return Some(
            Error::new("reading headers on disk (`cuda_path`, `header`) needs libclang, which this build of cushim leaves out")
                .hint(format!("turn on {PARSE_NEEDS}; a pinned release (`cuda_version`) needs neither")),
        );
    }
    let reads_headers = options.docs || !options.clang_args.is_empty();
    if !on_disk && reads_headers && !cfg!(feature = "fetch") {
        return Some(
            Error::new("`docs` and `clang_arg` read a pinned release's headers, which this build of cushim cannot fetch")
                .hint(format!(
                    "turn on {FETCH_NEEDS}; or leave out `docs` and `clang_arg`: every pinned release's output ships with cushim and needs none of this"
                )),
        );
    }
    None
}

/// Runs the whole pipeline short of writing.
pub fn generate(options: &Options) -> Result<Generated, Error> {
    options.check_recordable()?;
    check_resolve(options)?;
    if let Some(e) = beyond_this_build(options) {
        return Err(e);
    }
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
    if options.library.name != driver {
        let label = options.library.words.label;
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
    if let Some(e) = beyond_this_build(options) {
        return Err(e);
    }
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
    library: &'static crate::library::Library,
    fresh: &[crate::version::CudaVersion],
) -> Result<Vec<emit::File>, Error> {
    from_ir::ship(library, fresh)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A build that lacks what `options` ask for says, in its first error,
    /// the feature to turn on and everything the machine then needs; a
    /// build that has the feature serves it (`beyond_this_build` is `None`).
    #[test]
    fn the_first_error_names_everything_that_reading_headers_needs() {
        let docs = Options {
            source: Source::Pinned("13.5".parse().unwrap()),
            docs: true,
            library: &crate::library::NVRTC,
            ..Options::default()
        };
        let toolkit = Options {
            source: Source::Toolkit(Some(PathBuf::from("/opt/cuda"))),
            ..Options::default()
        };
        let text = |o: &Options| beyond_this_build(o).map(|e| e.to_string());
        if cfg!(feature = "fetch") {
            assert_eq!(text(&docs), None);
        } else {
            let e = text(&docs).expect("docs need the fetch feature");
            for needed in [
                "`fetch` feature",
                "libclang",
                "Python 3 with pip",
                "the network once",
            ] {
                assert!(e.contains(needed), "{needed}: {e}");
            }
            // Not through the emitters first: the one error says it all.
            assert!(!e.contains("`emit`"), "{e}");
            let e = generate(&docs).unwrap_err().to_string();
            assert!(e.contains("`fetch` feature"), "{e}");
        }
        if cfg!(feature = "parse") {
            assert_eq!(text(&toolkit), None);
        } else {
            let e = text(&toolkit).expect("a toolkit needs the parse feature");
            for needed in ["`parse` feature", "libclang"] {
                assert!(e.contains(needed), "{needed}: {e}");
            }
            let e = generate(&toolkit).unwrap_err().to_string();
            assert!(e.contains("`parse` feature"), "{e}");
        }
        // What the shipped data serves needs nothing.
        let plain = Options {
            source: Source::Pinned("13.5".parse().unwrap()),
            library: &crate::library::NVRTC,
            ..Options::default()
        };
        assert_eq!(text(&plain), None);
    }
}
