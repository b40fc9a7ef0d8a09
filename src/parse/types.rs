//! Types, constants and enums through bindgen. Functions are ours (see
//! `clang.rs`), so bindgen is told to emit none.

use bindgen::{EnumVariation, Formatter, RustEdition};

use super::{foreign, Input};
use crate::diag::Error;

/// Bindgen's Rust for every type and constant declared next to the main header.
///
/// Enums become newtypes (`CUresult::CUDA_SUCCESS`): a driver newer than the
/// header may return values the header does not list, and a Rust `enum` would
/// make that undefined behaviour.
pub fn bindgen_types(input: &Input) -> Result<String, Error> {
    let main = input.main();
    let header = main
        .canonicalize()
        .map_err(|e| Error::new(format!("header `{}`: {e}", main.display())))?;
    let dir = header
        .parent()
        .map(|d| d.display().to_string())
        .unwrap_or_default();
    // The same synthetic main file as the declarations' parse; the foreign
    // stand-ins that the headers need follow it as in-memory files (bindgen
    // force-includes them), and their types are kept.
    let foreign = foreign::needed(input);
    let mut files = regex_lite::escape(&dir);
    if !foreign.is_empty() {
        files = format!("{files}|{}", regex_lite::escape(foreign::ROOT));
    }
    let mut builder = bindgen::Builder::default()
        .header_contents("cushim-input.h", &super::read::source(input))
        .clang_args(["-x", "c", "-std=c11"])
        .clang_arg(format!("-I{dir}"))
        .clang_arg(format!("-I{}", foreign::ROOT))
        .clang_args(input.clang_args.iter())
        .allowlist_file(format!("({files})/.*"))
        .blocklist_function(".*")
        .blocklist_type("PFN_.*")
        .default_enum_style(EnumVariation::NewType {
            is_bitfield: false,
            is_global: false,
        })
        .derive_default(true)
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
    generated.map_err(|e| Error::new(format!("bindgen could not read `{}`: {e}", main.display())))
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
