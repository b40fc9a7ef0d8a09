//! Each pinned release's IR and bindgen types, for the emitters (the `emit`
//! feature).

use std::collections::BTreeMap;

use nanoserde::{DeJson, SerJson};

use crate::c::{Enum, Shape, StatusCode};
use crate::diag::Error;
use crate::ir::build::Filter;
use crate::ir::{Api, Codes, Function, Variable, WindowsView};
use crate::library::Library;
use crate::version::{CudaVersion, Release};

/// What one pinned release ships, besides its Rust types.
#[derive(Clone, Debug, PartialEq, DeJson, SerJson)]
pub struct Record {
    /// The release. Example: `13050`.
    pub cuda: CudaVersion,
    /// Each header read, in order, with its sha256: the provenance lines.
    /// Example: `("cuda.h", "3f1c…")`.
    pub headers: Vec<(String, String)>,
    /// [`Api::functions`], without docs, and with their origins' lines in
    /// [`Record::lines`].
    pub functions: Vec<Function>,
    /// Each function's line in its header, in order: apart, on one line of
    /// the file, since they shift in every release while the functions
    /// rarely change.
    pub lines: Vec<u32>,
    /// [`Api::status_codes`], without docs.
    pub status_codes: Vec<StatusCode>,
    /// [`Api::types`].
    pub types: BTreeMap<String, Shape>,
    /// [`Api::enums`].
    pub enums: Vec<Enum>,
    /// [`Api::declared`], sorted.
    pub declared: Vec<String>,
    /// [`Api::variables`]; written only where a library has some.
    #[nserde(default)]
    pub variables: Vec<Variable>,
    /// [`Api::windows`]; written only where the headers ask something of
    /// the pair on Windows.
    #[nserde(default)]
    pub windows: WindowsView,
}

/// One library's data, as compiled into the crate: a weave of every pinned
/// release of each file.
struct Shipped {
    /// The library's file stem. Example: `nvrtc`.
    stem: &'static str,
    ir: &'static str,
    types: &'static str,
}

macro_rules! shipped {
    ($($stem:literal)*) => {
        &[$(Shipped {
            stem: $stem,
            ir: weave_of!($stem, ".ir.json"),
            types: weave_of!($stem, ".types.rs"),
        },)*]
    };
}

/// Every library's data.
const SHIPPED: &[Shipped] = shipped_libraries!(shipped);

/// The names of `library`'s shipped data files: its IR and its Rust types.
/// Example: `nvrtc.ir.json`, `nvrtc.types.rs`.
#[cfg(feature = "cli")]
pub fn file_names(library: &Library) -> (String, String) {
    (
        format!("{}.ir.json", library.stem),
        format!("{}.types.rs", library.stem),
    )
}

/// The Rust runtime's opaque structs (`cushim-runtime/src/opaque.rs`): the
/// structs declared but never defined in the types of every library and
/// pinned release ([`crate::runtime::opaque`]). `fresh` holds the types
/// weaves to read in place of the shipped ones, by stem (what `cushim
/// pinned` has just written). Example: `[("nvrtc", "cushim weave 1\n...")]`.
#[cfg(any(test, feature = "cli"))]
pub fn opaque_source(fresh: &[(&str, &str)]) -> Result<String, Error> {
    let mut all = Vec::new();
    for shipped in SHIPPED {
        let weave = fresh
            .iter()
            .find(|(stem, _)| *stem == shipped.stem)
            .map_or(shipped.types, |(_, w)| *w);
        let damaged = || {
            Error::new(format!("the types of `{}` are no weave", shipped.stem))
                .hint("rewrite the data with `cushim pinned`")
        };
        for release in crate::weave::releases(weave).ok_or_else(damaged)? {
            let text = crate::weave::text(weave, release).ok_or_else(damaged)?;
            all.push(crate::runtime::opaque::tags(&text));
        }
    }
    Ok(crate::runtime::opaque::runtime_source(
        &crate::runtime::opaque::shared(&all),
    ))
}

/// A pinned release, loaded from the shipped data.
#[derive(Debug)]
pub struct Loaded {
    /// The IR, filtered; docs are `None`.
    pub api: Api,
    /// The provenance lines' `(file name, sha256)`.
    pub headers: Vec<(String, String)>,
    /// Bindgen's Rust for the release's types.
    pub rust_types: String,
}

