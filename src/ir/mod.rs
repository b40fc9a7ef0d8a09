//! The intermediate representation: facts about every function, derived once
//! and never re-derived by the emitters. Built from `parse::Raw` by
//! [`build`]; no libclang here, so it is unit-tested with hand-built input.

// nanoserde's derived reader of an `Option` field trips this style lint,
// and a derive's impl takes no attribute from its item.
#![allow(clippy::question_mark)]

#[cfg(feature = "emit")]
pub mod build;
// Without `emit` no `Api` is loaded (the shipped output is rendered), so
// neither merging nor the `list` table is compiled into a build script's cushim.
#[cfg(feature = "emit")]
pub mod merge;

pub use crate::c::{Builtin, Enum, Shape, StatusCode, Type};
#[cfg(feature = "emit")]
pub use build::build;

use crate::diag::{Diagnostic, Origin};
use crate::library::Library;
use crate::version::{CudaVersion, Release};

/// Everything an emitter needs about one header set.
#[derive(Clone, Debug)]
pub struct Api {
    /// The CUDA release the headers come from. Example: `13.5`.
    pub release: Release,
    /// Sorted by `symbol`.
    pub functions: Vec<Function>,
    /// The objects the library exports that its headers declare `extern`,
    /// in header order. Example: cuTENSOR's `CUTENSOR_COMPUTE_DESC_32F`.
    pub variables: Vec<Variable>,
    /// What a Windows program's compiler reads in the headers that the C++
    /// pair must answer: the symbols declared imported from the DLL, and the
    /// layout macros only MSVC reads.
    pub windows: WindowsView,
    /// The constants of the status enum every function returns, in header order.
    pub status_codes: Vec<StatusCode>,
    /// Each named type the signatures mention, with its ABI.
    /// Example: `CUuuid` → `struct { bytes: char[16] } (16 bytes)`.
    pub types: std::collections::BTreeMap<String, Shape>,
    /// Every enum the headers declare (bindgen's types leave them out; the
    /// Rust emitter renders them in the style asked for), in declaration order.
    pub enums: Vec<Enum>,
    /// Every type name the headers declare. Example: `CUuuid`.
    pub declared: std::collections::BTreeSet<String>,
    /// The status values loaders answer with, resolved against the header.
    pub codes: Codes,
    /// The description of the library the headers belong to.
    pub library: Library,
    /// Warnings found while building the IR.
    pub diagnostics: Vec<Diagnostic>,
}

/// The status values a loader answers with: the header's constants named by
/// the library description, or the documented value where a header lacks one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Codes {
    /// Example: `303` (`CUDA_ERROR_SHARED_OBJECT_INIT_FAILED`).
    pub library_not_found: i64,
    /// Example: `500` (`CUDA_ERROR_NOT_FOUND`).
    pub symbol_not_found: i64,
    /// Example: `34` (`CUDA_ERROR_STUB_LIBRARY`).
    pub stub_library: i64,
    /// Example: `36` (`CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER`).
    pub too_old: i64,
    /// Example: `3` (`CUDA_ERROR_NOT_INITIALIZED`).
    pub not_initialized: i64,
    /// Example: `0` (`CUDA_SUCCESS`).
    pub success: i64,
    /// Example: `1` (`CUDA_ERROR_INVALID_VALUE`).
    pub invalid_value: i64,
}

impl Api {
    /// The library's loader codes as this header has them: each the first
    /// of its chain that the header declares ([`crate::library::Code::resolved`]).
    pub fn loader_codes(&self) -> crate::library::LoaderCodes {
        self.library
            .codes
            .resolved(&|name| self.status_codes.iter().any(|c| c.name == name))
    }

