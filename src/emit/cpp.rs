//! The C++ pair: a C-compatible status header and a source file that defines
//! every driver function with the exact prototype of the real header, so that a
//! C or C++ program links it instead of `-lcuda`.

use askama::Template;

use super::{File, Provenance};
use crate::diag::Error;
use crate::ir::{Api, Fallback, Function};
use crate::library::LoaderCodes;
use crate::options::{Resolve, StreamMode};
use crate::runtime;
use cushim_runtime as loader;
use crate::version::CudaVersion;

/// Options that change the C++ text.
#[derive(Clone, Debug)]
pub struct CppOptions {
    /// Export `<prefix><symbol>` instead of the drop-in names, for programs
    /// that also link the real driver. Example: `cushim_`.
    pub prefix: Option<String>,
    /// Describe status codes with the header's doc text instead of their names.
    pub docs: bool,
    pub resolve: Resolve,
    pub stream: StreamMode,
    /// `Linked` defines `CUSHIM_<API>_LINKED`: no stubs, the program links
    /// the library; otherwise the build may define it.
    pub linked: bool,
}

#[derive(Template)]
#[template(path = "cpp/shim.h", escape = "none")]
struct Header<'a> {
    provenance: &'a Provenance,
    guard: String,
    api: String,
    api_upper: String,
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
    codes: crate::ir::Codes,
    code_names: LoaderCodes,
    /// The library's description as C++ fragments.
    library: CppLibrary,
    /// The macro of the functions' calling convention. Example: `CUDAAPI`.
    calling_convention: &'static str,
    /// C string literals, quotes included.
    stream_var: String,
    stream_on: Vec<String>,
    stream_off: Vec<String>,
    /// The C++ runtime, verbatim.
    runtime: &'static str,
    prefix: Option<&'a str>,
    use_proc_address: bool,
    per_thread_by_default: bool,
    linked: bool,
    table: Vec<Row>,
    /// Each other C name with its symbol, as C string literals.
    aliases: Vec<(String, String)>,
    /// `(row state macro, define)` for each system some function needs.
    systems: Vec<(String, String)>,
    shims: Vec<Shim>,
    texts: Vec<Text>,
    /// The library's other headers, included where the system has them.
    optional: Vec<Optional>,
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

/// `cushim::settings` of the library: C++ literals; lists as `(unix,
/// windows)`, each item followed by `, ` (the template ends them with `nullptr`).
struct CppLibrary {
    version_function: String,
    /// 0 `f(int *)`, 1 `f(int *, int *)`, 2 `f(char *, unsigned)`, 3 `f(int, int *)`.
    version_query: u8,
    has_stub: bool,
    /// Literals or `nullptr`.
    proc_address: (String, String),
    major: u32,
    label: String,
    short: String,
    product: String,
    install: String,
    override_var: String,
    toolkit_search: bool,
    names: (String, String),
    preload: (String, String),
    family: (String, String),
    wheel_dirs: (String, String),
}

impl CppLibrary {
    fn new(library: &crate::library::Library, major: u32) -> CppLibrary {
        use crate::library::{with_major, Names, Search, VersionQuery, FAMILY};
        let items = |list: &[String]| -> String {
            list.iter().map(|i| format!("{}, ", c_string(i))).collect()
        };
        let both = |names: Names| {
            (
                items(&with_major(names.unix, major)),
                items(&with_major(names.windows, major)),
            )
        };
        let (toolkit_search, family, wheel_dirs) = match library.search {
            Search::System => (false, Names::NONE, &[][..]),
            Search::Toolkit { wheel_dirs } => (true, FAMILY, wheel_dirs),
        };
        let wheel_dirs = with_major(wheel_dirs, major);
        // Windows wheels keep DLLs in `bin` (12.x) or `bin/x86_64` (13.x).
        let windows_dirs: Vec<String> = wheel_dirs
            .iter()
            .flat_map(|d| match d.strip_suffix("/lib") {
                Some(stem) => vec![format!("{stem}/bin"), format!("{stem}/bin/x86_64")],
                None => vec![d.clone()],
            })
            .map(|d| d.replace('/', "\\"))
            .collect();
        let opt = |c: Option<&std::ffi::CStr>| {
            c.map_or("nullptr".into(), |c| c_string(&c.to_string_lossy()))
        };
        CppLibrary {
            version_function: c_string(&library.version.name.to_string_lossy()),
            version_query: match library.version.query {
                VersionQuery::Number => 0,
                VersionQuery::MajorMinor => 1,
                VersionQuery::Text => 2,
                VersionQuery::Property => 3,
            },
            has_stub: library.has_stub,
            proc_address: (
                opt(library.proc_address.map(|p| p.0)),
                opt(library.proc_address.map(|p| p.1)),
            ),
            major,
            label: c_string(library.words.label),
            short: c_string(library.words.short),
            product: c_string(library.words.product),
            install: c_string(library.words.install),
            override_var: c_string(library.words.override_var),
            toolkit_search,
            names: both(library.names_for(major)),
            preload: both(library.preload),
            family: (
                items(
                    &family
                        .unix
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>(),
                ),
                items(
                    &family
                        .windows
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>(),
                ),
            ),
            wheel_dirs: (items(&wheel_dirs), items(&windows_dirs)),
        }
    }
}

/// One entry of the function table: what `resolve` needs.
struct Row {
    name: String,
    symbol: String,
    proc_name: String,
    version: u32,
    /// `true` for a `_ptds`/`_ptsz` row.
    per_thread: bool,
    /// The row of the per-thread variant, or -1.
    twin: i64,
    /// Its first state: `unresolved`, or a macro that is `elsewhere` on
    /// systems that lack the function. Example: `CUSHIM_ROW__WIN32`.
    state: String,
}

