//! `cushim::Builder`: the `build.rs` front-end. Every method sets one field of
//! [`Options`]; `generate` runs the same pipeline as the CLI.

use std::path::{Path, PathBuf};

use crate::diag::Error;
use crate::options::{EnumStyle, Language, Options, Source};
use crate::version::CudaVersion;
use crate::write::{self, Outcome};

/// Every environment variable a generation may read: the header cache
/// (`fetch`), the toolkit search, libclang's location and bindgen's extra
/// arguments. `Builder::generate` tells cargo to rerun when any changes.
pub const BUILDER_ENV: &[&str] = &[
    "CUSHIM_CACHE_DIR",
    "XDG_CACHE_HOME",
    "HOME",
    "CUDA_PATH",
    "CUDA_HOME",
    "LIBCLANG_PATH",
    "LLVM_CONFIG_PATH",
    "BINDGEN_EXTRA_CLANG_ARGS",
];

/// Generates the lazy-loading module from a downstream `build.rs`:
///
/// ```no_run
/// // build.rs
/// if let Err(e) = cushim::Builder::new().cuda_version("13.5").generate() {
///     eprintln!("{e}");
///     std::process::exit(1);
/// }
/// ```
#[derive(Clone, Debug, Default)]
pub struct Builder {
    options: Options,
    /// A version or a library name that did not parse; reported by `generate`.
    invalid: Option<Error>,
}

impl Builder {
    /// A Builder for the newest pinned release, Rust and C++ output, into `OUT_DIR`.
    #[must_use]
    pub fn new() -> Self {
        Builder::default()
    }

    /// The Builder for these options.
    pub fn from_options(options: Options) -> Self {
        Builder {
            options,
            invalid: None,
        }
    }

    fn version(&mut self, text: &str) -> CudaVersion {
        text.parse()
            .unwrap_or_else(|e: crate::version::InvalidVersion| {
                self.invalid = Some(Error::new(e.to_string()));
                CudaVersion::from_number(0)
            })
    }

    /// A pinned CUDA release (`"13.5"`). Every library's modules come from
    /// the data cushim ships, with no network, no libclang and no feature;
    /// only `docs` and `clang_arg` read the release's headers (the `fetch`
    /// feature fetches them once into the cache).
    pub fn cuda_version(mut self, version: impl AsRef<str>) -> Self {
        self.options.source = Source::Pinned(self.version(version.as_ref()));
        self
    }

    /// Every pinned release from `from` to `to` (`"11.8"`, `"13.5"`), merged into
    /// one module that serves every driver from `from` on (the driver only).
    /// Every pinned release is shipped merged; another range needs the
    /// `emit` feature.
    pub fn cuda_range(mut self, from: impl AsRef<str>, to: impl AsRef<str>) -> Self {
        let (from, to) = (self.version(from.as_ref()), self.version(to.as_ref()));
        self.options.source = Source::Merged { from, to };
        self
    }

    /// A local toolkit root; `None` searches `CUDA_PATH`, `CUDA_HOME`, `/usr/local/cuda`.
    pub fn cuda_path(mut self, root: Option<PathBuf>) -> Self {
        self.options.source = Source::Toolkit(root);
        self
    }

    /// Explicit headers: the one with the functions, and the PFN typedef table.
    pub fn header(mut self, header: impl Into<PathBuf>, typedefs: Option<PathBuf>) -> Self {
        self.options.source = Source::Files {
            header: header.into(),
            typedefs,
        };
        self
    }

