//! The C++ pair: a C-compatible status header and a source file that defines
//! every function of a library with the exact prototype of the real header, so
//! that a C or C++ program links it instead of `-l<library>`; and the runtime
//! pair (`cushim_runtime.h`, `cushim_runtime.cpp`), the same bytes for every
//! library, that a program compiles once whatever the number of pairs.

use askama::Template;

use super::{File, Provenance};
use crate::diag::Error;
use crate::ir::{Api, Function};
use crate::options::{Link, Options, Resolve, StreamMode};
use crate::runtime;
use crate::runtime::fields::{self, Field};
use crate::version::CudaVersion;
use cushim_runtime as loader;

#[derive(Template)]
#[template(path = "cpp/shim.h", escape = "none")]
struct Header<'a> {
    provenance: &'a Provenance,
    guard: String,
    api: String,
    api_upper: String,
    /// How the comments name the library. Example: `NVRTC`.
    label: &'static str,
    has_stub: bool,
    /// Whether the stream-mode API is declared (a library with per-thread
    /// variants, or a lookup by ABI version).
    driver: bool,
    /// Whether the library has a lookup by ABI version (`cuGetProcAddress`),
    /// whose "version not sufficient" status is declared.
    version_lookup: bool,
    /// How the stream-mode comment names a call of the library. Example: `driver`.
    short: &'static str,
    /// Example: `CUSHIM_PER_THREAD_DEFAULT_STREAM`.
    stream_var: &'static str,
    /// A function's C name, for the comments. Example: `cuMemAlloc`.
    example: String,
    /// The version the header's major reports. Example: `13000`.
    example_version: u32,
    /// Example: `13.0`.
    example_release: String,
    /// Example: `libnvrtc.so.13`.
    example_path: String,
    /// The main header. Example: `cupti.h`.
    api_header: &'a str,
    /// The macros that the headers, read for Windows, spell as only MSVC
    /// reads, as one list for the comment; empty when none.
    /// Example: `START_PACKED_ALIGNMENT, PACKED_ALIGNMENT`.
    msvc_macros: String,
}

#[derive(Template)]
#[template(path = "cpp/shim.cpp", escape = "none")]
struct Source<'a> {
    provenance: &'a Provenance,
    api_header: &'a str,
    shim_header: &'a str,
    api: String,
    api_upper: String,
    status_type: &'a str,
    /// The objects the library exports: `(name, C++ type)`.
    variables: Vec<(String, String)>,
    /// Those of them that the header declares `__declspec(dllimport)` on
    /// Windows, by name.
    imported_variables: Vec<String>,
    /// The stubs of the functions that the header declares
    /// `__declspec(dllimport)` on Windows, whose pointers `__imp_<export>`
    /// the pair defines there: `(export, condition)` ([`Shim::condition`]).
    /// None with a prefix, whose exports are not the header's names.
    imports: Vec<(String, Option<String>)>,
    /// Whether every stub can be assembly, so that the pair reads no header
    /// of the library where it is (no C++ stub, exported object or status
    /// struct needs the library's types).
    untyped: bool,
    /// The code field of a status struct and its enum. Example: `err`,
    /// `CUfileOpError` (cuFile's `CUfileError_t`).
    status_struct: Option<(&'static str, &'static str)>,
    /// Example: `NVRTC`.
    label: &'static str,
    /// Example: `nvrtc` (`-lnvrtc`).
    link_name: &'static str,
    /// The define that switches the header to per-thread names, if any.
    /// Example: `CUDA_API_PER_THREAD_DEFAULT_STREAM`.
    /// Macros the header is read with. Example: `NVTX_NO_IMPL`.
    defines: &'static [&'static str],
    per_thread_define: Option<&'static str>,
    /// The library's file-name arrays ([`CppLibrary::arrays`]).
    arrays: String,
    /// `cushim_this`, the library's description ([`CppLibrary::literal`]).
    this_literal: String,
    has_stub: bool,
    /// The driver's own settings, for the driver only.
    driver: Option<CppDriver>,
    /// As [`Header`]'s.
    version_lookup: bool,
    /// The comment above the function table.
    row_legend: String,
    /// The macro of the functions' calling convention. Example: `CUDAAPI`.
    calling_convention: &'static str,
    prefix: Option<&'a str>,
    linked: bool,
    /// The compiler's headers that declare more entry points, by include
    /// path, when some of those are defined here. Example: `crt/host_runtime.h`.
    compiler_headers: Vec<&'static str>,
    /// The structs those entry points name that the pair's headers do not
    /// declare, declared incomplete (they are only pointed to). Example:
    /// `textureReference` (from CUDA 12.0).
    incomplete: Vec<String>,
    table: Vec<Row>,
    /// Each other C name with its symbol, as C string literals.
    aliases: Vec<(String, String)>,
    /// `(row macro, define)` for each system some function needs.
    systems: Vec<(String, String)>,
    shims: Vec<Shim>,
    statuses: Vec<StatusName>,
    /// The library's other headers, included where the system has them.
    optional: Vec<Optional>,
}