    /// The headers' CUDA major version, which names the library's files
    /// (`libnvrtc.so.13`, `libcufft.so.12`); 0 when the release is unknown
    /// and the library's files do not need it.
    ///
    /// # Errors
    /// The release is unknown (a header on disk without a version macro) and
    /// the library's names need it.
    pub fn header_major(&self) -> Result<u32, crate::diag::Error> {
        match self.release {
            Release::One(v) | Release::Range(_, v) => Ok(v.number() / 1000),
            Release::Unknown if !self.library.needs_major() => Ok(0),
            Release::Unknown => Err(crate::diag::Error::new(format!(
                "the release of the {} headers is unknown, and its library files are named by their major version",
                self.library.words.label
            ))
            .hint("generate from a pinned release (`--cuda 13.5`) or a toolkit (`--cuda-path`, whose version.json or cuda.h says the release); a lone `--header` tells no release")),
        }
    }

    /// The enum that this type name names (its tag or a typedef of it).
    /// Example: `CUresult` → `cudaError_enum`.
    pub fn enum_named(&self, name: &str) -> Option<&Enum> {
        self.enums.iter().find(|e| e.is_named(name))
    }
}

impl Codes {
    /// The codes `library` names, with the values `status_codes` gives them.
    pub fn resolve(library: &Library, status_codes: &[StatusCode]) -> Codes {
        let value = |name: &str, documented: u32| {
            status_codes
                .iter()
                .find(|c| c.name == name)
                .map_or(i64::from(documented), |c| c.value)
        };
        let c = library
            .codes
            .resolved(&|name| status_codes.iter().any(|c| c.name == name));
        let code = |c: crate::library::Code| value(c.name, c.value);
        Codes {
            library_not_found: code(c.library_not_found),
            symbol_not_found: code(c.symbol_not_found),
            stub_library: code(c.stub_library),
            too_old: code(c.too_old),
            not_initialized: code(c.not_initialized),
            success: value(library.success, 0),
            invalid_value: code(c.invalid_value),
        }
    }
}

/// An object the library exports, which its header declares `extern`: not
/// a function, so no shim calls it; the loaders read its value from the
/// library they loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "emit", derive(nanoserde::DeJson, nanoserde::SerJson))]
pub struct Variable {
    /// Its C name, which is its symbol. Example: `CUTENSOR_COMPUTE_DESC_32F`.
    pub name: String,
    /// Its type, `const` dropped. Example: `cutensorComputeDescriptor_t`.
    pub ty: Type,
}

/// The headers as a Windows program's compiler (GCC or Clang for MinGW,
/// `_WIN32` defined) reads them, where that differs from other systems.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "emit", derive(nanoserde::DeJson, nanoserde::SerJson))]
pub struct WindowsView {
    /// The symbols of the functions and objects declared
    /// `__declspec(dllimport)`, sorted: a caller reaches each through the
    /// pointer `__imp_<symbol>`, which an import library defines, and so the
    /// pair that replaces it. Example: NVML's `nvmlInit_v2`.
    pub imported: Vec<String>,
    /// The macros defined with MSVC's own spellings of packing or alignment
    /// (`__pragma(...)`, `__declspec(align(n))`), which GCC does not read,
    /// in source order. Example: CUPTI's `PACKED_ALIGNMENT`.
    pub msvc_macros: Vec<String>,
}

impl WindowsView {
    /// Whether the headers read for Windows ask nothing of the pair.
    pub fn is_empty(&self) -> bool {
        self.imported.is_empty() && self.msvc_macros.is_empty()
    }
}