/// The shipped data of `library` for `cuda` as text, `(IR, Rust types)`, or
/// `None` when the crate has none for it.
pub fn texts(cuda: CudaVersion, library: &Library) -> Option<Result<(String, String), Error>> {
    let shipped = SHIPPED.iter().find(|s| s.stem == library.stem)?;
    let what = library.words.label;
    let ir = super::unweave(shipped.ir, cuda, what)?;
    let types = super::unweave(shipped.types, cuda, what)?;
    Some(ir.and_then(|ir| Ok((ir, types?))))
}

/// The shipped data of `library` for `cuda`, or `None` when the crate has none for it.
pub fn load(
    cuda: CudaVersion,
    library: &Library,
    filter: &Filter,
) -> Option<Result<Loaded, Error>> {
    Some(texts(cuda, library)?.and_then(|(ir, types)| decode(&ir, types, library, filter)))
}

/// The data of one release, `ir` and `types` as [`texts`] gives them.
pub fn decode(
    ir: &str,
    types: String,
    library: &Library,
    filter: &Filter,
) -> Result<Loaded, Error> {
    let record = Record::deserialize_json(ir).map_err(|e| {
        Error::new(format!(
            "the data cushim ships for {} is damaged: {e}",
            library.words.label
        ))
        .hint("reinstall cushim; in a checkout, rewrite the data with `cushim pinned`")
    })?;
    if record.lines.len() != record.functions.len() {
        return Err(Error::new(format!(
            "the data cushim ships for {} is damaged: {} functions but {} lines",
            library.words.label,
            record.functions.len(),
            record.lines.len()
        )));
    }
    let codes = Codes::resolve(library, &record.status_codes);
    let mut record = record;
    for (f, line) in record.functions.iter_mut().zip(&record.lines) {
        f.origin.line = *line;
    }
    Ok(Loaded {
        api: Api {
            release: Release::One(record.cuda),
            functions: record
                .functions
                .into_iter()
                .filter(|f| filter.keeps_function(f))
                .collect(),
            variables: record
                .variables
                .into_iter()
                .filter(|v| filter.keeps_name(&v.name))
                .collect(),
            windows: record.windows,
            status_codes: record.status_codes,
            types: record.types,
            enums: record.enums,
            declared: record.declared.into_iter().collect(),
            codes,
            library: *library,
            diagnostics: Vec::new(),
        },
        headers: record.headers,
        rust_types: types,
    })
}

#[cfg(feature = "cli")]
/// The record of an unfiltered IR parsed from a pinned release's headers,
/// as `ir.json` holds it: one function, status code or type per line, so
/// that a new release's diff reads like the header's.
///
/// Refused when the IR carries diagnostics: shipped data must be clean.
pub fn encode(api: &Api, headers: Vec<(String, String)>) -> Result<String, Error> {
    let Release::One(cuda) = api.release else {
        return Err(Error::new("only one pinned release's IR can be shipped"));
    };
    if let Some(d) = api.diagnostics.first() {
        return Err(Error::new(format!(
            "CUDA {cuda} has {} diagnostics, starting with: {d}",
            api.diagnostics.len()
        ))
        .hint("shipped data must parse without warnings; fix the parser or the IR first"));
    }
    let record = Record {
        cuda,
        headers,
        functions: api
            .functions
            .iter()
            .cloned()
            .map(|mut f| {
                f.doc = None;
                f.origin.file = bare_name(&f.origin.file);
                f.origin.line = 0;
                f
            })
            .collect(),
        lines: api.functions.iter().map(|f| f.origin.line).collect(),
        status_codes: api
            .status_codes
            .iter()
            .cloned()
            .map(|mut c| {
                c.doc = None;
                c
            })
            .collect(),
        types: api.types.clone(),
        enums: api.enums.clone(),
        declared: api.declared.iter().cloned().collect(),
        variables: api.variables.clone(),
        windows: api.windows.clone(),
    };
    let mut out = String::from("{\n");
    field(&mut out, "cuda", &record.cuda.serialize_json());
    list(
        &mut out,
        "headers",
        record.headers.iter().map(SerJson::serialize_json),
    );
    list(
        &mut out,
        "functions",
        record.functions.iter().map(SerJson::serialize_json),
    );
    field(&mut out, "lines", &record.lines.serialize_json());
    list(
        &mut out,
        "status_codes",
        record.status_codes.iter().map(SerJson::serialize_json),
    );
    let types = record
        .types
        .iter()
        .map(|(name, shape)| format!("{}:{}", name.serialize_json(), shape.serialize_json()));
    let types: Vec<String> = types.collect();
    field(&mut out, "types", &format!("{{\n{}\n}}", types.join(",\n")));
    list(
        &mut out,
        "enums",
        record.enums.iter().map(SerJson::serialize_json),
    );
    list(
        &mut out,
        "declared",
        record.declared.iter().map(SerJson::serialize_json),
    );
    if !record.variables.is_empty() {
        list(
            &mut out,
            "variables",
            record.variables.iter().map(SerJson::serialize_json),
        );
    }
    if !record.windows.is_empty() {
        field(&mut out, "windows", &record.windows.serialize_json());
    }
    // The last field closes without a comma.
    out.truncate(out.trim_end_matches([',', '\n']).len());
    out.push_str("\n}\n");
    debug_assert_eq!(Record::deserialize_json(&out).ok().as_ref(), Some(&record));
    Ok(out)
}

