//! The one set of options behind both front-ends: the CLI maps each flag to a
//! [`crate::Builder`] call, and the Builder fills this struct.

use std::path::PathBuf;

/// Where the headers come from.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Source {
    /// The newest pinned release.
    #[default]
    Default,
    /// A pinned release. Example: `12.9`.
    Pinned(String),
    /// A local toolkit: this root, or `CUDA_PATH`, `CUDA_HOME`, `/usr/local/cuda`.
    Toolkit(Option<PathBuf>),
    /// Every pinned release from `from` to `to`, merged into one module.
    Merged { from: String, to: String },
    /// Explicit files (our fixtures, or another library's headers).
    Files {
        header: PathBuf,
        typedefs: Option<PathBuf>,
    },
}

/// Output languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Language {
    Rust,
    /// A C-compatible status header and a C++ source of drop-in stubs.
    Cpp,
}

impl Language {
    pub fn name(self) -> &'static str {
        match self {
            Language::Rust => "rust",
            Language::Cpp => "cpp",
        }
    }
}

/// How generated shims find functions, and the default-stream mode they bind:
/// the runtime's own enums, from the command line to the emitted code.
pub use crate::runtime::{Resolve, StreamMode};

/// Everything that decides what cushim generates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub source: Source,
    /// Output directory. Default: `generated/cuda-<version>` for the CLI, `OUT_DIR` for the Builder.
    pub out_dir: Option<PathBuf>,
    pub languages: Vec<Language>,
    /// Keep only functions whose C name matches. Example: `^cu(Init|MemAlloc)`.
    pub allow: Option<String>,
    /// Drop functions whose C name matches.
    pub block: Option<String>,
    /// Extra clang arguments (`-I`, `-D`).
    pub clang_args: Vec<String>,
    /// Copy the header's brief docs into the output (off: see `RustOptions::docs`).
    pub docs: bool,
    /// C++ only: export `<prefix>cuMemAlloc_v2` instead of the drop-in names. Example: `cushim_`.
    pub cpp_prefix: Option<String>,
    /// How shims find functions. Default: `cuGetProcAddress`.
    pub resolve: Resolve,
    /// The default-stream mode shims bind unless the program chooses at run time.
    pub stream: StreamMode,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            source: Source::Default,
            out_dir: None,
            languages: vec![Language::Rust, Language::Cpp],
            allow: None,
            block: None,
            clang_args: Vec::new(),
            docs: false,
            cpp_prefix: None,
            resolve: Resolve::ProcAddress,
            stream: StreamMode::Legacy,
        }
    }
}

impl Options {
    /// The `cushim generate` command that reproduces this output, written
    /// without absolute paths so that it is the same on every machine.
    pub fn command(&self, cuda_version: &str) -> String {
        let mut c = String::from("cushim generate");
        let file_name = |p: &PathBuf| {
            p.file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        match &self.source {
            Source::Default | Source::Pinned(_) => c.push_str(&format!(" --cuda {cuda_version}")),
            Source::Merged { from, to } => c.push_str(&format!(" --cuda {from}..{to} --merged")),
            Source::Toolkit(_) => c.push_str(" --cuda-path <toolkit>"),
            Source::Files { header, typedefs } => {
                c.push_str(&format!(" --header {}", file_name(header)));
                if let Some(t) = typedefs {
                    c.push_str(&format!(" --typedefs {}", file_name(t)));
                }
            }
        }
        if let Some(a) = &self.allow {
            c.push_str(&format!(" --allow '{a}'"));
        }
        if let Some(b) = &self.block {
            c.push_str(&format!(" --block '{b}'"));
        }
        for a in &self.clang_args {
            c.push_str(&format!(" --clang-arg '{a}'"));
        }
        if self.languages != Options::default().languages {
            let names: Vec<&str> = self.languages.iter().map(|l| l.name()).collect();
            c.push_str(&format!(" --lang {}", names.join(",")));
        }
        if self.resolve == Resolve::Dlsym {
            c.push_str(" --resolve dlsym");
        }
        if self.stream == StreamMode::PerThread {
            c.push_str(" --stream per-thread");
        }
        if let Some(p) = &self.cpp_prefix {
            c.push_str(&format!(" --prefix {p}"));
        }
        if self.docs {
            c.push_str(" --docs");
        }
        c
    }
}