/// One driver entry point (one ABI variant).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "emit", derive(nanoserde::DeJson, nanoserde::SerJson))]
pub struct Function {
    /// The name C callers write. Example: `cuMemAlloc`.
    pub name: String,
    /// Other C names that reach the same symbol. Example: `["cuGraphInstantiate"]`
    /// for `cuGraphInstantiateWithFlags`.
    pub aliases: Vec<String>,
    /// What the library exports for this signature. Example: `cuMemAlloc_v2`.
    pub symbol: String,
    /// The base name that `cuGetProcAddress` takes. Example: `cuMemAlloc`.
    pub proc_name: String,
    /// The ABI version from the PFN table. Example: `3.2` (`PFN_cuMemAlloc_v3020`).
    /// `None` when the table has none.
    pub version: Option<CudaVersion>,
    /// The per-thread default-stream twin, when the header declares one.
    pub per_thread: Option<PerThread>,
    /// Example: `[dptr: *mut CUdeviceptr, bytesize: size_t]`.
    pub params: Vec<Param>,
    /// Example: `CUresult`.
    pub ret: Type,
    /// The Doxygen brief. Example: `Allocates device memory`.
    pub doc: Option<String>,
    /// Example: `true` for `cuCtxAttach`.
    pub deprecated: bool,
    /// Where the declaration was written. Example: `cuda.h:4711`.
    pub origin: Origin,
    /// Whether it is one of the status's text functions, which answer
    /// without the library: the status constant's C name
    /// ([`Library::fallbacks`]). Example: `true` for `cuGetErrorName`.
    #[cfg_attr(feature = "emit", nserde(default))]
    pub fallback: bool,
    /// In a merged module, the first release that declared this variant. Example: `Some(11.8)`.
    pub introduced: Option<CudaVersion>,
    /// The only system that has it, as a `cfg` name. Example: `Some("windows")`
    /// for `cuWGLGetDevice`.
    pub platform: Option<String>,
}

/// The `_ptds`/`_ptsz` variant of a function.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "emit", derive(nanoserde::DeJson, nanoserde::SerJson))]
pub struct PerThread {
    /// Example: `cuMemcpyHtoD_v2_ptds`.
    pub symbol: String,
    /// Example: `7.0`. `None` when the PFN table has no matching twin typedef.
    pub version: Option<CudaVersion>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "emit", derive(nanoserde::DeJson, nanoserde::SerJson))]
/// One parameter of a function.
pub struct Param {
    /// Example: `dptr`. Generated as `arg<N>` when the header leaves it unnamed.
    pub name: String,
    /// Example: `*mut CUdeviceptr`.
    pub ty: Type,
}

impl Function {
    /// The fallback's status parameter and its out-string (`None` when the
    /// text is returned), when the function answers without the library.
    /// Example: `cuGetErrorName`, `nvrtcGetErrorString`.
    pub fn fallback_args(&self) -> Option<(&Param, Option<&Param>)> {
        match (self.fallback, self.params.as_slice()) {
            (true, [code, out]) => Some((code, Some(out))),
            (true, [code]) => Some((code, None)),
            _ => None,
        }
    }

    /// Whether it returns the library's status (`status_type`); else it
    /// returns a value, and answers a fallback or zero without the library.
    pub fn returns_status(&self, status_type: &str) -> bool {
        self.ret.named() == Some(status_type)
    }

    /// The parameters as C declares them. Example: `CUdeviceptr *dptr, size_t bytesize`.
    pub fn c_params(&self) -> String {
        let list: Vec<String> = self.params.iter().map(|p| p.ty.declare(&p.name)).collect();
        list.join(", ")
    }

    /// Whether the system cushim runs on has it: no platform, or this one
    /// (`windows` on Windows, `unix` or `linux` on Linux).
    pub fn is_for_this_system(&self) -> bool {
        match self.platform.as_deref() {
            None => true,
            Some("windows") => cfg!(windows),
            Some("unix") => cfg!(unix),
            Some("linux") => cfg!(target_os = "linux"),
            Some("macos") => cfg!(target_os = "macos"),
            Some(_) => false,
        }
    }

    /// The file name of the header that declares it. Example: `cudaGL.h`.
    pub fn header(&self) -> &str {
        let file = self.origin.file.as_str();
        file.rsplit(['/', '\\']).next().unwrap_or(file)
    }

    /// Whether one of the library's compiler headers declares it
    /// ([`crate::library::CompilerHeaders`]): an entry point that compiled
    /// code calls by itself. Example: cudart's `__cudaRegisterFatBinary`.
    pub fn is_compiler_entry(&self, library: &Library) -> bool {
        library
            .parse
            .compiler
            .is_some_and(|c| c.declares_in(self.header()))
    }

