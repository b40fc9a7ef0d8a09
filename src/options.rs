//! The one table of options behind both front-ends.
//!
//! [`Options`] is what decides the output. Each of its fields is declared
//! once, in the table of options (`options/table.rs`, expanded by the macro
//! of `options/declare.rs`), with its default, its flags, its `Builder`
//! methods and how each turns into the other. [`GenerateArgs`] is the
//! command-line form: `cushim generate` parses it, `cushim check` parses the
//! command that a generated file records, and [`Options::args`] writes it
//! back, so that a `Builder` and the command line round-trip through each
//! other. This module holds the values the options take and what reads and
//! writes them as a whole.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

#[cfg(feature = "cli")]
use clap::builder::{PossibleValuesParser, TypedValueParser};
#[cfg(feature = "cli")]
use clap::Args;

use crate::diag::Error;
use crate::version::CudaVersion;

/// The default-stream mode generated shims bind: the runtime's own enum, from
/// the command line to the emitted code.
pub use crate::runtime::StreamMode;

/// The library named `name`, or an error that lists the names cushim knows.
pub fn library_named(name: &str) -> Result<&'static crate::library::Library, Error> {
    crate::library::by_name(name).ok_or_else(|| {
        let known: Vec<&str> = crate::library::LIBRARIES.iter().map(|l| l.name).collect();
        Error::new(format!("unknown library `{}`", name.escape_debug()))
            .hint(format!("cushim knows: {}", known.join(", ")))
    })
}

/// The libraries that `--lib` names: one (`nvrtc`), several separated by
/// commas (`nvrtc,nvml`), or `all`.
pub fn select_libraries(names: &str) -> Result<Vec<&'static crate::library::Library>, Error> {
    if names == "all" {
        return Ok(crate::library::LIBRARIES.to_vec());
    }
    names
        .split(',')
        .map(|name| library_named(name.trim()))
        .collect()
}

/// How generated shims find their functions (`--resolve`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Resolve {
    /// The library's own lookup by name and ABI version (the driver's
    /// `cuGetProcAddress_v2`, then v1), then the exact versioned export.
    #[default]
    ProcAddress,
    /// The exact versioned export only.
    Dlsym,
    /// The driver only: the shims never open the driver library; they find
    /// the CUDA runtime (a copy already loaded first, then the runtime's own
    /// search) and take each function from its
    /// `cudaGetDriverEntryPointByVersion` at the function's ABI version, or
    /// from an older runtime the driver's `cuGetProcAddress` through its
    /// `cudaGetDriverEntryPoint`.
    RuntimeEntryPoint,
}

/// Where the headers come from.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Source {
    /// The newest pinned release.
    #[default]
    Default,
    /// A pinned release. Example: `12.9`.
    Pinned(CudaVersion),
    /// A local toolkit: this root, or `CUDA_PATH`, `CUDA_HOME`, `/usr/local/cuda`.
    Toolkit(Option<PathBuf>),
    /// Every pinned release from `from` to `to`, merged into one module.
    Merged {
        /// The oldest release. Example: `11.8`.
        from: CudaVersion,
        /// The newest release. Example: `13.5`.
        to: CudaVersion,
    },
    /// Explicit files (our fixtures, or another library's headers).
    Files {
        /// The header that declares the functions.
        header: PathBuf,
        /// The PFN typedef header, if separate.
        typedefs: Option<PathBuf>,
    },
}

/// How the shims reach the library's functions.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Link {
    /// Load the library on the first call and bind each function on its own
    /// first call (the default): the program starts without the library.
    #[default]
    Lazy,
    /// Call the library's symbols directly, linked at build time (`-lcuda`):
    /// the dynamic linker finds the library, and the program cannot start
    /// without it.
    Linked,
    /// Both in one module, chosen by this cargo feature of the crate that
    /// includes it: linked when the feature is on. Example: `linked`. (C++:
    /// `-DCUSHIM_<API>_LINKED` chooses.)
    Feature(String),
}

impl Link {
    /// The flag's value. Example: `feature=linked`.
    pub fn name(&self) -> String {
        match self {
            Link::Lazy => "lazy".into(),
            Link::Linked => "linked".into(),
            Link::Feature(f) => format!("feature={f}"),
        }
    }
}

