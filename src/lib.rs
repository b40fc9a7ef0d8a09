//! cushim: generates lazy-loading Rust shims for the CUDA driver API.
//!
//! The pipeline is `parse → ir → emit → write`, driven by one [`Options`].

pub mod diag;
pub mod ir;
pub mod parse;

pub use diag::{Diagnostic, Error};
