//! What cushim knows about a library it generates loaders for, as data.
//!
//! Every fact that differs between CUDA libraries lives in one [`Library`]
//! value: which headers declare its functions and where they come from, how
//! the headers are parsed, how a C name becomes an exported symbol and an ABI
//! version, its status type and the codes a loader answers with, and the file
//! names the library has on each system. The pipeline reads the description
//! and has no special case for any one library. Each library is one file of
//! this module (`driver.rs`, `nvrtc.rs`, ...) and one line of [`LIBRARIES`].

/// One status constant the loader needs, by the name the header gives it, with
/// the value the library documents (used when a header does not declare it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Code {
    /// Example: `CUDA_ERROR_SHARED_OBJECT_INIT_FAILED`.
    pub name: &'static str,
    /// Example: `303`.
    pub value: u32,
    /// The code to answer instead where the header does not declare
    /// `name` (a release before it). Example: cuFFT 13's
    /// `CUFFT_MISSING_DEPENDENCY`, otherwise `CUFFT_SETUP_FAILED`.
    pub otherwise: Option<&'static Code>,
}

impl Code {
    /// This code, or the first of its `otherwise` chain that `declares`
    /// (the header's status constants) knows; the last of the chain when
    /// none is declared (its documented value is used).
    pub fn resolved(&self, declares: &dyn Fn(&str) -> bool) -> Code {
        let mut code = *self;
        while !declares(code.name) {
            match code.otherwise {
                Some(next) => code = *next,
                None => break,
            }
        }
        code
    }
}

/// The status constants a loader answers with when a call cannot reach the library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoaderCodes {
    /// No usable library. Example: `CUDA_ERROR_SHARED_OBJECT_INIT_FAILED` (303).
    pub library_not_found: Code,
    /// The library lacks the function. Example: `CUDA_ERROR_NOT_FOUND` (500).
    pub symbol_not_found: Code,
    /// The library found is a link-time stub. Example: `CUDA_ERROR_STUB_LIBRARY` (34).
    pub stub_library: Code,
    /// The function is newer than the library. Example: `CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER` (36).
    pub too_old: Code,
    /// What the library answers in a forked child. Example: `CUDA_ERROR_NOT_INITIALIZED` (3).
    pub not_initialized: Code,
    /// An invalid argument (the driver-less error-text fallbacks answer it).
    /// Example: `CUDA_ERROR_INVALID_VALUE` (1).
    pub invalid_value: Code,
}

impl LoaderCodes {
    /// Each code [`Code::resolved`] against the header's status constants.
    pub fn resolved(&self, declares: &dyn Fn(&str) -> bool) -> LoaderCodes {
        LoaderCodes {
            library_not_found: self.library_not_found.resolved(declares),
            symbol_not_found: self.symbol_not_found.resolved(declares),
            stub_library: self.stub_library.resolved(declares),
            too_old: self.too_old.resolved(declares),
            not_initialized: self.not_initialized.resolved(declares),
            invalid_value: self.invalid_value.resolved(declares),
        }
    }

    /// One code for every failure to reach the library, for a library whose
    /// status enum has no finer ones, and its invalid-argument code.
    pub const fn every(failure: Code, invalid_value: Code) -> LoaderCodes {
        LoaderCodes {
            library_not_found: failure,
            symbol_not_found: failure,
            stub_library: failure,
            too_old: failure,
            not_initialized: failure,
            invalid_value,
        }
    }
}