impl std::str::FromStr for Link {
    type Err = Error;

    fn from_str(text: &str) -> Result<Link, Error> {
        match text {
            "lazy" => Ok(Link::Lazy),
            "linked" => Ok(Link::Linked),
            _ => match text.strip_prefix("feature=") {
                Some(f)
                    if !f.is_empty()
                        && f
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || "_-+.".contains(c)) =>
                {
                    Ok(Link::Feature(f.to_string()))
                }
                _ => Err(Error::new(format!("invalid link mode `{}`", text.escape_debug()))
                    .hint("use `lazy`, `linked`, or `feature=NAME` with a cargo feature name (letters, digits, `_`, `-`, `+`, `.`)")),
            },
        }
    }
}

/// Output languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Language {
    /// One Rust module.
    Rust,
    /// A C-compatible status header and a C++ source of drop-in stubs.
    Cpp,
}

impl Language {
    /// The flag's name. Example: `rust`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Language::Rust => "rust",
            Language::Cpp => "cpp",
        }
    }
}

/// How the Rust output spells a C enum: one of bindgen's styles, by
/// bindgen's name, so that code written against bindgen's output compiles
/// against cushim's unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EnumStyle {
    /// `consts`, bindgen's own default: a type alias of the integer and one
    /// constant per value (`cudaError_enum_CUDA_SUCCESS`, or `CUDA_SUCCESS`
    /// without the prefix).
    Consts,
    /// `newtype`, cushim's default: `pub struct cudaError_enum(pub c_uint)`
    /// with associated constants (`CUresult::CUDA_SUCCESS`). Any value is
    /// valid; a flag enum also gets the bit operators.
    NewType,
    /// `newtype_global`: a newtype whose constants are global
    /// (`cudaError_enum_CUDA_SUCCESS`).
    NewTypeGlobal,
    /// `bitfield`: a newtype with `|`, `|=`, `&` and `&=`.
    Bitfield,
    /// `rust`: a Rust `enum`. A value the header does not list (a newer
    /// driver's) is undefined behaviour the moment a function returns it.
    Rust,
    /// `rust_non_exhaustive`: a `#[non_exhaustive]` Rust `enum`, with the
    /// same undefined behaviour for unlisted values.
    RustNonExhaustive,
}

impl EnumStyle {
    /// Every style, in the order bindgen tries per-enum rules: the first
    /// style with a rule that matches an enum is its style.
    pub const PRECEDENCE: [EnumStyle; 6] = [
        EnumStyle::Bitfield,
        EnumStyle::NewType,
        EnumStyle::NewTypeGlobal,
        EnumStyle::Rust,
        EnumStyle::RustNonExhaustive,
        EnumStyle::Consts,
    ];

    /// bindgen's name, as `--default-enum-style` takes it. Example: `rust`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            EnumStyle::Consts => "consts",
            EnumStyle::NewType => "newtype",
            EnumStyle::NewTypeGlobal => "newtype_global",
            EnumStyle::Bitfield => "bitfield",
            EnumStyle::Rust => "rust",
            EnumStyle::RustNonExhaustive => "rust_non_exhaustive",
        }
    }

    /// The flag that gives this style to the enums a regex matches.
    /// Example: `--rustified-enum`.
    #[must_use]
    pub fn rule_flag(self) -> &'static str {
        match self {
            EnumStyle::Consts => "--constified-enum",
            EnumStyle::NewType => "--newtype-enum",
            EnumStyle::NewTypeGlobal => "--newtype-global-enum",
            EnumStyle::Bitfield => "--bitfield-enum",
            EnumStyle::Rust => "--rustified-enum",
            EnumStyle::RustNonExhaustive => "--rustified-non-exhaustive-enum",
        }
    }

    /// A Rust `enum`, with undefined behaviour for values the header does not list.
    #[must_use]
    pub fn is_rust_enum(self) -> bool {
        matches!(self, EnumStyle::Rust | EnumStyle::RustNonExhaustive)
    }
}

impl std::fmt::Display for EnumStyle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for EnumStyle {
    type Err = Error;

