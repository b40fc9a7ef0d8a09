//! cuRAND, the random number library, as data: one file per library, and
//! one line of [`super::LIBRARIES`].

use super::{
    ByMajor, Code, Header, Library, LoaderCodes, Names, Naming, ParseSettings, Search,
    VersionFunction, VersionQuery, Words, RUNTIME, RUNTIME_API,
};

/// cuRAND: `curand.h`, which includes the runtime's `cuda_runtime.h`
/// (`headers/pins-curand.txt`). `libcurand.so.10` in every release, so any
/// version will do. CUDA 13's needs `libcudart.so.13` (`DT_NEEDED`), loaded
/// first from its directory. `curandGenerateBinomial` and
/// `curandGenerateBinomialMethod` are declared but not exported: their shims
/// answer "not found" alone. cuRAND has no code for a missing library:
/// `CURAND_STATUS_INITIALIZATION_FAILED` stands in for every failure.
pub const CURAND: Library = Library {
    name: "curand",
    stem: "curand",
    headers: &[Header::alone("curand.h")],
    pins: "headers/pins-curand.txt",
    pin_text: include_str!("../../headers/pins-curand.txt"),
    parse_files: &[RUNTIME_API, RUNTIME],
    parse: ParseSettings {
        status_type: "curandStatus_t",
        ..ParseSettings::PLAIN
    },
    naming: Naming::NO_ABI_TABLE,
    flag_word: "flags",
    success: "CURAND_STATUS_SUCCESS",
    codes: LoaderCodes::every(
        Code {
            name: "CURAND_STATUS_INITIALIZATION_FAILED",
            value: 203,
            otherwise: None,
        },
        Code {
            name: "CURAND_STATUS_OUT_OF_RANGE",
            value: 104,
            otherwise: None,
        },
    ),
    fallbacks: &[],
    names: Names {
        unix: &["libcurand.so.10"],
        windows: &["curand64_10.dll"],
    },
    by_major: &[ByMajor {
        preload: Some(Names {
            unix: &["libcudart.so.13"],
            windows: &["cudart64_13.dll"],
        }),
        ..ByMajor::of(13)
    }],
    link_name: "curand",
    calling_convention: "CURANDAPI",
    version: VersionFunction {
        // `curandGetVersion` answers 1000 x major + 100 x minor + patch.
        name: c"curandGetProperty",
        query: VersionQuery::Property,
    },
    has_stub: false,
    proc_address: None,
    search: Search::Toolkit {
        wheel_dirs: &["nvidia/cu{major}/lib", "nvidia/curand/lib"],
        toolkit_subdirs: &[],
    },
    preload: Names::NONE,
    siblings: Names::NONE,
    requires: Names::NONE,
    built_for: None,
    words: Words {
        label: "cuRAND",
        short: "cuRAND",
        product: "cuRAND",
        install: "Install cuRAND (the CUDA toolkit, or the `nvidia-curand` wheel)",
        override_var: "CUSHIM_CURAND_LIBRARY",
    },
};