/// How the headers are parsed: one plain parse, plus one per define below.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseSettings {
    /// The define that turns on the per-thread default stream, whose parse
    /// tells which functions have `_ptds`/`_ptsz` twins.
    /// Example: `CUDA_API_PER_THREAD_DEFAULT_STREAM`.
    pub per_thread_define: Option<&'static str>,
    /// The define that exposes the legacy PFN typedefs the version rule needs;
    /// only typedefs are taken from that parse. Example: `__CUDA_API_VERSION_INTERNAL`.
    pub internal_define: Option<&'static str>,
    /// The macro that holds the release, if the headers have one (empty
    /// if not: the release then comes from the pin). Example: `CUDA_VERSION` (`13050`).
    pub version_macro: &'static str,
    /// Whether the header's `static inline` functions that only `return` a
    /// call of another function are the C names of that function (the
    /// export). Example: nvJitLink's `nvJitLinkCreate`, which calls
    /// `__nvJitLinkCreate_13_5`. (Static functions are never exports.)
    pub inline_wrappers: bool,
    /// Whether the release that names a wrapped export (`_13_5` of
    /// `__nvJitLinkCreate_13_5`) is a version of the library's own, which
    /// an older library lacks: its ABI version. Not for a library with its
    /// own version numbers (cuFFT 11.4 exports `__cufftXtSetJITCallback_12_7`).
    pub wrapper_versions: bool,
    /// Whether `#define NAME TARGET` lines name functions: each `NAME` whose
    /// `TARGET` is a declared function becomes one of its C names. Example:
    /// NVML's `#define nvmlInit nvmlInit_v2`. (The driver's header spells its
    /// declarations with the macro's name instead, which the parse sees.)
    pub alias_macros: bool,
    /// The enum that the library's functions return as their status. The
    /// first function of the main header that returns it gives its
    /// constants. Example: `CUresult`, `nvrtcResult`.
    pub status_type: &'static str,
    /// Where the code is, when `status_type` is a struct returned by value
    /// rather than an enum. Example: cuFile's `CUfileError_t`, whose `err`
    /// is a `CUfileOpError`.
    pub status_field: Option<StatusField>,
    /// Systems whose headers declare more functions, each with the define
    /// that shows them and the name generated code tests for it:
    /// `(cfg, define)`. Example: `("windows", "_WIN32")` for `cuWGLGetDevice`.
    pub platforms: &'static [(&'static str, &'static str)],
    /// Prefixes of declared functions that are not bound. Example: NCCL's
    /// `pnccl`: its header declares each `ncclX` twice, as `ncclX` (the
    /// weak alias callers use, which a profiler may interpose) and
    /// `pncclX`.
    pub skip_prefixes: &'static [&'static str],
    /// Macros defined for every parse and in the C++ pair before it includes
    /// the headers. Example: NVTX's `NVTX_NO_IMPL`, without which its
    /// functions are `static inline` definitions, not declarations.
    pub defines: &'static [&'static str],
    /// The compiler's headers that declare more of the library's entry
    /// points, if any: those that compiled code calls by itself. Example:
    /// nvcc's `crt/host_runtime.h` for cudart's `__cudaRegisterFatBinary`.
    pub compiler: Option<CompilerHeaders>,
    /// Headers of the library's own wheel that declare its functions or
    /// its types, found by name in each release rather than listed (the
    /// set differs between releases). Example: CUPTI's `cupti_*.h`.
    pub globbed: Globbed,
}

/// Headers of a compiler's own that declare entry points of the library
/// which no public header declares: the calls that the code the compiler
/// emits makes by itself. Example: nvcc's host code registers each
/// object's kernels and variables with cudart from static constructors
/// (`__cudaRegisterFatBinary`, `__cudaRegisterFunction`) and brackets each
/// `<<<...>>>` launch with `__cudaPushCallConfiguration` and
/// `__cudaPopCallConfiguration`.
///
/// They are read in one more parse, as CUDA host code (C++) after the
/// library's own headers, as the compiler reads them. Only the named files
/// are fetched, not the compiler's whole include tree: an `#include` of
/// theirs that is not there is passed over (clang's "file not found"
/// there is no error), and any other error stops the parse. The C++ pair
/// defines these entry points without including the headers (their
/// signatures are not checked against them); the Rust module leaves them
/// out, since it exports no C symbols that compiled objects could link to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompilerHeaders {
    /// By include path, as they are fetched (each also in
    /// [`Library::parse_files`]). Example: `crt/host_runtime.h`.
    pub files: &'static [&'static str],
    /// Macros the compiler defines for the whole unit. Example: `__CUDACC__`.
    pub defines: &'static [&'static str],
    /// Macros defined after the library's headers and before these, as in
    /// the code the compiler emits. Example: `__CUDA_INTERNAL_COMPILATION__`.
    pub then: &'static [&'static str],
    /// What the name of each entry point starts with: the headers' other
    /// `extern "C"` declarations (`atexit`) are not the library's. Example: `__cuda`.
    pub prefix: &'static str,
    /// Names, by prefix, that are not the library's though they start with
    /// `prefix`. Example: `__cudaRegisterLinkedBinary`, which nvcc's link
    /// stub defines in each program (`-rdc`), named after the module.
    pub skip: &'static [&'static str],
}

impl CompilerHeaders {
    /// Whether a function declared in the header file named `file` (its
    /// last path component, as [`crate::ir::Function::header`] gives it)
    /// is one of these entry points. Example: `host_runtime.h`.
    pub fn declares_in(&self, file: &str) -> bool {
        self.files
            .iter()
            .any(|f| f.rsplit('/').next() == Some(file))
    }

