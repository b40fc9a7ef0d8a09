//! cuSOLVERMg, cuSOLVER's dense solvers over several GPUs of one host, as
//! data: one file per library, and one line of [`super::LIBRARIES`].

use super::cusolver::CUSOLVER;
use super::{
    ByMajor, Header, Library, Names, VersionFunction, VersionQuery, Words, BFLOAT16, HALF,
    RUNTIME_API, TYPES,
};

/// cuSOLVERMg: `cusolverMg.h`, which includes `cusolverDn.h` for its types
/// (only `cusolverMg.h`'s own declarations are its functions), from the
/// same wheels as cuSOLVER (`headers/pins-cusolver.txt`), with cuSOLVER's
/// status codes. `libcusolverMg.so.11` for CUDA 11 and 12, `.12` for 13.
/// It needs cuBLAS, cuBLASLt and, from 12.0, nvJitLink (`DT_NEEDED`; not
/// cuSPARSE, nor cuSOLVER itself), loaded first from its directory; its
/// Windows DLL needs cuBLAS alone, which needs cuBLASLt. It has no version
/// function: `cusolverMgCreate` only tells it from another file, and its
/// file name tells its major.
pub const CUSOLVERMG: Library = Library {
    name: "cusolvermg",
    stem: "cusolverMg",
    headers: &[Header {
        name: "cusolverMg.h",
        typedefs: None,
        needs: &["nv/target"],
        optional: false,
    }],
    parse_files: &[
        RUNTIME_API,
        HALF,
        BFLOAT16,
        TYPES,
        &[
            "cublas_api.h",
            "cublas_v2.h",
            "cusolverDn.h",
            "cusolver_common.h",
        ],
    ],
    names: Names {
        unix: &["libcusolverMg.so.{major}"],
        windows: &["cusolverMg64_{major}.dll"],
    },
    by_major: &[
        ByMajor::preloading(
            11,
            Names {
                unix: &["libcublasLt.so.11", "libcublas.so.11"],
                windows: &["cublasLt64_11.dll", "cublas64_11.dll"],
            },
        ),
        ByMajor::named(12, &["libcusolverMg.so.11"], &["cusolverMg64_11.dll"]),
        ByMajor::named(13, &["libcusolverMg.so.12"], &["cusolverMg64_12.dll"]),
    ],
    link_name: "cusolverMg",
    version: VersionFunction {
        name: c"cusolverMgCreate",
        query: VersionQuery::Absent,
    },
    preload: Names {
        unix: &[
            "libnvJitLink.so.{major}",
            "libcublasLt.so.{major}",
            "libcublas.so.{major}",
        ],
        windows: &["cublasLt64_{major}.dll", "cublas64_{major}.dll"],
    },
    words: Words {
        label: "cuSOLVERMg",
        short: "cuSOLVERMg",
        product: "cuSOLVERMg",
        install: "Install cuSOLVERMg (the CUDA toolkit, or the `nvidia-cusolver` wheel)",
        override_var: "CUSHIM_CUSOLVERMG_LIBRARY",
    },
    ..CUSOLVER
};