#[cfg(feature = "cli")]
fn field(out: &mut String, name: &str, json: &str) {
    out.push_str(&format!("{}:{json},\n", name.serialize_json()));
}

#[cfg(feature = "cli")]
fn list(out: &mut String, name: &str, items: impl Iterator<Item = String>) {
    let items: Vec<String> = items.collect();
    field(out, name, &format!("[\n{}\n]", items.join(",\n")));
}

#[cfg(feature = "cli")]
/// `/cache/cuda-13.5/include/cuda.h` → `cuda.h`.
fn bare_name(file: &str) -> String {
    std::path::Path::new(file)
        .file_name()
        .map_or_else(|| file.to_string(), |n| n.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::DRIVER;

    /// The runtime's opaque structs are those of the shipped data: a new
    /// release's struct, or one that a release starts to define, changes
    /// the committed file (`cushim pinned` writes it).
    #[test]
    fn the_runtimes_opaque_structs_are_the_shipped_datas() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/cushim-runtime/src/opaque.rs");
        let committed = std::fs::read_to_string(path).unwrap();
        assert!(
            opaque_source(&[]).unwrap() == committed,
            "{path} is stale: rewrite it with `cargo run --release -- pinned`"
        );
    }

    #[test]
    fn every_shipped_release_decodes_and_has_functions_and_types() {
        for library in crate::library::LIBRARIES {
            for pin in crate::pins::all_for(library) {
                let what = format!("{} {}", library.name, pin.cuda);
                let loaded = load(pin.cuda, library, &Filter::default())
                    .expect(&what)
                    .expect(&what);
                assert!(!loaded.api.functions.is_empty(), "{what}");
                assert!(
                    library.success.is_empty()
                        || loaded
                            .api
                            .enums
                            .iter()
                            .any(|e| e.is_named(library.parse.codes_enum())),
                    "{what}: its status enum"
                );
                assert!(!loaded.rust_types.is_empty(), "{what}");
                assert!(loaded.api.functions.iter().all(|f| f.doc.is_none()));
                assert_eq!(loaded.api.release, Release::One(pin.cuda), "{what}");
            }
        }
    }

    #[test]
    fn a_release_outside_the_pins_is_none() {
        assert!(load(
            "11.8".parse().unwrap(),
            &crate::library::NVJITLINK,
            &Filter::default()
        )
        .is_none());
    }

    #[test]
    fn damaged_data_is_an_error_that_names_the_library() {
        let e = decode(
            "{\"cuda\": \"x\"}",
            String::new(),
            &DRIVER,
            &Filter::default(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("CUDA driver is damaged"), "{e}");
    }

    #[test]
    fn a_filter_keeps_a_function_by_any_of_its_names() {
        let filter = Filter {
            allow: regex_lite::Regex::new("^cuMemAlloc$").ok(),
            block: None,
        };
        let loaded = load("13.5".parse().unwrap(), &DRIVER, &filter)
            .unwrap()
            .unwrap();
        let symbols: Vec<&str> = loaded
            .api
            .functions
            .iter()
            .map(|f| f.symbol.as_str())
            .collect();
        assert_eq!(symbols, ["cuMemAlloc_v2"]);
    }
}
