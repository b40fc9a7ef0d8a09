//! cushim generates lazy-loading Rust and C++ shims for the CUDA libraries:
//! the driver, NVRTC, cuBLAS and every other library of
//! [`library::LIBRARIES`], each from its headers or from the data cushim ships
//! for every pinned release.
//!
//! The stages run one way: `parse → ir → emit → write`, driven by
//! `pipeline` from one [`Options`] that both the `cushim` CLI and
//! [`Builder`] (for `build.rs`) fill. Below them sit the shared vocabulary
//! ([`c`] facts, [`version`]s), the description of each [`library`], and the
//! `runtime` sources that generated code carries. This file is the crate's
//! face and holds no logic.
//!
//! Dependency order, each layer using only those before it (`tests/layers.rs`
//! holds the code to it):
//! `diag`, `columns`, `version`, `c`, `library`, `temp` → `runtime`, `pins`, `parse`, `weave` →
//! `ir`, `options`, `fetch` → `emit`, `diff`, `doctor`, `pinned` → `write`, `pipeline` →
//! `builder`, `check` → `cli`.

#![deny(missing_docs)]

mod builder;
pub mod c;
#[cfg(feature = "cli")]
pub mod check;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod cli;
#[cfg(feature = "emit")]
mod columns;
pub mod diag;
#[cfg(feature = "cli")]
mod diff;
#[cfg(feature = "cli")]
mod doctor;
mod emit;
#[cfg(feature = "fetch")]
pub mod fetch;
pub mod ir;
pub mod library;
pub mod options;
mod parse;
mod pinned;
pub mod pins;
mod pipeline;
mod runtime;
mod temp;
pub mod version;
mod weave;
mod write;

pub use builder::{Builder, LibraryChoice, BUILDER_ENV};
pub use diag::{Diagnostic, Error};
pub use emit::File;
pub use options::{
    Derives, EnumOptions, EnumStyle, Language, Link, Options, Resolve, Source, StreamMode,
};
pub use pipeline::{generate, load, Generated};
pub use version::{CudaVersion, Release};
