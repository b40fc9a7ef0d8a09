//! NVML, the management library, as data: one file per library, and one line of
//! [`super::LIBRARIES`].

use super::{
    Code, Header, Library, LoaderCodes, Names, Naming, ParseSettings, Search, VersionFunction,
    VersionQuery, Words,
};

/// NVML, the management library: `nvml.h` from the header-only
/// `nvidia-nvml-dev` wheels (`headers/pins-nvml.txt`); the library ships with
/// the driver. Its header declares the versioned names (`nvmlInit_v2`) and
/// maps the plain ones to them with `#define`, which the parse reads as
/// aliases, so `nvmlInit` binds `nvmlInit_v2`, never the v1 export. Searched
/// like the driver: the system loader only.
pub const NVML: Library = Library {
    name: "nvml",
    stem: "nvml",
    headers: &[Header::alone("nvml.h")],
    pins: "headers/pins-nvml.txt",
    pin_text: include_str!("../../headers/pins-nvml.txt"),
    parse_files: &[],
    parse: ParseSettings {
        status_type: "nvmlReturn_t",
        alias_macros: true,
        ..ParseSettings::PLAIN
    },
    naming: Naming::NO_ABI_TABLE,
    flag_word: "flags",
    success: "NVML_SUCCESS",
    codes: LoaderCodes {
        library_not_found: Code {
            name: "NVML_ERROR_LIBRARY_NOT_FOUND",
            value: 12,
            otherwise: None,
        },
        symbol_not_found: Code {
            name: "NVML_ERROR_FUNCTION_NOT_FOUND",
            value: 13,
            otherwise: None,
        },
        stub_library: Code {
            name: "NVML_ERROR_LIBRARY_NOT_FOUND",
            value: 12,
            otherwise: None,
        },
        too_old: Code {
            name: "NVML_ERROR_FUNCTION_NOT_FOUND",
            value: 13,
            otherwise: None,
        },
        not_initialized: Code {
            name: "NVML_ERROR_UNINITIALIZED",
            value: 1,
            otherwise: None,
        },
        invalid_value: Code {
            name: "NVML_ERROR_INVALID_ARGUMENT",
            value: 2,
            otherwise: None,
        },
    },
    fallbacks: &["nvmlErrorString"],
    names: Names {
        unix: &["libnvidia-ml.so.1"],
        windows: &["nvml.dll"],
    },
    by_major: &[],
    link_name: "nvidia-ml",
    calling_convention: "",
    version: VersionFunction {
        name: c"nvmlSystemGetNVMLVersion",
        query: VersionQuery::Text,
    },
    has_stub: false,
    proc_address: None,
    search: Search::System,
    preload: Names::NONE,
    siblings: Names::NONE,
    requires: Names::NONE,
    built_for: None,
    words: Words {
        label: "NVML",
        short: "NVML",
        product: "NVML",
        install: "Install the NVIDIA driver, which ships NVML",
        override_var: "CUSHIM_NVML_LIBRARY",
    },
};