/// One macro invocation.
struct Shim {
    ret: String,
    symbol: String,
    export: String,
    index: usize,
    params: String,
    args: String,
    absent: String,
    checked: bool,
    /// The flag of the optional header that declares it, if any.
    only_if: Option<String>,
    /// The define of the only system that has it. Example: `_WIN32`.
    system: Option<String>,
}

/// One status code for the driver-less `cuGetErrorName`/`cuGetErrorString`.
struct Text {
    value: i64,
    name: String,
    text: String,
}

/// Renders the pair for `api`: `<stem>_shim.h` and `<stem>_shim.cpp`.
pub fn emit(
    api: &Api,
    provenance: &Provenance,
    stem: &str,
    api_header: &str,
    options: &CppOptions,
) -> Result<Vec<File>, Error> {
    let status_type = super::status_type(api)?;
    include_name(api_header)?;
    include_name(stem)?;
    if let Some(p) = &options.prefix {
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
    let optional: Vec<Optional> = api
        .library
        .headers
        .iter()
        .filter(|h| h.name != api_header)
        .filter(|h| api.functions.iter().any(|f| f.header() == h.name))
        .map(|h| Optional {
            header: h.name.to_string(),
            needs: h.needs.iter().map(ToString::to_string).collect(),
            flag: format!("CUSHIM_HAS_{}", identifier(h.name).to_ascii_uppercase()),
        })
        .collect();

    let mut table = Vec::new();
    let mut shims = Vec::new();
    for f in &api.functions {
        let only_if = optional
            .iter()
            .find(|o| o.header == f.header())
            .map(|o| o.flag.clone());
        let system = f.platform.as_deref().map(|p| {
            api.library
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
        let mut add = |symbol: &str, version: Option<u32>, checked: bool| {
            let index = table.len();
            table.push(Row {
                name: c_string(&f.name),
                symbol: c_string(symbol),
                proc_name: c_string(&f.proc_name),
                version: version.unwrap_or(0),
                per_thread: !checked,
                twin: -1,
                state: system
                    .as_deref()
                    .map_or_else(|| "unresolved".to_string(), row_state),
            });
            shims.push(Shim {
                ret: f.ret.to_string(),
                symbol: symbol.to_string(),
                export: format!("{}{symbol}", options.prefix.as_deref().unwrap_or("")),
                index,
                params: params.clone(),
                args: args.clone(),
                absent: absent(f, index, &status_type),
                checked,
                only_if: only_if.clone(),
                system: system.clone(),
            });
            index
        };
        let legacy = add(&f.symbol, f.version.map(CudaVersion::number), true);
        if let Some(t) = &f.per_thread {
            let twin = add(&t.symbol, t.version.map(CudaVersion::number), false);
            table[legacy].twin = twin as i64;
        }
    }

    let texts = api
        .status_codes
        .iter()
        .map(|c| Text {
            value: c.value,
            name: c_string(&c.name),
            text: c_string(&super::describe_status(
                c,
                api.library.success,
                options.docs,
            )),
        })
        .collect();

    let header = Header {
        provenance,
        guard: format!("CUSHIM_{}_SHIM_H", identifier(stem).to_ascii_uppercase()),
        api: api_name.clone(),
        api_upper: api_name.to_ascii_uppercase(),
    };
    let source = Source {
        provenance,
        api_header,
        shim_header: &shim_header,
        api_upper: api_name.to_ascii_uppercase(),
        api: api_name,
        status_type: &status_type,
        codes: api.codes,
        code_names: api.library.codes,
        library: CppLibrary::new(&api.library, api.header_major()?),
        calling_convention: api.library.calling_convention,
        stream_var: c_string(loader::STREAM_VAR),
        stream_on: c_strings(loader::STREAM_ON),
        stream_off: c_strings(loader::STREAM_OFF),
        runtime: runtime::CPP_RUNTIME,
        prefix: options.prefix.as_deref(),
        use_proc_address: options.resolve == Resolve::ProcAddress,
        per_thread_by_default: options.stream == StreamMode::PerThread,
        linked: options.linked,
        systems: {
            let mut systems: Vec<(String, String)> = shims
                .iter()
                .filter_map(|s| s.system.clone())
                .map(|d| (row_state(&d), d))
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
        texts,
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
    ])
}

/// The macro for the first state of a row that only systems with `define` have.
fn row_state(define: &str) -> String {
    format!("CUSHIM_ROW_{}", identifier(define))
}

/// What a shim returns when it cannot reach the library: its fallback's
/// answer, zero for a function that returns a value, or the failure's code.
fn absent(f: &Function, index: usize, status_type: &str) -> String {
    let ret = &f.ret;
    match f.fallback_args() {
        Some((kind, code, out)) => {
            let which = match kind {
                Fallback::ErrorName => "name",
                Fallback::ErrorString => "text",
            };
            match out {
                Some(out) => format!(
                    "cushim::status_text({}, {}, cushim::Text::{which})",
                    code.name, out.name
                ),
                None => format!(
                    "cushim::returned_text({}, cushim::Text::{which})",
                    code.name
                ),
            }
        }
        None if !f.returns_status(status_type) => format!("cushim::zero<{ret}>()"),
        None => format!("static_cast<{ret}>(cushim::absent({index}))"),
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

fn c_strings(texts: &[&str]) -> Vec<String> {
    texts.iter().map(|t| c_string(t)).collect()
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
