//! Headers → raw declarations. The only stage that touches libclang: clang-sys
//! (through `clang.rs`) for function declarations and the PFN table, bindgen
//! (through `types.rs`) for types.
//!
//! The header set is parsed in up to three configurations (the library
//! description's [`ParseSettings`]), each answering one question:
//! - plain: the functions as C callers see them, the public PFN table, the
//!   status constants, the type shapes and the version macro;
//! - the per-thread define (`CUDA_API_PER_THREAD_DEFAULT_STREAM`): which functions
//!   have `_ptds`/`_ptsz` twins, and the twins' PFN typedefs;
//! - the internal define (`__CUDA_API_VERSION_INTERNAL`): the legacy PFN typedefs
//!   (`PFN_cuMemAlloc_v2000`) that the ordinal rule needs. Only typedefs are taken
//!   from this parse, since the macro exposes v1 prototypes under unversioned names.

#[cfg(feature = "parse")]
mod clang;
#[cfg(feature = "parse")]
mod files;
#[cfg(feature = "parse")]
mod foreign;
#[cfg(feature = "parse")]
mod read;
#[cfg(feature = "parse")]
mod types;

#[cfg(feature = "emit")]
use std::collections::{BTreeMap, BTreeSet};
#[cfg(feature = "parse")]
use std::path::Path;
#[cfg(feature = "emit")]
use std::path::PathBuf;

#[cfg(feature = "emit")]
use crate::c::{Enum, Shape, StatusCode, Type};
#[cfg(feature = "emit")]
use crate::diag::Origin;
#[cfg(feature = "parse")]
use crate::library::Library;
#[cfg(feature = "emit")]
use crate::version::CudaVersion;

#[cfg(feature = "fetch")]
pub use clang::available as libclang_available;
#[cfg(feature = "fetch")]
pub use files::hex;
#[cfg(feature = "parse")]
pub use files::{file_sha256, toolkit_include, toolkit_release};
#[cfg(feature = "parse")]
pub use read::{check_cpp, parse, settle};
#[cfg(feature = "parse")]
pub use types::bindgen_types;

/// One header that declares functions, as found on disk.
#[cfg(feature = "parse")]
#[derive(Clone, Debug)]
pub struct HeaderInput {
    /// Example: `.../include/cudaGL.h`.
    pub path: PathBuf,
    /// Its PFN typedef table, if separate. Example: `.../include/cudaGLTypedefs.h`.
    pub typedefs: Option<PathBuf>,
    /// Headers of other projects it needs, read from cushim's own minimal
    /// definitions (`headers/foreign/`). Example: `GL/gl.h`.
    pub needs: Vec<&'static str>,
    /// Whether it was found by name ([`crate::library::Globbed`]) rather
    /// than listed: the parse includes it only where the others do not
    /// ([`settle`]), and the C++ pair includes it without `needs`.
    pub globbed: bool,
    /// Whether a header before it includes it: the parse's main file then
    /// does not (a header without an include guard must be read once).
    /// Set by [`settle`].
    pub reached: bool,
}

/// What the caller must say about the headers.
#[cfg(feature = "parse")]
#[derive(Clone, Debug)]
pub struct Input {
    /// The headers that declare functions, the main one first (it declares
    /// the status type and the version macro).
    pub headers: Vec<HeaderInput>,
    /// Extra clang arguments (`-I`, `-D`).
    pub clang_args: Vec<String>,
    /// The other files of the library's own wheels (those that gave the
    /// headers above), which the module binds whole: every type, enum and
    /// constant, reached by a signature or not. What the headers include
    /// from other wheels (the runtime's `driver_types.h` in cuBLAS's) is
    /// bound only where a signature reaches it. Empty where nothing tells
    /// which wheel a file came from (a toolkit, a lone header): then only
    /// the headers above are the library's own.
    pub own: Vec<PathBuf>,
}

#[cfg(feature = "parse")]
impl Input {
    /// A toolkit or cache include directory's headers for `library`: the
    /// main header, each other header of the library that is there, then
    /// those found by name ([`crate::library::Globbed`]), sorted.
    pub fn in_dir(include: &Path, library: &Library) -> Input {
        let mut headers: Vec<HeaderInput> = library
            .headers
            .iter()
            .enumerate()
            .filter(|(i, h)| *i == 0 || include.join(h.name).is_file())
            .map(|(_, h)| HeaderInput {
                path: include.join(h.name),
                typedefs: h.typedefs.map(|t| include.join(t)),
                needs: h.needs.to_vec(),
                globbed: false,
                reached: false,
            })
            .collect();
        let globbed = library.parse.globbed;
        let mut found: Vec<String> = std::fs::read_dir(include)
            .map(|dir| {
                dir.flatten()
                    .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                    .filter_map(|e| e.file_name().into_string().ok())
                    .filter(|n| globbed.matches(n))
                    .filter(|n| !library.headers.iter().any(|h| h.name == n))
                    .collect()
            })
            .unwrap_or_default();
        found.sort();
        headers.extend(found.into_iter().map(|n| HeaderInput {
            path: include.join(n),
            typedefs: None,
            needs: globbed.needs.to_vec(),
            globbed: true,
            reached: false,
        }));
        Input {
            headers,
            clang_args: Vec::new(),
            own: Vec::new(),
        }
    }

