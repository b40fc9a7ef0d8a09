//! The CUDA driver API, as data: one file per library, and one line of
//! [`super::LIBRARIES`].

use super::{
    Code, Header, Library, LoaderCodes, Names, Naming, ParseSettings, Search, VersionFunction,
    VersionQuery, Words,
};

/// The CUDA driver API: `cuda.h` with its PFN table `cudaTypedefs.h`, the
/// profiler control header, and the OpenGL, EGL and VDPAU interop headers,
/// each with its own PFN table; `libcuda.so.1` or `nvcuda.dll`, installed
/// with the driver.
pub const DRIVER: Library = Library {
    name: "driver",
    stem: "cuda",
    headers: &[
        Header::plain("cuda.h", "cudaTypedefs.h"),
        Header::plain("cudaProfiler.h", "cudaProfilerTypedefs.h"),
        Header {
            name: "cudaGL.h",
            typedefs: Some("cudaGLTypedefs.h"),
            needs: &["GL/gl.h"],
            optional: false,
        },
        Header {
            name: "cudaEGL.h",
            typedefs: Some("cudaEGLTypedefs.h"),
            needs: &["EGL/egl.h", "EGL/eglext.h"],
            optional: false,
        },
        Header {
            name: "cudaVDPAU.h",
            typedefs: Some("cudaVDPAUTypedefs.h"),
            needs: &["vdpau/vdpau.h"],
            optional: false,
        },
    ],
    pins: "headers/pins.txt",
    pin_text: include_str!("../../headers/pins.txt"),
    parse_files: &[],
    parse: ParseSettings {
        per_thread_define: Some("CUDA_API_PER_THREAD_DEFAULT_STREAM"),
        internal_define: Some("__CUDA_API_VERSION_INTERNAL"),
        version_macro: "CUDA_VERSION",
        inline_wrappers: false,
        wrapper_versions: false,
        alias_macros: false,
        status_type: "CUresult",
        platforms: &[("windows", "_WIN32")],
        ..ParseSettings::PLAIN
    },
    naming: Naming {
        pfn_prefix: "PFN_",
        version_separator: "_v",
        per_thread_suffixes: &["ptds", "ptsz"],
    },
    success: "CUDA_SUCCESS",
    codes: LoaderCodes {
        library_not_found: Code {
            name: "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED",
            value: 303,
            otherwise: None,
        },
        symbol_not_found: Code {
            name: "CUDA_ERROR_NOT_FOUND",
            value: 500,
            otherwise: None,
        },
        stub_library: Code {
            name: "CUDA_ERROR_STUB_LIBRARY",
            value: 34,
            otherwise: None,
        },
        too_old: Code {
            name: "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER",
            value: 36,
            otherwise: None,
        },
        not_initialized: Code {
            name: "CUDA_ERROR_NOT_INITIALIZED",
            value: 3,
            otherwise: None,
        },
        invalid_value: Code {
            name: "CUDA_ERROR_INVALID_VALUE",
            value: 1,
            otherwise: None,
        },
    },
    flag_word: "flags",
    fallbacks: &["cuGetErrorName", "cuGetErrorString"],
    names: Names {
        unix: &["libcuda.so.1"],
        windows: &["nvcuda.dll"],
    },
    by_major: &[],
    link_name: "cuda",
    calling_convention: "CUDAAPI",
    version: VersionFunction {
        name: c"cuDriverGetVersion",
        query: VersionQuery::Number,
    },
    has_stub: true,
    proc_address: Some((c"cuGetProcAddress_v2", c"cuGetProcAddress")),
    search: Search::System,
    preload: Names::NONE,
    siblings: Names::NONE,
    requires: Names::NONE,
    built_for: None,
    words: Words {
        label: "CUDA driver",
        short: "driver",
        product: "CUDA",
        install: "Install the NVIDIA driver",
        override_var: "CUSHIM_CUDA_LIBRARY",
    },
};