    /// bindgen's name of a style. Example: `rust`.
    fn from_str(s: &str) -> Result<Self, Error> {
        if let Some(style) = EnumStyle::PRECEDENCE.into_iter().find(|e| e.name() == s) {
            return Ok(style);
        }
        let names: Vec<&str> = EnumStyle::PRECEDENCE.iter().map(|e| e.name()).collect();
        Err(match s {
            "moduleconsts" => Error::new(
                "cushim does not offer bindgen's `moduleconsts` enum style: its module would take the name that struct fields use as a type",
            )
            .hint("use `consts`, whose constants carry the enum's name as a prefix (`cudaError_enum_CUDA_SUCCESS`)"),
            _ => Error::new(format!("unknown enum style `{s}`"))
                .hint(format!("the styles are bindgen's: {}", names.join(", "))),
        })
    }
}

/// How the Rust output spells enums: bindgen's options of the same names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnumOptions {
    /// The style of every enum that no rule names. Default: `newtype`.
    pub default_style: EnumStyle,
    /// Styles for the enums whose name matches a regex (the whole name, as
    /// bindgen matches), kept in bindgen's order of precedence
    /// ([`EnumStyle::PRECEDENCE`]). Example: `(Rust, "cudaError_enum")`.
    pub rules: Vec<(EnumStyle, String)>,
    /// Whether global constants (`consts`, `newtype_global`) carry the
    /// enum's name first, as bindgen's do by default. Example:
    /// `cudaError_enum_CUDA_SUCCESS` rather than `CUDA_SUCCESS`.
    pub prepend_name: bool,
}

impl Default for EnumOptions {
    fn default() -> Self {
        EnumOptions {
            default_style: EnumStyle::NewType,
            rules: Vec::new(),
            prepend_name: true,
        }
    }
}

impl EnumOptions {
    /// Adds a rule, keeping the rules in the order of precedence.
    pub fn add_rule(&mut self, style: EnumStyle, regex: String) {
        self.rules.push((style, regex));
        self.rules.sort_by_key(|(s, _)| precedence(*s));
    }

    /// The style of each enum, in order. Matches as bindgen does: a rule's
    /// regex must match the whole name.
    ///
    /// # Errors
    /// A rule whose regex does not compile.
    #[cfg(feature = "emit")]
    pub fn styles(&self, enums: &[crate::c::Enum]) -> Result<Vec<EnumStyle>, Error> {
        let mut rules = Vec::with_capacity(self.rules.len());
        for (style, pattern) in &self.rules {
            let regex = regex_lite::Regex::new(&format!("^(?:{pattern})$")).map_err(|e| {
                Error::new(format!(
                    "invalid {} regex `{pattern}`: {e}",
                    style.rule_flag()
                ))
                .hint("the syntax is that of the `regex` crate without Unicode classes, and it must match an enum's whole name, e.g. `cudaError_enum|CU.*_flags_enum`")
            })?;
            rules.push((*style, regex));
        }
        Ok(enums
            .iter()
            .map(|e| {
                rules
                    .iter()
                    .find(|(_, r)| r.is_match(&e.name))
                    .map_or(self.default_style, |(s, _)| *s)
            })
            .collect())
    }
}

fn precedence(style: EnumStyle) -> usize {
    EnumStyle::PRECEDENCE
        .iter()
        .position(|s| *s == style)
        .unwrap_or(usize::MAX)
}

/// Rust: the traits that the types derive where they can, beyond `Debug`,
/// `Default`, `Copy` and `Clone`: bindgen's `--with-derive-*` options, so
/// that a crate switching from bindgen keeps its public types' traits. As in
/// bindgen, `Eq` brings `PartialEq` and `Ord` brings `PartialOrd`; enums
/// always derive `Hash`, `PartialEq` and `Eq`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Derives {
    /// `PartialEq` (`--with-derive-partialeq`).
    pub partialeq: bool,
    /// `Eq` and `PartialEq` (`--with-derive-eq`).
    pub eq: bool,
    /// `Hash` (`--with-derive-hash`).
    pub hash: bool,
    /// `PartialOrd` (`--with-derive-partialord`).
    pub partialord: bool,
    /// `Ord` and `PartialOrd` (`--with-derive-ord`).
    pub ord: bool,
}

