//! Raw declarations → [`Api`]: names, symbols, ABI versions and twins.
//!
//! The ABI version rule (checked against driver 580 for every function of the
//! 11.8, 12.9 and 13.5 headers): list every `PFN_<base>_v<version>` of the
//! symbol's base in ascending order; `base_vN` binds the N-th, an unsuffixed
//! `base` the first. The signature only checks that pick: about fifty symbols
//! share their signature with another version of the same base.

use std::collections::{BTreeMap, HashMap};

use super::{Api, Codes, Function, Param, PerThread, Type, Variable};
use crate::diag::{Diagnostic, Error, Severity};
use crate::library::{Library, Naming};
use crate::parse::{Raw, RawFunction, RawTypedef};
use crate::version::{CudaVersion, Release};

/// Which functions to keep, by C name.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// Keep only functions with a C name that matches.
    pub allow: Option<regex_lite::Regex>,
    /// Drop functions with a C name that matches.
    pub block: Option<regex_lite::Regex>,
}

impl Filter {
    /// Whether `f` is kept: by its C name, an alias or its symbol.
    pub fn keeps_function(&self, f: &Function) -> bool {
        let mut names = vec![f.name.as_str()];
        names.extend(f.aliases.iter().map(String::as_str));
        self.keeps(&names) || self.keeps(&[f.symbol.as_str()])
    }

    /// Whether the filter keeps an object of this name.
    pub fn keeps_name(&self, name: &str) -> bool {
        self.keeps(&[name])
    }

    fn keeps(&self, names: &[&str]) -> bool {
        let allowed = match &self.allow {
            Some(r) => names.iter().any(|n| r.is_match(n)),
            None => true,
        };
        let blocked = match &self.block {
            Some(r) => names.iter().any(|n| r.is_match(n)),
            None => false,
        };
        allowed && !blocked
    }
}

/// The PFN table, indexed by base name.
struct Table<'a> {
    naming: &'a Naming,
    /// base → ascending `(version, typedef)` of the default-stream variants.
    versions: HashMap<&'a str, Vec<(u32, &'a RawTypedef)>>,
    /// (base, `ptds`|`ptsz`) → `(version, typedef)` of the per-thread variants.
    twins: HashMap<(&'a str, &'a str), Vec<(u32, &'a RawTypedef)>>,
}

impl<'a> Table<'a> {
    fn new(pfn: &'a BTreeMap<String, RawTypedef>, naming: &'a Naming) -> Table<'a> {
        let mut versions: HashMap<&str, Vec<(u32, &RawTypedef)>> = HashMap::new();
        let mut twins: HashMap<(&str, &str), Vec<(u32, &RawTypedef)>> = HashMap::new();
        for (name, td) in pfn {
            if naming.pfn_prefix.is_empty() {
                break;
            }
            let Some(rest) = name.strip_prefix(naming.pfn_prefix) else {
                continue;
            };
            let (rest, twin) = match rest.rsplit_once('_') {
                Some((r, s)) if naming.per_thread_suffixes.contains(&s) => (r, Some(s)),
                _ => (rest, None),
            };
            let Some((base, version)) = split_version(rest, naming) else {
                continue;
            };
            match twin {
                Some(t) => twins.entry((base, t)).or_default().push((version, td)),
                None => versions.entry(base).or_default().push((version, td)),
            }
        }
        for v in versions.values_mut().chain(twins.values_mut()) {
            v.sort_by_key(|(ver, _)| *ver);
            v.dedup_by_key(|(ver, _)| *ver);
        }
        Table {
            naming,
            versions,
            twins,
        }
    }
}

/// `cuMemAlloc_v3020` → (`cuMemAlloc`, 3020).
fn split_version<'s>(s: &'s str, naming: &Naming) -> Option<(&'s str, u32)> {
    let (base, v) = s.rsplit_once(naming.version_separator)?;
    if base.is_empty() || v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((base, v.parse().ok()?))
}