    /// Whether `name` is one of these entry points' names.
    pub fn takes(&self, name: &str) -> bool {
        name.starts_with(self.prefix) && !self.skip.iter().any(|s| name.starts_with(s))
    }
}

impl ParseSettings {
    /// One plain parse: no per-thread or internal define, no version macro,
    /// no wrappers or alias macros, no other system; the status type is the
    /// first function's return type until a library names it.
    pub const PLAIN: ParseSettings = ParseSettings {
        per_thread_define: None,
        internal_define: None,
        version_macro: "",
        inline_wrappers: false,
        wrapper_versions: false,
        alias_macros: false,
        status_type: "",
        status_field: None,
        platforms: &[],
        skip_prefixes: &[],
        defines: &[],
        compiler: None,
        globbed: Globbed::NONE,
    };

    /// The enum whose constants are the codes: the status type itself, or
    /// the enum of its code field. Example: `CUresult`, `CUfileOpError`.
    pub fn codes_enum(&self) -> &'static str {
        self.status_field.map_or(self.status_type, |f| f.codes)
    }
}

/// Headers of a library's own wheel found by name: every header of its
/// include directory (not of a directory below it) that a pattern matches,
/// less those `except` names. The header table (`headers/header-sha256.txt`)
/// records each release's matches from its wheel; a fetch takes them, and
/// the parse reads each that the listed headers do not include themselves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Globbed {
    /// Name patterns, `*` standing for any run of characters.
    /// Example: `cupti_*.h`, `generated_*_meta.h`.
    pub patterns: &'static [&'static str],
    /// Matches that are left out, each with why. Example:
    /// `cupti_checkpoint.h`, whose functions are `libcheckpoint`'s.
    pub except: &'static [(&'static str, &'static str)],
    /// Headers of other projects that some matches include, which the
    /// parse reads from cushim's stand-ins (`headers/foreign/`). A C++ pair
    /// includes a match without them. Example: `GL/gl.h` for
    /// `generated_cudaGL_meta.h`.
    pub needs: &'static [&'static str],
}

impl Globbed {
    /// No header found by name.
    pub const NONE: Globbed = Globbed {
        patterns: &[],
        except: &[],
        needs: &[],
    };

    /// Whether the header `name` (a file name, no directory) is one of them.
    pub fn matches(&self, name: &str) -> bool {
        !name.contains(['/', '\\'])
            && self.patterns.iter().any(|p| wildcard(p, name))
            && !self.except.iter().any(|(e, _)| *e == name)
    }
}

/// Whether `text` matches `pattern`, whose `*` stands for any run of
/// characters (and every other character for itself).
fn wildcard(pattern: &str, text: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == text,
        Some((head, rest)) => {
            let Some(text) = text.strip_prefix(head) else {
                return false;
            };
            (0..=text.len())
                .filter(|&i| text.is_char_boundary(i))
                .any(|i| wildcard(rest, &text[i..]))
        }
    }
}

/// The field of a status struct that holds the code, and that field's enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatusField {
    /// Example: `err`.
    pub field: &'static str,
    /// The enum whose constants are the codes. Example: `CUfileOpError`.
    pub codes: &'static str,
}

/// How C names map to exported symbols and ABI versions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Naming {
    /// Prefix of the typedefs that list each function's ABI versions, or
    /// empty for a library without such a table (each symbol is its C
    /// name, with no ABI version). Example: `PFN_`.
    pub pfn_prefix: &'static str,
    /// What separates a base name from its ABI ordinal or version. Example: `_v`.
    pub version_separator: &'static str,
    /// Suffixes of the per-thread default-stream variants. Example: `ptds`, `ptsz`.
    pub per_thread_suffixes: &'static [&'static str],
}

impl Naming {
    /// A library without a PFN table or per-thread variants: each symbol is
    /// its C name, with no ABI version.
    pub const NO_ABI_TABLE: Naming = Naming {
        pfn_prefix: "",
        version_separator: "",
        per_thread_suffixes: &[],
    };
}

/// The file names of a library, tried in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Names {
    /// Example: `libcuda.so.1`.
    pub unix: &'static [&'static str],
    /// Example: `nvcuda.dll`, from the system directory only.
    pub windows: &'static [&'static str],
}

impl Names {
    /// No names.
    pub const NONE: Names = Names {
        unix: &[],
        windows: &[],
    };
}