/// What only the driver's pair carries: its lookup by ABI version and its
/// per-thread default stream. C++ literals.
struct CppDriver {
    /// Literals or `nullptr` (`--resolve dlsym`).
    proc_address: (String, String),
    per_thread_by_default: bool,
    /// Example: `CUSHIM_PER_THREAD_DEFAULT_STREAM`.
    stream_var: &'static str,
    stream_var_literal: String,
    /// Items followed by `, `.
    stream_on: String,
    stream_off: String,
    /// What --resolve and --stream chose, in words.
    comment: String,
    /// The CUDA runtime that hands out the driver's functions (`--resolve
    /// runtime-entry-point`).
    runtime: Option<CppRuntime>,
}

/// The library that hands out the driver's functions: its description as
/// `cushim_runtime_library`, written as the pair's own is.
struct CppRuntime {
    /// Example: `CUDA runtime`.
    label: &'static str,
    arrays: String,
    literal: String,
}

/// What a `cushim::LibraryInfo` literal holds besides the description: the
/// pair's own tables, or none (the library that hands the driver out).
struct Tables<'a> {
    driver: &'a str,
    functions: &'a str,
    count: &'a str,
    states: &'a str,
    slots: &'a str,
    /// The objects it exports. Example: `CUSHIM_VARIABLES`.
    variables: &'a str,
    /// Example: `CUSHIM_VARIABLE_COUNT`.
    variable_count: &'a str,
}

/// A header besides the main one: its functions are defined (and checked)
/// only where the compiler finds it and what it needs (`GL/gl.h`).
struct Optional {
    /// Example: `cudaGL.h`.
    header: String,
    /// Example: `["GL/gl.h"]`.
    needs: Vec<String>,
    /// Defined when the header was included. Example: `CUSHIM_HAS_CUDAGL_H`.
    flag: String,
}

/// The runtime's description of the library on each system (the pair picks
/// with `_WIN32`), which the pair prints as C++ literals.
struct CppLibrary {
    unix: &'static loader::LibraryInfo,
    windows: &'static loader::LibraryInfo,
}

/// `, `-terminated C string literals.
fn items<S: AsRef<str>>(list: &[S]) -> String {
    list.iter()
        .map(|i| format!("{}, ", c_string(i.as_ref())))
        .collect()
}

