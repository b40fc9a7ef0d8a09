//! [`Api`](crate::ir::Api) → generated source text. Emitters never re-derive
//! facts: they only render what the IR says.

pub mod cpp;
pub mod rust;

use crate::diag::Error;
use crate::ir::Api;
use crate::version::Release;

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
    pub release: Release,
    /// `name sha256` for each header read. Example: `cuda.h 3f1c…`.
    pub headers: Vec<String>,
    /// The command that regenerates the file. Example: `cushim generate --cuda 13.5`.
    pub command: String,
}

/// `CUDA_ERROR_OUT_OF_MEMORY` → `out of memory`, unless the header's doc is wanted.
pub(crate) fn describe_status(name: &str, doc: Option<&str>) -> String {
    if let Some(d) = doc {
        return d.to_string();
    }
    let words = name
        .strip_prefix("CUDA_ERROR_")
        .or_else(|| name.strip_prefix("CUDA_"))
        .unwrap_or(name);
    if words == "SUCCESS" {
        return "no error".into();
    }
    words.to_ascii_lowercase().replace('_', " ")
}

/// The one return type every function shares (`CUresult` for `cuda.h`).
pub(crate) fn status_type(api: &Api) -> Result<String, Error> {
    let mut found: Option<&str> = None;
    for f in &api.functions {
        match (f.ret.named(), found) {
            (Some(n), None) => found = Some(n),
            (Some(n), Some(s)) if n == s => {}
            _ => {
                return Err(Error::at(
                    f.origin.clone(),
                    format!(
                        "`{}` returns `{}`, but the emitters need every function to return the same status enum{}",
                        f.symbol,
                        f.ret,
                        found.map(|s| format!(" (`{s}`)")).unwrap_or_default()
                    ),
                )
                .hint("exclude it with `--block`"));
            }
        }
    }
    found
        .map(str::to_string)
        .ok_or_else(|| Error::new("no functions to generate").hint("check `--allow`/`--block`"))
}

#[cfg(test)]
mod tests;