impl Derives {
    /// Each option's flag and whether it is on, in bindgen's order.
    pub fn flags(&self) -> [(&'static str, bool); 5] {
        [
            ("--with-derive-partialeq", self.partialeq),
            ("--with-derive-eq", self.eq),
            ("--with-derive-hash", self.hash),
            ("--with-derive-partialord", self.partialord),
            ("--with-derive-ord", self.ord),
        ]
    }

    /// Whether a derive list keeps `name` (one of the traits above; any
    /// other trait is not this option's to drop).
    pub fn keeps(&self, name: &str) -> bool {
        match name {
            "PartialEq" => self.partialeq || self.eq,
            "Eq" => self.eq,
            "Hash" => self.hash,
            "PartialOrd" => self.partialord || self.ord,
            "Ord" => self.ord,
            _ => true,
        }
    }

    /// What an enum derives beyond `Copy`, `Clone`, `Hash`, `PartialEq` and
    /// `Eq` (which every enum derives, as bindgen's do). Example: `, PartialOrd, Ord`.
    /// Bindgen orders enums on the same terms as structs.
    pub fn enum_extra(&self) -> &'static str {
        match (self.keeps("PartialOrd"), self.keeps("Ord")) {
            (true, true) => ", PartialOrd, Ord",
            (true, false) => ", PartialOrd",
            _ => "",
        }
    }
}

pub(crate) mod declare;
pub(crate) mod table;

table::options_table!(options);

/// How [`Options::args`] writes paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paths {
    /// As given: the arguments mean what the options mean.
    Exact,
    /// File names only, and `<toolkit>` for a toolkit root: the same on every
    /// machine, for the command a generated file records.
    Recorded,
}

/// `text` with every backticked command-line span (`` `--cuda <version>` ``)
/// named by the Builder method that does the same (`` `Builder::cuda_version` ``).
pub fn with_builder_methods(text: &str) -> String {
    let mut out = String::new();
    let mut parts = text.split('`');
    if let Some(first) = parts.next() {
        out.push_str(first);
    }
    for (i, part) in parts.enumerate() {
        out.push('`');
        // Odd parts (0, 2, ... after the first) are inside backticks.
        let inside = i % 2 == 0;
        let method = inside
            .then(|| {
                let merged = part.contains("--merged");
                let first = part.split_whitespace().next().unwrap_or("");
                FLAG_METHODS
                    .iter()
                    .find(|(flag, _)| *flag == first)
                    .map(|(_, m)| if merged { "Builder::cuda_range" } else { m })
            })
            .flatten();
        out.push_str(method.unwrap_or(part));
    }
    out
}

/// A value that its flag names by a fixed word. Example: `per-thread` for
/// `--stream`.
pub trait FlagWord: Copy + PartialEq + Send + Sync + 'static {
    /// Every value, in the order `--help` lists their words.
    const VALUES: &'static [Self];

    /// The value's word. Example: `per-thread`.
    fn word(self) -> &'static str;
}

impl FlagWord for Resolve {
    const VALUES: &'static [Self] = &[
        Resolve::ProcAddress,
        Resolve::Dlsym,
        Resolve::RuntimeEntryPoint,
    ];

    fn word(self) -> &'static str {
        match self {
            Resolve::ProcAddress => "proc-address",
            Resolve::Dlsym => "dlsym",
            Resolve::RuntimeEntryPoint => "runtime-entry-point",
        }
    }
}

impl FlagWord for StreamMode {
    const VALUES: &'static [Self] = &[StreamMode::Legacy, StreamMode::PerThread];

    fn word(self) -> &'static str {
        match self {
            StreamMode::Legacy => "legacy",
            StreamMode::PerThread => "per-thread",
        }
    }
}

#[cfg(feature = "cli")]
/// The parser of a flag that takes one of `T`'s words (`--resolve`,
/// `--stream`, here and in `cushim doctor`).
pub fn word_parser<T: FlagWord>() -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(T::VALUES.iter().map(|v| v.word())).map(|word| {
        T::VALUES
            .iter()
            .copied()
            .find(|v| v.word() == word)
            .unwrap_or(T::VALUES[0])
    })
}

