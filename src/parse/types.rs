//! Types, constants and enums through bindgen. Functions are ours (see
//! `clang.rs`), so bindgen is told to emit none.

use bindgen::{EnumVariation, Formatter, RustEdition};

use super::{foreign, Input};
use crate::diag::Error;

/// Bindgen's Rust for the types and constants a module exports, but the
/// named `enums`: the Rust emitter renders those itself, in the style asked
/// for, from the IR (so that the shipped data serves every style).
///
/// A module exports what its library declares (every type, enum and
/// constant of the headers that declare its functions, `input.headers`, and
/// of the other files of its own wheels that they include, `input.own`:
/// CUPTI's `cupti_driver_cbid.h`, the runtime's `driver_types.h` for
/// cudart) and, of every other header (the runtime's `driver_types.h` for
/// cuBLAS, the foreign stand-ins), only what those reach: bindgen follows
/// each function's parameters and each type's fields from the library's own
/// headers, and the function declarations themselves are then left out
/// (cushim emits its own).
/// Their typedefs stay (`pub use self::cudaError_enum as CUresult;`), the same
/// in every style but module constants.
///
/// Bindgen still sees the enums (blocklisted, they would make every struct
/// and union that holds one opaque); their items are taken out of its output.
///
/// Bindgen reads the headers for `triple`, the target that the functions
/// were read for ([`super::Raw::triple`]), never for the one it would pick
/// itself: in a build script that is cargo's `TARGET`, and a build for
/// another system would then read the types as that system's headers have
/// them, or fail for want of its C library's headers. The module is the same
/// for every target (what differs between systems, it picks with `cfg`).
pub fn bindgen_types(input: &Input, enums: &[String], triple: &str) -> Result<Types, Error> {
    let main = input.main();
    let header = main
        .canonicalize()
        .map_err(|e| Error::new(format!("header `{}`: {e}", main.display())))?;
    let dir = header
        .parent()
        .map(|d| d.display().to_string())
        .unwrap_or_default();
    // The library's own headers, as clang names them: each header named is
    // included by its canonical path, and a file they include by the path
    // its directory gives it (a cache entry's files are plain files, so
    // both are the canonical path, which is what `own` is matched by).
    let mut own: Vec<String> = Vec::new();
    for p in input.paths().chain(input.own.iter()) {
        let p = p.canonicalize().unwrap_or_else(|_| p.clone());
        let p = regex_lite::escape(&p.display().to_string());
        if !own.contains(&p) {
            own.push(p);
        }
    }
    // The foreign stand-ins that the headers need follow the main file as
    // in-memory files (bindgen force-includes them).
    let foreign = foreign::needed(input);
    let mut builder = bindgen::Builder::default()
        .header_contents("cushim-input.h", &super::read::source(input))
        .clang_args(["-x", "c", "-std=c11"])
        .clang_arg(format!("--target={triple}"))
        .clang_arg(format!("-I{dir}"))
        .clang_arg(format!("-I{}", foreign::ROOT))
        .clang_args(input.clang_args.iter())
        .allowlist_file(format!("^({})$", own.join("|")))
        .blocklist_type("PFN_.*")
        // An enum the IR does not know (one with neither tag nor typedef)
        // stays a newtype: a driver newer than the header may return values
        // the header does not list, and a Rust `enum` would make that
        // undefined behaviour.
        .default_enum_style(EnumVariation::NewType {
            is_bitfield: false,
            is_global: false,
        })
        .derive_default(true)
        // Every derive where bindgen can: the emitter keeps those asked for
        // (`Options::derives`), so that the shipped types serve every choice.
        .derive_partialeq(true)
        .derive_eq(true)
        .derive_hash(true)
        .derive_partialord(true)
        .derive_ord(true)
        .layout_tests(false)
        .generate_comments(false)
        .rust_edition(RustEdition::Edition2021)
        .formatter(Formatter::Prettyplease);
    for (path, text) in foreign {
        builder = builder.header_contents(&path, text);
    }
    builder = builder.generate_cstr(true);
    let generated = quietly(|| builder.generate().map(|b| b.to_string())).map_err(|why| {
        Error::new(format!("bindgen failed on `{}`: {why}", main.display()))
        .hint("a name that is not a Rust identifier (such as a non-ASCII one) is a common cause; fix the header or report its shape to cushim")
    })?;
    let generated = generated
        .map_err(|e| Error::new(format!("bindgen could not read `{}`: {e}", main.display())))?;
    without_enums(&generated, enums)
}

