//! cuFFT, the FFT library, as data: one file per library, and one line of
//! [`super::LIBRARIES`].

use super::{
    ByMajor, Code, Header, Library, LoaderCodes, Names, Naming, ParseSettings, Search,
    VersionFunction, VersionQuery, Words, RUNTIME, RUNTIME_API, TYPES,
};

/// What cuFFT answers when it cannot start, in every release.
const SETUP_FAILED: Code = Code {
    name: "CUFFT_SETUP_FAILED",
    value: 7,
    otherwise: None,
};

/// cuFFT: `cufft.h` and `cufftXt.h` (not `cufftw.h`, whose functions are
/// `libcufftw`'s), which include the runtime's headers
/// (`headers/pins-cufft.txt`). Its files carry its own major, one less than
/// CUDA's: `libcufft.so.10` for CUDA 11, `.11` for 12, `.12` for 13. In
/// 12.6–12.9 `cufftXtSetJITCallback` is a `static inline` wrapper of the
/// export `__cufftXtSetJITCallback_12_7`, which the parse binds. cuFFT opens
/// nvJitLink and NVRTC by name for JIT callbacks: they are loaded after it
/// from its directory where they are there. The status codes were
/// renumbered in 13.0: without the library, a 13.x header's shims answer
/// `CUFFT_MISSING_DEPENDENCY` (17, new in 13.0) and an older header's
/// `CUFFT_SETUP_FAILED` ("the cuFFT library failed to initialize"); a
/// missing function is `CUFFT_NOT_SUPPORTED` in every release.
pub const CUFFT: Library = Library {
    name: "cufft",
    stem: "cufft",
    headers: &[Header::alone("cufft.h"), Header::alone("cufftXt.h")],
    pins: "headers/pins-cufft.txt",
    pin_text: include_str!("../../headers/pins-cufft.txt"),
    parse_files: &[RUNTIME_API, RUNTIME, TYPES, &["cudalibxt.h"]],
    parse: ParseSettings {
        status_type: "cufftResult",
        inline_wrappers: true,
        ..ParseSettings::PLAIN
    },
    naming: Naming::NO_ABI_TABLE,
    flag_word: "flags",
    success: "CUFFT_SUCCESS",
    codes: LoaderCodes {
        library_not_found: Code {
            name: "CUFFT_MISSING_DEPENDENCY",
            value: 17,
            otherwise: Some(&SETUP_FAILED),
        },
        symbol_not_found: Code {
            name: "CUFFT_NOT_SUPPORTED",
            value: 16,
            otherwise: None,
        },
        stub_library: Code {
            name: "CUFFT_SETUP_FAILED",
            value: 7,
            otherwise: None,
        },
        too_old: Code {
            name: "CUFFT_NOT_SUPPORTED",
            value: 16,
            otherwise: None,
        },
        not_initialized: Code {
            name: "CUFFT_SETUP_FAILED",
            value: 7,
            otherwise: None,
        },
        invalid_value: Code {
            name: "CUFFT_INVALID_VALUE",
            value: 4,
            otherwise: None,
        },
    },
    fallbacks: &[],
    names: Names {
        unix: &["libcufft.so.{major}"],
        windows: &["cufft64_{major}.dll"],
    },
    by_major: &[
        ByMajor::renamed(11, &["libcufft.so.10"], &["cufft64_10.dll"], 10),
        ByMajor::renamed(12, &["libcufft.so.11"], &["cufft64_11.dll"], 11),
        ByMajor::renamed(13, &["libcufft.so.12"], &["cufft64_12.dll"], 12),
    ],
    link_name: "cufft",
    // `CUFFTAPI` is `__stdcall` on Windows (a no-op on x64) but a
    // visibility attribute elsewhere, which a pointer type cannot carry.
    calling_convention: "",
    version: VersionFunction {
        // `cufftGetVersion` answers 1000 x major + 100 x minor + patch.
        name: c"cufftGetProperty",
        query: VersionQuery::Property,
    },
    has_stub: false,
    proc_address: None,
    search: Search::Toolkit {
        wheel_dirs: &["nvidia/cu{major}/lib", "nvidia/cufft/lib"],
        toolkit_subdirs: &[],
    },
    preload: Names::NONE,
    siblings: Names {
        unix: &["libnvJitLink.so.{major}", "libnvrtc.so.{major}"],
        windows: &["nvJitLink_{major}0_0.dll", "nvrtc64_{major}0_0.dll"],
    },
    requires: Names::NONE,
    built_for: None,
    words: Words {
        label: "cuFFT",
        short: "cuFFT",
        product: "cuFFT",
        install: "Install cuFFT (the CUDA toolkit, or the `nvidia-cufft` wheel)",
        override_var: "CUSHIM_CUFFT_LIBRARY",
    },
};
