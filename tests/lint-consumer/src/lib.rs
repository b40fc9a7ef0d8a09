//! Vendors the committed modules of every library of cushim's registry, each
//! library's newest and oldest committed release, and the driver's merged
//! module, as a library that documents everything it exports.
//! `tests/lint.rs` writes the list of modules from the registry and names
//! it in `CUSHIM_LINT_MODULES`. Edition 2021 builds the driver's modules and
//! one other library's newest alone (the `every-library` feature is edition
//! 2024's default): what an edition changes is the modules' common shape,
//! which those show; edition 2024 lints every library.
#![deny(missing_docs)]

include!(env!("CUSHIM_LINT_MODULES"));
