//! The CUDA runtime (cudart), as data: one file per library, and one line of
//! [`super::LIBRARIES`].

use super::{
    ByMajor, Code, Fallback, Header, Library, LoaderCodes, Names, Naming, ParseSettings, Search,
    VersionFunction, VersionQuery, Words, RUNTIME, RUNTIME_API,
};

/// The CUDA runtime: `cuda_runtime_api.h` from the runtime's wheel, with the
/// crt wheel's `crt/host_defines.h` (`headers/pins-cudart.txt`), the
/// profiler control header `cuda_profiler_api.h` (the profiler wheel's), and
/// the OpenGL, EGL and VDPAU interop headers, read with cushim's stand-ins
/// for those projects' headers as the driver's are;
/// `libcudart.so.<major>` (`.11.0` for 11.x). The header renames functions
/// with `#define`: in 12.x `cudaGetDeviceProperties` is
/// `cudaGetDeviceProperties_v2` (the plain export keeps the old ABI), and
/// under `CUDA_API_PER_THREAD_DEFAULT_STREAM` the stream-ordered calls are
/// `_ptds`/`_ptsz` exports, as the driver's are. The parse binds the names
/// that the preprocessor leaves. `cudaRuntimeGetVersion` of 11.8 answers
/// `cudaErrorInsufficientDriver` without a driver: that library is still
/// kept, its major unread.
pub const CUDART: Library = Library {
    name: "cudart",
    stem: "cudart",
    headers: &[
        Header::alone("cuda_runtime_api.h"),
        Header::alone("cuda_profiler_api.h"),
        Header::needing("cuda_gl_interop.h", &["GL/gl.h"]),
        Header::needing("cuda_egl_interop.h", &["EGL/egl.h", "EGL/eglext.h"]),
        Header::needing("cuda_vdpau_interop.h", &["vdpau/vdpau.h"]),
    ],
    pins: "headers/pins-cudart.txt",
    pin_text: include_str!("../../headers/pins-cudart.txt"),
    parse_files: &[RUNTIME_API, RUNTIME, &["cudart_platform.h"]],
    parse: ParseSettings {
        per_thread_define: Some("CUDA_API_PER_THREAD_DEFAULT_STREAM"),
        version_macro: "CUDART_VERSION",
        alias_macros: true,
        status_type: "cudaError_t",
        ..ParseSettings::PLAIN
    },
    naming: Naming {
        pfn_prefix: "",
        version_separator: "_v",
        per_thread_suffixes: &["ptds", "ptsz"],
    },
    flag_word: "flags",
    success: "cudaSuccess",
    codes: LoaderCodes {
        library_not_found: Code {
            name: "cudaErrorSharedObjectInitFailed",
            value: 303,
            otherwise: None,
        },
        symbol_not_found: Code {
            name: "cudaErrorSharedObjectSymbolNotFound",
            value: 302,
            otherwise: None,
        },
        stub_library: Code {
            name: "cudaErrorStubLibrary",
            value: 34,
            otherwise: None,
        },
        too_old: Code {
            name: "cudaErrorSharedObjectSymbolNotFound",
            value: 302,
            otherwise: None,
        },
        not_initialized: Code {
            name: "cudaErrorInitializationError",
            value: 3,
            otherwise: None,
        },
        invalid_value: Code {
            name: "cudaErrorInvalidValue",
            value: 1,
            otherwise: None,
        },
    },
    fallbacks: &[
        ("cudaGetErrorName", Fallback::ErrorName),
        ("cudaGetErrorString", Fallback::ErrorString),
    ],
    names: Names {
        unix: &["libcudart.so.{major}"],
        windows: &["cudart64_{major}.dll"],
    },
    by_major: &[ByMajor {
        names: Some(Names {
            unix: &["libcudart.so.11.0"],
            windows: &["cudart64_110.dll"],
        }),
        ..ByMajor::of(11)
    }],
    link_name: "cudart",
    calling_convention: "CUDARTAPI",
    version: VersionFunction {
        name: c"cudaRuntimeGetVersion",
        query: VersionQuery::Number,
    },
    has_stub: false,
    proc_address: None,
    search: Search::Toolkit {
        wheel_dirs: &["nvidia/cu{major}/lib", "nvidia/cuda_runtime/lib"],
        toolkit_subdirs: &[],
    },
    preload: Names::NONE,
    siblings: Names::NONE,
    requires: Names::NONE,
    built_for: None,
    words: Words {
        label: "CUDA runtime",
        short: "cudart",
        product: "CUDA",
        install: "Install the CUDA runtime (the CUDA toolkit, or the `nvidia-cuda-runtime` wheel)",
        override_var: "CUSHIM_CUDART_LIBRARY",
    },
};
