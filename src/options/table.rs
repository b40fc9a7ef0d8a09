//! The table of options: every option that decides what cushim generates,
//! declared once. [`super::declare`] says what an entry holds and what it
//! becomes; a new option is one more entry here, and the tests that walk the
//! table (`cli.rs`) cover it with no other change.

/// Hands the table of options to [`super::declare::declare_options`], which
/// keeps the part named by `$part`: `options` or `builder`.
macro_rules! options_table {
    ($part:ident) => {
        $crate::options::declare::declare_options! {
            $part;
            headers {
                /// Where the headers come from.
                source: Source = Source::Default;
                record 0 |source, _, w| {
                    match source {
                        Source::Default => {
                            if let Some(v) = w.release {
                                w.value("--cuda", v.to_string());
                            }
                        }
                        Source::Pinned(v) => w.value("--cuda", v.to_string()),
                        Source::Merged { from, to } => {
                            w.value("--cuda", format!("{from}..{to}"));
                            w.switch("--merged");
                        }
                        Source::Toolkit(root) => {
                            let root = match (w.paths, root) {
                                (Paths::Recorded, _) => "<toolkit>".into(),
                                (Paths::Exact, Some(r)) => r.clone().into_os_string(),
                                (Paths::Exact, None) => OsString::new(),
                            };
                            w.value("--cuda-path", root);
                        }
                        Source::Files { header, typedefs } => {
                            w.path("--header", header);
                            if let Some(t) = typedefs {
                                w.path("--typedefs", t);
                            }
                        }
                    }
                }
                cli {
                    /// A pinned CUDA release, e.g. 13.5 (default: the newest pin)
                    #[arg(long, value_name = "VERSION", group = "source")]
                    pub cuda: Option<String>,
                    /// With `--cuda FROM..TO`: one module for every release in the range
                    #[arg(long)]
                    pub merged: bool,
                    /// A local CUDA toolkit root (use `--cuda-path ''` to search CUDA_PATH, CUDA_HOME, /usr/local/cuda)
                    #[arg(long, value_name = "DIR", group = "source", value_parser = clap::builder::ValueParser::os_string())]
                    pub cuda_path: Option<OsString>,
                    /// An explicit header that declares the functions
                    #[arg(long, value_name = "FILE", group = "source")]
                    pub header: Option<PathBuf>,
                    /// The PFN typedef header that goes with --header
                    #[arg(long, value_name = "FILE", requires = "header")]
                    pub typedefs: Option<PathBuf>,
                } |args, _| args.source()?;
                builder {
                    /// A pinned CUDA release (`"13.5"`). Every library's modules come from
                    /// the data cushim ships, with no network, no libclang and no feature;
                    /// only `docs` and `clang_arg` read the release's headers (the `fetch`
                    /// feature fetches them once into the cache).
                    pub fn cuda_version(mut self, version: impl AsRef<str>) -> Self {
                        self.options.source = $crate::options::Source::Pinned(self.version(version.as_ref()));
                        self
                    }

                    /// Every pinned release from `from` to `to` (`"11.8"`, `"13.5"`), merged into
                    /// one module that serves every driver from `from` on (the driver only).
                    /// Every pinned release is shipped merged; another range needs the
                    /// `emit` feature.
                    pub fn cuda_range(mut self, from: impl AsRef<str>, to: impl AsRef<str>) -> Self {
                        let (from, to) = (self.version(from.as_ref()), self.version(to.as_ref()));
                        self.options.source = $crate::options::Source::Merged { from, to };
                        self
                    }

                    /// A local toolkit root; `None` searches `CUDA_PATH`, `CUDA_HOME`, `/usr/local/cuda`.
                    pub fn cuda_path(mut self, root: Option<std::path::PathBuf>) -> Self {
                        self.options.source = $crate::options::Source::Toolkit(root);
                        self
                    }

                    /// Explicit headers: the one with the functions, and the PFN typedef table.
                    pub fn header(
                        mut self,
                        header: impl Into<std::path::PathBuf>,
                        typedefs: Option<std::path::PathBuf>,
                    ) -> Self {
                        self.options.source = $crate::options::Source::Files {
                            header: header.into(),
                            typedefs,
                        };
                        self
                    }
                }
                hints {
                    "--cuda-path" => cuda_path,
                    "--cuda" => cuda_version,
                    "--merged" => cuda_range,
                    "--header" => header,
                    "--typedefs" => header,
                }
                examples |b| [
                    b.cuda_version("12.9"),
                    b.cuda_range("11.8", "13.5"),
                    b.cuda_path(None),
                    b.cuda_path(Some("/opt/cuda".into())),
                    b.header("dir/api.h", None),
                    b.header("dir/api.h", Some("dir/apiTypedefs.h".into())),
                ]

                /// Keep only functions whose C name matches. Example: `^cu(Init|MemAlloc)`.
                allow: Option<String> = None;
                record 1 |allow, _, w| {
                    if let Some(r) = allow {
                        w.value("--allow", r);
                    }
                }
                cli {
                    /// Keep only functions whose C name matches this regex
                    #[arg(long, value_name = "REGEX", allow_hyphen_values = true)]
                    pub allow: Option<String>,
                } |args, _| args.allow.clone();
                builder {
                    /// Keep only functions whose C name matches this regex.
                    pub fn allowlist(mut self, regex: impl Into<String>) -> Self {
                        self.options.allow = Some(regex.into());
                        self
                    }
                }
                hints { "--allow" => allowlist }
                examples |b| [b.allowlist("^cuMem"), b.allowlist("-x|'y'")]

                /// Drop functions whose C name matches.
                block: Option<String> = None;
                record 2 |block, _, w| {
                    if let Some(r) = block {
                        w.value("--block", r);
                    }
                }
                cli {
                    /// Drop functions whose C name matches this regex
                    #[arg(long, value_name = "REGEX", allow_hyphen_values = true)]
                    pub block: Option<String>,
                } |args, _| args.block.clone();
                builder {
                    /// Drop functions whose C name matches this regex.
                    pub fn blocklist(mut self, regex: impl Into<String>) -> Self {
                        self.options.block = Some(regex.into());
                        self
                    }
                }
                hints { "--block" => blocklist }
                examples |b| [b.blocklist("-Async$")]

                /// Extra clang arguments (`-I`, `-D`).
                clang_args: Vec<String> = Vec::new();
                record 3 |clang_args, _, w| {
                    for c in clang_args {
                        w.value("--clang-arg", c);
                    }
                }
                cli {
                    /// An extra argument for clang, e.g. -I/opt/include (repeatable)
                    #[arg(long = "clang-arg", value_name = "ARG", allow_hyphen_values = true)]
                    pub clang_args: Vec<String>,
                } |args, _| args.clang_args.clone();
                builder {
                    /// One more argument for clang when it parses the headers. Example: `-I/opt/include`.
                    #[must_use]
                    pub fn clang_arg(mut self, arg: impl Into<String>) -> Self {
                        self.options.clang_args.push(arg.into());
                        self
                    }
                }
                hints { "--clang-arg" => clang_arg }
                examples |b| [b.clang_arg("-DX=1").clang_arg("-I/opt/include")]

                /// The library's description. Default: the driver
                /// ([`crate::library::DRIVER`]); [`library_named`] finds one by the name
                /// `--lib` takes.
                library: &'static crate::library::Library = &crate::library::DRIVER;
                record 8 |library, default, w| {
                    if library.name != default.name {
                        w.value("--lib", library.name);
                    }
                }
                cli {
                    /// The library, by the name `--lib` takes (the help lists the registry's).
                    #[arg(
                        long,
                        value_name = "NAME",
                        default_value = "driver",
                        help = format!(
                            "The library: {}; generate and doctor also take several (nvrtc,nvml) or all",
                            crate::library::names_for_help()
                        )
                    )]
                    pub lib: String,
                } |_, library| library;
                builder {
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
                }
                hints { "--lib" => library }
                examples |b| [b.library("nvrtc"), b.library(&$crate::library::NVJITLINK)]
            }
            generate {
                cli {
                    /// Every pinned release of the driver (and for other libraries the first and newest of each major), each into <out>/cuda-<version>, and the merged module into <out>/merged (default out: generated)
                    #[arg(long, conflicts_with_all = ["cuda", "cuda_path", "header", "merged"])]
                    pub all: bool,
                }

                /// Output directory. Default: `generated/cuda-<version>` for the CLI, `OUT_DIR` for the Builder.
                out_dir: Option<PathBuf> = None;
                record 13 |out_dir, _, w| {
                    if let (Paths::Exact, Some(o)) = (w.paths, out_dir) {
                        w.value("--out", o);
                    }
                }
                cli {
                    /// Output directory (default: generated/cuda-<version>)
                    #[arg(long, short, value_name = "DIR")]
                    pub out: Option<PathBuf>,
                } |args, _| args.out.clone();
                builder {
                    /// Where the files go (default: `OUT_DIR`).
                    #[must_use]
                    pub fn out_dir(mut self, dir: impl Into<std::path::PathBuf>) -> Self {
                        self.options.out_dir = Some(dir.into());
                        self
                    }
                }
                hints { "--out" => out_dir }
                examples |b| [b.out_dir("o")]

                /// The outputs. Default: Rust and C++.
                languages: Vec<Language> = vec![Language::Rust, Language::Cpp];
                record 4 |languages, default, w| {
                    if languages != default {
                        let names: Vec<&str> = languages.iter().map(|l| l.name()).collect();
                        w.value("--lang", names.join(","));
                    }
                }
                cli {
                    /// Output languages, comma-separated
                    #[arg(long, value_enum, value_delimiter = ',', default_value = "rust,cpp")]
                    pub lang: Vec<Language>,
                } |args, _| args.lang.clone();
                builder {
                    /// Which outputs to write (default: Rust and C++).
                    #[must_use]
                    pub fn languages(mut self, languages: &[$crate::options::Language]) -> Self {
                        self.options.languages = languages.to_vec();
                        self
                    }
                }
                hints { "--lang" => languages }
                examples |b| [
                    b.languages(&[$crate::options::Language::Rust]),
                    b.languages(&[$crate::options::Language::Cpp]),
                    b.languages(&[$crate::options::Language::Cpp, $crate::options::Language::Rust]),
                ]

                /// C++ only: export `<prefix>cuMemAlloc_v2` instead of the drop-in names. Example: `cushim_`.
                cpp_prefix: Option<String> = None;
                record 11 |cpp_prefix, _, w| {
                    if let Some(p) = cpp_prefix {
                        w.value("--prefix", p);
                    }
                }
                cli {
                    /// C++: export `<PREFIX>cuMemAlloc_v2` instead of drop-in names (for programs that also link libcuda)
                    #[arg(long, value_name = "PREFIX", allow_hyphen_values = true)]
                    pub prefix: Option<String>,
                } |args, _| args.prefix.clone();
                builder {
                    /// C++ only: export `<prefix><symbol>` instead of the drop-in names.
                    pub fn cpp_prefix(mut self, prefix: impl Into<String>) -> Self {
                        self.options.cpp_prefix = Some(prefix.into());
                        self
                    }
                }
                hints { "--prefix" => cpp_prefix }
                examples |b| [b.cpp_prefix("cushim_")]

                /// Copy the header's brief docs into the output (off: committed output
                /// must carry no prose from NVIDIA's headers).
                docs: bool = false;
                record 12 |docs, _, w| {
                    if *docs {
                        w.switch("--docs");
                    }
                }
                cli {
                    /// Copy each function's brief doc from the header into the output
                    #[arg(long)]
                    pub docs: bool,
                } |args, _| args.docs;
                builder {
                    /// Copy the header's brief docs into the output.
                    pub fn docs(mut self, on: bool) -> Self {
                        self.options.docs = on;
                        self
                    }
                }
                hints { "--docs" => docs }
                examples |b| [b.docs(true)]

                /// How shims find functions. Default: `cuGetProcAddress`.
                resolve: Resolve = Resolve::ProcAddress;
                record 5 |resolve, default, w| {
                    if resolve != default {
                        w.value("--resolve", resolve.word());
                    }
                }
                cli {
                    /// How shims find driver functions: proc-address: cuGetProcAddress_v2 with each function's ABI version, then v1, then the exact export; dlsym: the exact versioned export only; runtime-entry-point (the driver only): never open libcuda, but take each function from the CUDA runtime (a copy already loaded, else cudart's own search) through cudaGetDriverEntryPointByVersion at its ABI version, or from a runtime before 12.5 through the cuGetProcAddress its cudaGetDriverEntryPoint hands out
                    #[arg(long, default_value = "proc-address", value_parser = word_parser::<Resolve>())]
                    pub resolve: Resolve,
                } |args, _| args.resolve;
                builder {
                    /// How shims find functions: `cuGetProcAddress` (default), exact exports,
                    /// or (the driver only) through the CUDA runtime's entry point, never
                    /// opening the driver library itself (`Resolve::RuntimeEntryPoint`).
                    pub fn resolve(mut self, resolve: $crate::options::Resolve) -> Self {
                        self.options.resolve = resolve;
                        self
                    }
                }
                hints { "--resolve" => resolve }
                examples |b| [
                    b.resolve($crate::options::Resolve::Dlsym),
                    b.resolve($crate::options::Resolve::RuntimeEntryPoint),
                ]

                /// The default-stream mode shims bind unless the program chooses at run time.
                stream: StreamMode = StreamMode::Legacy;
                record 6 |stream, default, w| {
                    if stream != default {
                        w.value("--stream", stream.word());
                    }
                }
                cli {
                    /// The default-stream mode shims bind unless the program chooses at run time
                    #[arg(long, default_value = "legacy", value_parser = word_parser::<StreamMode>())]
                    pub stream: StreamMode,
                } |args, _| args.stream;
                builder {
                    /// The default-stream mode shims bind unless the program chooses at run time.
                    pub fn stream(mut self, stream: $crate::options::StreamMode) -> Self {
                        self.options.stream = stream;
                        self
                    }
                }
                hints { "--stream" => stream }
                examples |b| [b.stream($crate::options::StreamMode::PerThread)]

                /// Lazy loading (the default), direct linking, or a feature's choice.
                link: Link = Link::Lazy;
                record 7 |link, default, w| {
                    if link != default {
                        w.value("--link", link.name());
                    }
                }
                cli {
                    /// lazy: load the library on first use; linked: call its symbols directly (-lcuda); feature=NAME: both, chosen by the cargo feature NAME of the crate that includes the module (C++: -DCUSHIM_<API>_LINKED)
                    #[arg(long, value_name = "MODE", default_value = "lazy", value_parser = link_arg)]
                    pub link: Link,
                } |args, _| args.link.clone();
                builder {
                    /// How the shims reach the library: lazily (the default), linked
                    /// (`-lcuda`), or chosen by a cargo feature of the including crate
                    /// (`Link::Feature("linked".into())`).
                    pub fn link(mut self, link: $crate::options::Link) -> Self {
                        self.options.link = link;
                        self
                    }
                }
                hints { "--link" => link }
                examples |b| [
                    b.link($crate::options::Link::Linked),
                    b.link($crate::options::Link::Feature("a.b+c_d-e".into())),
                ]

                /// Rust only: how enums are spelled. Default: newtypes.
                enums: EnumOptions = EnumOptions::default();
                record 9 |enums, default, w| {
                    if enums.default_style != default.default_style {
                        w.value("--default-enum-style", enums.default_style.name());
                    }
                    for (style, pattern) in &enums.rules {
                        w.value(style.rule_flag(), pattern);
                    }
                    if !enums.prepend_name {
                        w.switch("--no-prepend-enum-name");
                    }
                }
                cli {
                    /// Rust: how enums are spelled, by bindgen's names: newtype, bitfield, newtype_global, consts, rust or rust_non_exhaustive (a Rust enum: a value the header does not list is undefined behaviour)
                    #[arg(long, value_name = "STYLE", default_value = "newtype", value_parser = enum_style_arg, help_heading = "Enums (Rust; bindgen's flags)")]
                    pub default_enum_style: EnumStyle,
                    /// Make every enum whose whole name matches REGEX a newtype with bit operators
                    #[arg(
                        long,
                        value_name = "REGEX",
                        allow_hyphen_values = true,
                        help_heading = "Enums (Rust; bindgen's flags)"
                    )]
                    pub bitfield_enum: Vec<String>,
                    /// Make every enum whose whole name matches REGEX a newtype
                    #[arg(
                        long,
                        value_name = "REGEX",
                        allow_hyphen_values = true,
                        help_heading = "Enums (Rust; bindgen's flags)"
                    )]
                    pub newtype_enum: Vec<String>,
                    /// Make every enum whose whole name matches REGEX a newtype with global constants
                    #[arg(
                        long,
                        value_name = "REGEX",
                        allow_hyphen_values = true,
                        help_heading = "Enums (Rust; bindgen's flags)"
                    )]
                    pub newtype_global_enum: Vec<String>,
                    /// Make every enum whose whole name matches REGEX a Rust enum (undefined behaviour for unlisted values)
                    #[arg(
                        long,
                        value_name = "REGEX",
                        allow_hyphen_values = true,
                        help_heading = "Enums (Rust; bindgen's flags)"
                    )]
                    pub rustified_enum: Vec<String>,
                    /// Make every enum whose whole name matches REGEX a non-exhaustive Rust enum (undefined behaviour for unlisted values)
                    #[arg(
                        long,
                        value_name = "REGEX",
                        allow_hyphen_values = true,
                        help_heading = "Enums (Rust; bindgen's flags)"
                    )]
                    pub rustified_non_exhaustive_enum: Vec<String>,
                    /// Make every enum whose whole name matches REGEX a type alias and constants
                    #[arg(
                        long,
                        value_name = "REGEX",
                        allow_hyphen_values = true,
                        help_heading = "Enums (Rust; bindgen's flags)"
                    )]
                    pub constified_enum: Vec<String>,
                    /// Name global enum constants without the enum's name first (consts, newtype_global)
                    #[arg(long, help_heading = "Enums (Rust; bindgen's flags)")]
                    pub no_prepend_enum_name: bool,
                } |args, _| {
                    let mut enums = EnumOptions {
                        default_style: args.default_enum_style,
                        rules: Vec::new(),
                        prepend_name: !args.no_prepend_enum_name,
                    };
                    for (style, patterns) in [
                        (EnumStyle::Bitfield, &args.bitfield_enum),
                        (EnumStyle::NewType, &args.newtype_enum),
                        (EnumStyle::NewTypeGlobal, &args.newtype_global_enum),
                        (EnumStyle::Rust, &args.rustified_enum),
                        (EnumStyle::RustNonExhaustive, &args.rustified_non_exhaustive_enum),
                        (EnumStyle::Consts, &args.constified_enum),
                    ] {
                        for p in patterns {
                            enums.add_rule(style, p.clone());
                        }
                    }
                    enums
                };
                builder {
                    /// Rust: the style of every enum that no rule below names, by bindgen's
                    /// name (default: `EnumStyle::NewType`). `EnumStyle::Rust` makes Rust
                    /// `enum`s, as bindgen's `rustified_enum(".*")` does; a value the header
                    /// does not list (a newer driver's) is then undefined behaviour.
                    #[must_use]
                    pub fn default_enum_style(mut self, style: $crate::options::EnumStyle) -> Self {
                        self.options.enums.default_style = style;
                        self
                    }

                    /// Rust: every enum whose whole name matches this regex is a newtype with
                    /// the bit operators (bindgen's `bitfield_enum`).
                    pub fn bitfield_enum(mut self, regex: impl Into<String>) -> Self {
                        self.options
                            .enums
                            .add_rule($crate::options::EnumStyle::Bitfield, regex.into());
                        self
                    }

                    /// Rust: every enum whose whole name matches this regex is a newtype
                    /// (bindgen's `newtype_enum`).
                    pub fn newtype_enum(mut self, regex: impl Into<String>) -> Self {
                        self.options
                            .enums
                            .add_rule($crate::options::EnumStyle::NewType, regex.into());
                        self
                    }

                    /// Rust: every enum whose whole name matches this regex is a newtype with
                    /// global constants (bindgen's `newtype_global_enum`).
                    pub fn newtype_global_enum(mut self, regex: impl Into<String>) -> Self {
                        self.options
                            .enums
                            .add_rule($crate::options::EnumStyle::NewTypeGlobal, regex.into());
                        self
                    }

                    /// Rust: every enum whose whole name matches this regex is a Rust `enum`
                    /// (bindgen's `rustified_enum`). A value the header does not list is
                    /// undefined behaviour.
                    pub fn rustified_enum(mut self, regex: impl Into<String>) -> Self {
                        self.options
                            .enums
                            .add_rule($crate::options::EnumStyle::Rust, regex.into());
                        self
                    }

                    /// Rust: every enum whose whole name matches this regex is a
                    /// `#[non_exhaustive]` Rust `enum` (bindgen's
                    /// `rustified_non_exhaustive_enum`), with the same undefined behaviour.
                    pub fn rustified_non_exhaustive_enum(mut self, regex: impl Into<String>) -> Self {
                        self.options
                            .enums
                            .add_rule($crate::options::EnumStyle::RustNonExhaustive, regex.into());
                        self
                    }

                    /// Rust: every enum whose whole name matches this regex is a type alias
                    /// and constants (bindgen's `constified_enum`).
                    pub fn constified_enum(mut self, regex: impl Into<String>) -> Self {
                        self.options
                            .enums
                            .add_rule($crate::options::EnumStyle::Consts, regex.into());
                        self
                    }

                    /// Rust: whether global enum constants carry the enum's name first
                    /// (`cudaError_enum_CUDA_SUCCESS`; default `true`, as in bindgen).
                    #[must_use]
                    pub fn prepend_enum_name(mut self, on: bool) -> Self {
                        self.options.enums.prepend_name = on;
                        self
                    }
                }
                hints {
                    "--default-enum-style" => default_enum_style,
                    "--bitfield-enum" => bitfield_enum,
                    "--newtype-enum" => newtype_enum,
                    "--newtype-global-enum" => newtype_global_enum,
                    "--rustified-enum" => rustified_enum,
                    "--rustified-non-exhaustive-enum" => rustified_non_exhaustive_enum,
                    "--constified-enum" => constified_enum,
                    "--no-prepend-enum-name" => prepend_enum_name,
                }
                examples |b| [
                    b.default_enum_style($crate::options::EnumStyle::Rust),
                    b.default_enum_style($crate::options::EnumStyle::Consts)
                        .rustified_non_exhaustive_enum("cudaError_enum")
                        .constified_enum("-CU.*")
                        .newtype_global_enum("CUlimit_enum")
                        .newtype_enum("x")
                        .bitfield_enum("CU.*_flags_enum")
                        .rustified_enum(".*")
                        .prepend_enum_name(false),
                ]

                /// Rust only: the traits the types derive beyond the defaults.
                derives: Derives = Derives::default();
                record 10 |derives, _, w| {
                    for (flag, on) in derives.flags() {
                        if on {
                            w.switch(flag);
                        }
                    }
                }
                cli {
                    /// Derive PartialEq where it can be derived
                    #[arg(long, help_heading = "Derives (Rust; bindgen's flags)")]
                    pub with_derive_partialeq: bool,
                    /// Derive Eq (and PartialEq) where it can be derived
                    #[arg(long, help_heading = "Derives (Rust; bindgen's flags)")]
                    pub with_derive_eq: bool,
                    /// Derive Hash where it can be derived (enums always do)
                    #[arg(long, help_heading = "Derives (Rust; bindgen's flags)")]
                    pub with_derive_hash: bool,
                    /// Derive PartialOrd where it can be derived
                    #[arg(long, help_heading = "Derives (Rust; bindgen's flags)")]
                    pub with_derive_partialord: bool,
                    /// Derive Ord (and PartialOrd) where it can be derived
                    #[arg(long, help_heading = "Derives (Rust; bindgen's flags)")]
                    pub with_derive_ord: bool,
                    /// Derive Default where it can be derived: always on (accepted for bindgen's command lines)
                    #[arg(long, help_heading = "Derives (Rust; bindgen's flags)")]
                    pub with_derive_default: bool,
                } |args, _| Derives {
                    partialeq: args.with_derive_partialeq,
                    eq: args.with_derive_eq,
                    hash: args.with_derive_hash,
                    partialord: args.with_derive_partialord,
                    ord: args.with_derive_ord,
                };
                builder {
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
                }
                hints {
                    "--with-derive-partialeq" => derive_partialeq,
                    "--with-derive-eq" => derive_eq,
                    "--with-derive-hash" => derive_hash,
                    "--with-derive-partialord" => derive_partialord,
                    "--with-derive-ord" => derive_ord,
                }
                examples |b| [
                    b.derive_partialeq(true)
                        .derive_eq(true)
                        .derive_hash(true)
                        .derive_partialord(true)
                        .derive_ord(true),
                    b.derive_ord(true).derive_hash(true),
                ]

                /// Rust only: whether functions that the header deprecates carry
                /// `#[deprecated]` (bindgen's output carries none).
                deprecated_attributes: bool = true;
                record 14 |on, _, w| {
                    if !*on {
                        w.switch("--no-deprecated-attributes");
                    }
                }
                cli {
                    /// Rust: mark no function #[deprecated] (bindgen's output marks none), so that a -D warnings build of code written for bindgen stays clean
                    #[arg(long, help_heading = "Rust items")]
                    pub no_deprecated_attributes: bool,
                } |args, _| !args.no_deprecated_attributes;
                builder {
                    /// Rust: whether the functions that the header deprecates carry
                    /// `#[deprecated]` (default `true`). bindgen's output carries none, so
                    /// code written for it that calls one builds with `-D warnings` only
                    /// with `false`.
                    #[must_use]
                    pub fn deprecated_attributes(mut self, on: bool) -> Self {
                        self.options.deprecated_attributes = on;
                        self
                    }
                }
                hints { "--no-deprecated-attributes" => deprecated_attributes }
                examples |b| [b.deprecated_attributes(false)]

                /// Rust only: whether the structs that the headers declare but never
                /// define (`CUctx_st`) are the runtime's (`cushim_runtime::opaque`),
                /// shared by every module, or the module's own.
                shared_types: bool = true;
                record 15 |on, _, w| {
                    if !*on {
                        w.switch("--no-shared-types");
                    }
                }
                cli {
                    /// Rust: declare the opaque structs (CUctx_st, CUstream_st) in the module, as bindgen does, instead of re-exporting the runtime's, which every module shares
                    #[arg(long, help_heading = "Rust items")]
                    pub no_shared_types: bool,
                } |args, _| !args.no_shared_types;
                builder {
                    /// Rust: whether the structs that the headers declare but never define
                    /// (`CUctx_st`, `CUstream_st`) are re-exported from
                    /// `cushim_runtime::opaque` (default `true`), so that one module's
                    /// handle (`cuda::CUcontext`) is another's (`cupti::CUcontext`), or
                    /// declared in the module as bindgen declares them (`false`: then they
                    /// are the including crate's own, which may implement any trait for them).
                    #[must_use]
                    pub fn shared_types(mut self, on: bool) -> Self {
                        self.options.shared_types = on;
                        self
                    }
                }
                hints { "--no-shared-types" => shared_types }
                examples |b| [b.shared_types(false)]
            }
        }
    };
}

pub(crate) use options_table;