/// One header that declares functions of a library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Example: `cudaGL.h`.
    pub name: &'static str,
    /// The header with its PFN typedef table, if separate. Example: `cudaGLTypedefs.h`.
    pub typedefs: Option<&'static str>,
    /// Headers of other projects that must be included first, or that it
    /// includes itself. The parse reads cushim's own minimal definitions of
    /// their types (`headers/foreign/`); the C++ stubs define this header's
    /// functions only where the system has them. Example: `GL/gl.h`.
    pub needs: &'static [&'static str],
    /// Whether only newer releases have it: a release without it binds the
    /// others. Example: `cudnn_subquadratic_ops.h` (cuDNN 9.2x).
    pub optional: bool,
}

impl Header {
    /// A header without a PFN table that needs nothing else.
    const fn alone(name: &'static str) -> Header {
        Header {
            name,
            typedefs: None,
            needs: &[],
            optional: false,
        }
    }

    /// A header without a PFN table that needs headers of other projects
    /// (read from cushim's stand-ins). Example: `cuda_gl_interop.h`, `GL/gl.h`.
    const fn needing(name: &'static str, needs: &'static [&'static str]) -> Header {
        Header {
            name,
            typedefs: None,
            needs,
            optional: false,
        }
    }

    /// A header that only newer releases have, without a PFN table.
    const fn newer(name: &'static str) -> Header {
        Header {
            name,
            typedefs: None,
            needs: &[],
            optional: true,
        }
    }

    /// A header that needs nothing beyond the library's own headers.
    const fn plain(name: &'static str, typedefs: &'static str) -> Header {
        Header {
            name,
            typedefs: Some(typedefs),
            needs: &[],
            optional: false,
        }
    }
}

/// The runtime's `cuda_runtime_api.h` and what it includes (`gcc -H`), from
/// the runtime's wheel and the crt wheel: what every library whose header
/// includes the runtime's parses with.
pub const RUNTIME_API: &[&str] = &[
    "builtin_types.h",
    "crt/host_defines.h",
    "cuda_device_runtime_api.h",
    "cuda_runtime_api.h",
    "device_types.h",
    "driver_types.h",
    "surface_types.h",
    "texture_types.h",
    "vector_types.h",
];

/// nvcc's headers that declare the cudart entry points its host code calls
/// by itself ([`CompilerHeaders`]), from the crt wheel (13.x) or the nvcc
/// wheel (11.8, 12.x): registration and `__cudaPopCallConfiguration` in
/// `crt/host_runtime.h`, `__cudaPushCallConfiguration` (and from 12.x the
/// launch by kernel handle, `__cudaGetKernel`, `__cudaLaunchKernel`) in
/// `crt/device_functions.h`.
pub const NVCC_HOST: &[&str] = &["crt/host_runtime.h", "crt/device_functions.h"];

/// What the runtime's `cuda_runtime.h` adds to [`RUNTIME_API`].
pub const RUNTIME: &[&str] = &[
    "channel_descriptor.h",
    "crt/host_config.h",
    "cuda_runtime.h",
    "driver_functions.h",
    "library_types.h",
    "vector_functions.h",
    "vector_functions.hpp",
];

/// `cuda_fp16.h` and what it includes in C++ (with cushim's own
/// `<nv/target>`, `headers/foreign/nv/target`, which a header that includes
/// it names in [`Header::needs`]).
pub const HALF: &[&str] = &[
    "cuda_fp16.h",
    "cuda_fp16.hpp",
    "vector_functions.h",
    "vector_functions.hpp",
];

/// `cuda_bf16.h`.
pub const BFLOAT16: &[&str] = &["cuda_bf16.h", "cuda_bf16.hpp"];

/// `cuda_fp8.h`, which includes [`HALF`] and [`BFLOAT16`].
pub const FP8: &[&str] = &["cuda_fp8.h", "cuda_fp8.hpp"];

/// The runtime's complex and data types.
pub const TYPES: &[&str] = &["cuComplex.h", "library_types.h"];

/// One library, as data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Library {
    /// Example: `driver`.
    pub name: &'static str,
    /// What its generated files are named after: `<stem>.rs`,
    /// `<stem>_shim.{h,cpp}` and the C++ status API `cushim_<stem>_*`.
    /// Example: `cuda` (`cuda.rs`), `nvjitlink`.
    pub stem: &'static str,
    /// The headers that declare its functions, the main one first: that one
    /// declares the status type and the version macro. Example: `cuda.h`,
    /// `cudaProfiler.h`, `cudaGL.h`.
    pub headers: &'static [Header],
    /// The pinned wheels that carry the headers, one line a wheel. Example: `headers/pins.txt`.
    pub pins: &'static str,
    /// The text of `pins`, compiled in, so that a build script needs no
    /// file of cushim's at run time.
    /// Example: `include_str!("../../headers/pins-nvrtc.txt")`.
    pub pin_text: &'static str,
    /// Headers the parse needs besides those that declare functions, by
    /// their include path, taken from the same pinned wheels, in sets
    /// ([`RUNTIME_API`], [`HALF`], ...). Example: `driver_types.h`,
    /// `crt/host_defines.h` for cuBLAS.
    pub parse_files: &'static [&'static [&'static str]],
    /// How its headers are parsed.
    pub parse: ParseSettings,
    /// How its C names map to symbols and ABI versions.
    pub naming: Naming,
    /// The success constant of the status enum every function returns. Example: `CUDA_SUCCESS`.
    pub success: &'static str,
    /// The status constants a loader answers with.
    pub codes: LoaderCodes,
    /// The word that marks a flag enum, in any case, in its name or a
    /// typedef of it: such enums get the bit operators. Example: `flags`
    /// (`CUctx_flags_enum`, `CUgraphicsRegisterFlags_enum`).
    pub flag_word: &'static str,
    /// The status's text functions, by their `cuGetProcAddress` name: without
    /// the library each answers the status constant's exact C name, as the
    /// header spells it (never a description, which only the library knows;
    /// NVRTC's own texts are those names). Example: `cuGetErrorName`,
    /// `cuGetErrorString`.
    pub fallbacks: &'static [&'static str],
    /// Library file names per system, `{major}` standing for the header's
    /// (CUDA's) major.
    pub names: Names,
    /// What differs in a CUDA major: other file names, other libraries to
    /// load first, or the major version the library reports. Example: NVRTC
    /// 11.2 and later is `libnvrtc.so.11.2`; CUDA 12's cuFFT is `libcufft.so.11`.
    pub by_major: &'static [ByMajor],
    /// The name a linker takes (`-l`), for the linked mode. Example: `cuda`.
    pub link_name: &'static str,
    /// The header's macro for its functions' calling convention, or empty
    /// for the platform's default. Example: `CUDAAPI`.
    pub calling_convention: &'static str,
    /// The function that reports the library's version. Example: `cuDriverGetVersion`.
    pub version: VersionFunction,
    /// Whether the library has a link-time stub that answers the version
    /// function with `codes.stub_library` (the driver's `lib64/stubs/libcuda.so`).
    pub has_stub: bool,
    /// The library's own lookup by name and ABI version, if it has one.
    /// Example: `cuGetProcAddress_v2`, then `cuGetProcAddress`.
    pub proc_address: Option<(&'static std::ffi::CStr, &'static std::ffi::CStr)>,
    /// Where the library is searched for.
    pub search: Search,
    /// Libraries loaded first from the same directory, by file name
    /// (`{major}` as in `names`), where that directory has them: the
    /// library's own dependency (`DT_NEEDED`) then resolves to them rather
    /// than to whatever the system loader finds. One absent there is left to
    /// the library's own run path. Example: `libcublasLt.so.{major}`.
    pub preload: Names,
    /// Libraries it opens by bare name while it runs, loaded after it from
    /// its own directory, best effort (`{major}` as in `names`; `{minor}`
    /// is left for the runtime, which fills in the minor version the loaded
    /// library reports). Example: `libnvrtc-builtins.so.{major}.{minor}`.
    pub siblings: Names,
    /// Libraries that must be in the library's own directory: loaded from
    /// there after it, before any of its functions is called; a copy
    /// without them is passed over (`{major}` as in `names`). Example:
    /// `libcudnn_graph.so.9`, without which cuDNN stops the process on its
    /// first call.
    pub requires: Names,
    /// The function that reports the CUDA release the library was built
    /// for (`size_t f(void)`, 1000 × major + 10 × minor), for a library
    /// whose file names and directory do not tell: a copy built for
    /// another CUDA major than the header's is passed over. Example:
    /// `cudnnGetCudartVersion`.
    pub built_for: Option<&'static std::ffi::CStr>,
    /// How messages name the library.
    pub words: Words,
}

