//! The Rust module: bindgen's types, the loader runtime, and one
//! `cushim_shim!` invocation per function.

use askama::Template;

use super::{File, Provenance};
use crate::diag::Error;
use crate::ir::{Api, Builtin, Enum, Function, Type};
use crate::options::{Derives, EnumStyle, Link, Options, Resolve, StreamMode};
use crate::runtime;
use crate::runtime::fields::{self, Field};
use crate::version::CudaVersion;
use cushim_runtime::LibraryInfo;

#[derive(Template)]
#[template(path = "rust/module.rs", escape = "none")]
struct Module<'a> {
    tool_version: &'a str,
    release: String,
    headers: &'a [String],
    command: &'a str,
    file_name: &'a str,
    rust_types: &'a str,
    /// What enums derive beyond `Copy`, `Clone`, `Hash`, `PartialEq` and
    /// `Eq` (bindgen's, for `--with-derive-ord`). Example: `, PartialOrd, Ord`.
    enum_derives: &'static str,
    /// The styles the enums come in. Example: `newtype`.
    enum_styles: String,
    enums: Vec<EnumItem>,
    status_type: String,
    /// The enum that holds the codes: `status_type`, or its code field's
    /// type when the status is a struct.
    codes_enum: String,
    /// The code field of a status struct (`err` of cuFile's `CUfileError_t`).
    status_field: Option<&'static str>,
    /// How the codes enum turns into codes and back.
    status: StatusShape,
    codes: crate::ir::Codes,
    /// How the comments name the library. Example: `cuBLAS`.
    label_text: &'static str,
    /// The header's major, which the library must report; 0 when any
    /// will do. Example: `13`.
    major: u32,
    /// `CUSHIM_INFO`'s fields, one a line ([`fields::rust_fields`]).
    info_fields: String,
    /// The CUDA runtime that hands out the functions (`--resolve
    /// runtime-entry-point`): `CUSHIM_RUNTIME_INFO`.
    runtime: Option<RuntimeInfo>,
    /// Whether the library has per-thread variants: then the module has the
    /// stream-mode functions. Example: `true` for the driver.
    has_streams: bool,
    /// What the include comment names the module. Example: `cublaslt`.
    module_name: String,
    /// A C name and its symbol, for the docs. Example: `cuMemAlloc`, `cuMemAlloc_v2`.
    example_name: String,
    example_symbol: String,
    shim_macro: &'static str,
    /// The link switches, one set per cfg: `(cfg attribute or "", linked?)`.
    link_arms: Vec<(String, bool)>,
    /// Example: `cuda` (`#[link(name = "cuda")]`).
    link_name: &'static str,
    /// Example: `--link feature=linked`.
    link_mode: String,
    statuses: Vec<StatusName>,
    /// `FUNCTIONS`' entries, each a function of one system with its `cfg`:
    /// `#[cfg(windows)] &__cushim_fn_cuWGLGetDevice`.
    function_list: Vec<String>,
    functions: Vec<Shim>,
    /// The objects the library exports, each read by a function of its name.
    variables: Vec<ShimParam>,
}

/// The library that hands out a module's functions: the CUDA runtime, for
/// a driver module generated with `--resolve runtime-entry-point`.
struct RuntimeInfo {
    /// Example: `CUDA runtime`.
    label_text: &'static str,
    /// The header's major, which the runtime must report. Example: `13`.
    major: u32,
    /// `CUSHIM_RUNTIME_INFO`'s fields, one a line ([`fields::rust_fields`]).
    fields: String,
}

/// What `LibraryInfo` literal's comments say of its `resolve` and
/// `default_stream` fields.
#[derive(Clone, Copy)]
enum Fields {
    /// The module's own library: what `--resolve` and `--stream` chose.
    Own {
        /// Whether the library has per-thread variants.
        has_streams: bool,
    },
    /// The library that hands the module's out (the CUDA runtime): its own
    /// functions are never called through these.
    HandsOut,
}