/// Builds the IR. Errors (an unsupported signature, a variadic function) stop
/// here; everything else that looks wrong becomes a warning in `Api::diagnostics`.
pub fn build(
    raw: &Raw,
    library: &Library,
    release: Release,
    filter: &Filter,
) -> Result<Api, Error> {
    let table = Table::new(&raw.pfn, &library.naming);
    let mut diags = Vec::new();

    // Several declarations may reach one symbol (`cuGraphInstantiate` and
    // `cuGraphInstantiateWithFlags`); the first one written is the primary name.
    let mut by_symbol: BTreeMap<&str, Vec<&RawFunction>> = BTreeMap::new();
    for f in &raw.functions {
        by_symbol.entry(f.symbol.as_str()).or_default().push(f);
    }

    let mut functions = Vec::new();
    for (symbol, decls) in by_symbol {
        let first = decls[0];
        let names: Vec<&str> = decls.iter().map(|d| d.spelled.as_str()).collect();
        if !filter.keeps(&names) && !filter.keeps(&[symbol]) {
            continue;
        }
        if let Some(why) = &first.unsupported {
            diags.push(
                Diagnostic::error(Some(first.origin.clone()), format!("`{symbol}`: {why}"))
                    .hint("exclude it with `--block` or report the header shape to cushim"),
            );
            continue;
        }
        if first.variadic {
            diags.push(
                Diagnostic::error(
                    Some(first.origin.clone()),
                    format!("`{symbol}` is variadic"),
                )
                .hint("variadic functions cannot be forwarded; exclude it with `--block`"),
            );
            continue;
        }
        for d in &decls[1..] {
            if d.signature != first.signature {
                diags.push(Diagnostic::warning(
                    Some(d.origin.clone()),
                    format!(
                        "`{}` and `{}` both resolve to `{symbol}` with different signatures; keeping the first",
                        first.spelled, d.spelled
                    ),
                ));
            }
        }
        let (proc_name, version) = abi_version(first, &table, &mut diags);
        let per_thread = twin(first, proc_name, version, &table, &mut diags);
        let version = version.map(CudaVersion::from_number);
        let mut aliases: Vec<String> = names[1..].iter().map(|s| s.to_string()).collect();
        aliases.sort();
        aliases.dedup();
        aliases.retain(|a| a != &first.spelled);
        functions.push(Function {
            name: first.spelled.clone(),
            aliases,
            symbol: symbol.to_string(),
            proc_name: proc_name.to_string(),
            version,
            per_thread,
            params: param_names(&first.params)
                .into_iter()
                .zip(&first.params)
                .map(|(name, (_, ty))| Param {
                    name,
                    ty: ty.clone(),
                })
                .collect(),
            ret: first.ret.clone(),
            doc: first.doc.clone(),
            deprecated: decls.iter().any(|d| d.deprecated),
            origin: first.origin.clone(),
            fallback: fallback(library, proc_name, first),
            introduced: None,
            platform: first.platform.clone(),
        });
    }

    // `static inline NAME(...) { return TARGET(...); }`: callers write NAME,
    // the library exports TARGET.
    // An export named for a release (`__nvJitLinkCreate_13_5`) needs a
    // library of that release, where the release is one of the library's
    // own versions: its ABI version.
    for (wrapper, target) in &raw.inline_wrappers {
        if let Some(f) = functions.iter_mut().find(|f| f.symbol == *target) {
            f.name.clone_from(wrapper);
            if library.parse.wrapper_versions {
                f.version = f.version.or_else(|| release_suffix(target));
            }
        }
    }
    // `#define NAME TARGET`: NAME is another C name of TARGET's function.
    // A declaration of NAME before the macro (cuFile's `cuFileDriverClose`,
    // then `#define cuFileDriverClose cuFileDriverClose_v2`) is the old
    // export, which no caller of this header reaches: left out, so that NAME
    // means TARGET in both languages.
    let shadowed: Vec<String> = raw
        .alias_macros
        .iter()
        .filter(|(alias, target)| {
            alias != target
                && functions.iter().any(|f| f.symbol == *alias)
                && functions.iter().any(|f| f.symbol == *target)
        })
        .map(|(alias, _)| alias.clone())
        .collect();
    functions.retain(|f| !shadowed.contains(&f.symbol));
    for (alias, target) in &raw.alias_macros {
        if let Some(f) = functions
            .iter_mut()
            .find(|f| f.symbol == *target || f.name == *target)
        {
            if *alias != f.name && !f.aliases.contains(alias) {
                f.aliases.push(alias.clone());
                f.aliases.sort();
            }
        }
    }

    if diags.iter().any(|d| d.severity == Severity::Error) {
        diags.sort_by(|a, b| a.origin.cmp(&b.origin));
        return Err(Error::from_diagnostics(diags));
    }
    // The objects the headers declare `extern`; one whose type cushim cannot
    // spell is left out, with a warning.
    let mut variables = Vec::new();
    for v in &raw.variables {
        match &v.ty {
            Ok(_) if !filter.keeps_name(&v.name) => {}
            Ok(ty) if crate::c::is_identifier(&v.name) => variables.push(Variable {
                name: v.name.clone(),
                ty: ty.clone(),
            }),
            Ok(_) => {}
            Err(why) => diags.push(Diagnostic::warning(
                Some(v.origin.clone()),
                format!("the object `{}` is left out: {why}", v.name),
            )),
        }
    }
    Ok(Api {
        release,
        functions,
        variables,
        windows: crate::ir::WindowsView {
            imported: raw.imported.clone(),
            msvc_macros: raw.msvc_macros.clone(),
        },
        status_codes: raw.status_codes.clone(),
        types: raw.types.clone(),
        enums: raw
            .enums
            .iter()
            .cloned()
            .map(|mut e| {
                e.flags = library.is_flag_enum(&e.name, &e.aliases);
                e
            })
            .collect(),
        declared: raw.declared.clone(),
        codes: Codes::resolve(library, &raw.status_codes),
        library: *library,
        diagnostics: diags,
    })
}