/// What one CUDA major changes in a library's files; `None` keeps the
/// library's own value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByMajor {
    /// The CUDA major. Example: `12`.
    pub major: u32,
    /// Its file names. Example: `libcufft.so.11` for CUDA 12.
    pub names: Option<Names>,
    /// The libraries loaded first. Example: `libcudart.so.13` for cuRAND 13.
    pub preload: Option<Names>,
    /// The major version the library's version function reports, which a
    /// library found must match. Example: `11` for CUDA 12's cuFFT.
    pub reports: Option<u32>,
}

impl ByMajor {
    /// Nothing changed in `major`: the base of a `..` update.
    pub const fn of(major: u32) -> ByMajor {
        ByMajor {
            major,
            names: None,
            preload: None,
            reports: None,
        }
    }

    /// `names` in `major`, reporting `reports`: a library whose file names
    /// carry its own major rather than CUDA's. Example: `libcufft.so.11`
    /// (cuFFT 11) for CUDA 12.
    pub const fn renamed(
        major: u32,
        unix: &'static [&'static str],
        windows: &'static [&'static str],
        reports: u32,
    ) -> ByMajor {
        ByMajor {
            reports: Some(reports),
            ..ByMajor::named(major, unix, windows)
        }
    }

    /// `names` in `major`, whatever the library reports. Example:
    /// `libcupti.so.11.8` for CUDA 11.
    pub const fn named(
        major: u32,
        unix: &'static [&'static str],
        windows: &'static [&'static str],
    ) -> ByMajor {
        ByMajor {
            names: Some(Names { unix, windows }),
            ..ByMajor::of(major)
        }
    }

    /// `preload` loaded first in `major`. Example: cuTENSOR's
    /// `libcublasLt.so.13` for CUDA 13.
    pub const fn preloading(major: u32, preload: Names) -> ByMajor {
        ByMajor {
            preload: Some(preload),
            ..ByMajor::of(major)
        }
    }
}