/// A `cushim_runtime::LibraryInfo` literal's values, each a Rust
/// expression: what `CUSHIM_INFO` and `CUSHIM_RUNTIME_INFO` print, laid out
/// by [`fields::rust_fields`].
struct RustInfo<'a> {
    /// The runtime's description on each system: the module picks with
    /// `cfg!(windows)` where the two differ.
    unix: &'a LibraryInfo,
    windows: &'a LibraryInfo,
    /// The codes' values, in `cushim_runtime::Codes`' order.
    codes: [i64; 7],
    /// The status names of the first five codes ([`code_names`]).
    code_names: [&'a str; 5],
    /// Example: `ProcAddress`.
    resolve: &'a str,
    /// Example: `Legacy`.
    stream: &'a str,
    kind: Fields,
}

/// `&["a", "b"]`.
fn str_list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("{i:?}")).collect();
    format!("&[{}]", quoted.join(", "))
}

/// `c"name"`.
fn c_literal(c: &std::ffi::CStr) -> String {
    format!("c{:?}", c.to_string_lossy())
}

impl fields::Values for RustInfo<'_> {
    #[deny(clippy::wildcard_enum_match_arm)]
    fn value(&self, field: Field) -> Option<String> {
        let (unix, windows) = (self.unix, self.windows);
        // Lists: one expression, `if cfg!(windows)` when the systems' differ.
        let per_system = |pick: fn(&LibraryInfo) -> &'static [&'static str]| {
            let (unix, windows) = (str_list(pick(unix)), str_list(pick(windows)));
            if unix == windows {
                unix
            } else {
                format!("if cfg!(windows) {{ {windows} }} else {{ {unix} }}")
            }
        };
        Some(match field {
            Field::Label => format!("{:?}", unix.label),
            Field::ShortName => format!("{:?}", unix.short_name),
            Field::Product => format!("{:?}", unix.product),
            Field::Install => format!("{:?}", unix.install),
            Field::OverrideVar => format!("{:?}", unix.override_var),
            Field::Names => per_system(|i| i.names),
            Field::VersionFunction => c_literal(unix.version_function),
            // The runtime's own variant name: `Number`, `MajorMinor`, ...
            Field::VersionQuery => {
                format!("cushim_runtime::VersionQuery::{:?}", unix.version_query)
            }
            Field::Stub => unix
                .stub_code
                .map_or_else(|| "None".into(), |c| format!("Some({c})")),
            Field::ProcAddress => match unix.proc_address {
                Some((v2, v1)) => format!("Some(({}, {}))", c_literal(v2), c_literal(v1)),
                None => "None".into(),
            },
            Field::Major => unix.major.to_string(),
            Field::WheelDirs => unix
                .wheel_dirs
                .map_or_else(|| "None".into(), |dirs| format!("Some({})", str_list(dirs))),
            Field::ToolkitSubdirs => str_list(unix.toolkit_subdirs),
            Field::Preload => per_system(|i| i.preload),
            Field::Required => per_system(|i| i.required),
            Field::BuiltFor => match unix.built_for {
                Some((f, major)) => format!("Some(({}, {major}))", c_literal(f)),
                None => "None".into(),
            },
            Field::Siblings => per_system(|i| i.siblings),
            Field::Family => per_system(|i| i.family),
            Field::Codes => {
                let [library_not_found, symbol_not_found, stub_library, too_old, not_initialized, success, invalid_value] =
                    self.codes;
                format!(
                    "cushim_runtime::Codes {{
        library_not_found: {library_not_found},
        symbol_not_found: {symbol_not_found},
        stub_library: {stub_library},
        too_old: {too_old},
        not_initialized: {not_initialized},
        success: {success},
        invalid_value: {invalid_value},
    }}"
                )
            }
            Field::Resolve => format!("cushim_runtime::Resolve::{}", self.resolve),
            Field::DefaultStream => format!("cushim_runtime::StreamMode::{}", self.stream),
            Field::Abi
            | Field::ToolkitSearch
            | Field::BuiltForMajor
            | Field::Driver
            | Field::Functions
            | Field::Count
            | Field::Aliases
            | Field::Statuses
            | Field::StatusCount
            | Field::State
            | Field::States
            | Field::Slots
            | Field::Thread
            | Field::Variables
            | Field::VariableCount => return None,
        })
    }

    fn note(&self, field: Field) -> Option<String> {
        match (field, self.kind) {
            // A library without a status type (NVTX) names no constant.
            (Field::Codes, _) if self.code_names.iter().all(|c| c.is_empty()) => Some(format!(
                "{} has no status type: no call answers these.",
                self.unix.label
            )),
            (Field::Codes, _) => {
                let names: Vec<String> = self.code_names.iter().map(|c| format!("`{c}`")).collect();
                Some(format!(
                    "What a call that never reached the library returns: the values of\n{}.",
                    names.join(", ")
                ))
            }
            (Field::Resolve, Fields::Own { .. }) => Some("`--resolve` at generation time.".into()),
            (Field::DefaultStream, Fields::Own { has_streams }) => Some(format!(
                "`--stream` at generation time{}.",
                if has_streams {
                    ""
                } else {
                    " (this library has no per-thread variants)"
                }
            )),
            (Field::Resolve, Fields::HandsOut) => {
                Some("Its own search finds it; only its entry point is called.".into())
            }
            (Field::DefaultStream, Fields::HandsOut) => {
                Some("Unread: the module's own stream mode picks the variants.".into())
            }
            _ => None,
        }
    }
}