    /// One header the user names, with its typedef table if any.
    pub fn files(header: PathBuf, typedefs: Option<PathBuf>) -> Input {
        Input {
            headers: vec![HeaderInput {
                path: header,
                typedefs,
                needs: Vec::new(),
                globbed: false,
                reached: false,
            }],
            clang_args: Vec::new(),
            own: Vec::new(),
        }
    }

    /// The main header. Example: `.../include/cuda.h`.
    pub fn main(&self) -> &Path {
        &self.headers[0].path
    }

    /// Every header file named, typedef tables included, in order.
    pub fn paths(&self) -> impl Iterator<Item = &PathBuf> {
        self.headers
            .iter()
            .flat_map(|h| std::iter::once(&h.path).chain(h.typedefs.iter()))
    }
}

/// One function declaration as written.
#[cfg(feature = "emit")]
#[derive(Clone, Debug)]
pub struct RawFunction {
    /// The identifier written at the declaration. Example: `cuMemAlloc`.
    pub spelled: String,
    /// The name after macro expansion, in the plain parse. Example: `cuMemAlloc_v2`.
    pub symbol: String,
    /// The name after expansion with per-thread default stream on. Example: `cuMemAlloc_v2`
    /// (`cuMemcpyHtoD_v2_ptds` for `cuMemcpyHtoD`).
    pub per_thread_symbol: String,
    pub params: Vec<(String, Type)>,
    pub ret: Type,
    /// Canonical C spellings `[ret, param...]`, for comparing against PFN typedefs.
    pub signature: Vec<String>,
    pub doc: Option<String>,
    pub deprecated: bool,
    pub origin: Origin,
    /// Why the signature could not be converted, if it could not.
    pub unsupported: Option<String>,
    pub variadic: bool,
    /// The system whose define alone shows it (`cfg` name). Example: `windows`.
    pub platform: Option<String>,
}

/// A `PFN_*` typedef: its name and canonical signature.
#[cfg(feature = "emit")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawTypedef {
    pub signature: Vec<String>,
    pub origin: Origin,
}

/// An object a header declares `extern` (defined by the library).
#[cfg(feature = "emit")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawVariable {
    /// Example: `CUTENSOR_COMPUTE_DESC_32F`.
    pub name: String,
    /// Example: `const cutensorComputeDescriptor_t`.
    pub ty: Result<Type, String>,
    pub origin: Origin,
}

/// The parse stage's output.
#[cfg(feature = "emit")]
#[derive(Clone, Debug)]
pub struct Raw {
    pub functions: Vec<RawFunction>,
    /// The objects the headers that declare functions declare `extern`, in order.
    pub variables: Vec<RawVariable>,
    /// The functions' and objects' symbols that the headers declare
    /// `__declspec(dllimport)` when read for Windows (`_WIN32`), sorted.
    /// Example: NVML's `nvmlInit_v2`.
    pub imported: Vec<String>,
    /// The macros that the headers, read for Windows, define with MSVC's
    /// own spellings of packing or alignment (`__pragma`,
    /// `__declspec(align(n))`). Example: CUPTI's `PACKED_ALIGNMENT`.
    pub msvc_macros: Vec<String>,
    /// Every `PFN_*` typedef seen in any configuration, by name.
    pub pfn: BTreeMap<String, RawTypedef>,
    /// Every file read (for `cargo:rerun-if-changed` and the provenance hash).
    pub files: Vec<PathBuf>,
    /// The constants of the enum the functions return (`CUresult`), in header order.
    pub status_codes: Vec<StatusCode>,
    /// Every named type the signatures mention, with its ABI.
    pub types: BTreeMap<String, Shape>,
    /// Every enum declared next to the main header (what bindgen's types
    /// would hold), in declaration order; `flags` not yet decided.
    pub enums: Vec<Enum>,
    /// Every type name the headers declare.
    pub declared: BTreeSet<String>,
    /// The release the version macro gives (`CUDA_VERSION 13050` → 13.5).
    pub version: Option<CudaVersion>,
    /// The target triple the headers were read for: libclang's default, or
    /// a `--target` clang argument's. Bindgen reads the types for the same
    /// one. Example: `x86_64-pc-linux-gnu`.
    pub triple: String,
    /// `#define NAME TARGET` aliases, when the library's settings ask for them.
    pub alias_macros: Vec<(String, String)>,
    /// `static inline NAME(...) { return TARGET(...); }` wrappers, when the
    /// library's settings ask for them: `(NAME, TARGET)`.
    pub inline_wrappers: Vec<(String, String)>,
}