/// What a module's types are.
pub struct Types {
    /// Bindgen's Rust, less the enums and the functions.
    pub text: String,
    /// The `enums` that bindgen reached (and whose items were taken out):
    /// the ones the module renders.
    pub enums: std::collections::BTreeSet<String>,
}

/// Bindgen's `text` without the function declarations, and without the
/// newtype items of `enums`: each one's struct and the `impl` of its
/// constants. Everything else keeps bindgen's layout.
fn without_enums(text: &str, enums: &[String]) -> Result<Types, Error> {
    let mut file = syn::parse_file(text)
        .map_err(|e| Error::new(format!("bindgen's output does not parse: {e}")))?;
    let ours = |ty: &syn::Type| match ty {
        syn::Type::Path(p) => {
            p.qself.is_none()
                && p.path
                    .get_ident()
                    .is_some_and(|i| enums.iter().any(|e| i == e))
        }
        _ => false,
    };
    let mut reached = std::collections::BTreeSet::new();
    file.items.retain(|item| match item {
        syn::Item::Struct(s) if enums.iter().any(|e| s.ident == e) => {
            reached.insert(s.ident.to_string());
            false
        }
        syn::Item::Impl(i) => i.trait_.is_some() || !ours(&i.self_ty),
        syn::Item::ForeignMod(_) => false,
        _ => true,
    });
    Ok(Types {
        text: format!(
            "/* automatically generated by rust-bindgen {}, less the enums and functions */\n\n{}",
            bindgen_version(text),
            prettyplease::unparse(&file)
        ),
        enums: reached,
    })
}

/// The version bindgen's first line names. Example: `0.73.2`.
fn bindgen_version(text: &str) -> &str {
    text.lines()
        .next()
        .and_then(|l| l.split("rust-bindgen ").nth(1))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or("?")
}

thread_local! {
    /// Set while bindgen runs on this thread: its panics become errors, unprinted.
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` (bindgen), turning a panic into its message. Bindgen panics on
/// some inputs (an identifier that is not a Rust identifier); cushim must
/// answer those with an error. The panic hook stays silent for this thread
/// only, and passes every other panic on.
fn quietly<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(std::cell::Cell::get) {
                previous(info);
            }
        }));
    });
    QUIET.with(|q| q.set(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    QUIET.with(|q| q.set(false));
    result.map_err(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_string()))
            .unwrap_or_else(|| "it panicked".into())
    })
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use crate::library::ParseSettings;
    use crate::parse::{parse, Input};

    /// `headers/fixtures/own/`: `lib.h` declares the function, `lib_types.h`
    /// is the library's own too, `other.h` another project's.
    fn fixture(name: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("headers/fixtures/own")
            .join(name)
    }

    /// The types of `lib.h`, with `own` as the library's other files: the
    /// text, and the enums rendered.
    fn types(own: Vec<PathBuf>) -> (String, Vec<String>) {
        let mut input = Input::files(fixture("lib.h"), None);
        input.own = own;
        let raw = parse(&input, &ParseSettings::PLAIN).unwrap();
        let names: Vec<String> = raw.enums.iter().map(|e| e.name.clone()).collect();
        let types = super::bindgen_types(&input, &names, &raw.triple).unwrap();
        (types.text, types.enums.into_iter().collect())
    }

    /// What a file of the library's own wheel declares is bound whole, its
    /// constant and its enum though no signature reaches them; of another
    /// project's header only what a signature reaches (`otherReached_t`),
    /// not its constant or its enum.
    #[test]
    fn an_unreached_own_constant_and_enum_are_kept_and_a_foreign_one_is_not() {
        let (text, enums) = types(vec![fixture("lib_types.h")]);
        assert!(text.contains("pub const LIB_OWN_FLAG: u32 = 4;"), "{text}");
        assert!(enums.contains(&"libOwnKind_enum".to_string()), "{enums:?}");
        assert!(text.contains("pub struct otherReached_st"), "{text}");
        assert!(!text.contains("OTHER_FLAG"), "{text}");
        assert!(!enums.contains(&"otherKind_enum".to_string()), "{enums:?}");
        // Without provenance (a lone header), only the header itself is the
        // library's.
        let (text, enums) = types(Vec::new());
        assert!(!text.contains("LIB_OWN_FLAG"), "{text}");
        assert!(!enums.contains(&"libOwnKind_enum".to_string()), "{enums:?}");
    }
}
