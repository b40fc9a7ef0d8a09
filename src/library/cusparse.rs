//! cuSPARSE, the sparse matrix library, as data: one file per library, and
//! one line of [`super::LIBRARIES`].

use super::{
    ByMajor, Code, Header, Library, LoaderCodes, Names, Naming, ParseSettings, Search,
    VersionFunction, VersionQuery, Words, HALF, RUNTIME_API, TYPES,
};

/// cuSPARSE: `cusparse.h` (`headers/pins-cusparse.txt`); `libcusparse.so.11`
/// for CUDA 11 and `.12` for both 12 and 13. 37 functions are declared but
/// not exported: their shims answer "not found" alone. It needs nvJitLink
/// (`DT_NEEDED` in 12.x, opened by name in 13.x), loaded first from its
/// directory. Its version comes from `cusparseGetProperty`, since
/// `cusparseGetVersion` needs a handle.
pub const CUSPARSE: Library = Library {
    name: "cusparse",
    stem: "cusparse",
    headers: &[Header {
        name: "cusparse.h",
        typedefs: None,
        needs: &["nv/target"],
        optional: false,
    }],
    pins: "headers/pins-cusparse.txt",
    pin_text: include_str!("../../headers/pins-cusparse.txt"),
    parse_files: &[RUNTIME_API, HALF, TYPES],
    parse: ParseSettings {
        status_type: "cusparseStatus_t",
        ..ParseSettings::PLAIN
    },
    naming: Naming::NO_ABI_TABLE,
    flag_word: "flags",
    success: "CUSPARSE_STATUS_SUCCESS",
    codes: LoaderCodes {
        library_not_found: Code {
            name: "CUSPARSE_STATUS_NOT_INITIALIZED",
            value: 1,
            otherwise: None,
        },
        symbol_not_found: Code {
            name: "CUSPARSE_STATUS_NOT_SUPPORTED",
            value: 10,
            otherwise: None,
        },
        stub_library: Code {
            name: "CUSPARSE_STATUS_NOT_INITIALIZED",
            value: 1,
            otherwise: None,
        },
        too_old: Code {
            name: "CUSPARSE_STATUS_NOT_SUPPORTED",
            value: 10,
            otherwise: None,
        },
        not_initialized: Code {
            name: "CUSPARSE_STATUS_NOT_INITIALIZED",
            value: 1,
            otherwise: None,
        },
        invalid_value: Code {
            name: "CUSPARSE_STATUS_INVALID_VALUE",
            value: 3,
            otherwise: None,
        },
    },
    fallbacks: &["cusparseGetErrorName", "cusparseGetErrorString"],
    names: Names {
        unix: &["libcusparse.so.{major}"],
        windows: &["cusparse64_{major}.dll"],
    },
    by_major: &[
        ByMajor {
            preload: Some(Names::NONE),
            ..ByMajor::of(11)
        },
        ByMajor::renamed(13, &["libcusparse.so.12"], &["cusparse64_12.dll"], 12),
    ],
    link_name: "cusparse",
    calling_convention: "CUSPARSEAPI",
    version: VersionFunction {
        name: c"cusparseGetProperty",
        query: VersionQuery::Property,
    },
    has_stub: false,
    proc_address: None,
    search: Search::Toolkit {
        wheel_dirs: &["nvidia/cu{major}/lib", "nvidia/cusparse/lib"],
        toolkit_subdirs: &[],
    },
    preload: Names {
        unix: &["libnvJitLink.so.{major}"],
        windows: &["nvJitLink_{major}0_0.dll"],
    },
    siblings: Names::NONE,
    requires: Names::NONE,
    built_for: None,
    words: Words {
        label: "cuSPARSE",
        short: "cuSPARSE",
        product: "cuSPARSE",
        install: "Install cuSPARSE (the CUDA toolkit, or the `nvidia-cusparse` wheel)",
        override_var: "CUSHIM_CUSPARSE_LIBRARY",
    },
};