impl CppLibrary {
    /// The items of `field` on each system, each followed by `, ` (the
    /// arrays end them with `nullptr`), for a field that is a list of names:
    /// an array of its own, named after the field. The C++ runtime takes the
    /// wheel directories with the major filled in, and Windows' own.
    #[deny(clippy::wildcard_enum_match_arm)]
    fn list(&self, field: Field) -> Option<(String, String)> {
        let (unix, windows) = (self.unix, self.windows);
        let both = |pick: fn(&loader::LibraryInfo) -> &'static [&'static str]| {
            (items(pick(unix)), items(pick(windows)))
        };
        let backslashes =
            |dirs: &[&str]| -> Vec<String> { dirs.iter().map(|d| d.replace('/', "\\")).collect() };
        Some(match field {
            Field::Names => both(|i| i.names),
            Field::WheelDirs => {
                let dirs = unix.wheel_dirs.unwrap_or_default();
                // Windows wheels keep DLLs in `bin` (12.x) or `bin/x86_64` (13.x).
                let windows_dirs: Vec<String> = dirs
                    .iter()
                    .flat_map(|d| match d.strip_suffix("/lib") {
                        Some(stem) => vec![format!("{stem}/bin"), format!("{stem}/bin/x86_64")],
                        None => vec![(*d).to_string()],
                    })
                    .map(|d| d.replace('/', "\\"))
                    .collect();
                (items(dirs), items(&windows_dirs))
            }
            Field::ToolkitSubdirs => (
                items(unix.toolkit_subdirs),
                items(&backslashes(unix.toolkit_subdirs)),
            ),
            Field::Preload => both(|i| i.preload),
            Field::Required => both(|i| i.required),
            Field::Siblings => both(|i| i.siblings),
            Field::Family => both(|i| i.family),
            Field::Abi
            | Field::Label
            | Field::ShortName
            | Field::Product
            | Field::Install
            | Field::OverrideVar
            | Field::VersionFunction
            | Field::VersionQuery
            | Field::Stub
            | Field::ProcAddress
            | Field::Major
            | Field::ToolkitSearch
            | Field::BuiltFor
            | Field::BuiltForMajor
            | Field::Codes
            | Field::Resolve
            | Field::DefaultStream
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

    /// The file-name arrays of the library, `<prefix>_names` and the others
    /// in the table's order, per system.
    fn arrays(&self, prefix: &str) -> String {
        let mut out = String::from("#ifdef _WIN32\n");
        for windows in [true, false] {
            if !windows {
                out.push_str("#else\n");
            }
            for row in fields::LIBRARY_INFO {
                let (Some(name), Some((unix, win))) = (row.cpp, self.list(row.field)) else {
                    continue;
                };
                let items = if windows { win } else { unix };
                out.push_str(&format!(
                    "const char *const {prefix}_{name}[] = {{{items}nullptr}};\n"
                ));
            }
        }
        out.push_str("#endif");
        out
    }

    /// The `cushim::LibraryInfo` literal `name`, over the arrays and state
    /// named by `prefix`: the one description of `cushim_this` and of
    /// `cushim_runtime_library`, laid out by [`fields::cpp_literal`].
    fn literal(&self, name: &str, prefix: &str, codes: &[(i64, String)], t: &Tables<'_>) -> String {
        fields::cpp_literal(
            name,
            &CppInfo {
                library: self,
                prefix,
                codes,
                tables: t,
            },
        )
    }
}

/// A `cushim::LibraryInfo` literal's values, each a C++ expression.
struct CppInfo<'a> {
    library: &'a CppLibrary,
    /// What the pair's arrays and state are named after. Example: `cushim`.
    prefix: &'a str,
    /// The codes, `(value, what it stands for)` ([`code_list`]).
    codes: &'a [(i64, String)],
    tables: &'a Tables<'a>,
}

impl fields::Values for CppInfo<'_> {
    #[deny(clippy::wildcard_enum_match_arm)]
    fn value(&self, field: Field) -> Option<String> {
        use cushim_runtime::VersionQuery;
        let (l, t, prefix) = (self.library.unix, self.tables, self.prefix);
        let cstr = |c: &std::ffi::CStr| c_string(&c.to_string_lossy());
        Some(match field {
            Field::Abi => "&CUSHIM_RUNTIME_ABI".into(),
            Field::Label => c_string(l.label),
            Field::ShortName => c_string(l.short_name),
            Field::Product => c_string(l.product),
            Field::Install => c_string(l.install),
            Field::OverrideVar => c_string(l.override_var),
            Field::VersionFunction => cstr(l.version_function),
            // The Rust runtime's variant, by the same name.
            Field::VersionQuery => format!(
                "cushim::VersionQuery::{}",
                match l.version_query {
                    VersionQuery::Number => "number",
                    VersionQuery::MajorMinor => "major_minor",
                    VersionQuery::Text => "text",
                    VersionQuery::Property => "property",
                    VersionQuery::Decimal => "decimal",
                    VersionQuery::Returned => "returned",
                    VersionQuery::Api => "api",
                    VersionQuery::NumberInStatus => "number_in_status",
                    VersionQuery::Absent => "absent",
                }
            ),
            Field::Stub => l.stub_code.is_some().to_string(),
            Field::Major => format!("{}u", l.major),
            Field::ToolkitSearch => l.wheel_dirs.is_some().to_string(),
            Field::BuiltFor => l
                .built_for
                .map_or_else(|| "nullptr".into(), |(f, _)| cstr(f)),
            Field::BuiltForMajor => format!("{}u", l.built_for.map_or(0, |(_, major)| major)),
            // The arrays of `CppLibrary::arrays`.
            Field::Names
            | Field::WheelDirs
            | Field::ToolkitSubdirs
            | Field::Preload
            | Field::Required
            | Field::Siblings
            | Field::Family => format!("{prefix}_{}", field.row().cpp?),
            Field::Codes => {
                let codes: String = self
                    .codes
                    .iter()
                    .map(|(value, what)| format!("\n        {value},  // {what}"))
                    .collect();
                format!("{{{codes}\n    }}")
            }
            Field::Driver => t.driver.into(),
            Field::Functions => t.functions.into(),
            Field::Count => t.count.into(),
            Field::Aliases => format!("{prefix}_aliases"),
            Field::Statuses => format!("{prefix}_statuses"),
            Field::StatusCount => {
                format!("sizeof {prefix}_statuses / sizeof {prefix}_statuses[0] - 1")
            }
            Field::State => format!("&{prefix}_state"),
            Field::States => t.states.into(),
            Field::Slots => t.slots.into(),
            Field::Thread => format!("{prefix}_thread"),
            Field::Variables => t.variables.into(),
            Field::VariableCount => t.variable_count.into(),
            // `cushim::Driver`'s, for the driver only.
            Field::ProcAddress | Field::Resolve | Field::DefaultStream => return None,
        })
    }
}

