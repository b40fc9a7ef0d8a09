//! Types, constants and enums through bindgen. Functions are ours (see
//! `clang.rs`), so bindgen is told to emit none.

use bindgen::{EnumVariation, Formatter, RustEdition};

use super::Input;
use crate::diag::Error;

/// Bindgen's Rust for every type and constant declared next to the main header.
///
/// Enums become newtypes (`CUresult::CUDA_SUCCESS`): a driver newer than the
/// header may return values the header does not list, and a Rust `enum` would
/// make that undefined behaviour.
pub fn bindgen_types(input: &Input) -> Result<String, Error> {
    let header = input
        .header
        .canonicalize()
        .map_err(|e| Error::new(format!("header `{}`: {e}", input.header.display())))?;
    let dir = header
        .parent()
        .map(|d| d.display().to_string())
        .unwrap_or_default();
    let mut builder = bindgen::Builder::default()
        .header(header.display().to_string())
        .clang_args(["-x", "c", "-std=c11"])
        .clang_arg(format!("-I{dir}"))
        .clang_args(input.clang_args.iter())
        .allowlist_file(format!("{}/.*", regex_lite::escape(&dir)))
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
    builder = builder.generate_cstr(true);
    let bindings = builder.generate().map_err(|e| {
        Error::new(format!(
            "bindgen could not read `{}`: {e}",
            input.header.display()
        ))
    })?;
    Ok(bindings.to_string())
}
