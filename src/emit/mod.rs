//! [`Api`](crate::ir::Api) → generated source text. Emitters never re-derive
//! facts: they only render what the IR says.

pub mod rust;

/// One generated file: its name inside the output directory, and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct File {
    /// Example: `cuda.rs`.
    pub name: String,
    pub contents: String,
}

/// What every generated file says about where it came from.
#[derive(Clone, Debug)]
pub struct Provenance {
    /// Example: `0.1.0`.
    pub tool_version: String,
    /// Example: `13.5`.
    pub cuda_version: String,
    /// `name sha256` for each header read. Example: `cuda.h 3f1c…`.
    pub headers: Vec<String>,
    /// The command that regenerates the file. Example: `cushim generate --cuda 13.5`.
    pub command: String,
}
