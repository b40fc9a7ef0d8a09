//! The CUDA runtime (cudart), as data: one file per library, and one line of
//! [`super::LIBRARIES`].

use super::{
    ByMajor, Code, CompilerHeaders, Header, Library, LoaderCodes, Names, Naming, ParseSettings,
    Search, VersionFunction, VersionQuery, Words, NVCC_HOST, RUNTIME, RUNTIME_API,
};

/// The CUDA runtime: `cuda_runtime_api.h` from the runtime's wheel, with the
/// crt wheel's `crt/host_defines.h` (`headers/pins-cudart.txt`; the nvcc
/// wheel's before 13.0), the profiler control header `cuda_profiler_api.h`
/// (the profiler wheel's), and the OpenGL, EGL and VDPAU interop headers,
/// read with cushim's stand-ins for those projects' headers as the driver's
/// are;
/// `libcudart.so.<major>` (`.11.0` for 11.x). The header renames functions
/// with `#define`: in 12.x `cudaGetDeviceProperties` is
/// `cudaGetDeviceProperties_v2` (the plain export keeps the old ABI), and
/// under `CUDA_API_PER_THREAD_DEFAULT_STREAM` the stream-ordered calls are
/// `_ptds`/`_ptsz` exports, as the driver's are. The parse binds the names
/// that the preprocessor leaves. `cudaRuntimeGetVersion` of 11.8 answers
/// `cudaErrorInsufficientDriver` without a driver: that library is still
/// kept, its major unread.
///
/// nvcc's host code calls entry points of its own besides
/// (`__cudaRegisterFatBinary` from static constructors,
/// `__cudaPushCallConfiguration` at each launch), declared in nvcc's
/// `crt/host_runtime.h` and `crt/device_functions.h` ([`NVCC_HOST`]): the
/// C++ pair defines them too, so that it replaces `-lcudart` for
/// nvcc-compiled code (`nvcc -cudart none`). Without cudart each answers as
/// any shim does: `void**` (the fat binary's handle) and `unsigned` zero,
/// nothing for `void`, the failure's code for `cudaError_t`. The handle is
/// opaque to the compiled code, which hands it back to these entry points
/// alone, and they ignore it without cudart; `__cudaPopCallConfiguration`'s
/// code makes each launch return before it reaches `cudaLaunchKernel`.
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
    parse_files: &[RUNTIME_API, RUNTIME, &["cudart_platform.h"], NVCC_HOST],
    parse: ParseSettings {
        per_thread_define: Some("CUDA_API_PER_THREAD_DEFAULT_STREAM"),
        version_macro: "CUDART_VERSION",
        alias_macros: true,
        status_type: "cudaError_t",
        compiler: Some(CompilerHeaders {
            files: NVCC_HOST,
            defines: &["__CUDACC__"],
            then: &[
                "__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__",
                "__CUDA_INTERNAL_COMPILATION__",
            ],
            prefix: "__cuda",
            skip: &["__cudaRegisterLinkedBinary"],
        }),
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
    fallbacks: &["cudaGetErrorName", "cudaGetErrorString"],
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
