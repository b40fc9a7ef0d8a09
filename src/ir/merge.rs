//! Several releases' IRs → one: every ABI variant any release declared is its
//! own function; each C name stays with the variant its newest release maps it
//! to; each variant records the first release that declared it.

use std::collections::BTreeMap;

use super::{Api, Function, Type};
use crate::diag::Diagnostic;
use crate::version::{CudaVersion, Release};

fn named_types(t: &Type, out: &mut Vec<String>) {
    match t {
        Type::Named(n) => out.push(n.clone()),
        Type::Pointer { pointee, .. } => named_types(pointee, out),
        Type::FnPointer { ret, params } => {
            named_types(ret, out);
            params.iter().for_each(|p| named_types(p, out));
        }
        Type::Builtin(_) => {}
    }
}

/// Merges `releases` (oldest first). The types, enums and status codes come from
/// the newest; the release reads `11.8..13.5`.
pub fn merge(releases: &[Api]) -> Api {
    let newest = releases.last().expect("at least one release");
    let release = |api: &Api| match api.release {
        Release::One(v) => Some(v),
        _ => None,
    };
    // symbol → (first release, newest declaration)
    let mut variants: BTreeMap<String, (Option<CudaVersion>, Function)> = BTreeMap::new();
    // C name → the symbol the newest release that declares the name maps it to
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    for api in releases {
        for f in &api.functions {
            variants
                .entry(f.symbol.clone())
                .and_modify(|(_, latest)| *latest = f.clone())
                .or_insert_with(|| (release(api), f.clone()));
            for n in std::iter::once(&f.name).chain(&f.aliases) {
                names.insert(n.clone(), f.symbol.clone());
            }
        }
    }
    let mut diagnostics = Vec::new();
    let mut functions = Vec::new();
    for (symbol, (first, mut f)) in variants {
        let mut missing = Vec::new();
        named_types(&f.ret, &mut missing);
        f.params
            .iter()
            .for_each(|p| named_types(&p.ty, &mut missing));
        missing.retain(|t| !newest.declared.contains(t));
        if !missing.is_empty() {
            diagnostics.push(Diagnostic::warning(
                Some(f.origin.clone()),
                format!(
                    "`{symbol}` (from CUDA {}) is left out: the newest header no longer declares {}",
                    first.map_or("?".to_string(), |v| v.to_string()),
                    missing.join(", ")
                ),
            ));
            continue;
        }
        let mut own: Vec<String> = names
            .iter()
            .filter(|(_, s)| **s == symbol)
            .map(|(n, _)| n.clone())
            .collect();
        own.sort();
        f.name = match own.iter().find(|n| **n == f.name).or(own.first()) {
            Some(n) => n.clone(),
            // Its symbol is now a newer variant's C name (`cuDeviceGetUuid` means
            // `cuDeviceGetUuid_v2`): the old one is called after its ABI version.
            None if names.contains_key(&symbol) => {
                format!("{symbol}_v{}", f.version.map_or(0, CudaVersion::number))
            }
            None => symbol.clone(),
        };
        f.aliases = own.into_iter().filter(|n| *n != f.name).collect();
        f.introduced = first;
        functions.push(f);
    }
    Api {
        release: match (releases.first().and_then(release), release(newest)) {
            (Some(from), Some(to)) => Release::Range(from, to),
            _ => Release::Unknown,
        },
        functions,
        variables: newest.variables.clone(),
        windows: newest.windows.clone(),
        status_codes: newest.status_codes.clone(),
        types: newest.types.clone(),
        enums: newest.enums.clone(),
        declared: newest.declared.clone(),
        codes: newest.codes,
        library: newest.library,
        diagnostics,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Origin;
    use crate::ir::{Builtin, Param};

    fn f(name: &str, symbol: &str, version: u32) -> Function {
        Function {
            name: name.into(),
            aliases: Vec::new(),
            symbol: symbol.into(),
            proc_name: name.into(),
            version: Some(CudaVersion::from_number(version)),
            per_thread: None,
            params: vec![Param {
                name: "p".into(),
                ty: Type::Named("CUuuid".into()),
            }],
            ret: Type::Builtin(Builtin::Int),
            doc: None,
            deprecated: false,
            origin: Origin {
                file: "cuda.h".into(),
                line: 1,
            },
            fallback: false,
            introduced: None,
            platform: None,
        }
    }

    fn api(version: &str, functions: Vec<Function>) -> Api {
        Api {
            release: Release::One(version.parse().unwrap()),
            functions,
            variables: Vec::new(),
            windows: Default::default(),
            declared: ["CUuuid_st", "CUuuid"].map(String::from).into(),
            status_codes: Vec::new(),
            types: Default::default(),
            enums: Vec::new(),
            codes: crate::ir::Codes::resolve(&crate::library::DRIVER, &[]),
            library: crate::library::DRIVER,
            diagnostics: Vec::new(),
        }
    }

    #[test]
    fn every_variant_stays_and_each_name_follows_its_newest_release() {
        let old = api(
            "12.0",
            vec![
                f("cuDeviceGetUuid", "cuDeviceGetUuid", 9020),
                f("cuInit", "cuInit", 2000),
            ],
        );
        let new = api(
            "13.0",
            vec![
                f("cuDeviceGetUuid", "cuDeviceGetUuid_v2", 11040),
                f("cuInit", "cuInit", 2000),
            ],
        );
        let merged = merge(&[old, new]);
        assert_eq!(merged.release.to_string(), "12.0..13.0");
        let rows: Vec<(&str, &str, Option<String>)> = merged
            .functions
            .iter()
            .map(|f| {
                let introduced = f.introduced.map(|v| v.to_string());
                (f.name.as_str(), f.symbol.as_str(), introduced)
            })
            .collect();
        assert_eq!(
            rows,
            [
                (
                    "cuDeviceGetUuid_v9020",
                    "cuDeviceGetUuid",
                    Some("12.0".into())
                ),
                ("cuDeviceGetUuid", "cuDeviceGetUuid_v2", Some("13.0".into())),
                ("cuInit", "cuInit", Some("12.0".into())),
            ]
        );
    }

    #[test]
    fn a_variant_whose_types_are_gone_is_left_out_with_a_warning() {
        let mut gone = f("cuOld", "cuOld", 2000);
        gone.params[0].ty = Type::Named("CUremovedType".into());
        let merged = merge(&[api("11.8", vec![gone]), api("13.5", Vec::new())]);
        assert!(merged.functions.is_empty());
        assert!(merged.diagnostics[0]
            .to_string()
            .contains("no longer declares CUremovedType"));
    }
}
