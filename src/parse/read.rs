//! Reads a header set with libclang in each configuration of the library's
//! [`ParseSettings`] and gathers the answers into one [`Raw`].

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use super::{clang, foreign, Input, Raw, RawFunction, RawTypedef, RawVariable};
use crate::c::{Shape, StatusCode, Type};
use crate::diag::{Error, Origin};
use crate::library::{CompilerHeaders, ParseSettings};
use crate::version::CudaVersion;

/// Marks each header of `input` found by name that the listed headers
/// include ([`super::HeaderInput::reached`]), from one plain parse of the
/// listed ones: the parse's main file then includes only the others, so that
/// a header without an include guard (CUPTI's `generated_cuda_meta.h`, which
/// `cupti.h` includes) is read once. Its functions are still bound.
pub fn settle(input: &mut Input) -> Result<(), Error> {
    if !input.headers.iter().any(|h| h.globbed) {
        return Ok(());
    }
    check_paths(input)?;
    let listed = Input {
        headers: input
            .headers
            .iter()
            .filter(|h| !h.globbed)
            .cloned()
            .collect(),
        ..input.clone()
    };
    let included: Vec<PathBuf> = Config::new(&listed, C, None)
        .parse()?
        .unit
        .user_files()
        .iter()
        .map(|f| canonical(f))
        .collect();
    for h in input.headers.iter_mut().filter(|h| h.globbed) {
        h.reached = included.contains(&canonical(&h.path));
    }
    Ok(())
}

/// Refuses a header that is missing, not a regular file, or whose path the
/// parse's main file cannot name.
fn check_paths(input: &Input) -> Result<(), Error> {
    for p in input.paths() {
        if p.exists() && !p.is_file() {
            return Err(Error::new(format!(
                "header `{}` is not a regular file (a directory, a device or a pipe)",
                p.display()
            ))
            .hint("pass the header file itself; cushim reads each header more than once"));
        }
        if !p.is_file() {
            return Err(
                Error::new(format!("header `{}` not found", p.display())).hint(
                    "pass an existing file, or use `--cuda <version>` to fetch the pinned headers",
                ),
            );
        }
        // The parse includes each header by its path from a generated line.
        let path = canonical(p).display().to_string();
        if path.chars().any(|c| c == '"' || c.is_control()) {
            return Err(Error::new(format!(
                "cannot include `{}`: its path holds a quote or a control character",
                path.escape_debug()
            ))
            .hint("copy or link the header to a path without them"));
        }
    }
    Ok(())
}