/// Words that C allows as a parameter name but C++ reserves.
const CPP_KEYWORDS: &[&str] = &[
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "bitand",
    "bitor",
    "bool",
    "catch",
    "char8_t",
    "char16_t",
    "char32_t",
    "class",
    "co_await",
    "co_return",
    "co_yield",
    "compl",
    "concept",
    "const_cast",
    "consteval",
    "constexpr",
    "constinit",
    "decltype",
    "delete",
    "dynamic_cast",
    "explicit",
    "export",
    "false",
    "friend",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "not_eq",
    "nullptr",
    "operator",
    "or",
    "or_eq",
    "private",
    "protected",
    "public",
    "reinterpret_cast",
    "requires",
    "static_assert",
    "static_cast",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typeid",
    "typename",
    "using",
    "virtual",
    "wchar_t",
    "xor",
    "xor_eq",
];

/// The parameters' names, valid and distinct in C, C++ and Rust: the header's
/// name where it is one; a C++ keyword gets a trailing `_`; an unnamed, `_`
/// or repeated one becomes `arg<N>` (underscores added until it is free).
/// Example: `(int arg1, int)` → `arg1`, `arg1_`; `(int a, int a)` → `a`, `a_`.
fn param_names(params: &[(String, Type)]) -> Vec<String> {
    let mut names: Vec<String> = Vec::with_capacity(params.len());
    for (i, (spelled, _)) in params.iter().enumerate() {
        let generated = !crate::c::is_identifier(spelled) || spelled == "_";
        let mut name = if generated {
            format!("arg{i}")
        } else if CPP_KEYWORDS.contains(&spelled.as_str()) {
            format!("{spelled}_")
        } else {
            spelled.clone()
        };
        // A generated name also keeps clear of the names written after it.
        while names.contains(&name)
            || (generated && params[i + 1..].iter().any(|(n, _)| *n == name))
        {
            name.push('_');
        }
        names.push(name);
    }
    names
}

/// The release a symbol ends with: `__nvJitLinkCreate_13_5` → 13.5.
fn release_suffix(symbol: &str) -> Option<CudaVersion> {
    let mut parts = symbol.rsplitn(3, '_');
    let minor: u32 = parts.next()?.parse().ok()?;
    let major: u32 = parts.next()?.parse().ok()?;
    parts.next()?;
    (minor < 100 && (1..1000).contains(&major))
        .then(|| CudaVersion::from_number(major * 1000 + minor * 10))
}