/// `CUSHIM_RUNTIME_INFO`: the CUDA runtime of headers of `major`, which
/// hands out the driver's functions.
fn runtime_info(major: u32) -> Result<RuntimeInfo, Error> {
    let cudart = &crate::library::CUDART;
    let (unix, windows) = runtime::runtime_infos(major)?;
    let c = runtime::codes(cudart);
    Ok(RuntimeInfo {
        label_text: cudart.words.label,
        major: unix.major,
        fields: fields::rust_fields(&RustInfo {
            unix,
            windows,
            codes: [
                c.library_not_found,
                c.symbol_not_found,
                c.stub_library,
                c.too_old,
                c.not_initialized,
                c.success,
                c.invalid_value,
            ]
            .map(i64::from),
            code_names: code_names(&cudart.codes),
            resolve: "ProcAddress",
            stream: "Legacy",
            kind: Fields::HandsOut,
        }),
    })
}

/// The status names of `codes`, in `cushim_runtime::Codes`' order.
fn code_names(codes: &crate::library::LoaderCodes) -> [&'static str; 5] {
    [
        codes.library_not_found.name,
        codes.symbol_not_found.name,
        codes.stub_library.name,
        codes.too_old.name,
        codes.not_initialized.name,
    ]
}

/// One enum in its style, as Rust fragments.
struct EnumItem {
    /// Example: `cudaError_enum`.
    name: String,
    /// `::core::ffi::c_uint` (newtype, constants) or `u32` (Rust enum).
    repr: String,
    rust_enum: bool,
    non_exhaustive: bool,
    newtype: bool,
    /// Newtype constants outside the type (`newtype_global`).
    global: bool,
    /// `|`, `|=`, `&`, `&=`, and `Debug` as `A | B` (bitfield, or a flag enum as a newtype).
    bit_ops: bool,
    /// Each constant: a Rust enum's variants are the first of each value.
    constants: Vec<EnumConst>,
    /// A Rust enum's later constants of a value: `value` names the variant.
    duplicates: Vec<EnumConst>,
    /// A newtype's `Debug` table: each value once, with its first C name.
    names: Vec<DebugName>,
}

/// `CUDA_SUCCESS` (or `cudaError_enum_CUDA_SUCCESS`) and its value `0`.
struct EnumConst {
    rust_name: String,
    value: String,
}

/// A value and the C name `Debug` prints for it.
struct DebugName {
    value: String,
    name: String,
}

/// What the status type is, for `cushim_runtime::Status`.
enum StatusShape {
    /// `CUresult(code)`, `.0`.
    NewType,
    /// A plain integer (`consts`, or a status that is no enum).
    Integer,
    /// A Rust enum: each listed value to its variant, any other to `fallback`.
    RustEnum {
        arms: Vec<(u32, String)>,
        fallback: String,
    },
}

/// One status constant as Rust literals: `1`, `c"CUDA_ERROR_INVALID_VALUE"`, `c"invalid value"`.
struct StatusName {
    code: i64,
    name: String,
}