/// Parses the functions and PFN table of `input`.
pub fn parse(input: &Input, settings: &ParseSettings) -> Result<Raw, Error> {
    check_paths(input)?;
    let plain = Config::new(input, C, None).parse()?;
    let per_thread = settings
        .per_thread_define
        .map(|d| Config::new(input, C, Some(d)).parse())
        .transpose()?;
    let internal = settings
        .internal_define
        .map(|d| Config::new(input, C, Some(d)).parse())
        .transpose()?;

    // The headers that declare functions; the first one declares the status type.
    let declaring: Vec<PathBuf> = input.headers.iter().map(|h| canonical(&h.path)).collect();
    let main = &declaring[0];
    let mut text_cache = HashMap::new();
    let mut functions = Vec::new();
    let status_codes = plain.status_codes(
        &declaring,
        settings.status_type,
        settings.status_field.map(|f| f.field),
    );
    let types = plain.signature_types(&declaring);
    // The files bindgen's types come from: the main header's directory, at any depth.
    let dir = main.parent().map(Path::to_path_buf).unwrap_or_default();
    let enums = plain.unit.enums(|file| canonical(file).starts_with(&dir));
    let mut twins: HashMap<(String, String, u32), String> = HashMap::new();
    if let Some(unit) = &per_thread {
        for f in unit.functions(&declaring, &mut text_cache)? {
            twins.insert(
                (f.origin.file.clone(), f.spelled.clone(), f.origin.line),
                f.symbol,
            );
        }
    }
    let skipped = |name: &str| settings.skip_prefixes.iter().any(|p| name.starts_with(p));
    for mut f in plain.functions(&declaring, &mut text_cache)? {
        if skipped(&f.spelled) {
            continue;
        }
        if let Some(t) = twins.get(&(f.origin.file.clone(), f.spelled.clone(), f.origin.line)) {
            f.per_thread_symbol = t.clone();
        }
        functions.push(f);
    }

    // The entry points that the compiler's headers declare, if the library
    // has such headers and they are there.
    let mut compiler_files = Vec::new();
    if let Some(compiler) = &settings.compiler {
        let (found, files) = compiler_functions(input, compiler, &mut text_cache)?;
        functions.extend(found);
        compiler_files = files;
    }

    // Functions that only a platform's define shows (`cuWGLGetDevice` under
    // `_WIN32`), with the plain parse's typedef names kept and others canonical.
    let mut platform_units = Vec::new();
    let declared_names = plain.unit.declared_types();
    for (cfg, define) in settings.platforms {
        // Windows' as its compilers read it ([`Config::windows`]).
        let config = if *define == "_WIN32" {
            Config::windows(input)
        } else {
            Config::new(input, C, Some(define))
        };
        let unit = config.parse()?;
        let seen: std::collections::HashSet<(String, String)> = functions
            .iter()
            .map(|f| (f.origin.file.clone(), f.spelled.clone()))
            .collect();
        let extra = clang::with_known_typedefs(declared_names.clone(), || {
            unit.functions(&declaring, &mut text_cache)
        })?;
        for mut f in extra {
            if !seen.contains(&(f.origin.file.clone(), f.spelled.clone())) {
                f.platform = Some((*cfg).to_string());
                functions.push(f);
            }
        }
        platform_units.push(unit);
    }

    let mut pfn = BTreeMap::new();
    for unit in [internal.as_ref(), per_thread.as_ref(), Some(&plain)]
        .into_iter()
        .flatten()
        .chain(platform_units.iter())
    {
        for (name, td) in unit.pfn_typedefs() {
            pfn.insert(name, td);
        }
    }

    // The named headers first, then whatever else of ours they include, then
    // the compiler's.
    let mut files: Vec<PathBuf> = input.paths().cloned().collect();
    for f in plain.unit.user_files().into_iter().chain(compiler_files) {
        if !files.iter().any(|k| canonical(k) == canonical(&f)) {
            files.push(f);
        }
    }
    let declared = plain.unit.declared_types();
    let version = Some(settings.version_macro)
        .filter(|m| !m.is_empty())
        .and_then(|m| plain.unit.macro_value(m))
        .map(CudaVersion::from_number);
    if let Some(v) = version {
        for typedefs in input.headers.iter().filter_map(|h| h.typedefs.as_ref()) {
            check_same_release(v, input.main(), typedefs, settings.version_macro)?;
        }
    }
    let alias_macros = if settings.alias_macros {
        plain.unit.alias_macros()
    } else {
        Vec::new()
    };
    let inline_wrappers = if settings.inline_wrappers {
        plain.inline_wrappers(&declaring)
    } else {
        Vec::new()
    };
    // Objects, like enums, from the library's own include directory.
    let variables = plain.variables(|file| canonical(file).starts_with(&dir));
    let (imported, msvc_macros) = windows_view(input, &declaring, &dir);
    Ok(Raw {
        alias_macros,
        inline_wrappers,
        functions,
        variables,
        imported,
        msvc_macros,
        pfn,
        files,
        status_codes,
        types,
        enums,
        declared,
        version,
        triple: plain.unit.triple(),
    })
}

/// A typedef header from another directory must come from the same release:
/// the main header next to it (a toolkit's or a wheel's layout) must define
/// the same version macro. A PFN table of another release gives wrong ABI
/// versions, not just missing ones.
fn check_same_release(
    version: CudaVersion,
    header: &Path,
    typedefs: &Path,
    version_macro: &str,
) -> Result<(), Error> {
    let (Some(dir), Some(name)) = (
        canonical(typedefs).parent().map(Path::to_path_buf),
        header.file_name(),
    ) else {
        return Ok(());
    };
    if canonical(header).parent() == Some(dir.as_path()) {
        return Ok(());
    }
    let Ok(sibling) = std::fs::read_to_string(dir.join(name)) else {
        return Ok(());
    };
    let theirs = sibling.lines().find_map(|l| {
        let rest = l.trim_start().strip_prefix("#define")?.trim_start();
        let value = rest.strip_prefix(version_macro)?;
        value
            .starts_with(char::is_whitespace)
            .then(|| value.trim().parse::<u32>().ok())?
    });
    match theirs.map(CudaVersion::from_number) {
        Some(t) if t != version => Err(Error::new(format!(
            "`{}` comes from CUDA {t} (by the `{}` beside it), but the header is CUDA {version}",
            typedefs.display(),
            name.to_string_lossy()
        ))
        .hint("pass the typedef header of the same release as the header")),
        _ => Ok(()),
    }
}