/// The status codes a stub answers with, `(value, what it stands for)`, in
/// the order of `cushim::Codes` (the Rust runtime's `Codes`): `values` are
/// library not found, symbol not found, stub, too old, forked, success and
/// invalid value.
fn code_list(
    values: [i64; 7],
    names: &crate::library::LoaderCodes,
    success: &str,
) -> Vec<(i64, String)> {
    let [library_not_found, symbol_not_found, stub_library, too_old, not_initialized, ok, invalid_value] =
        values;
    // A library without a status type (NVTX) names no constant.
    let what = |case: &str, name: &str| {
        if name.is_empty() {
            format!("{case} (no status type)")
        } else {
            format!("{case}: {name}")
        }
    };
    vec![
        (
            library_not_found,
            what("library not found", names.library_not_found.name),
        ),
        (
            symbol_not_found,
            what("symbol not found", names.symbol_not_found.name),
        ),
        (stub_library, what("stub library", names.stub_library.name)),
        (too_old, what("too old", names.too_old.name)),
        (
            not_initialized,
            what("forked during the load", names.not_initialized.name),
        ),
        (ok, what("success", success)),
        (
            invalid_value,
            what("invalid value", names.invalid_value.name),
        ),
    ]
}

/// The CUDA runtime of headers of `major`, which hands out the driver's
/// functions, as the pair describes it.
fn cpp_runtime(major: u32) -> Result<CppRuntime, Error> {
    let cudart = &crate::library::CUDART;
    let (unix, windows) = runtime::runtime_infos(major)?;
    let library = CppLibrary { unix, windows };
    let c = runtime::codes(cudart);
    let codes = code_list(
        [
            c.library_not_found,
            c.symbol_not_found,
            c.stub_library,
            c.too_old,
            c.not_initialized,
            c.success,
            c.invalid_value,
        ]
        .map(i64::from),
        &cudart.codes,
        cudart.success,
    );
    let none = Tables {
        driver: "nullptr",
        functions: "nullptr",
        count: "0",
        states: "nullptr",
        slots: "nullptr",
        variables: "nullptr",
        variable_count: "0",
    };
    Ok(CppRuntime {
        label: cudart.words.label,
        arrays: library.arrays("cushim_runtime"),
        literal: library.literal("cushim_runtime_library", "cushim_runtime", &codes, &none),
    })
}

/// Whether `library` has the driver's own pieces: a lookup by ABI version or
/// per-thread default-stream variants.
fn has_driver_pieces(library: &crate::library::Library) -> bool {
    library.proc_address.is_some() || library.parse.per_thread_define.is_some()
}