/// Everything one macro invocation needs, as Rust source fragments.
struct Shim {
    attrs: Vec<String>,
    /// The Rust name: the symbol, unless a C name of a newer variant took it.
    symbol: String,
    /// `c"cuDeviceGetUuid"`: what the library exports.
    export_lit: String,
    /// The first release of a merged module that declared it, e.g. `11080`; 0 otherwise.
    since: u32,
    /// `__cushim_fn_cuMemAlloc_v2`: the shim's static, its facts and its slot.
    function_static: String,
    params: Vec<ShimParam>,
    ret: String,
    name_lit: String,
    proc_lit: String,
    version: u32,
    /// `c"cuMemcpyHtoD_v2_ptds", 7000`, or empty.
    per_thread: String,
    /// What the linked mode calls: `cuMemcpyHtoD_v2, cuMemcpyHtoD_v2_ptds`.
    link: String,
    /// `#[cfg(windows)]` and a line break for a function of one system, or empty.
    cfg: String,
    /// `status`: returns the status; `value`: returns a value (zero
    /// without the library); `answer`: a value with a fallback.
    returns: &'static str,
    /// `name error, pStr` or `name result` for a status's text function
    /// (it answers the status's C name without the library),
    /// `zero` for a value function, or empty.
    fallback: String,
    aliases: Vec<String>,
    /// The macro's short form: the C name is the symbol, the export and the
    /// lookup name, with no ABI version or twin.
    compact: bool,
}

struct ShimParam {
    name: String,
    ty: String,
}

/// Bindgen's `types` (generated with every derive it can make) with the
/// derive list of each C struct and union keeping only the traits `derives`
/// asks for. An enum's newtype (a tuple struct) keeps `Hash`, `PartialEq`
/// and `Eq` whatever is asked, as bindgen's do, and so does the struct
/// `status` names (or its typedef: `CUfileError_t` is `CUfileError`), which
/// the typed layer compares; bindgen's generic helpers keep their fixed lists.
fn with_derives(types: &str, derives: Derives, status: Option<&str>) -> String {
    let status_structs: Vec<&str> = status
        .into_iter()
        .flat_map(|name| {
            let alias = format!("pub type {name} = ");
            let target = types.lines().find_map(|l| {
                l.trim_start()
                    .strip_prefix(alias.as_str())
                    .and_then(|t| t.strip_suffix(';'))
            });
            std::iter::once(name).chain(target)
        })
        .collect();
    let lines: Vec<&str> = types.split_inclusive('\n').collect();
    let mut out = String::with_capacity(types.len());
    for (at, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let Some(list) = trimmed
            .strip_prefix("#[derive(")
            .and_then(|l| l.trim_end().strip_suffix(")]"))
        else {
            out.push_str(line);
            continue;
        };
        // The item the attribute is on: the next line that is no attribute.
        let item = lines[at + 1..]
            .iter()
            .map(|l| l.trim_start())
            .find(|l| !l.starts_with("#["))
            .unwrap_or_default();
        // `{` after the name: a C struct or union; `(`: an enum's newtype.
        let named = ["pub struct ", "pub union "].iter().find_map(|kind| {
            let rest = item.strip_prefix(kind)?;
            let name_end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            Some((
                &rest[..name_end],
                rest[name_end..].trim_start().chars().next(),
            ))
        });
        let is_status = named.is_some_and(|(name, _)| status_structs.contains(&name));
        let after_name = named.and_then(|(_, after)| after);
        let keeps = |t: &&str| match after_name {
            Some('{') if is_status => matches!(*t, "PartialEq" | "Eq") || derives.keeps(t),
            Some('{') => derives.keeps(t),
            Some('(') => matches!(*t, "Hash" | "PartialEq" | "Eq") || derives.keeps(t),
            _ => true,
        };
        let kept: Vec<&str> = list.split(',').map(str::trim).filter(keeps).collect();
        out.push_str(&line[..line.len() - trimmed.len()]);
        out.push_str(&format!("#[derive({})]", kept.join(", ")));
        out.push_str(&trimmed[trimmed.trim_end().len()..]);
    }
    out
}