/// How the version function answers: the runtime's own type.
pub use cushim_runtime::VersionQuery;

/// The function that reports a library's version, and how it answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VersionFunction {
    /// Example: `c"cuDriverGetVersion"`.
    pub name: &'static std::ffi::CStr,
    /// Example: [`VersionQuery::Number`].
    pub query: VersionQuery,
}

/// Where a library is searched for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// Installed with the driver: the override, then the system loader by
    /// file name. Example: `libcuda.so.1`, `libnvidia-ml.so.1`.
    System,
    /// Installed with a toolkit, conda or pip: the override, a copy already
    /// loaded, the directory of a loaded member of the family, the pip
    /// wheel directories (relative to `site-packages`, `{major}` as in
    /// `names`), conda, the toolkit, and last the system loader by file name.
    /// Only the header's major is bound. Example: `nvidia/cuda_nvrtc/lib`.
    Toolkit {
        /// Example: `["nvidia/cu{major}/lib", "nvidia/cuda_nvrtc/lib"]`.
        wheel_dirs: &'static [&'static str],
        /// Directories under a toolkit's root that hold the library besides
        /// `lib64` and `lib`. Example: `extras/CUPTI/lib64`.
        toolkit_subdirs: &'static [&'static str],
    },
}

/// The words messages use for a library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Words {
    /// Example: `CUDA driver` ("CUDA driver library not found").
    pub label: &'static str,
    /// Example: `driver` ("driver too old").
    pub short: &'static str,
    /// What its versions are versions of. Example: `CUDA` ("needs CUDA 12.5").
    pub product: &'static str,
    /// How to get it. Example: `Install the NVIDIA driver`.
    pub install: &'static str,
    /// The variable that names it by absolute path. Example: `CUSHIM_CUDA_LIBRARY`.
    pub override_var: &'static str,
}

/// `names` with `{major}` replaced. Example: `libnvrtc.so.{major}` → `libnvrtc.so.13`.
pub fn with_major(names: &[&str], major: u32) -> Vec<String> {
    names
        .iter()
        .map(|n| n.replace("{major}", &major.to_string()))
        .collect()
}

