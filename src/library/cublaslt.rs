//! cuBLASLt, the lightweight BLAS library, as data: one file per library, and one line of
//! [`super::LIBRARIES`].

use super::cublas::CUBLAS;
use super::{Header, Library, Names, ParseSettings, VersionFunction, VersionQuery, Words};

/// cuBLASLt: `cublasLt.h`, which includes `cublas_api.h` for its types (only
/// `cublasLt.h`'s own declarations are its functions), from the same wheels
/// as cuBLAS.
pub const CUBLASLT: Library = Library {
    name: "cublaslt",
    stem: "cublasLt",
    headers: &[Header {
        name: "cublasLt.h",
        typedefs: None,
        needs: &["nv/target"],
        optional: false,
    }],
    fallbacks: &["cublasLtGetStatusName", "cublasLtGetStatusString"],
    names: Names {
        unix: &["libcublasLt.so.{major}"],
        windows: &["cublasLt64_{major}.dll"],
    },
    by_major: &[],
    link_name: "cublasLt",
    version: VersionFunction {
        name: c"cublasLtGetProperty",
        query: VersionQuery::Property,
    },
    preload: Names::NONE,
    siblings: Names::NONE,
    requires: Names::NONE,
    built_for: None,
    words: Words {
        label: "cuBLASLt",
        short: "cuBLASLt",
        product: "cuBLASLt",
        install: "Install cuBLASLt (the CUDA toolkit, or the `nvidia-cublas` wheel)",
        override_var: "CUSHIM_CUBLASLT_LIBRARY",
    },
    parse: ParseSettings {
        alias_macros: false,
        ..CUBLAS.parse
    },
    ..CUBLAS
};