/// Renders `api` as one self-contained Rust module named `file_name`.
pub fn emit(
    api: &Api,
    rust_types: &str,
    provenance: &Provenance,
    file_name: &str,
    options: &Options,
) -> Result<File, Error> {
    // The entry points that compiled code calls (cudart's registration) are
    // the C++ pair's: the module exports no C symbols to link them to.
    let api = &api.without_compiler_entries();
    let status_type = super::status_type(api)?;
    let styles = options.enums.styles(&api.enums)?;
    let enums: Vec<EnumItem> = api
        .enums
        .iter()
        .zip(&styles)
        .map(|(e, style)| enum_item(e, *style, options.enums.prepend_name))
        .collect();
    let status_field = api.library.parse.status_field;
    let codes_enum = match status_field {
        Some(f) => f.codes.to_string(),
        None => status_type.clone(),
    };
    let status = match api
        .enums
        .iter()
        .zip(&styles)
        .find(|(e, _)| e.is_named(&codes_enum))
    {
        Some((e, style)) if style.is_rust_enum() => status_arms(e, api.codes.invalid_value),
        Some((_, EnumStyle::Consts)) | None => StatusShape::Integer,
        Some(_) => StatusShape::NewType,
    };
    let mut used: Vec<EnumStyle> = EnumStyle::PRECEDENCE
        .into_iter()
        .filter(|s| styles.contains(s))
        .collect();
    if used.is_empty() {
        used.push(options.enums.default_style);
    }
    let used: Vec<&str> = used.iter().map(|s| s.name()).collect();
    // A C name that differs from its export shows best what `function` takes.
    let example = api
        .functions
        .iter()
        .find(|f| f.name != f.symbol)
        .or(api.functions.first());
    // A status struct compares as the typed layer needs, whatever is asked.
    let rust_types = with_derives(
        rust_types,
        options.derives,
        status_field.map(|_| status_type.as_str()),
    );
    // The structs declared only: the runtime's, shared by every module.
    let shared: &[&str] = if options.shared_types {
        cushim_runtime::opaque::TAGS
    } else {
        &[]
    };
    let rust_types = runtime::opaque::share(&rust_types, shared);
    let major = api.header_major()?;
    let unix = runtime::library_info(&api.library, major, false);
    let has_streams = api.library.parse.per_thread_define.is_some();
    let runtime = match options.resolve {
        Resolve::RuntimeEntryPoint => Some(runtime_info(major)?),
        Resolve::ProcAddress | Resolve::Dlsym => None,
    };
    let module = Module {
        tool_version: &provenance.tool_version,
        release: provenance.release.to_string(),
        headers: &provenance.headers,
        command: &provenance.command,
        file_name,
        rust_types: rust_types.trim_end(),
        enum_derives: options.derives.enum_extra(),
        enum_styles: match used.as_slice() {
            [.., last] if used.len() > 1 => {
                format!("{} and {last}", used[..used.len() - 1].join(", "))
            }
            _ => used.join(""),
        },
        enums,
        status_type: status_type.clone(),
        codes_enum,
        status_field: status_field.map(|f| f.field),
        status,
        codes: api.codes,
        label_text: unix.label,
        major: unix.major,
        info_fields: fields::rust_fields(&RustInfo {
            unix,
            windows: runtime::library_info(&api.library, major, true),
            codes: [
                api.codes.library_not_found,
                api.codes.symbol_not_found,
                api.codes.stub_library,
                api.codes.too_old,
                api.codes.not_initialized,
                api.codes.success,
                api.codes.invalid_value,
            ],
            code_names: code_names(&api.loader_codes()),
            resolve: match options.resolve {
                Resolve::ProcAddress => "ProcAddress",
                Resolve::Dlsym => "Dlsym",
                Resolve::RuntimeEntryPoint => "RuntimeEntryPoint(&CUSHIM_RUNTIME_INFO)",
            },
            stream: match options.stream {
                StreamMode::Legacy => "Legacy",
                StreamMode::PerThread => "PerThread",
            },
            kind: Fields::Own { has_streams },
        }),
        runtime,
        has_streams,
        module_name: file_name
            .strip_suffix(".rs")
            .unwrap_or(file_name)
            .to_ascii_lowercase(),
        example_name: example.map_or_else(String::new, |f| f.name.clone()),
        example_symbol: example.map_or_else(String::new, |f| f.symbol.clone()),
        shim_macro: runtime::RUST_SHIM_MACRO.trim_end(),
        link_arms: match &options.link {
            Link::Lazy => vec![(String::new(), false)],
            Link::Linked => vec![(String::new(), true)],
            Link::Feature(f) => vec![
                (format!("#[cfg(feature = {f:?})]\n"), true),
                (format!("#[cfg(not(feature = {f:?}))]\n"), false),
            ],
        },
        link_name: api.library.link_name,
        link_mode: options.link.name(),
        statuses: api
            .status_codes
            .iter()
            .map(|c| StatusName {
                code: c.value,
                name: format!("c{:?}", c.name),
            })
            .collect(),
        function_list: api
            .functions
            .iter()
            .map(|f| match f.platform.as_deref() {
                Some(system) => format!("#[cfg({system})] &{}", function_static(f)),
                None => format!("&{}", function_static(f)),
            })
            .collect(),
        variables: api
            .variables
            .iter()
            .map(|v| ShimParam {
                name: v.name.clone(),
                ty: rust_type(&v.ty),
            })
            .collect(),
        functions: {
            // In a merged module an old variant's symbol can be a newer variant's C
            // name (`cuDeviceGetUuid`): the C name wins, and the variant goes by the
            // name the merge gave it (`cuDeviceGetUuid_v9020`).
            let taken: std::collections::BTreeSet<&str> = api
                .functions
                .iter()
                .flat_map(|f| f.c_names_besides_symbol())
                .collect();
            api.functions
                .iter()
                .map(|f| shim(f, options, &status_type, taken.contains(f.symbol.as_str())))
                .collect()
        },
    };
    let mut contents = module
        .render()
        .map_err(|e| Error::new(format!("rendering the Rust template failed: {e}")))?;
    if !contents.ends_with('\n') {
        contents.push('\n');
    }
    Ok(File {
        name: file_name.to_string(),
        contents,
    })
}