/// The library's fallback functions answer from the status enum when the
/// library is absent, in either usual shape: the text through an out-string,
/// `CUresult cuGetErrorName(CUresult, const char **)`, or returned,
/// `const char *nvrtcGetErrorString(nvrtcResult)`.
fn fallback(library: &Library, proc_name: &str, f: &RawFunction) -> bool {
    if !library.is_fallback(proc_name) {
        return false;
    }
    let string = Type::Pointer {
        is_const: true,
        pointee: Box::new(Type::Builtin(crate::ir::Builtin::Char)),
    };
    let out_string = Type::Pointer {
        is_const: false,
        pointee: Box::new(string.clone()),
    };
    match f.params.as_slice() {
        [(_, code), (_, out)] => *code == f.ret && *out == out_string,
        [(_, code)] => f.ret == string && code.named() == Some(library.parse.status_type),
        _ => false,
    }
}

/// The `cuGetProcAddress` name and ABI version of `f`'s default-stream symbol.
fn abi_version<'a>(
    f: &'a RawFunction,
    table: &Table<'_>,
    diags: &mut Vec<Diagnostic>,
) -> (&'a str, Option<u32>) {
    let symbol = f.symbol.as_str();
    // A library without an ABI table: each symbol stands for itself.
    if table.naming.pfn_prefix.is_empty() {
        return (symbol, None);
    }
    // `base_vN` binds the N-th version, but only where a PFN typedef confirms the base.
    let (base, ordinal) = match split_version(symbol, table.naming) {
        Some((base, n)) if table.versions.contains_key(base) => (base, n as usize),
        _ => (symbol, 1),
    };
    let Some(list) = table.versions.get(base) else {
        diags.push(
            Diagnostic::warning(
                Some(f.origin.clone()),
                format!(
                    "`{symbol}` has no `{}{base}{}*` typedef; its ABI version is unknown",
                    table.naming.pfn_prefix, table.naming.version_separator
                ),
            )
            .hint("pass the PFN typedef header (`--typedefs`), or the shim can only be bound by exact symbol"),
        );
        return (base, None);
    };
    let Some((version, typedef)) = list.get(ordinal.wrapping_sub(1)) else {
        diags.push(Diagnostic::warning(
            Some(f.origin.clone()),
            format!(
                "`{symbol}` is ABI variant {ordinal} of `{base}`, but the PFN table lists only {}: {}",
                list.len(),
                versions_text(list)
            ),
        ));
        return (base, None);
    };
    if typedef.signature != f.signature {
        let matching: Vec<String> = list
            .iter()
            .filter(|(_, td)| td.signature == f.signature)
            .map(|(v, _)| format!("PFN_{base}_v{v}"))
            .collect();
        let also = if matching.is_empty() {
            "no PFN typedef of that base matches it".to_string()
        } else {
            format!("its signature matches {}", matching.join(", "))
        };
        diags.push(
            Diagnostic::warning(
                Some(f.origin.clone()),
                format!(
                    "`{symbol}` binds ABI version {version} by the ordinal rule, but `PFN_{base}_v{version}` (at {}) has a different signature; {also}",
                    typedef.origin
                ),
            )
            .hint("the ordinal pick is kept: it is what the driver binds for this symbol"),
        );
    }
    (base, Some(*version))
}