/// What a Windows program's compiler makes of the headers ([`Config::windows`]):
/// the symbols of the functions in `declaring` and of the objects under
/// `dir` that it declares `__declspec(dllimport)`, sorted; and the macros
/// that the headers (not the system's) define with MSVC's spellings of
/// packing or alignment, in source order. Both empty where the headers do not compile for Windows,
/// where no program can include them either.
fn windows_view(input: &Input, declaring: &[PathBuf], dir: &Path) -> (Vec<String>, Vec<String>) {
    let Ok(windows) = Config::windows(input).parse() else {
        return (Vec::new(), Vec::new());
    };
    let mut imported = Vec::new();
    for c in windows.unit.root().children() {
        let Some(loc) = c.location() else { continue };
        let file = canonical(&loc.file);
        let ours = match c.kind() {
            clang::Kind::Function => declaring.contains(&file) && !c.is_static(),
            clang::Kind::Variable => file.starts_with(dir) && c.is_extern_declaration(),
            _ => false,
        };
        if ours && c.annotations().iter().any(|a| a == "dllimport") {
            imported.push(c.spelling());
        }
    }
    imported.sort();
    imported.dedup();
    (imported, windows.unit.msvc_layout_macros())
}

/// Checks that the header set also compiles as C++, which the C++ stubs need
/// (they include the header): C never sees what a header puts under
/// `#ifdef __cplusplus`.
pub fn check_cpp(input: &Input) -> Result<(), Error> {
    Config::new(input, CPP, None).parse().map(drop).map_err(|e| {
        let found: Vec<&str> = e
            .diagnostics()
            .iter()
            .map(|d| d.message.trim_start_matches("the header does not compile:\n"))
            .collect();
        Error::new(format!(
            "the header does not compile as C++, which the C++ stubs need:\n{}",
            found.join("\n")
        ))
        .hint("fix the header's C++ part (e.g. its `extern \"C\"` block), or generate Rust only (`--lang rust`)")
    })
}

/// The entry points that `compiler`'s headers declare, and those headers'
/// paths: none when a header is not beside the main one (a lone
/// `--header`). The headers are read as the compiler's host code has them:
/// CUDA (C++) with the compiler's macros, after the C library's
/// `stddef.h` (which the compiler's `cuda_runtime.h` includes first) and the
/// library's main header. Of their `extern "C"` declarations, those are
/// taken that are not `static`, not for the device alone, and named as
/// `compiler` says.
fn compiler_functions(
    input: &Input,
    compiler: &CompilerHeaders,
    text: &mut HashMap<PathBuf, Vec<u8>>,
) -> Result<(Vec<RawFunction>, Vec<PathBuf>), Error> {
    let Some(include) = canonical(input.main()).parent().map(Path::to_path_buf) else {
        return Ok((Vec::new(), Vec::new()));
    };
    let paths: Vec<PathBuf> = compiler.files.iter().map(|f| include.join(f)).collect();
    if !paths.iter().all(|p| p.is_file()) {
        return Ok((Vec::new(), Vec::new()));
    }
    let headers: Vec<PathBuf> = paths.iter().map(|p| canonical(p)).collect();
    // The main header alone: what the compiler's headers need of the
    // library (its types) is there, and the library's other headers
    // (cudart's interop ones) would bring C++ parts of the compiler's tree
    // that are not fetched.
    let mut source = String::from("#include <stddef.h>\n");
    source.push_str(&format!(
        "#include \"{}\"\n",
        canonical(input.main()).display()
    ));
    for d in compiler.then {
        source.push_str(&format!("#define {d}\n"));
    }
    for h in &headers {
        source.push_str(&format!("#include \"{}\"\n", h.display()));
    }
    let mut args: Vec<String> = [
        "-x",
        "cuda",
        "--cuda-host-only",
        "-nocudainc",
        "-nocudalib",
        "-std=c++17",
        "-ferror-limit=0",
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    args.push(format!("-I{}", include.display()));
    args.push(format!("-I{}", foreign::ROOT));
    args.extend(input.clang_args.iter().cloned());
    args.extend(compiler.defines.iter().map(|d| format!("-D{d}")));
    // An `#include` of the compiler's tree that was not fetched.
    let not_fetched = |file: &Path, message: &str| {
        headers.contains(&canonical(file)) && message.ends_with("' file not found")
    };
    let unit = clang::Unit::parse_passing(
        "cushim-input.cu",
        &source,
        &args,
        &foreign::unsaved(),
        Some(&not_fetched),
    )?;
    let parsed = Parsed { unit };
    let found = parsed.functions_of(&headers, Some(compiler), text)?;
    Ok((found, paths))
}

fn canonical(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| p.to_path_buf())
}