    /// The names of the types its signature names. Example: `["dim3",
    /// "CUstream_st"]` for `__cudaPushCallConfiguration`.
    pub fn named_types(&self) -> Vec<&str> {
        fn walk<'a>(ty: &'a Type, out: &mut Vec<&'a str>) {
            match ty {
                Type::Builtin(_) => {}
                Type::Named(n) => out.push(n),
                Type::Pointer { pointee, .. } => walk(pointee, out),
                Type::FnPointer { ret, params } => {
                    walk(ret, out);
                    params.iter().for_each(|p| walk(p, out));
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.ret, &mut out);
        self.params.iter().for_each(|p| walk(&p.ty, &mut out));
        out
    }

    /// The declaration of the exported symbol.
    /// Example: `CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)`.
    pub fn c_signature(&self) -> String {
        format!("{} {}({})", self.ret, self.symbol, self.c_params())
    }

    /// Every C name of this function other than the symbol itself, sorted.
    /// Example: `["cuMemAlloc"]` for `cuMemAlloc_v2`.
    pub fn c_names_besides_symbol(&self) -> Vec<&str> {
        let mut v: Vec<&str> = std::iter::once(self.name.as_str())
            .chain(self.aliases.iter().map(String::as_str))
            .filter(|n| *n != self.symbol)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

impl Api {
    /// This API without the entry points of the library's compiler headers
    /// ([`Function::is_compiler_entry`]): what the Rust module binds. Those
    /// are for compiled objects to link to, which the C++ pair's exports
    /// serve and the Rust module's functions, reached by path, do not.
    pub fn without_compiler_entries(&self) -> Api {
        let mut api = self.clone();
        api.functions
            .retain(|f| !f.is_compiler_entry(&self.library));
        api
    }

    /// What a library without ABI versions has instead, for `list` and
    /// `diff` to say once; `None` when any function (or per-thread twin) has
    /// an ABI version. Example: "cuBLAS has no ABI versions: each C name
    /// binds one export of the library by that export's name, with no version
    /// to ask for (`cublasCaxpy` binds `cublasCaxpy_v2`)".
    pub fn unversioned_note(&self) -> Option<String> {
        let versioned = self.functions.iter().any(|f| {
            f.version.is_some() || f.per_thread.as_ref().is_some_and(|t| t.version.is_some())
        });
        if versioned || self.functions.is_empty() {
            return None;
        }
        // An example where the C name and the export differ says the most.
        let example = self
            .functions
            .iter()
            .find_map(|f| {
                f.c_names_besides_symbol()
                    .first()
                    .map(|n| format!(" (`{n}` binds `{}`)", f.symbol))
            })
            .unwrap_or_default();
        Some(format!(
            "{} has no ABI versions: each C name binds one export of the library by that export's name, with no version to ask for{example}",
            self.library.words.label
        ))
    }
}

/// The `cushim list` table: one row per function. (Only with `emit`, as
/// an [`Api`] is only loaded then.)
#[cfg(feature = "emit")]
pub fn table(api: &Api) -> String {
    let mut rows = vec![[
        "name".to_string(),
        "symbol".to_string(),
        "proc name".to_string(),
        "ABI version".to_string(),
        "per-thread twin".to_string(),
        "header".to_string(),
        "flags".to_string(),
    ]];
    for f in &api.functions {
        let twin = match &f.per_thread {
            Some(t) => format!(
                "{} @{}",
                t.symbol,
                t.version.map_or("-".into(), |v| v.number().to_string())
            ),
            None => "-".into(),
        };
        let mut flags = Vec::new();
        if f.deprecated {
            flags.push("deprecated".to_string());
        }
        for a in &f.aliases {
            flags.push(format!("alias {a}"));
        }
        if let Some(p) = &f.platform {
            flags.push(format!("{p} only"));
        }
        rows.push([
            f.name.clone(),
            f.symbol.clone(),
            f.proc_name.clone(),
            // A library that versions no function (cuBLAS): none to show.
            f.version.map_or("-".into(), |v| v.number().to_string()),
            twin,
            f.header().to_string(),
            if flags.is_empty() {
                "-".into()
            } else {
                flags.join(", ")
            },
        ]);
    }
    crate::columns::columns(&rows)
}