#[cfg(feature = "cli")]
fn version_arg(text: &str) -> Result<CudaVersion, Error> {
    text.parse::<CudaVersion>().map_err(|e| {
        Error::new(e.to_string()).hint("pinned releases are listed by `cushim fetch --help`")
    })
}

#[cfg(feature = "cli")]
impl SourceArgs {
    /// The header source these flags name.
    pub fn source(&self) -> Result<Source, Error> {
        if let Some(v) = &self.cuda {
            return match v.split_once("..") {
                Some((from, to)) if self.merged => Ok(Source::Merged {
                    from: version_arg(from)?,
                    to: version_arg(to)?,
                }),
                _ if self.merged => Err(Error::new(format!(
                    "`--merged` needs a range of releases, not `{v}`"
                ))
                .hint("write `--cuda 11.8..13.5 --merged`")),
                _ => Ok(Source::Pinned(version_arg(v)?)),
            };
        }
        if self.merged {
            return Err(Error::new("`--merged` needs `--cuda FROM..TO`")
                .hint("write `--cuda 11.8..13.5 --merged`"));
        }
        if let Some(p) = &self.cuda_path {
            return Ok(Source::Toolkit((!p.is_empty()).then(|| PathBuf::from(p))));
        }
        if let Some(h) = &self.header {
            return Ok(Source::Files {
                header: h.clone(),
                typedefs: self.typedefs.clone(),
            });
        }
        Ok(Source::Default)
    }

    /// The libraries `--lib` names: one, several (`nvrtc,nvml`) or `all`.
    pub fn libraries(&self) -> Result<Vec<&'static crate::library::Library>, Error> {
        select_libraries(&self.lib)
    }

    /// The one library `--lib` names, where one is needed.
    pub fn library(&self) -> Result<&'static crate::library::Library, Error> {
        match self.libraries()?.as_slice() {
            [library] => Ok(*library),
            _ => Err(Error::new(format!(
                "`--lib {}` names several libraries, where one is needed",
                self.lib.escape_debug()
            ))
            .hint("only generate and doctor take several; name one library")),
        }
    }

    /// The options these flags describe, with every other option at its
    /// default; `--lib` must name one library.
    pub fn options(&self) -> Result<Options, Error> {
        self.options_for(self.library()?)
    }
}

#[cfg(feature = "cli")]
fn link_arg(text: &str) -> Result<Link, String> {
    text.parse::<Link>().map_err(|e| e.to_string())
}

#[cfg(feature = "cli")]
fn enum_style_arg(text: &str) -> Result<EnumStyle, String> {
    // clap says `error: invalid value ...` first.
    text.parse::<EnumStyle>()
        .map_err(|e| e.to_string().trim_start_matches("error: ").to_string())
}

#[cfg(feature = "cli")]
impl GenerateArgs {
    /// The options these flags describe; `--lib` must name one library.
    /// `--all` is the command line's own: it runs these options once per
    /// release.
    pub fn options(&self) -> Result<Options, Error> {
        self.options_for(self.source.library()?)
    }
}

#[cfg(feature = "cli")]
/// The recorded command, parsed as `cushim generate` would parse it.
#[derive(clap::Parser, Debug)]
#[command(name = "cushim", no_binary_name = false)]
struct Recorded {
    #[command(subcommand)]
    command: RecordedCommand,
}

#[cfg(feature = "cli")]
#[derive(clap::Subcommand, Debug)]
enum RecordedCommand {
    Generate(GenerateArgs),
}

#[cfg(feature = "cli")]
/// Parses `cushim generate ARGS...` into the flags it holds.
pub fn parse_generate<I, T>(words: I) -> Result<GenerateArgs, Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    use clap::Parser as _;
    let recorded = Recorded::try_parse_from(words)
        .map_err(|e| Error::new(e.to_string().trim_end().to_string()))?;
    let RecordedCommand::Generate(args) = recorded.command;
    Ok(args)
}

impl Options {
    /// The `cushim generate` arguments that give these options.
    /// `release` names the release `Source::Default` resolved to.
    pub fn args(&self, paths: Paths, release: Option<CudaVersion>) -> Vec<OsString> {
        self.flags(paths, release)
            .into_iter()
            .flat_map(|(name, value)| std::iter::once(OsString::from(name)).chain(value))
            .collect()
    }