/// The language a parse reads the headers as: clang's `-x` and `-std`.
type Language = (&'static str, &'static str);
/// What the functions, types and tables are read as.
const C: Language = ("c", "-std=c11");
/// What the C++ stubs compile the headers as.
const CPP: Language = ("c++", "-std=c++17");

/// The include directories and the synthetic main file for one parse.
struct Config {
    source: String,
    args: Vec<String>,
    /// The in-memory files it may include: the foreign stand-ins.
    unsaved: Vec<(String, &'static str)>,
}

impl Config {
    fn new(input: &Input, (language, standard): Language, define: Option<&str>) -> Config {
        let mut args: Vec<String> = vec!["-x".into(), language.into(), standard.into()];
        if let Some(dir) = canonical(input.main()).parent() {
            args.push(format!("-I{}", dir.display()));
        }
        args.push(format!("-I{}", foreign::ROOT));
        args.extend(input.clang_args.iter().cloned());
        args.extend(define.map(|d| format!("-D{d}")));
        Config {
            source: source(input),
            args,
            unsaved: foreign::unsaved(),
        }
    }

    /// The headers as a Windows program's compiler reads them (GCC or Clang
    /// for MinGW, whose view is `_WIN32`'s), with `__declspec(x)` read as
    /// `__attribute__((annotate("x")))`, which libclang keeps on any target,
    /// MSVC's `__pragma(x)` as `_Pragma("x")` (as the C++ pair has GCC read
    /// it, [`crate::ir::WindowsView::msvc_macros`]), and an empty `<windows.h>`.
    fn windows(input: &Input) -> Config {
        let mut config = Config::new(input, C, Some("_WIN32"));
        config.args.extend([
            "-D_WIN64".to_string(),
            "-D__declspec(x)=__attribute__((annotate(#x)))".to_string(),
            "-D__pragma(x)=_Pragma(#x)".to_string(),
        ]);
        config.unsaved = foreign::unsaved_for_windows();
        config
    }

    fn parse(&self) -> Result<Parsed, Error> {
        Ok(Parsed {
            unit: clang::Unit::parse("cushim-input.h", &self.source, &self.args, &self.unsaved)?,
        })
    }
}

/// The synthetic main file: each header after what it needs, then its
/// typedef table.
pub(super) fn source(input: &Input) -> String {
    let mut source = String::new();
    for h in input.headers.iter().filter(|h| !h.reached) {
        for need in &h.needs {
            source.push_str(&format!("#include <{need}>\n"));
        }
        for p in std::iter::once(&h.path).chain(h.typedefs.iter()) {
            source.push_str(&format!("#include \"{}\"\n", canonical(p).display()));
        }
    }
    source
}

struct Parsed {
    unit: clang::Unit,
}

impl Parsed {
    /// The function declarations written in `headers`, in source order.
    /// The objects that files `ours` says are the library's declare `extern`.
    fn variables(&self, ours: impl Fn(&Path) -> bool) -> Vec<RawVariable> {
        let mut out = Vec::new();
        for c in self.unit.root().children() {
            if c.kind() != clang::Kind::Variable || !c.is_extern_declaration() {
                continue;
            }
            let Some(loc) = c.location() else { continue };
            if !ours(&loc.file) {
                continue;
            }
            out.push(RawVariable {
                name: c.spelling(),
                ty: c.variable_type(),
                origin: Origin {
                    file: loc.file.display().to_string(),
                    line: loc.line,
                },
            });
        }
        out
    }

    fn functions(
        &self,
        headers: &[PathBuf],
        text: &mut HashMap<PathBuf, Vec<u8>>,
    ) -> Result<Vec<RawFunction>, Error> {
        self.functions_of(headers, None, text)
    }

