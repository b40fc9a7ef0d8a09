//! cuSOLVER, the dense and sparse solvers, as data: one file per library,
//! and one line of [`super::LIBRARIES`].

use super::{
    ByMajor, Code, Header, Library, LoaderCodes, Names, Naming, ParseSettings, Search,
    VersionFunction, VersionQuery, Words, BFLOAT16, HALF, RUNTIME_API, TYPES,
};

/// cuSOLVER: `cusolverDn.h`, `cusolverSp.h`, `cusolverRf.h` and
/// `cusolver_common.h` (not `cusolverMg.h`, whose functions are
/// `libcusolverMg`'s: [`super::CUSOLVERMG`]), parsed with the cuBLAS and cuSPARSE headers they
/// include (`headers/pins-cusolver.txt`). `libcusolver.so.11` for CUDA 11
/// and 12, `.12` for 13. It needs cuBLAS, cuBLASLt and, from 12.0,
/// cuSPARSE and nvJitLink (`DT_NEEDED`), loaded first from its directory,
/// dependencies before the libraries that need them. The six
/// `cusolverDnLogger*` functions are declared but not exported: their shims
/// answer "not found" alone.
pub const CUSOLVER: Library = Library {
    name: "cusolver",
    stem: "cusolver",
    headers: &[
        Header {
            name: "cusolverDn.h",
            typedefs: None,
            needs: &["nv/target"],
            optional: false,
        },
        Header::alone("cusolverSp.h"),
        Header::alone("cusolverRf.h"),
        Header::alone("cusolver_common.h"),
    ],
    pins: "headers/pins-cusolver.txt",
    pin_text: include_str!("../../headers/pins-cusolver.txt"),
    parse_files: &[
        RUNTIME_API,
        HALF,
        BFLOAT16,
        TYPES,
        &["cublas_api.h", "cublas_v2.h", "cusparse.h"],
    ],
    parse: ParseSettings {
        status_type: "cusolverStatus_t",
        ..ParseSettings::PLAIN
    },
    naming: Naming::NO_ABI_TABLE,
    flag_word: "flags",
    success: "CUSOLVER_STATUS_SUCCESS",
    codes: LoaderCodes {
        library_not_found: Code {
            name: "CUSOLVER_STATUS_NOT_INITIALIZED",
            value: 1,
            otherwise: None,
        },
        symbol_not_found: Code {
            name: "CUSOLVER_STATUS_NOT_SUPPORTED",
            value: 9,
            otherwise: None,
        },
        stub_library: Code {
            name: "CUSOLVER_STATUS_NOT_INITIALIZED",
            value: 1,
            otherwise: None,
        },
        too_old: Code {
            name: "CUSOLVER_STATUS_NOT_SUPPORTED",
            value: 9,
            otherwise: None,
        },
        not_initialized: Code {
            name: "CUSOLVER_STATUS_NOT_INITIALIZED",
            value: 1,
            otherwise: None,
        },
        invalid_value: Code {
            name: "CUSOLVER_STATUS_INVALID_VALUE",
            value: 3,
            otherwise: None,
        },
    },
    fallbacks: &[],
    names: Names {
        unix: &["libcusolver.so.{major}"],
        windows: &["cusolver64_{major}.dll"],
    },
    by_major: &[
        ByMajor {
            preload: Some(Names {
                unix: &["libcublasLt.so.11", "libcublas.so.11"],
                windows: &["cublasLt64_11.dll", "cublas64_11.dll"],
            }),
            ..ByMajor::of(11)
        },
        ByMajor::renamed(12, &["libcusolver.so.11"], &["cusolver64_11.dll"], 11),
        ByMajor::renamed(13, &["libcusolver.so.12"], &["cusolver64_12.dll"], 12),
    ],
    link_name: "cusolver",
    calling_convention: "CUSOLVERAPI",
    version: VersionFunction {
        name: c"cusolverGetProperty",
        query: VersionQuery::Property,
    },
    has_stub: false,
    proc_address: None,
    search: Search::Toolkit {
        wheel_dirs: &["nvidia/cu{major}/lib", "nvidia/cusolver/lib"],
        toolkit_subdirs: &[],
    },
    preload: Names {
        unix: &[
            "libnvJitLink.so.{major}",
            "libcusparse.so.12",
            "libcublasLt.so.{major}",
            "libcublas.so.{major}",
        ],
        windows: &[
            "nvJitLink_{major}0_0.dll",
            "cusparse64_12.dll",
            "cublasLt64_{major}.dll",
            "cublas64_{major}.dll",
        ],
    },
    siblings: Names::NONE,
    requires: Names::NONE,
    built_for: None,
    words: Words {
        label: "cuSOLVER",
        short: "cuSOLVER",
        product: "cuSOLVER",
        install: "Install cuSOLVER (the CUDA toolkit, or the `nvidia-cusolver` wheel)",
        override_var: "CUSHIM_CUSOLVER_LIBRARY",
    },
};