    /// The `cushim generate` command that reproduces this output, written
    /// without absolute paths so that it is the same on every machine.
    pub fn command(&self, release: Option<CudaVersion>) -> String {
        let mut c = String::from("cushim generate");
        for (name, value) in self.flags(Paths::Recorded, release) {
            c.push(' ');
            c.push_str(name);
            if let Some(v) = value {
                let v = v.to_string_lossy();
                let always = matches!(name, "--allow" | "--block" | "--clang-arg")
                    || name.ends_with("-enum");
                // A value that starts with `-` is joined to its flag, so that
                // reading the command back cannot take it for a flag.
                c.push(if v.starts_with('-') && !always {
                    '='
                } else {
                    ' '
                });
                c.push_str(&shell_word(&v, always));
            }
        }
        c
    }

    /// The first flag these options set that is not in `served`. Example:
    /// `Some("--allow")`.
    #[cfg(not(feature = "emit"))]
    pub(crate) fn first_flag_besides(&self, served: &[&str]) -> Option<&'static str> {
        self.flags(Paths::Recorded, None)
            .into_iter()
            .map(|(name, _)| name)
            .find(|name| !served.contains(name))
    }

    /// Refuses a value that a generated file's provenance line cannot record:
    /// one with a control character (a newline would end the comment and
    /// inject code).
    pub fn check_recordable(&self) -> Result<(), Error> {
        for (name, value) in self.flags(Paths::Recorded, None) {
            let Some(value) = value else { continue };
            let value = value.to_string_lossy();
            if let Some(c) = value.chars().find(|c| c.is_control()) {
                return Err(Error::new(format!(
                    "`{name}` holds a control character ({c:?}), which a generated file's provenance line cannot record: {value:?}"
                ))
                .hint(format!("remove it from `{name}`")));
            }
        }
        Ok(())
    }

    /// Each flag with its value, in the order the command line writes them:
    /// each entry of the table of options at its rank.
    fn flags(
        &self,
        paths: Paths,
        release: Option<CudaVersion>,
    ) -> Vec<(&'static str, Option<OsString>)> {
        let mut written = Written {
            paths,
            release,
            rank: 0,
            flags: Vec::new(),
        };
        self.write_flags(&mut written);
        written.flags.sort_by_key(|(rank, _, _)| *rank);
        written
            .flags
            .into_iter()
            .map(|(_, name, value)| (name, value))
            .collect()
    }
}

/// The flags that an entry of the table of options writes for its field.
struct Written {
    /// How paths are written.
    paths: Paths,
    /// The release that `Source::Default` resolved to, if it is to be named.
    release: Option<CudaVersion>,
    /// The rank of the entry that writes now.
    rank: u32,
    /// Each flag with its entry's rank and its value.
    flags: Vec<(u32, &'static str, Option<OsString>)>,
}

impl Written {
    /// A flag with no value. Example: `--docs`.
    fn switch(&mut self, name: &'static str) {
        self.flags.push((self.rank, name, None));
    }

    /// A flag and its value. Example: `--stream per-thread`.
    fn value(&mut self, name: &'static str, value: impl Into<OsString>) {
        self.flags.push((self.rank, name, Some(value.into())));
    }