    /// The function declarations written in `headers`, in source order; with
    /// `compiler`, those of its `extern "C"` blocks and declarations that it
    /// takes (C++ CUDA code).
    fn functions_of(
        &self,
        headers: &[PathBuf],
        compiler: Option<&CompilerHeaders>,
        text: &mut HashMap<PathBuf, Vec<u8>>,
    ) -> Result<Vec<RawFunction>, Error> {
        let mut out = Vec::new();
        let cursors: Vec<clang::Cursor<'_>> = match compiler {
            None => self.unit.root().children(),
            Some(_) => self
                .unit
                .root()
                .children()
                .into_iter()
                .filter(|c| c.kind() == clang::Kind::LinkageSpec)
                .flat_map(|c| c.children())
                .collect(),
        };
        for c in cursors {
            if c.kind() != clang::Kind::Function {
                continue;
            }
            let Some(loc) = c.location() else { continue };
            // A static function is the header's own code, never an export.
            if !headers.contains(&canonical(&loc.file)) || c.is_static() {
                continue;
            }
            if compiler.is_some_and(|k| {
                !k.takes(&c.spelling()) || !c.has_c_linkage() || c.is_device_only()
            }) {
                continue;
            }
            let origin = Origin {
                file: loc.file.display().to_string(),
                line: loc.line,
            };
            let symbol = c.spelling();
            let spelled = clang::identifier_at(&loc.file, loc.offset, text).ok_or_else(|| {
                Error::at(
                    origin.clone(),
                    format!("cannot read the name of `{symbol}`"),
                )
            })?;
            let mut unsupported = (!crate::c::is_identifier(&symbol)).then(|| {
                format!(
                    "its name `{}` is not an ASCII C identifier, which a shim cannot take",
                    symbol.escape_debug()
                )
            });
            let params = match c.params() {
                Ok(p) => p,
                Err(e) => {
                    unsupported.get_or_insert(e);
                    Vec::new()
                }
            };
            let (ret, ret_sig) = match c.result() {
                Ok(r) => r,
                Err(e) => {
                    unsupported.get_or_insert(e);
                    (Type::Builtin(crate::c::Builtin::Void), String::new())
                }
            };
            let mut signature = vec![ret_sig];
            signature.extend(params.iter().map(|p| p.2.clone()));
            out.push(RawFunction {
                spelled,
                per_thread_symbol: symbol.clone(),
                symbol,
                params: params.into_iter().map(|(n, t, _)| (n, t)).collect(),
                ret,
                signature,
                doc: c.brief(),
                deprecated: c.is_deprecated(),
                origin,
                unsupported,
                variadic: c.is_variadic(),
                platform: None,
            });
        }
        Ok(out)
    }

    /// `(wrapper, callee)` for each static function in `headers` whose body
    /// returns a call.
    fn inline_wrappers(&self, headers: &[PathBuf]) -> Vec<(String, String)> {
        self.unit
            .root()
            .children()
            .into_iter()
            .filter(|c| c.kind() == clang::Kind::Function && c.is_static())
            .filter(|c| {
                c.location()
                    .is_some_and(|l| headers.contains(&canonical(&l.file)))
            })
            .filter_map(|c| Some((c.spelling(), c.returned_call()?)))
            .collect()
    }

    /// The named types of every signature in `headers`.
    fn signature_types(&self, headers: &[PathBuf]) -> BTreeMap<String, Shape> {
        let mut out = BTreeMap::new();
        for c in self.unit.root().children() {
            if c.kind() == clang::Kind::Function
                && c.location()
                    .is_some_and(|l| headers.contains(&canonical(&l.file)))
            {
                c.signature_types(&mut out);
            }
        }
        out
    }

    /// The constants of the enum `status_type`, as returned by the first
    /// function of `headers` that returns it (the first function at all
    /// when `status_type` is empty); of its `field` when it is a struct.
    fn status_codes(
        &self,
        headers: &[PathBuf],
        status_type: &str,
        field: Option<&str>,
    ) -> Vec<StatusCode> {
        self.unit
            .root()
            .children()
            .into_iter()
            .filter(|c| c.kind() == clang::Kind::Function)
            .filter(|c| {
                c.location()
                    .is_some_and(|l| headers.contains(&canonical(&l.file)))
            })
            .find(|c| {
                status_type.is_empty()
                    || c.result()
                        .is_ok_and(|(ty, _)| ty.named() == Some(status_type))
            })
            .map(|c| c.result_enum_constants(field))
            .unwrap_or_default()
            .into_iter()
            .map(|(name, value, doc)| StatusCode { name, value, doc })
            .collect()
    }

    /// Every `PFN_*` typedef that names a function pointer.
    fn pfn_typedefs(&self) -> Vec<(String, RawTypedef)> {
        let mut out = Vec::new();
        for c in self.unit.root().children() {
            if c.kind() != clang::Kind::Typedef {
                continue;
            }
            let name = c.spelling();
            if !name.starts_with("PFN_") {
                continue;
            }
            let (Some(signature), Some(loc)) = (c.fn_pointer_signature(), c.location()) else {
                continue;
            };
            out.push((
                name,
                RawTypedef {
                    signature,
                    origin: Origin {
                        file: loc.file.display().to_string(),
                        line: loc.line,
                    },
                },
            ));
        }
        out
    }
}