/// The `_ptds`/`_ptsz` twin of `f`, with the version of the twin typedef whose signature matches.
fn twin(
    f: &RawFunction,
    base: &str,
    default_version: Option<u32>,
    table: &Table<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<PerThread> {
    if f.per_thread_symbol == f.symbol {
        return None;
    }
    // A library without a PFN table has no ABI versions to pick from
    // (cudart's `cudaMemcpyAsync_ptsz`): the twin is its symbol alone.
    if table.naming.pfn_prefix.is_empty() {
        return Some(PerThread {
            symbol: f.per_thread_symbol.clone(),
            version: None,
        });
    }
    let suffix = f.per_thread_symbol.rsplit_once('_').map(|(_, s)| s)?;
    let candidates = table
        .twins
        .get(&(base, suffix))
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let matching: Vec<u32> = candidates
        .iter()
        .filter(|(_, td)| td.signature == f.signature)
        .map(|(v, _)| *v)
        .collect();
    // Several twins can share one signature (`cuStreamWaitValue32_v8000_ptsz` and
    // `_v11070_ptsz`); the twin of a variant then carries the variant's own version.
    let same_version: Vec<u32> = matching
        .iter()
        .copied()
        .filter(|v| Some(*v) == default_version)
        .collect();
    let version = match (matching.as_slice(), candidates) {
        ([v], _) => Some(*v),
        (_, _) if same_version.len() == 1 => Some(same_version[0]),
        ([], [(v, _)]) => {
            diags.push(Diagnostic::warning(
                Some(f.origin.clone()),
                format!(
                    "the only `PFN_{base}_v*_{suffix}` typedef (v{v}) does not match the signature of `{}`; using it",
                    f.per_thread_symbol
                ),
            ));
            Some(*v)
        }
        _ => {
            diags.push(Diagnostic::warning(
                Some(f.origin.clone()),
                format!(
                    "cannot pick the ABI version of `{}`: {} `PFN_{base}_v*_{suffix}` typedefs match its signature",
                    f.per_thread_symbol,
                    matching.len()
                ),
            ));
            None
        }
    };
    Some(PerThread {
        symbol: f.per_thread_symbol.clone(),
        version: version.map(CudaVersion::from_number),
    })
}

fn versions_text(list: &[(u32, &RawTypedef)]) -> String {
    list.iter()
        .map(|(v, _)| v.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    //! The version rule on hand-built input: no libclang here.
    use super::*;

    #[test]
    fn parameter_names_are_valid_and_distinct_in_every_output_language() {
        let params = |names: &[&str]| -> Vec<(String, Type)> {
            names
                .iter()
                .map(|n| (n.to_string(), Type::Builtin(crate::c::Builtin::Int)))
                .collect()
        };
        assert_eq!(param_names(&params(&["arg1", ""])), ["arg1", "arg1_"]);
        assert_eq!(param_names(&params(&["", "arg0"])), ["arg0_", "arg0"]);
        assert_eq!(param_names(&params(&["_"])), ["arg0"]);
        assert_eq!(param_names(&params(&["class", "new"])), ["class_", "new_"]);
        assert_eq!(param_names(&params(&["a", "a"])), ["a", "a_"]);
        assert_eq!(param_names(&params(&["x\u{e4}"])), ["arg0"]);
    }
    use crate::diag::Origin;
    use crate::ir::{Builtin, Type};

    fn origin(line: u32) -> Origin {
        Origin {
            file: "api.h".into(),
            line,
        }
    }

    fn sig(params: &[&str]) -> Vec<String> {
        std::iter::once("CUresult")
            .chain(params.iter().copied())
            .map(String::from)
            .collect()
    }

    fn function(spelled: &str, symbol: &str, twin: &str, params: &[&str]) -> RawFunction {
        RawFunction {
            spelled: spelled.into(),
            symbol: symbol.into(),
            per_thread_symbol: twin.into(),
            params: params
                .iter()
                .enumerate()
                .map(|(i, _)| (format!("p{i}"), Type::Builtin(Builtin::Int)))
                .collect(),
            ret: Type::Named("CUresult".into()),
            signature: sig(params),
            doc: None,
            deprecated: false,
            origin: origin(10),
            unsupported: None,
            variadic: false,
            platform: None,
        }
    }

    fn raw(functions: Vec<RawFunction>, pfn: &[(&str, &[&str])]) -> Raw {
        Raw {
            functions,
            variables: Vec::new(),
            imported: Vec::new(),
            msvc_macros: Vec::new(),
            pfn: pfn
                .iter()
                .map(|(n, p)| {
                    (
                        n.to_string(),
                        RawTypedef {
                            signature: sig(p),
                            origin: origin(99),
                        },
                    )
                })
                .collect(),
            files: Vec::new(),
            alias_macros: Vec::new(),
            inline_wrappers: Vec::new(),
            status_codes: Vec::new(),
            types: Default::default(),
            enums: Vec::new(),
            declared: Default::default(),
            version: None,
            triple: String::new(),
        }
    }

    fn release() -> Release {
        Release::One("13.5".parse().unwrap())
    }

    fn v(number: u32) -> Option<CudaVersion> {
        Some(CudaVersion::from_number(number))
    }

    fn build_ok(r: &Raw) -> Api {
        build(r, &crate::library::DRIVER, release(), &Filter::default()).expect("builds")
    }

    #[test]
    fn a_suffixed_symbol_binds_the_nth_version_including_internal_ones() {
        // cuCtxCreate_v4 → the 4th of 2000 (internal), 3020, 11040, 12050.
        let r = raw(
            vec![function(
                "cuCtxCreate",
                "cuCtxCreate_v4",
                "cuCtxCreate_v4",
                &["ctxparams"],
            )],
            &[
                ("PFN_cuCtxCreate_v2000", &["old"]),
                ("PFN_cuCtxCreate_v3020", &["old"]),
                ("PFN_cuCtxCreate_v11040", &["affinity"]),
                ("PFN_cuCtxCreate_v12050", &["ctxparams"]),
            ],
        );
        let api = build_ok(&r);
        let f = &api.functions[0];
        assert_eq!(
            (f.name.as_str(), f.symbol.as_str(), f.proc_name.as_str()),
            ("cuCtxCreate", "cuCtxCreate_v4", "cuCtxCreate")
        );
        assert_eq!(f.version, v(12050));
        assert!(api.diagnostics.is_empty(), "{:?}", api.diagnostics);
    }

    #[test]
    fn an_unsuffixed_symbol_binds_the_first_version() {
        let r = raw(
            vec![function(
                "cuEventElapsedTime",
                "cuEventElapsedTime",
                "cuEventElapsedTime",
                &["f"],
            )],
            &[
                ("PFN_cuEventElapsedTime_v2000", &["f"]),
                ("PFN_cuEventElapsedTime_v12080", &["f"]),
            ],
        );
        assert_eq!(build_ok(&r).functions[0].version, v(2000));
    }

    #[test]
    fn the_ordinal_decides_when_signatures_are_identical() {
        let r = raw(
            vec![function(
                "cuEventElapsedTime",
                "cuEventElapsedTime_v2",
                "cuEventElapsedTime_v2",
                &["f"],
            )],
            &[
                ("PFN_cuEventElapsedTime_v2000", &["f"]),
                ("PFN_cuEventElapsedTime_v12080", &["f"]),
            ],
        );
        let api = build_ok(&r);
        assert_eq!(api.functions[0].version, v(12080));
        assert!(api.diagnostics.is_empty());
    }

    #[test]
    fn a_suffix_without_a_pfn_of_that_base_is_part_of_the_name() {
        // `cuFoo_v2` with only `PFN_cuFoo_v2_v12000`: the base is `cuFoo_v2`.
        let r = raw(
            vec![function("cuFoo_v2", "cuFoo_v2", "cuFoo_v2", &["x"])],
            &[("PFN_cuFoo_v2_v12000", &["x"])],
        );
        let f = &build_ok(&r).functions[0];
        assert_eq!((f.proc_name.as_str(), f.version), ("cuFoo_v2", v(12000)));
    }

    #[test]
    fn a_signature_that_disagrees_with_the_pick_is_reported_not_guessed() {
        let r = raw(
            vec![function(
                "cuCtxSetFlags",
                "cuCtxSetFlags",
                "cuCtxSetFlags",
                &["unsigned int"],
            )],
            &[("PFN_cuCtxSetFlags_v12010", &["int"])],
        );
        let api = build_ok(&r);
        assert_eq!(api.functions[0].version, v(12010));
        assert_eq!(api.diagnostics.len(), 1);
        let d = api.diagnostics[0].to_string();
        assert!(d.starts_with("api.h:10: warning:"), "{d}");
        assert!(d.contains("PFN_cuCtxSetFlags_v12010"), "{d}");
    }

    #[test]
    fn a_missing_pfn_typedef_leaves_the_version_unknown_with_a_warning() {
        let r = raw(
            vec![function(
                "cuProfilerStart",
                "cuProfilerStart",
                "cuProfilerStart",
                &[],
            )],
            &[],
        );
        let api = build_ok(&r);
        assert_eq!(api.functions[0].version, None);
        assert!(api.diagnostics[0]
            .to_string()
            .contains("no `PFN_cuProfilerStart_v*` typedef"));
    }

    #[test]
    fn the_twin_takes_the_matching_twin_typedef_and_ties_go_to_the_same_version() {
        let r = raw(
            vec![
                function(
                    "cuMemcpyHtoD",
                    "cuMemcpyHtoD_v2",
                    "cuMemcpyHtoD_v2_ptds",
                    &["d", "s", "n"],
                ),
                function(
                    "cuStreamWaitValue32",
                    "cuStreamWaitValue32_v2",
                    "cuStreamWaitValue32_v2_ptsz",
                    &["w"],
                ),
            ],
            &[
                ("PFN_cuMemcpyHtoD_v2000", &["d32", "s", "n32"]),
                ("PFN_cuMemcpyHtoD_v3020", &["d", "s", "n"]),
                ("PFN_cuMemcpyHtoD_v7000_ptds", &["d", "s", "n"]),
                ("PFN_cuStreamWaitValue32_v8000", &["w"]),
                ("PFN_cuStreamWaitValue32_v11070", &["w"]),
                ("PFN_cuStreamWaitValue32_v8000_ptsz", &["w"]),
                ("PFN_cuStreamWaitValue32_v11070_ptsz", &["w"]),
            ],
        );
        let api = build_ok(&r);
        let twin = |i: usize| api.functions[i].per_thread.clone().unwrap();
        assert_eq!(api.functions[0].version, v(3020));
        assert_eq!(
            twin(0),
            PerThread {
                symbol: "cuMemcpyHtoD_v2_ptds".into(),
                version: v(7000)
            }
        );
        assert_eq!(api.functions[1].version, v(11070));
        assert_eq!(twin(1).version, v(11070));
        assert!(api.diagnostics.is_empty(), "{:?}", api.diagnostics);
    }

    #[test]
    fn two_names_of_one_symbol_become_one_function_with_an_alias() {
        let r = raw(
            vec![
                function(
                    "cuGraphInstantiate",
                    "cuGraphInstantiateWithFlags",
                    "cuGraphInstantiateWithFlags",
                    &["g"],
                ),
                function(
                    "cuGraphInstantiateWithFlags",
                    "cuGraphInstantiateWithFlags",
                    "cuGraphInstantiateWithFlags",
                    &["g"],
                ),
            ],
            &[("PFN_cuGraphInstantiateWithFlags_v11040", &["g"])],
        );
        let api = build_ok(&r);
        assert_eq!(api.functions.len(), 1);
        let f = &api.functions[0];
        assert_eq!(f.name, "cuGraphInstantiate");
        assert_eq!(f.aliases, ["cuGraphInstantiateWithFlags"]);
        assert_eq!(f.c_names_besides_symbol(), ["cuGraphInstantiate"]);
    }

    #[test]
    fn no_lookup_name_carries_a_version_or_stream_suffix() {
        let r = raw(
            vec![
                function("cuMemAlloc", "cuMemAlloc_v2", "cuMemAlloc_v2", &["p", "n"]),
                function(
                    "cuLaunchKernel",
                    "cuLaunchKernel",
                    "cuLaunchKernel_ptsz",
                    &["k"],
                ),
            ],
            &[
                ("PFN_cuMemAlloc_v2000", &["p32", "n32"]),
                ("PFN_cuMemAlloc_v3020", &["p", "n"]),
                ("PFN_cuLaunchKernel_v4000", &["k"]),
                ("PFN_cuLaunchKernel_v7000_ptsz", &["k"]),
            ],
        );
        for f in build_ok(&r).functions {
            assert!(
                split_version(&f.proc_name, &crate::library::DRIVER.naming).is_none(),
                "{}",
                f.proc_name
            );
            assert!(!f.proc_name.ends_with("_ptds") && !f.proc_name.ends_with("_ptsz"));
        }
    }

    #[test]
    fn an_unsupported_signature_is_an_error_with_its_location() {
        let mut f = function("cuOdd", "cuOdd", "cuOdd", &[]);
        f.unsupported = Some("unsupported C type `_Complex float`".into());
        let e = build(
            &raw(vec![f], &[]),
            &crate::library::DRIVER,
            release(),
            &Filter::default(),
        )
        .unwrap_err();
        let text = e.to_string();
        assert!(
            text.starts_with("api.h:10: error: `cuOdd`: unsupported C type"),
            "{text}"
        );
        assert!(text.contains("hint:"), "{text}");
    }
}