/// The name of `f`'s metadata static. Example: `__cushim_fn_cuMemAlloc_v2`.
fn function_static(f: &Function) -> String {
    format!("__cushim_fn_{}", f.symbol)
}

/// `e` in `style`, as bindgen would spell it, plus the `Debug` that names
/// values and, for flags, the bit operators.
fn enum_item(e: &Enum, style: EnumStyle, prepend_name: bool) -> EnumItem {
    let rust_enum = style.is_rust_enum();
    let newtype = matches!(
        style,
        EnumStyle::NewType | EnumStyle::NewTypeGlobal | EnumStyle::Bitfield
    );
    // Constants outside the type carry its name first, as bindgen's do.
    let global = matches!(style, EnumStyle::NewTypeGlobal | EnumStyle::Consts);
    let unsigned = !matches!(
        e.repr,
        Builtin::SChar
            | Builtin::Short
            | Builtin::Int
            | Builtin::Long
            | Builtin::LongLong
            | Builtin::I8
            | Builtin::I16
            | Builtin::I32
            | Builtin::I64
            | Builtin::Isize
    );
    let literal = |v: i64| {
        if unsigned {
            // An unsigned value above `i64::MAX` is stored bit for bit.
            (v as u64).to_string()
        } else {
            v.to_string()
        }
    };
    let rust_name = |c: &str| {
        if global && prepend_name {
            format!("{}_{c}", e.name)
        } else {
            c.to_string()
        }
    };
    let mut constants = Vec::new();
    let mut duplicates = Vec::new();
    let mut names: Vec<DebugName> = Vec::new();
    let mut firsts: Vec<(i64, &str)> = Vec::new();
    for (c, v) in &e.constants {
        match firsts.iter().find(|(value, _)| value == v) {
            Some((_, first)) if rust_enum => duplicates.push(EnumConst {
                rust_name: c.clone(),
                value: (*first).to_string(),
            }),
            Some(_) => constants.push(EnumConst {
                rust_name: rust_name(c),
                value: literal(*v),
            }),
            None => {
                firsts.push((*v, c));
                names.push(DebugName {
                    value: literal(*v),
                    name: c.clone(),
                });
                constants.push(EnumConst {
                    rust_name: rust_name(c),
                    value: literal(*v),
                });
            }
        }
    }
    if rust_enum && constants.is_empty() {
        // As bindgen: `repr` needs a variant.
        constants.push(EnumConst {
            rust_name: "__bindgen_cannot_repr_c_on_empty_enum".into(),
            value: "0".into(),
        });
    }
    EnumItem {
        name: e.name.clone(),
        repr: if rust_enum {
            rust_repr(e.repr, unsigned).to_string()
        } else {
            builtin(e.repr).to_string()
        },
        rust_enum,
        non_exhaustive: style == EnumStyle::RustNonExhaustive,
        newtype,
        global: style == EnumStyle::NewTypeGlobal,
        bit_ops: style == EnumStyle::Bitfield || (newtype && e.flags),
        constants,
        duplicates,
        names,
    }
}