impl CppDriver {
    fn new(
        library: &crate::library::Library,
        options: &Options,
        major: u32,
    ) -> Result<Option<CppDriver>, Error> {
        if !has_driver_pieces(library) {
            return Ok(None);
        }
        let lookup = library
            .proc_address
            .filter(|_| options.resolve != Resolve::Dlsym);
        let runtime = match options.resolve {
            Resolve::RuntimeEntryPoint => Some(cpp_runtime(major)?),
            Resolve::ProcAddress | Resolve::Dlsym => None,
        };
        let opt = |c: Option<&std::ffi::CStr>| {
            c.map_or("nullptr".into(), |c| c_string(&c.to_string_lossy()))
        };
        let per_thread_by_default = options.stream == StreamMode::PerThread;
        let comment = format!(
            "{}, the {} default stream unless {} says otherwise",
            match (lookup, &runtime) {
                (Some(_), Some(rt)) => format!(
                    "the {}'s entry points, never the driver opened here: `cudaGetDriverEntryPointByVersion` at each function's ABI version, else the `cuGetProcAddress` that `cudaGetDriverEntryPoint` hands out",
                    rt.label
                ),
                (Some((v2, v1)), None) => format!(
                    "entry points by ABI version through `{}`, else `{}`",
                    v2.to_string_lossy(),
                    v1.to_string_lossy()
                ),
                (None, _) => "exact exports".to_string(),
            },
            if per_thread_by_default {
                "per-thread"
            } else {
                "legacy"
            },
            loader::STREAM_VAR
        );
        Ok(Some(CppDriver {
            proc_address: (opt(lookup.map(|p| p.0)), opt(lookup.map(|p| p.1))),
            per_thread_by_default,
            stream_var: loader::STREAM_VAR,
            stream_var_literal: c_string(loader::STREAM_VAR),
            stream_on: items(loader::STREAM_ON),
            stream_off: items(loader::STREAM_OFF),
            comment,
            runtime,
        }))
    }
}

/// One entry of the function table: what the runtime binds.
struct Row {
    name: String,
    symbol: String,
    /// A literal, or `nullptr` for a library without a lookup by name.
    proc_name: String,
    version: u32,
    /// The row of the per-thread variant (`cushim_row_<symbol>`), or -1.
    twin: String,
    /// `true` for a `_ptds`/`_ptsz` row.
    per_thread: bool,
    /// `false`, or a macro that is `true` on systems that lack the
    /// function. Example: `CUSHIM_ELSEWHERE__WIN32`.
    elsewhere: String,
}

/// One macro invocation.
struct Shim {
    ret: String,
    symbol: String,
    export: String,
    /// Its row: `cushim_row_<symbol>`, named so that a new function in a
    /// release changes one line, not every later row's number.
    index: String,
    params: String,
    args: String,
    absent: String,
    checked: bool,
    /// The flag of the optional header that declares it, if any.
    only_if: Option<String>,
    /// The define of the only system that has it. Example: `_WIN32`.
    system: Option<String>,
    /// What `only_if` and `system` ask of the preprocessor, for the slot
    /// tables' rows. Example: `defined(CUSHIM_HAS_CUDAGL_H)`.
    condition: Option<String>,
    /// What an assembly stub's binder answers without the library
    /// ([`asm_answer`]); `None`: a C++ stub.
    answer: Option<&'static str>,
}

/// One status code for the driver-less `cuGetErrorName`/`cuGetErrorString`.
struct StatusName {
    value: i64,
    name: String,
}