    /// A flag and a path, written as [`Paths`] says. Example: `--header api.h`.
    fn path(&mut self, name: &'static str, path: &Path) {
        let value = match self.paths {
            Paths::Exact => path.as_os_str().to_owned(),
            Paths::Recorded => path.file_name().map(Into::into).unwrap_or_default(),
        };
        self.value(name, value);
    }
}

/// `value` as one POSIX shell word, quoted as a recorded command quotes
/// (only where needed): what a command printed for pasting is built with.
pub fn shell_quote(value: &str) -> String {
    shell_word(value, false)
}

/// `value` as one POSIX shell word: as it is when every character is plain,
/// else in single quotes (each `'` written `'\\''`); `always` quotes regardless.
fn shell_word(value: &str, always: bool) -> String {
    let plain = !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-+=:,/@%".contains(c));
    if plain && !always {
        value.to_string()
    } else {
        format!("'{}'", value.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "cli")]
    fn round_trip(options: &Options) -> Options {
        let mut words: Vec<OsString> = vec!["cushim".into(), "generate".into()];
        words.extend(options.args(Paths::Exact, None));
        parse_generate(words.clone())
            .and_then(|a| a.options())
            .unwrap_or_else(|e| panic!("{words:?}: {e}"))
    }

    /// Every flag of `cushim generate` but `--all`: Builder → command line → Builder.
    #[cfg(feature = "cli")]
    #[test]
    fn every_flag_round_trips_through_the_command_line() {
        let v = |s: &str| s.parse::<CudaVersion>().unwrap();
        let sources = [
            Source::Default,
            Source::Pinned(v("12.9")),
            Source::Merged {
                from: v("11.8"),
                to: v("13.5"),
            },
            Source::Toolkit(None),
            Source::Toolkit(Some("/opt/cuda".into())),
            Source::Files {
                header: "dir/api.h".into(),
                typedefs: None,
            },
            Source::Files {
                header: "dir/api.h".into(),
                typedefs: Some("dir/apiTypedefs.h".into()),
            },
        ];
        for source in sources {
            let options = Options {
                source,
                ..Options::default()
            };
            assert_eq!(round_trip(&options), options);
        }
        let everything = Options {
            source: Source::Pinned(v("13.5")),
            out_dir: Some("out/dir".into()),
            languages: vec![Language::Cpp],
            allow: Some("^cu(Init|MemAlloc)".into()),
            block: Some("-x|Ctx".into()),
            clang_args: vec!["-DFOO=1".into(), "-I/opt/include".into()],
            docs: true,
            cpp_prefix: Some("cushim_".into()),
            resolve: Resolve::Dlsym,
            stream: StreamMode::PerThread,
            enums: EnumOptions {
                default_style: EnumStyle::Rust,
                rules: Vec::new(),
                prepend_name: false,
            },
            derives: Derives {
                partialeq: true,
                eq: true,
                hash: true,
                partialord: true,
                ord: true,
            },
            link: Link::Feature("with-driver".into()),
            library: &crate::library::NVRTC,
            deprecated_attributes: false,
            shared_types: false,
        };
        let mut everything = everything;
        for (i, style) in EnumStyle::PRECEDENCE.into_iter().rev().enumerate() {
            everything
                .enums
                .add_rule(style, format!("-CU{i}.*|cudaError_enum"));
        }
        assert_eq!(round_trip(&everything), everything);
        for style in EnumStyle::PRECEDENCE {
            let options = Options {
                enums: EnumOptions {
                    default_style: style,
                    ..EnumOptions::default()
                },
                ..Options::default()
            };
            assert_eq!(round_trip(&options), options);
        }
        for languages in [vec![Language::Rust], vec![Language::Cpp, Language::Rust]] {
            let options = Options {
                languages,
                ..Options::default()
            };
            assert_eq!(round_trip(&options), options);
        }
        for link in [Link::Lazy, Link::Linked, Link::Feature("a.b+c_d-e".into())] {
            let options = Options {
                link,
                ..Options::default()
            };
            assert_eq!(round_trip(&options), options);
        }
    }

    #[test]
    fn a_link_mode_is_lazy_linked_or_a_cargo_feature_name() {
        assert_eq!("linked".parse::<Link>().unwrap(), Link::Linked);
        assert_eq!(
            "feature=gpu".parse::<Link>().unwrap(),
            Link::Feature("gpu".into())
        );
        for bad in ["", "feature=", "feature=a\"b", "feature=x y", "static"] {
            let e = bad.parse::<Link>().unwrap_err().to_string();
            assert!(e.contains("invalid link mode"), "{bad}: {e}");
        }
    }

    #[test]
    fn the_recorded_command_has_no_paths_and_quotes_patterns() {
        let options = Options {
            source: Source::Files {
                header: "/abs/dir/api.h".into(),
                typedefs: Some("/abs/dir/t.h".into()),
            },
            allow: Some("cu.*".into()),
            clang_args: vec!["-DX".into()],
            stream: StreamMode::PerThread,
            out_dir: Some("/abs/out".into()),
            ..Options::default()
        };
        assert_eq!(
            options.command(None),
            "cushim generate --header api.h --typedefs t.h --allow 'cu.*' --clang-arg '-DX' --stream per-thread"
        );
        let toolkit = Options {
            source: Source::Toolkit(Some("/opt/cuda".into())),
            ..Options::default()
        };
        let dashed = Options {
            source: Source::Files {
                header: "/abs/-p.h".into(),
                typedefs: None,
            },
            ..Options::default()
        };
        assert_eq!(dashed.command(None), "cushim generate --header=-p.h");
        assert_eq!(
            toolkit.command(None),
            "cushim generate --cuda-path '<toolkit>'"
        );
        assert_eq!(
            Options::default().command(Some("13.5".parse().unwrap())),
            "cushim generate --cuda 13.5"
        );
    }

    #[test]
    #[cfg(feature = "emit")]
    fn enum_rules_follow_bindgens_precedence_and_match_whole_names() {
        let e = |name: &str| crate::c::Enum {
            name: name.into(),
            repr: crate::c::Builtin::UInt,
            constants: vec![("A".into(), 1)],
            aliases: Vec::new(),
            flags: false,
        };
        let enums = [
            e("cudaError_enum"),
            e("CUctx_flags_enum"),
            e("CUlimit_enum"),
        ];
        let mut options = EnumOptions {
            default_style: EnumStyle::Consts,
            ..EnumOptions::default()
        };
        // Added in the opposite order of their precedence.
        options.add_rule(EnumStyle::Rust, ".*".into());
        options.add_rule(EnumStyle::Bitfield, "CU.*_flags_enum".into());
        // A part of a name matches nothing.
        options.add_rule(EnumStyle::NewTypeGlobal, "CUlimit".into());
        assert_eq!(
            options.styles(&enums).unwrap(),
            [EnumStyle::Rust, EnumStyle::Bitfield, EnumStyle::Rust]
        );
        assert_eq!(options.rules[0].0, EnumStyle::Bitfield);
        options.add_rule(EnumStyle::Consts, "(".into());
        let e = options.styles(&enums).unwrap_err().to_string();
        assert!(e.contains("invalid --constified-enum regex `(`"), "{e}");
        assert!(e.contains("hint:"), "{e}");
    }

    #[test]
    fn enum_styles_have_bindgens_names_and_refuse_others_with_a_hint() {
        for style in EnumStyle::PRECEDENCE {
            assert_eq!(style.name().parse::<EnumStyle>().unwrap(), style);
        }
        let e = "moduleconsts".parse::<EnumStyle>().unwrap_err().to_string();
        assert!(
            e.contains("`moduleconsts`") && e.contains("use `consts`"),
            "{e}"
        );
        let e = "rustified".parse::<EnumStyle>().unwrap_err().to_string();
        assert!(
            e.contains("unknown enum style `rustified`") && e.contains("rust_non_exhaustive"),
            "{e}"
        );
    }

    #[test]
    fn hints_name_builder_methods_for_flags() {
        assert_eq!(
            with_builder_methods("pass an existing file, or use `--cuda <version>` to fetch"),
            "pass an existing file, or use `Builder::cuda_version` to fetch"
        );
        assert_eq!(
            with_builder_methods("write `--cuda 11.8..13.5 --merged`; or `--cuda-path <root>`"),
            "write `Builder::cuda_range`; or `Builder::cuda_path`"
        );
        assert_eq!(
            with_builder_methods("exclude it with `--block`; the syntax is `^cu(Init)`"),
            "exclude it with `Builder::blocklist`; the syntax is `^cu(Init)`"
        );
        assert_eq!(with_builder_methods("no backticks"), "no backticks");
        for (flag, method) in FLAG_METHODS {
            assert!(method.starts_with("Builder::"), "{flag}");
        }
    }

    #[cfg(feature = "cli")]
    #[test]
    fn bad_versions_and_a_lone_merged_are_errors() {
        for words in [
            &["cushim", "generate", "--cuda", "thirteen"][..],
            &["cushim", "generate", "--merged"],
            &["cushim", "generate", "--cuda", "13.5", "--merged"],
            &["cushim", "generate", "--cuda", "11.8..x", "--merged"],
        ] {
            let result = parse_generate(words.iter().copied()).and_then(|a| a.options());
            assert!(result.is_err(), "{words:?}");
        }
    }
}