    /// Where the files go (default: `OUT_DIR`).
    #[must_use]
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.options.out_dir = Some(dir.into());
        self
    }

    /// Which outputs to write (default: Rust and C++).
    #[must_use]
    pub fn languages(mut self, languages: &[Language]) -> Self {
        self.options.languages = languages.to_vec();
        self
    }

    /// Keep only functions whose C name matches this regex.
    pub fn allowlist(mut self, regex: impl Into<String>) -> Self {
        self.options.allow = Some(regex.into());
        self
    }

    /// Drop functions whose C name matches this regex.
    pub fn blocklist(mut self, regex: impl Into<String>) -> Self {
        self.options.block = Some(regex.into());
        self
    }

    /// One more argument for clang when it parses the headers. Example: `-I/opt/include`.
    #[must_use]
    pub fn clang_arg(mut self, arg: impl Into<String>) -> Self {
        self.options.clang_args.push(arg.into());
        self
    }

    /// C++ only: export `<prefix><symbol>` instead of the drop-in names.
    pub fn cpp_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.options.cpp_prefix = Some(prefix.into());
        self
    }

    /// How shims find functions: `cuGetProcAddress` (default), exact exports,
    /// or (the driver only) through the CUDA runtime's entry point, never
    /// opening the driver library itself (`Resolve::RuntimeEntryPoint`).
    pub fn resolve(mut self, resolve: crate::options::Resolve) -> Self {
        self.options.resolve = resolve;
        self
    }

    /// How the shims reach the library: lazily (the default), linked
    /// (`-lcuda`), or chosen by a cargo feature of the including crate
    /// (`Link::Feature("linked".into())`).
    pub fn link(mut self, link: crate::options::Link) -> Self {
        self.options.link = link;
        self
    }

    /// The library, by the name `--lib` takes: `driver` (the default),
    /// `nvrtc`, `cublas`, ..., the `name` of any entry of
    /// [`crate::library::LIBRARIES`] (`cushim generate --help` lists them).
    /// Its module is `<stem>.rs`, the library's
    /// [`stem`](crate::library::Library::stem) (`cuda.rs`, `nvrtc.rs`,
    /// `nvjitlink.rs`, `cublasLt.rs`), and its C++ pair `<stem>_shim.{h,cpp}`,
    /// beside the C++ runtime (`cushim_runtime.{h,cpp}`). Every pinned
    /// release of every library comes from the data cushim ships, with no
    /// feature, network or libclang.
    /// A [`Library`](crate::library::Library) value may stand for its name.
    pub fn library(mut self, library: impl LibraryChoice) -> Self {
        match library.library() {
            Ok(library) => self.options.library = library,
            Err(e) => self.invalid = Some(e),
        }
        self
    }

    /// The default-stream mode shims bind unless the program chooses at run time.
    pub fn stream(mut self, stream: crate::options::StreamMode) -> Self {
        self.options.stream = stream;
        self
    }

    /// Rust: the style of every enum that no rule below names, by bindgen's
    /// name (default: `EnumStyle::NewType`). `EnumStyle::Rust` makes Rust
    /// `enum`s, as bindgen's `rustified_enum(".*")` does; a value the header
    /// does not list (a newer driver's) is then undefined behaviour.
    #[must_use]
    pub fn default_enum_style(mut self, style: EnumStyle) -> Self {
        self.options.enums.default_style = style;
        self
    }

    /// Rust: every enum whose whole name matches this regex is a newtype with
    /// the bit operators (bindgen's `bitfield_enum`).
    pub fn bitfield_enum(mut self, regex: impl Into<String>) -> Self {
        self.options
            .enums
            .add_rule(EnumStyle::Bitfield, regex.into());
        self
    }

    /// Rust: every enum whose whole name matches this regex is a newtype
    /// (bindgen's `newtype_enum`).
    pub fn newtype_enum(mut self, regex: impl Into<String>) -> Self {
        self.options
            .enums
            .add_rule(EnumStyle::NewType, regex.into());
        self
    }

    /// Rust: every enum whose whole name matches this regex is a newtype with
    /// global constants (bindgen's `newtype_global_enum`).
    pub fn newtype_global_enum(mut self, regex: impl Into<String>) -> Self {
        self.options
            .enums
            .add_rule(EnumStyle::NewTypeGlobal, regex.into());
        self
    }

    /// Rust: every enum whose whole name matches this regex is a Rust `enum`
    /// (bindgen's `rustified_enum`). A value the header does not list is
    /// undefined behaviour.
    pub fn rustified_enum(mut self, regex: impl Into<String>) -> Self {
        self.options.enums.add_rule(EnumStyle::Rust, regex.into());
        self
    }

    /// Rust: every enum whose whole name matches this regex is a
    /// `#[non_exhaustive]` Rust `enum` (bindgen's
    /// `rustified_non_exhaustive_enum`), with the same undefined behaviour.
    pub fn rustified_non_exhaustive_enum(mut self, regex: impl Into<String>) -> Self {
        self.options
            .enums
            .add_rule(EnumStyle::RustNonExhaustive, regex.into());
        self
    }

    /// Rust: every enum whose whole name matches this regex is a type alias
    /// and constants (bindgen's `constified_enum`).
    pub fn constified_enum(mut self, regex: impl Into<String>) -> Self {
        self.options.enums.add_rule(EnumStyle::Consts, regex.into());
        self
    }

    /// Rust: whether global enum constants carry the enum's name first
    /// (`cudaError_enum_CUDA_SUCCESS`; default `true`, as in bindgen).
    #[must_use]
    pub fn prepend_enum_name(mut self, on: bool) -> Self {
        self.options.enums.prepend_name = on;
        self
    }

    /// Derive `PartialEq` on the types where it can be derived (bindgen's
    /// `derive_partialeq`).
    pub fn derive_partialeq(mut self, on: bool) -> Self {
        self.options.derives.partialeq = on;
        self
    }

    /// Derive `Eq` (and `PartialEq`) where it can be derived (bindgen's `derive_eq`).
    pub fn derive_eq(mut self, on: bool) -> Self {
        self.options.derives.eq = on;
        self
    }

    /// Derive `Hash` where it can be derived (bindgen's `derive_hash`); enums always do.
    pub fn derive_hash(mut self, on: bool) -> Self {
        self.options.derives.hash = on;
        self
    }

    /// Derive `PartialOrd` where it can be derived (bindgen's `derive_partialord`).
    pub fn derive_partialord(mut self, on: bool) -> Self {
        self.options.derives.partialord = on;
        self
    }

    /// Derive `Ord` (and `PartialOrd`) where it can be derived (bindgen's `derive_ord`).
    pub fn derive_ord(mut self, on: bool) -> Self {
        self.options.derives.ord = on;
        self
    }

    /// Copy the header's brief docs into the output.
    pub fn docs(mut self, on: bool) -> Self {
        self.options.docs = on;
        self
    }

    /// The options these calls set.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The options, or the error a method could not report when it was called.
    pub fn checked_options(&self) -> Result<&Options, Error> {
        match &self.invalid {
            Some(why) => Err(why.clone()),
            None => Ok(&self.options),
        }
    }

    /// Generates and writes the module into the output directory (default:
    /// `OUT_DIR`), printing `cargo:rerun-if-changed` for every header read and
    /// `cargo:warning` for every diagnostic. Returns the written paths.
    pub fn generate(&self) -> Result<Vec<PathBuf>, Error> {
        for var in BUILDER_ENV {
            println!("cargo:rerun-if-env-changed={var}");
        }
        self.generate_quietly()
            .map_err(|e| e.map_hints(crate::options::with_builder_methods))
    }

    fn generate_quietly(&self) -> Result<Vec<PathBuf>, Error> {
        let generated = crate::pipeline::generate(self.checked_options()?)?;
        for d in generated.api.iter().flat_map(|a| &a.diagnostics) {
            println!("cargo:warning={}", d.to_string().replace('\n', " "));
        }
        for input in &generated.inputs {
            println!("cargo:rerun-if-changed={}", input.display());
        }
        let dir = match &self.options.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or_else(|| {
                    Error::new("OUT_DIR is not set")
                        .hint("call `Builder::out_dir` outside of build.rs")
                })?,
        };
        Ok(write::write_all(Path::new(&dir), &generated.files)?
            .into_iter()
            .map(|o| match o {
                Outcome::Written(p) | Outcome::Unchanged(p) => p,
            })
            .collect())
    }
}

/// What [`Builder::library`] takes: a library's name (`"nvrtc"`), or its
/// description (`&cushim::library::NVRTC`).
pub trait LibraryChoice {
    /// The description, or the error that lists the names cushim knows.
    fn library(self) -> Result<&'static crate::library::Library, Error>;
}

impl LibraryChoice for &'static crate::library::Library {
    fn library(self) -> Result<&'static crate::library::Library, Error> {
        Ok(self)
    }
}

impl<S: AsRef<str>> LibraryChoice for S {
    fn library(self) -> Result<&'static crate::library::Library, Error> {
        crate::options::library_named(self.as_ref())
    }
}
