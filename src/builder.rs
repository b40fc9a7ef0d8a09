//! `cushim::Builder`: the `build.rs` front-end. Every option method sets one
//! field of [`Options`], as the table of options declares it (the methods are
//! expanded here from `crate::options::table`); `generate` runs the same
//! pipeline as the CLI.

use std::path::{Path, PathBuf};

use crate::diag::Error;
use crate::options::Options;
use crate::version::CudaVersion;
use crate::write::{self, Outcome};

/// Every environment variable a generation may read: the header cache
/// (`fetch`), the toolkit search, libclang's location and bindgen's extra
/// arguments. `Builder::generate` tells cargo to rerun when any changes, and
/// when bindgen's extra arguments for cargo's target (`TARGET`) do.
pub const BUILDER_ENV: &[&str] = &[
    "CUSHIM_CACHE_DIR",
    "XDG_CACHE_HOME",
    "HOME",
    "CUDA_PATH",
    "CUDA_HOME",
    "LIBCLANG_PATH",
    "LLVM_CONFIG_PATH",
    "BINDGEN_EXTRA_CLANG_ARGS",
];

/// Generates the lazy-loading module from a downstream `build.rs`:
///
/// ```no_run
/// // build.rs
/// if let Err(e) = cushim::Builder::new().cuda_version("13.5").generate() {
///     eprintln!("{e}");
///     std::process::exit(1);
/// }
/// ```
#[derive(Clone, Debug, Default)]
pub struct Builder {
    options: Options,
    /// A version or a library name that did not parse; reported by `generate`.
    invalid: Option<Error>,
}

impl Builder {
    /// A Builder for the newest pinned release, Rust and C++ output, into `OUT_DIR`.
    #[must_use]
    pub fn new() -> Self {
        Builder::default()
    }

    /// The Builder for these options.
    pub fn from_options(options: Options) -> Self {
        Builder {
            options,
            invalid: None,
        }
    }

    fn version(&mut self, text: &str) -> CudaVersion {
        text.parse()
            .unwrap_or_else(|e: crate::version::InvalidVersion| {
                self.invalid = Some(Error::new(e.to_string()));
                CudaVersion::from_number(0)
            })
    }

    /// The options these calls set.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The options, or the error a method could not report when it was called.
    pub fn checked_options(&self) -> Result<&Options, Error> {
        match &self.invalid {
            Some(why) => Err(why.clone()),
            None => Ok(&self.options),
        }
    }

    /// Generates and writes the module into the output directory (default:
    /// `OUT_DIR`), printing `cargo:rerun-if-changed` for every header read and
    /// `cargo:warning` for every diagnostic. Returns the written paths.
    pub fn generate(&self) -> Result<Vec<PathBuf>, Error> {
        let target = std::env::var("TARGET").unwrap_or_default();
        for var in BUILDER_ENV
            .iter()
            .copied()
            .map(String::from)
            .chain(target_env(&target))
        {
            println!("cargo:rerun-if-env-changed={var}");
        }
        self.generate_quietly()
            .map_err(|e| e.map_hints(crate::options::with_builder_methods))
    }

    fn generate_quietly(&self) -> Result<Vec<PathBuf>, Error> {
        let generated = crate::pipeline::generate(self.checked_options()?)?;
        for d in generated.api.iter().flat_map(|a| &a.diagnostics) {
            println!("cargo:warning={}", d.to_string().replace('\n', " "));
        }
        for input in &generated.inputs {
            println!("cargo:rerun-if-changed={}", input.display());
        }
        let dir = match &self.options.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or_else(|| {
                    Error::new("OUT_DIR is not set")
                        .hint("call `Builder::out_dir` outside of build.rs")
                })?,
        };
        Ok(write::write_all(Path::new(&dir), &generated.files)?
            .into_iter()
            .map(|o| match o {
                Outcome::Written(p) | Outcome::Unchanged(p) => p,
            })
            .collect())
    }
}

/// The variables that bindgen reads for cargo's `target` (empty outside a
/// build script) besides [`BUILDER_ENV`]: its extra arguments for that target,
/// in both spellings. Bindgen reads the headers for the target that the
/// functions were read for, whatever `TARGET` is, but these arguments it
/// takes from the one cargo builds for. Example: for `x86_64-pc-windows-gnu`,
/// `BINDGEN_EXTRA_CLANG_ARGS_x86_64-pc-windows-gnu` and
/// `BINDGEN_EXTRA_CLANG_ARGS_x86_64_pc_windows_gnu`.
fn target_env(target: &str) -> Vec<String> {
    if target.is_empty() {
        return Vec::new();
    }
    let mut vars = vec![format!("BINDGEN_EXTRA_CLANG_ARGS_{target}")];
    let underscored = target.replace('-', "_");
    if underscored != target {
        vars.push(format!("BINDGEN_EXTRA_CLANG_ARGS_{underscored}"));
    }
    vars
}

crate::options::table::options_table!(builder);

/// What [`Builder::library`] takes: a library's name (`"nvrtc"`), or its
/// description (`&cushim::library::NVRTC`).
pub trait LibraryChoice {
    /// The description, or the error that lists the names cushim knows.
    fn library(self) -> Result<&'static crate::library::Library, Error>;
}

impl LibraryChoice for &'static crate::library::Library {
    fn library(self) -> Result<&'static crate::library::Library, Error> {
        Ok(self)
    }
}

impl<S: AsRef<str>> LibraryChoice for S {
    fn library(self) -> Result<&'static crate::library::Library, Error> {
        crate::options::library_named(self.as_ref())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn bindgen_reads_its_arguments_for_the_target_in_both_spellings() {
        assert_eq!(
            super::target_env("x86_64-pc-windows-gnu"),
            [
                "BINDGEN_EXTRA_CLANG_ARGS_x86_64-pc-windows-gnu",
                "BINDGEN_EXTRA_CLANG_ARGS_x86_64_pc_windows_gnu"
            ]
        );
        assert!(super::target_env("").is_empty());
    }
}
