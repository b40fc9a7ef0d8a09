//! CUPTI, the profiling tools interface, as data: one file per library, and
//! one line of [`super::LIBRARIES`].

use super::{
    ByMajor, Code, Globbed, Header, Library, LoaderCodes, Names, Naming, ParseSettings, Search,
    VersionFunction, VersionQuery, Words, RUNTIME_API,
};

/// The headers of CUPTI's wheel that its patterns match but that are not
/// bound, each with why.
const EXCEPT: &[(&str, &str)] = &[
    (
        "cupti_checkpoint.h",
        "its functions are libcheckpoint's, and it is C++, a namespace",
    ),
    (
        "cupti_pcsampling_util.h",
        "its functions are libpcsamplingutil's, and it is C++, with `<fstream>`",
    ),
    (
        "generated_nvtx_meta.h",
        "it includes NVTX's headers, another wheel's",
    ),
    (
        "generated_cudart_removed_meta.h",
        "it includes cudart_removed.h, which no wheel ships",
    ),
];

/// What CUPTI answers when it is not initialized.
const NOT_INITIALIZED: Code = Code {
    name: "CUPTI_ERROR_NOT_INITIALIZED",
    value: 15,
    otherwise: None,
};

/// What CUPTI answers for what it does not support.
const NOT_SUPPORTED: Code = Code {
    name: "CUPTI_ERROR_NOT_SUPPORTED",
    value: 27,
    otherwise: None,
};

/// CUPTI: `cupti.h` and the headers that declare its functions
/// (`cupti_activity.h`, `cupti_callbacks.h`, ...; `cupti_common.h` from
/// 12.4), which include the driver's `cuda.h` and the runtime's headers
/// (`headers/pins-cupti.txt`); and every other `cupti_*.h` and
/// `generated_*_meta.h` that a release's wheel ships (PC sampling, the
/// profiler, SASS metrics, the callback ids and each API function's
/// `*_params` struct), less [`EXCEPT`]. The file is `libcupti.so.11.8` for
/// 11.8 and `libcupti.so.<major>` after; a toolkit keeps it in
/// `extras/CUPTI/lib64`. `cuptiGetVersion` answers CUPTI's API version (18,
/// ..., 28, then 130001 from 13.0), not a release, and CUPTI 13 answers
/// `CUPTI_ERROR_UNKNOWN` without a driver: the library is kept, its version
/// unread, and only the file name tells its major.
pub const CUPTI: Library = Library {
    name: "cupti",
    stem: "cupti",
    headers: &[
        Header::alone("cupti.h"),
        Header::alone("cupti_result.h"),
        Header::alone("cupti_version.h"),
        Header::alone("cupti_activity.h"),
        Header::alone("cupti_callbacks.h"),
        Header::alone("cupti_events.h"),
        Header::alone("cupti_metrics.h"),
        Header::newer("cupti_common.h"),
        Header::newer("cupti_activity_deprecated.h"),
    ],
    pins: "headers/pins-cupti.txt",
    pin_text: include_str!("../../headers/pins-cupti.txt"),
    parse_files: &[
        RUNTIME_API,
        &[
            "cuda.h",
            "cuda_stdint.h",
            // What the interop parameter structs' headers include.
            "cudaGL.h",
            "cudaVDPAU.h",
            "cuda_gl_interop.h",
            "cuda_vdpau_interop.h",
        ],
    ],
    parse: ParseSettings {
        status_type: "CUptiResult",
        globbed: Globbed {
            patterns: &["cupti_*.h", "generated_*_meta.h"],
            except: EXCEPT,
            // The OpenGL and VDPAU parameter structs' headers include
            // those; the profiler host's includes C++'s `<string>`, which
            // it does not use; 13.1's profiler target names `bool` without
            // `<stdbool.h>`.
            needs: &["GL/gl.h", "vdpau/vdpau.h", "string", "cushim/bool.h"],
        },
        ..ParseSettings::PLAIN
    },
    naming: Naming::NO_ABI_TABLE,
    flag_word: "flags",
    success: "CUPTI_SUCCESS",
    codes: LoaderCodes {
        library_not_found: NOT_INITIALIZED,
        symbol_not_found: NOT_SUPPORTED,
        stub_library: NOT_INITIALIZED,
        too_old: NOT_SUPPORTED,
        not_initialized: NOT_INITIALIZED,
        invalid_value: Code {
            name: "CUPTI_ERROR_INVALID_PARAMETER",
            value: 1,
            otherwise: None,
        },
    },
    fallbacks: &["cuptiGetResultString", "cuptiGetErrorMessage"],
    names: Names {
        unix: &["libcupti.so.{major}"],
        windows: &["cupti64_{major}.dll"],
    },
    by_major: &[
        // On Windows the DLL is named after the CUPTI release, newest first,
        // until CUDA 13.5's `cupti64_13.dll`.
        ByMajor::named(11, &["libcupti.so.11.8"], &["cupti64_2022.3.0.dll"]),
        ByMajor::named(
            12,
            &["libcupti.so.12"],
            &[
                "cupti64_2025.2.1.dll",
                "cupti64_2025.1.1.dll",
                "cupti64_2024.3.2.dll",
                "cupti64_2024.2.0.dll",
                "cupti64_2024.1.1.dll",
                "cupti64_2023.3.1.dll",
                "cupti64_2023.2.2.dll",
                "cupti64_2023.1.1.dll",
                "cupti64_2022.4.1.dll",
            ],
        ),
        ByMajor::named(
            13,
            &["libcupti.so.13"],
            &[
                "cupti64_13.dll",
                "cupti64_2026.3.1.dll",
                "cupti64_2026.2.1.dll",
                "cupti64_2026.1.2.dll",
                "cupti64_2025.4.1.dll",
                "cupti64_2025.3.1.dll",
            ],
        ),
    ],
    link_name: "cupti",
    // `CUPTIAPI` is `__stdcall` on Windows (a no-op on x64), empty elsewhere.
    calling_convention: "",
    version: VersionFunction {
        name: c"cuptiGetVersion",
        query: VersionQuery::Api,
    },
    has_stub: false,
    proc_address: None,
    search: Search::Toolkit {
        wheel_dirs: &["nvidia/cu{major}/lib", "nvidia/cuda_cupti/lib"],
        toolkit_subdirs: &["extras/CUPTI/lib64"],
    },
    preload: Names::NONE,
    siblings: Names::NONE,
    requires: Names::NONE,
    built_for: None,
    words: Words {
        label: "CUPTI",
        short: "CUPTI",
        product: "CUDA",
        install:
            "Install CUPTI (the CUDA toolkit's extras/CUPTI, or the `nvidia-cuda-cupti` wheel)",
        override_var: "CUSHIM_CUPTI_LIBRARY",
    },
};
