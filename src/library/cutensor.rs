//! cuTENSOR 2, the tensor algebra library, as data: one file per library,
//! and one line of [`super::LIBRARIES`].

use super::{
    ByMajor, Code, Header, Library, LoaderCodes, Names, Naming, ParseSettings, Search,
    VersionFunction, VersionQuery, Words, RUNTIME, RUNTIME_API,
};

/// What cuTENSOR answers when it cannot start.
const NOT_INITIALIZED: Code = Code {
    name: "CUTENSOR_STATUS_NOT_INITIALIZED",
    value: 1,
    otherwise: None,
};

/// What cuTENSOR answers for what it does not support.
const NOT_SUPPORTED: Code = Code {
    name: "CUTENSOR_STATUS_NOT_SUPPORTED",
    value: 15,
    otherwise: None,
};

/// cuBLASLt of CUDA `major`, from cuTENSOR's directory or where the NVIDIA
/// wheel beside `site-packages/cutensor/lib` keeps it (`path`).
const fn cublaslt(major: u32, path: &'static [&'static str]) -> ByMajor {
    ByMajor::preloading(
        major,
        Names {
            unix: path,
            windows: &["cublasLt64_{major}.dll"],
        },
    )
}

/// cuTENSOR 2: `cutensor.h` and `cutensor/types.h`, which include the
/// runtime's headers (`headers/pins-cutensor.txt`; the wheels are
/// `cutensor-cu12`, without NVIDIA's prefix). cuTENSOR has its own release
/// train: each CUDA major's pin is cuTENSOR 2's newest release for it. The
/// file is `libcutensor.so.2` (`cutensor.dll`) for every CUDA major, in
/// `site-packages/cutensor/lib` for each: the CUDA release it was built for
/// comes from `cutensorGetCudartVersion`, and a copy for another major is
/// passed over. It needs cuBLASLt of its CUDA major, loaded first from its
/// directory or from the NVIDIA wheel's beside it.
pub const CUTENSOR: Library = Library {
    name: "cutensor",
    stem: "cutensor",
    headers: &[Header::alone("cutensor.h")],
    pins: "headers/pins-cutensor.txt",
    pin_text: include_str!("../../headers/pins-cutensor.txt"),
    parse_files: &[RUNTIME_API, RUNTIME, &["cutensor/types.h"]],
    parse: ParseSettings {
        status_type: "cutensorStatus_t",
        ..ParseSettings::PLAIN
    },
    naming: Naming::NO_ABI_TABLE,
    flag_word: "flags",
    success: "CUTENSOR_STATUS_SUCCESS",
    codes: LoaderCodes {
        library_not_found: NOT_INITIALIZED,
        symbol_not_found: NOT_SUPPORTED,
        stub_library: NOT_INITIALIZED,
        too_old: NOT_SUPPORTED,
        not_initialized: NOT_INITIALIZED,
        invalid_value: Code {
            name: "CUTENSOR_STATUS_INVALID_VALUE",
            value: 7,
            otherwise: None,
        },
    },
    fallbacks: &["cutensorGetErrorString"],
    names: Names {
        unix: &["libcutensor.so.2"],
        windows: &["cutensor.dll"],
    },
    by_major: &[
        cublaslt(
            11,
            &[
                "libcublasLt.so.11",
                "../../nvidia/cublas/lib/libcublasLt.so.11",
            ],
        ),
        cublaslt(
            12,
            &[
                "libcublasLt.so.12",
                "../../nvidia/cublas/lib/libcublasLt.so.12",
            ],
        ),
        cublaslt(
            13,
            &["libcublasLt.so.13", "../../nvidia/cu13/lib/libcublasLt.so.13"],
        ),
    ],
    link_name: "cutensor",
    calling_convention: "",
    version: VersionFunction {
        // `size_t cutensorGetVersion(void)`: 20801 for 2.8.1.
        name: c"cutensorGetVersion",
        query: VersionQuery::Returned,
    },
    has_stub: false,
    proc_address: None,
    search: Search::Toolkit {
        wheel_dirs: &["cutensor/lib"],
        toolkit_subdirs: &[],
    },
    preload: Names {
        unix: &["libcublasLt.so.{major}"],
        windows: &["cublasLt64_{major}.dll"],
    },
    // cuTENSOR opens NVRTC and the driver by name for its JIT kernels.
    siblings: Names::NONE,
    requires: Names::NONE,
    built_for: Some(c"cutensorGetCudartVersion"),
    words: Words {
        label: "cuTENSOR",
        short: "cuTENSOR",
        product: "cuTENSOR",
        install: "Install cuTENSOR 2 (a `cutensor-cu12` or `cutensor-cu13` wheel, or NVIDIA's libcutensor2 package)",
        override_var: "CUSHIM_CUTENSOR_LIBRARY",
    },
};