impl Library {
    /// What CUDA `major` changes, if anything.
    fn in_major(&self, major: u32) -> Option<&'static ByMajor> {
        self.by_major.iter().find(|b| b.major == major)
    }

    /// Its file names for headers of `major`. Example: `libnvrtc.so.13`.
    pub fn names_for(&self, major: u32) -> Names {
        self.in_major(major)
            .and_then(|b| b.names)
            .unwrap_or(self.names)
    }

    /// The libraries loaded first for headers of `major`. Example: `libcublasLt.so.13`.
    pub fn preload_for(&self, major: u32) -> Names {
        self.in_major(major)
            .and_then(|b| b.preload)
            .unwrap_or(self.preload)
    }

    /// Whether its file names carry the major version (`libnvrtc.so.{major}`,
    /// or a per-major name such as `libcufft.so.11`): then only a library of
    /// the matching major is bound.
    pub fn binds_major(&self) -> bool {
        self.by_major.iter().any(|b| b.reports.is_some())
            || self
                .names
                .unix
                .iter()
                .chain(self.names.windows)
                .any(|n| n.contains("{major}"))
    }

    /// The major version a library for headers of CUDA `major` must report,
    /// or 0 when any will do. Example: 11 for CUDA 12's cuFFT.
    pub fn reported_major(&self, major: u32) -> u32 {
        match self.in_major(major).and_then(|b| b.reports) {
            Some(reports) => reports,
            None if self.binds_major() => major,
            None => 0,
        }
    }

    /// Whether any of its file names, libraries loaded first or wheel
    /// directories needs CUDA's major to be spelled.
    pub fn needs_major(&self) -> bool {
        let wheel_dirs: &[&str] = match self.search {
            Search::System => &[],
            Search::Toolkit { wheel_dirs, .. } => wheel_dirs,
        };
        self.binds_major()
            || !self.by_major.is_empty()
            || [self.preload, self.siblings]
                .iter()
                .flat_map(|n| n.unix.iter().chain(n.windows))
                .chain(wheel_dirs)
                .any(|n| n.contains("{major}"))
    }

    /// Whether the function with this `cuGetProcAddress` name is one of
    /// the status's text functions ([`Library::fallbacks`]).
    pub fn is_fallback(&self, proc_name: &str) -> bool {
        self.fallbacks.contains(&proc_name)
    }

    /// The main header. Example: `cuda.h`.
    pub fn main_header(&self) -> &'static Header {
        &self.headers[0]
    }

    /// Every header file a release needs, typedef tables included.
    /// Example: `["cuda.h", "cudaTypedefs.h", "cudaProfiler.h", ...]`.
    pub fn header_files(&self) -> Vec<&'static str> {
        self.headers
            .iter()
            .filter(|h| !h.optional)
            .flat_map(|h| std::iter::once(h.name).chain(h.typedefs))
            .collect()
    }

    /// The headers only newer releases have, taken where a release has them.
    /// Example: `cudnn_gnn_ops.h`.
    pub fn optional_files(&self) -> Vec<&'static str> {
        self.headers
            .iter()
            .filter(|h| h.optional)
            .map(|h| h.name)
            .collect()
    }

    /// Whether an enum with this name and these typedefs is a set of flags.
    pub fn is_flag_enum(&self, name: &str, aliases: &[String]) -> bool {
        std::iter::once(name)
            .chain(aliases.iter().map(String::as_str))
            .any(|n| n.to_ascii_lowercase().contains(self.flag_word))
    }
}

mod cublas;
mod cublaslt;
mod cudart;
mod cudnn;
mod cufft;
mod cufile;
mod cupti;
mod curand;
mod cusolver;
mod cusolvermg;
mod cusparse;
mod cutensor;
mod driver;
mod nccl;
mod nvjitlink;
mod nvml;
mod nvrtc;
mod nvtx;

pub use cublas::CUBLAS;
pub use cublaslt::CUBLASLT;
pub use cudart::CUDART;
pub use cudnn::CUDNN;
pub use cufft::CUFFT;
pub use cufile::CUFILE;
pub use cupti::CUPTI;
pub use curand::CURAND;
pub use cusolver::CUSOLVER;
pub use cusolvermg::CUSOLVERMG;
pub use cusparse::CUSPARSE;
pub use cutensor::CUTENSOR;
pub use driver::DRIVER;
pub use nccl::NCCL;
pub use nvjitlink::NVJITLINK;
pub use nvml::NVML;
pub use nvrtc::NVRTC;
pub use nvtx::NVTX;

/// Every library cushim knows, by the name `--lib` takes.
pub const LIBRARIES: &[&Library] = &[
    &DRIVER,
    &NVRTC,
    &NVML,
    &NVJITLINK,
    &CUBLAS,
    &CUBLASLT,
    &CUDART,
    &CUFFT,
    &CURAND,
    &CUSPARSE,
    &CUSOLVER,
    &CUSOLVERMG,
    &CUDNN,
    &NCCL,
    &CUTENSOR,
    &CUPTI,
    &NVTX,
    &CUFILE,
];

/// The libraries whose headers come from the same pinned wheels as
/// `library`'s (cuBLAS and cuBLASLt): one cache entry holds all their files.
pub fn sharing_pins(library: &Library) -> impl Iterator<Item = &'static Library> + '_ {
    LIBRARIES
        .iter()
        .copied()
        .filter(move |l| l.pins == library.pins)
}

