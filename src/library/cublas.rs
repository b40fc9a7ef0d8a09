//! cuBLAS, the BLAS library, as data: one file per library, and one line of
//! [`super::LIBRARIES`].

use super::{
    Code, Header, Library, LoaderCodes, Names, Naming, ParseSettings, Search, VersionFunction,
    VersionQuery, Words, BFLOAT16, HALF, RUNTIME_API, TYPES,
};

/// cuBLAS's and cuBLASLt's status constants: no code says "library not
/// found", so `CUBLAS_STATUS_NOT_INITIALIZED` (what cuBLAS answers when the
/// CUDA runtime cannot start) stands in; a missing or too-new function is
/// `CUBLAS_STATUS_NOT_SUPPORTED`.
const CUBLAS_CODES: LoaderCodes = LoaderCodes {
    library_not_found: Code {
        name: "CUBLAS_STATUS_NOT_INITIALIZED",
        value: 1,
        otherwise: None,
    },
    symbol_not_found: Code {
        name: "CUBLAS_STATUS_NOT_SUPPORTED",
        value: 15,
        otherwise: None,
    },
    stub_library: Code {
        name: "CUBLAS_STATUS_NOT_INITIALIZED",
        value: 1,
        otherwise: None,
    },
    too_old: Code {
        name: "CUBLAS_STATUS_NOT_SUPPORTED",
        value: 15,
        otherwise: None,
    },
    not_initialized: Code {
        name: "CUBLAS_STATUS_NOT_INITIALIZED",
        value: 1,
        otherwise: None,
    },
    invalid_value: Code {
        name: "CUBLAS_STATUS_INVALID_VALUE",
        value: 7,
        otherwise: None,
    },
};

/// cuBLAS: `cublas_v2.h`, whose `#define cublasSgemm cublasSgemm_v2` lines
/// (read as aliases) follow the declarations in `cublas_api.h`. Only the
/// declared `_v2` exports are bound: the library also exports 151 of the
/// plain names as legacy functions with other signatures (`void
/// cublasSgemm(char, ...)`), which a shim never binds. `libcublas` needs
/// `libcublasLt` of the same version, loaded first from its directory.
pub const CUBLAS: Library = Library {
    name: "cublas",
    stem: "cublas",
    headers: &[
        Header {
            name: "cublas_v2.h",
            typedefs: None,
            needs: &["nv/target"],
            optional: false,
        },
        Header::alone("cublas_api.h"),
    ],
    pins: "headers/pins-cublas.txt",
    pin_text: include_str!("../../headers/pins-cublas.txt"),
    parse_files: &[RUNTIME_API, HALF, BFLOAT16, TYPES],
    parse: ParseSettings {
        status_type: "cublasStatus_t",
        alias_macros: true,
        ..ParseSettings::PLAIN
    },
    naming: Naming::NO_ABI_TABLE,
    flag_word: "flags",
    success: "CUBLAS_STATUS_SUCCESS",
    codes: CUBLAS_CODES,
    fallbacks: &["cublasGetStatusName", "cublasGetStatusString"],
    names: Names {
        unix: &["libcublas.so.{major}"],
        windows: &["cublas64_{major}.dll"],
    },
    by_major: &[],
    link_name: "cublas",
    calling_convention: "CUBLASWINAPI",
    version: VersionFunction {
        name: c"cublasGetProperty",
        query: VersionQuery::Property,
    },
    has_stub: false,
    proc_address: None,
    search: Search::Toolkit {
        wheel_dirs: &["nvidia/cu{major}/lib", "nvidia/cublas/lib"],
        toolkit_subdirs: &[],
    },
    preload: Names {
        unix: &["libcublasLt.so.{major}"],
        windows: &["cublasLt64_{major}.dll"],
    },
    siblings: Names::NONE,
    requires: Names::NONE,
    built_for: None,
    words: Words {
        label: "cuBLAS",
        short: "cuBLAS",
        product: "cuBLAS",
        install: "Install cuBLAS (the CUDA toolkit, or the `nvidia-cublas` wheel)",
        override_var: "CUSHIM_CUBLAS_LIBRARY",
    },
};