/// The primitive a Rust enum's `repr` names for C's integer type.
fn rust_repr(b: Builtin, unsigned: bool) -> &'static str {
    let bytes = match b {
        Builtin::Bool
        | Builtin::Char
        | Builtin::SChar
        | Builtin::UChar
        | Builtin::I8
        | Builtin::U8 => 1,
        Builtin::Short | Builtin::UShort | Builtin::I16 | Builtin::U16 => 2,
        Builtin::Long | Builtin::ULong | Builtin::LongLong | Builtin::ULongLong => 8,
        Builtin::I64 | Builtin::U64 | Builtin::Usize | Builtin::Isize => 8,
        _ => 4,
    };
    match (bytes, unsigned) {
        (1, true) => "u8",
        (1, false) => "i8",
        (2, true) => "u16",
        (2, false) => "i16",
        (8, true) => "u64",
        (8, false) => "i64",
        (_, true) => "u32",
        (_, false) => "i32",
    }
}

/// The status enum as a Rust enum: a code to its variant, and a code the
/// header does not list to the invalid-value variant (else the first).
fn status_arms(e: &Enum, invalid_value: i64) -> StatusShape {
    let mut arms: Vec<(u32, String)> = Vec::new();
    for (name, value) in &e.constants {
        if let Ok(code) = u32::try_from(*value) {
            if !arms.iter().any(|(c, _)| *c == code) {
                arms.push((code, name.clone()));
            }
        }
    }
    let fallback = e
        .constants
        .iter()
        .find(|(_, v)| *v == invalid_value)
        .or(e.constants.first())
        .map_or_else(String::new, |(n, _)| n.clone());
    StatusShape::RustEnum { arms, fallback }
}

fn shim(f: &Function, options: &Options, status_type: &str, renamed: bool) -> Shim {
    let names = rust_param_names(f);
    let mut attrs = Vec::new();
    if options.docs {
        if let Some(d) = &f.doc {
            attrs.push(format!("#[doc = {:?}]", d));
        }
    }
    if f.deprecated && options.deprecated_attributes {
        attrs.push("#[deprecated(note = \"deprecated in the CUDA header\")]".to_string());
    }
    let compact = !renamed
        && f.name == f.symbol
        && f.proc_name == f.symbol
        && f.version.is_none()
        && f.introduced.is_none()
        && f.per_thread.is_none();
    Shim {
        compact,
        attrs,
        symbol: if renamed {
            f.name.clone()
        } else {
            f.symbol.clone()
        },
        export_lit: format!("c{:?}", f.symbol),
        since: f.introduced.map_or(0, CudaVersion::number),
        function_static: function_static(f),
        params: names
            .iter()
            .cloned()
            .zip(&f.params)
            .map(|(name, p)| ShimParam {
                name,
                ty: rust_type(&p.ty),
            })
            .collect(),
        ret: rust_type(&f.ret),
        name_lit: format!("{:?}", f.name),
        proc_lit: format!("c{:?}", f.proc_name),
        version: f.version.map_or(0, CudaVersion::number),
        per_thread: f
            .per_thread
            .as_ref()
            .map(|t| {
                let version = t.version.map_or(0, CudaVersion::number);
                format!("c{:?}, {version}", t.symbol)
            })
            .unwrap_or_default(),
        cfg: f
            .platform
            .as_ref()
            .map(|p| format!("#[cfg({p})]\n"))
            .unwrap_or_default(),
        link: std::iter::once(f.symbol.as_str())
            .chain(f.per_thread.as_ref().map(|t| t.symbol.as_str()))
            .collect::<Vec<_>>()
            .join(", "),
        returns: if f.returns_status(status_type) {
            "status"
        } else if f.fallback {
            "answer"
        } else {
            "value"
        },
        fallback: match f.fallback_args() {
            // The fallback's parameters are exactly `(code, out)` or `(code)`.
            Some((_, Some(_))) => format!("name {}, {}", names[0], names[1]),
            Some((_, None)) => format!("name {}", names[0]),
            None if !f.returns_status(status_type) => "zero".into(),
            None => String::new(),
        },
        aliases: f
            .c_names_besides_symbol()
            .into_iter()
            .filter(|n| !(renamed && *n == f.name))
            .map(String::from)
            .collect(),
    }
}