/// The file names, for headers of CUDA `major`, of the libraries that a
/// toolkit, conda or pip installs side by side: a loaded one shows where the
/// others are. Example: `libcudart.so.13`, `libcufft.so.12` for CUDA 13.
/// Those of the toolkit only, whose wheels share the CUDA major's directory
/// (`nvidia/cu{major}/lib`): not cuDNN, NCCL or cuTENSOR, each in a
/// directory of its own whatever the CUDA major.
pub fn family(major: u32, windows: bool) -> Vec<String> {
    if major == 0 {
        return Vec::new();
    }
    let mut names: Vec<String> = Vec::new();
    for library in LIBRARIES {
        let Search::Toolkit { wheel_dirs, .. } = library.search else {
            continue;
        };
        if !wheel_dirs.iter().any(|d| d.contains("{major}")) {
            continue;
        }
        let own = library.names_for(major);
        for name in with_major(if windows { own.windows } else { own.unix }, major) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// The names `--lib` takes, for help texts: `driver (the default), nvrtc,
/// ... or cublaslt`, from [`LIBRARIES`].
pub fn names_for_help() -> String {
    let names: Vec<String> = LIBRARIES
        .iter()
        .map(|l| {
            if l.name == DRIVER.name {
                format!("{} (the default)", l.name)
            } else {
                l.name.to_string()
            }
        })
        .collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// The library named `name` (`driver`, `nvrtc`).
pub fn by_name(name: &str) -> Option<&'static Library> {
    LIBRARIES.iter().copied().find(|l| l.name == name)
}

#[cfg(test)]
mod tests {
    use super::{Globbed, CUDART, CUFFT};

    #[test]
    fn nvccs_headers_declare_cudarts_registration_and_not_the_link_stubs() {
        let nvcc = CUDART.parse.compiler.expect("cudart names nvcc's headers");
        assert!(nvcc.declares_in("host_runtime.h"));
        assert!(nvcc.declares_in("device_functions.h"));
        assert!(!nvcc.declares_in("cuda_runtime_api.h"));
        assert!(nvcc.takes("__cudaRegisterFatBinary"));
        assert!(nvcc.takes("__cudaPushCallConfiguration"));
        // The link stub's, named after each module, and the C library's.
        assert!(!nvcc.takes("__cudaRegisterLinkedBinary_e7428bef_13_vector_add_cu_052d2be5"));
        assert!(!nvcc.takes("atexit"));
        // Fetched with the rest of the release's headers.
        for file in nvcc.files {
            assert!(
                CUDART.parse_files.iter().any(|set| set.contains(file)),
                "{file}"
            );
        }
    }

    #[test]
    fn a_pattern_matches_a_file_name_in_the_include_directory_less_its_exceptions() {
        let globbed = Globbed {
            patterns: &["cupti_*.h", "generated_*_meta.h"],
            except: &[("cupti_checkpoint.h", "another library's")],
            needs: &[],
        };
        for name in ["cupti_pcsampling.h", "cupti_.h", "generated_cuda_meta.h"] {
            assert!(globbed.matches(name), "{name}");
        }
        for name in [
            "cupti_checkpoint.h",
            "cupti.h",
            "Openacc/cupti_openacc.h",
            "generated_cuda_meta.hpp",
            "nvperf_host.h",
        ] {
            assert!(!globbed.matches(name), "{name}");
        }
        assert!(!Globbed::NONE.matches("cupti.h"));
    }

    #[test]
    fn a_code_the_header_lacks_gives_way_to_the_next_of_its_chain() {
        let declares_13 = |name: &str| name.starts_with("CUFFT_");
        let declares_12 =
            |name: &str| name.starts_with("CUFFT_") && name != "CUFFT_MISSING_DEPENDENCY";
        let nothing = |_: &str| false;
        assert_eq!(
            CUFFT.codes.resolved(&declares_13).library_not_found.value,
            17
        );
        assert_eq!(
            CUFFT.codes.resolved(&declares_12).library_not_found.value,
            7
        );
        // Declared nowhere: the last of the chain, with its documented value.
        assert_eq!(
            CUFFT.codes.resolved(&nothing).library_not_found.name,
            "CUFFT_SETUP_FAILED"
        );
        assert_eq!(
            CUFFT.codes.resolved(&declares_12).symbol_not_found.value,
            16
        );
    }
}