/// Renders the pair for `api`: `<stem>_shim.h` and `<stem>_shim.cpp`.
pub fn emit(
    api: &Api,
    provenance: &Provenance,
    stem: &str,
    api_header: &str,
    options: &Options,
) -> Result<Vec<File>, Error> {
    // Empty for a library without a status type: its functions return values.
    let status_type = if api.library.success.is_empty() {
        String::new()
    } else {
        super::status_type(api)?
    };
    include_name(api_header)?;
    include_name(stem)?;
    if let Some(p) = &options.cpp_prefix {
        if !crate::c::is_identifier(p) {
            return Err(Error::new(format!(
                "the C++ prefix `{}` is not a C identifier",
                p.escape_debug()
            ))
            .hint("use letters, digits and `_`, not starting with a digit, e.g. `cushim_`"));
        }
    }
    let api_name = format!("cushim_{}", identifier(stem));
    let shim_header = format!("{stem}_shim.h");
    // The listed headers in their order, with what they need; then those
    // found by name (CUPTI's `cupti_pcsampling.h`), sorted, which the pair
    // includes without the stand-ins' projects (only their parse needs them).
    // A function's header is a file name; a listed one may have a directory
    // (NVTX's `nvtx3/nvToolsExt.h`).
    let file_name = |h: &'static str| h.rsplit(['/', '\\']).next().unwrap_or(h);
    let mut found: Vec<&str> = api
        .functions
        .iter()
        .map(|f| f.header())
        .filter(|h| {
            !std::iter::once(api_header)
                .chain(api.library.headers.iter().map(|l| file_name(l.name)))
                .any(|l| l == *h)
        })
        // The compiler's headers (nvcc's `host_runtime.h`) are never
        // included: their entry points are defined unconditionally.
        .filter(|h| !api.library.parse.compiler.is_some_and(|c| c.declares_in(h)))
        .collect();
    found.sort_unstable();
    found.dedup();
    let optional: Vec<Optional> = api
        .library
        .headers
        .iter()
        .filter(|h| h.name != api_header)
        .filter(|h| api.functions.iter().any(|f| f.header() == h.name))
        .map(|h| (h.name, h.needs))
        .chain(found.into_iter().map(|h| (h, &[][..])))
        .map(|(name, needs)| Optional {
            header: name.to_string(),
            needs: needs.iter().map(ToString::to_string).collect(),
            flag: format!("CUSHIM_HAS_{}", identifier(name).to_ascii_uppercase()),
        })
        .collect();

    let library = &api.library;
    let major = api.header_major()?;
    let driver = CppDriver::new(library, options, major)?;
    let lookup_names = driver
        .as_ref()
        .is_some_and(|d| d.proc_address.0 != "nullptr");
    let mut table = Vec::new();
    let mut shims = Vec::new();
    for f in &api.functions {
        let only_if = optional
            .iter()
            .find(|o| o.header == f.header())
            .map(|o| o.flag.clone());
        let system = f.platform.as_deref().map(|p| {
            library
                .parse
                .platforms
                .iter()
                .find(|(cfg, _)| *cfg == p)
                .map_or_else(
                    || format!("CUSHIM_SYSTEM_{p}"),
                    |(_, define)| (*define).to_string(),
                )
        });
        let params = params(f);
        let args = format!(
            "({})",
            f.params
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        // An entry point of the compiler's headers, which the pair does not
        // include: no declaration to check the definition against.
        let compiler_entry = f.is_compiler_entry(library);
        let mut add = |symbol: &str, version: Option<u32>, per_thread: bool| {
            let index = table.len();
            let row = format!("cushim_row_{symbol}");
            table.push(Row {
                name: c_string(&f.name),
                symbol: c_string(symbol),
                proc_name: if lookup_names {
                    c_string(&f.proc_name)
                } else {
                    "nullptr".to_string()
                },
                version: version.unwrap_or(0),
                twin: "-1".to_string(),
                per_thread,
                elsewhere: system
                    .as_deref()
                    .map_or_else(|| "false".to_string(), elsewhere_macro),
            });
            shims.push(Shim {
                ret: f.ret.to_string(),
                symbol: symbol.to_string(),
                export: format!("{}{symbol}", options.cpp_prefix.as_deref().unwrap_or("")),
                index: row.clone(),
                params: params.clone(),
                args: args.clone(),
                absent: absent(f, api, &status_type),
                answer: asm_answer(f, api, &status_type),
                // Per-thread variants are not declared in legacy mode.
                checked: !per_thread && !compiler_entry,
                condition: match (&only_if, &system) {
                    (None, None) => None,
                    (flag, define) => Some(
                        flag.iter()
                            .chain(define)
                            .map(|d| format!("defined({d})"))
                            .collect::<Vec<_>>()
                            .join(" && "),
                    ),
                },
                only_if: only_if.clone(),
                system: system.clone(),
            });
            index
        };
        let legacy = add(&f.symbol, f.version.map(CudaVersion::number), false);
        if let Some(t) = &f.per_thread {
            let twin = add(&t.symbol, t.version.map(CudaVersion::number), true);
            table[legacy].twin = shims[twin].index.clone();
        }
    }

    let statuses = api
        .status_codes
        .iter()
        .map(|c| StatusName {
            value: c.value,
            name: c_string(&c.name),
        })
        .collect();

    let label = library.words.label;
    let header = Header {
        provenance,
        guard: format!("CUSHIM_{}_SHIM_H", identifier(stem).to_ascii_uppercase()),
        api: api_name.clone(),
        api_upper: api_name.to_ascii_uppercase(),
        label,
        has_stub: library.has_stub,
        driver: driver.is_some(),
        version_lookup: library.proc_address.is_some(),
        short: library.words.short,
        stream_var: loader::STREAM_VAR,
        example: api
            .functions
            .iter()
            .find(|f| !f.is_compiler_entry(library))
            .map_or_else(String::new, |f| f.name.clone()),
        example_version: library.reported_major(major).max(1) * 1000,
        example_release: format!("{}.0", library.reported_major(major).max(1)),
        example_path: crate::library::with_major(library.names_for(major).unix, major)
            .into_iter()
            .next()
            .unwrap_or_default(),
        api_header,
        msvc_macros: api.windows.msvc_macros.join(", "),
    };
    let codes = api.codes;
    let own = CppLibrary {
        unix: crate::runtime::library_info(library, major, false),
        windows: crate::runtime::library_info(library, major, true),
    };
    let untyped = shims.iter().all(|s| s.answer.is_some())
        && api.variables.is_empty()
        && library.parse.status_field.is_none();
    let compiler_entries: Vec<&Function> = api
        .functions
        .iter()
        .filter(|f| f.is_compiler_entry(library))
        .collect();
    let mut incomplete: Vec<String> = compiler_entries
        .iter()
        .flat_map(|f| f.named_types())
        .filter(|n| !api.declared.contains(*n))
        .map(str::to_string)
        .collect();
    incomplete.sort();
    incomplete.dedup();
    let source = Source {
        compiler_headers: match library.parse.compiler {
            Some(c) if !compiler_entries.is_empty() => c.files.to_vec(),
            _ => Vec::new(),
        },
        incomplete,
        untyped,
        provenance,
        api_header,
        shim_header: &shim_header,
        api_upper: api_name.to_ascii_uppercase(),
        api: api_name,
        status_type: &status_type,
        status_struct: library.parse.status_field.map(|f| (f.field, f.codes)),
        variables: api
            .variables
            .iter()
            .map(|v| (v.name.clone(), v.ty.to_string()))
            .collect(),
        imported_variables: api
            .variables
            .iter()
            .filter(|v| api.windows.imported.contains(&v.name))
            .map(|v| v.name.clone())
            .collect(),
        imports: if options.cpp_prefix.is_some() {
            Vec::new()
        } else {
            shims
                .iter()
                .filter(|s| api.windows.imported.contains(&s.symbol))
                .map(|s| (s.export.clone(), s.condition.clone()))
                .collect()
        },
        label,
        link_name: library.link_name,
        defines: library.parse.defines,
        per_thread_define: library.parse.per_thread_define,
        arrays: own.arrays("cushim"),
        this_literal: own.literal(
            "cushim_this",
            "cushim",
            &code_list(
                [
                    codes.library_not_found,
                    codes.symbol_not_found,
                    codes.stub_library,
                    codes.too_old,
                    codes.not_initialized,
                    codes.success,
                    codes.invalid_value,
                ],
                &api.loader_codes(),
                library.success,
            ),
            &Tables {
                driver: if driver.is_some() {
                    "&cushim_driver"
                } else {
                    "nullptr"
                },
                functions: "cushim_functions",
                count: "cushim_count",
                states: "cushim_states",
                slots: "CUSHIM_SLOTS",
                variables: "CUSHIM_VARIABLES",
                variable_count: "CUSHIM_VARIABLE_COUNT",
            },
        ),
        has_stub: library.has_stub,
        version_lookup: library.proc_address.is_some(),
        row_legend: if driver.is_some() {
            "Name, symbol, name for the lookup by ABI version, ABI version, per-thread twin, per-thread itself, of another system."
        } else {
            "Name, symbol, (no lookup name), version, (no per-thread twin, not per-thread), of another system."
        }
        .to_string(),
        driver,
        calling_convention: library.calling_convention,
        prefix: options.cpp_prefix.as_deref(),
        linked: options.link == Link::Linked,
        systems: {
            let mut systems: Vec<(String, String)> = shims
                .iter()
                .filter_map(|s| s.system.clone())
                .map(|d| (elsewhere_macro(&d), d))
                .collect();
            systems.sort();
            systems.dedup();
            systems
        },
        aliases: api
            .functions
            .iter()
            .flat_map(|f| {
                f.c_names_besides_symbol()
                    .into_iter()
                    .map(|n| (c_string(n), c_string(&f.symbol)))
            })
            .collect(),
        table,
        shims,
        statuses,
        optional,
    };
    let render = |what: &str, r: Result<String, askama::Error>| {
        r.map(|mut s| {
            if !s.ends_with('\n') {
                s.push('\n');
            }
            s
        })
        .map_err(|e| Error::new(format!("rendering the C++ {what} failed: {e}")))
    };
    Ok(vec![
        File {
            name: shim_header.clone(),
            contents: render("header", header.render())?,
        },
        File {
            name: format!("{stem}_shim.cpp"),
            contents: render("source", source.render())?,
        },
        File {
            name: runtime::cpp::HEADER_NAME.to_string(),
            contents: runtime::cpp::header().to_string(),
        },
        File {
            name: runtime::cpp::SOURCE_NAME.to_string(),
            contents: runtime::cpp::SOURCE.to_string(),
        },
    ])
}

/// The macro that says whether a row is of another system than one with `define`.
fn elsewhere_macro(define: &str) -> String {
    format!("CUSHIM_ELSEWHERE_{}", identifier(define))
}

/// What an assembly stub answers without the library ([`Shim::answer`],
/// one of the runtime's `CUSHIM_ANSWER_*`). The binder returns it in the
/// integer return register: right for a status enum, an integer, a pointer,
/// `void` and a fallback's text or status, not for a float or a struct,
/// which keep C++ stubs.
fn asm_answer(f: &Function, api: &Api, status_type: &str) -> Option<&'static str> {
    use crate::c::{Builtin, Type};
    if let Some((_, out)) = f.fallback_args() {
        let status = f.returns_status(status_type) && api.library.parse.status_field.is_none();
        return match out {
            None => Some("name"),
            Some(_) => status.then_some("out_name"),
        };
    }
    if f.fallback {
        return None;
    }
    if f.returns_status(status_type) {
        return api.library.parse.status_field.is_none().then_some("code");
    }
    match &f.ret {
        Type::Pointer { .. } | Type::FnPointer { .. } => Some("zero"),
        Type::Builtin(Builtin::Float | Builtin::Double) => None,
        Type::Builtin(_) => Some("zero"),
        Type::Named(_) => None,
    }
}