const KEYWORDS: &[&str] = &[
    "as", "async", "await", "box", "break", "const", "continue", "crate", "dyn", "else", "enum",
    "extern", "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod",
    "move", "mut", "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait",
    "true", "try", "type", "unsafe", "use", "where", "while", "yield", "abstract", "become", "do",
    "final", "macro", "override", "priv", "typeof", "unsized", "virtual",
];

/// The Rust names of `f`'s parameters: a Rust keyword gets trailing
/// underscores (`type` → `type_`) until no other parameter has the name.
fn rust_param_names(f: &Function) -> Vec<String> {
    let mut names: Vec<String> = Vec::with_capacity(f.params.len());
    for p in &f.params {
        let mut name = p.name.clone();
        if KEYWORDS.contains(&name.as_str()) {
            name.push('_');
            while names.contains(&name) || f.params.iter().any(|q| q.name == name) {
                name.push('_');
            }
        }
        names.push(name);
    }
    names
}

fn builtin(b: Builtin) -> &'static str {
    match b {
        Builtin::Void => "()",
        Builtin::Bool => "bool",
        Builtin::Char => "::core::ffi::c_char",
        Builtin::SChar => "::core::ffi::c_schar",
        Builtin::UChar => "::core::ffi::c_uchar",
        Builtin::Short => "::core::ffi::c_short",
        Builtin::UShort => "::core::ffi::c_ushort",
        Builtin::Int | Builtin::WChar => "::core::ffi::c_int",
        Builtin::UInt => "::core::ffi::c_uint",
        Builtin::Long => "::core::ffi::c_long",
        Builtin::ULong => "::core::ffi::c_ulong",
        Builtin::LongLong => "::core::ffi::c_longlong",
        Builtin::ULongLong => "::core::ffi::c_ulonglong",
        Builtin::Float => "f32",
        Builtin::Double => "f64",
        Builtin::Usize => "usize",
        Builtin::Isize => "isize",
        Builtin::I8 => "i8",
        Builtin::I16 => "i16",
        Builtin::I32 => "i32",
        Builtin::I64 => "i64",
        Builtin::U8 => "u8",
        Builtin::U16 => "u16",
        Builtin::U32 => "u32",
        Builtin::U64 => "u64",
    }
}

/// The Rust spelling of an IR type, as it appears in a signature.
pub fn rust_type(t: &Type) -> String {
    match t {
        Type::Builtin(b) => builtin(*b).to_string(),
        Type::Named(n) => n.clone(),
        Type::Pointer { is_const, pointee } => {
            let inner = match **pointee {
                Type::Builtin(Builtin::Void) => "::core::ffi::c_void".to_string(),
                ref p => rust_type(p),
            };
            format!("*{} {inner}", if *is_const { "const" } else { "mut" })
        }
        Type::FnPointer { ret, params } => {
            let params: Vec<String> = params.iter().map(rust_type).collect();
            let ret = match **ret {
                Type::Builtin(Builtin::Void) => String::new(),
                ref r => format!(" -> {}", rust_type(r)),
            };
            format!(
                "::core::option::Option<unsafe extern \"C\" fn({}){ret}>",
                params.join(", ")
            )
        }
    }
}