/// What a shim returns when it cannot reach the library: its fallback's
/// answer, zero for a function that returns a value, or the failure's code
/// (`cushim_code`, which the runtime set).
fn absent(f: &Function, api: &Api, status_type: &str) -> String {
    let ret = &f.ret;
    let codes = api.codes;
    match f.fallback_args() {
        Some((code, Some(out))) => format!(
            "static_cast<{ret}>(cushim_runtime_status_name(&cushim_this, static_cast<int>({}), {}) ? {} : {})",
            code.name, out.name, codes.success, codes.invalid_value
        ),
        Some((code, None)) => format!(
            "cushim_runtime_returned_name(&cushim_this, static_cast<int>({}))",
            code.name
        ),
        None if !f.returns_status(status_type) => format!("cushim::zero<{ret}>()"),
        // A status struct, made in the pair (`cushim_status`).
        None if api.library.parse.status_field.is_some() => "cushim_status(cushim_code)".into(),
        None => format!("static_cast<{ret}>(cushim_code)"),
    }
}

/// `text` as a C string literal, quotes included: quotes, backslashes and
/// every byte outside printable ASCII escaped (octal, so no escape runs on).
pub(crate) fn c_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for b in text.bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'?' => out.push_str("\\?"),
            0x20..=0x7e => out.push(char::from(b)),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out.push('"');
    out
}

/// A file name the generated source can `#include "..."`: no quote, backslash
/// or control character, which an include directive cannot escape.
fn include_name(name: &str) -> Result<(), Error> {
    if name.is_empty()
        || name
            .chars()
            .any(|c| c == '"' || c == '\\' || c.is_control())
    {
        return Err(Error::new(format!(
            "cannot `#include` a header named `{}` from the C++ stubs",
            name.escape_debug()
        ))
        .hint("rename the header to a plain file name"));
    }
    Ok(())
}

fn identifier(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// `(CUdeviceptr *dptr, size_t bytesize)`: each parameter as C declares it.
fn params(f: &Function) -> String {
    format!("({})", f.c_params())
}
