//! NVRTC, the runtime compiler, as data: one file per library, and one line of
//! [`super::LIBRARIES`].

use super::{
    ByMajor, Code, Header, Library, LoaderCodes, Names, Naming, ParseSettings, Search,
    VersionFunction, VersionQuery, Words,
};

/// NVRTC, the runtime compiler: `nvrtc.h` (no PFN table, no version macro),
/// from the `nvidia-cuda-nvrtc` wheels (`headers/pins-nvrtc.txt`);
/// `libnvrtc.so.<major>` (`.11.2` for 11.x) from pip wheels, conda or a
/// toolkit. The codes are `nvrtcResult`'s; NVRTC has no code for a missing
/// library, so `NVRTC_ERROR_INTERNAL_ERROR` stands in.
pub const NVRTC: Library = Library {
    name: "nvrtc",
    stem: "nvrtc",
    headers: &[Header::alone("nvrtc.h")],
    pins: "headers/pins-nvrtc.txt",
    pin_text: include_str!("../../headers/pins-nvrtc.txt"),
    parse_files: &[],
    parse: ParseSettings {
        status_type: "nvrtcResult",
        ..ParseSettings::PLAIN
    },
    naming: Naming::NO_ABI_TABLE,
    flag_word: "flags",
    success: "NVRTC_SUCCESS",
    codes: LoaderCodes::every(
        Code {
            name: "NVRTC_ERROR_INTERNAL_ERROR",
            value: 11,
            otherwise: None,
        },
        Code {
            name: "NVRTC_ERROR_INVALID_INPUT",
            value: 3,
            otherwise: None,
        },
    ),
    fallbacks: &["nvrtcGetErrorString"],
    names: Names {
        unix: &["libnvrtc.so.{major}"],
        windows: &["nvrtc64_{major}0_0.dll"],
    },
    by_major: &[ByMajor {
        names: Some(Names {
            unix: &["libnvrtc.so.11.2"],
            windows: &["nvrtc64_112_0.dll"],
        }),
        ..ByMajor::of(11)
    }],
    link_name: "nvrtc",
    calling_convention: "",
    version: VersionFunction {
        name: c"nvrtcVersion",
        query: VersionQuery::MajorMinor,
    },
    has_stub: false,
    proc_address: None,
    search: Search::Toolkit {
        wheel_dirs: &["nvidia/cu{major}/lib", "nvidia/cuda_nvrtc/lib"],
        toolkit_subdirs: &[],
    },
    preload: Names::NONE,
    // NVRTC opens its builtins by bare name when it compiles; the wheels ship
    // them beside it, named for NVRTC's major and minor (13.0.88's
    // `nvidia/cu13/lib/libnvrtc-builtins.so.13.0` and
    // `nvidia/cu13/bin/x86_64/nvrtc-builtins64_130.dll`, 12.9.86's
    // `libnvrtc-builtins.so.12.9`, 11.8.89's `libnvrtc-builtins.so.11.8`
    // beside `libnvrtc.so.11.2`), so the minor comes from `nvrtcVersion`.
    siblings: Names {
        unix: &["libnvrtc-builtins.so.{major}.{minor}"],
        windows: &["nvrtc-builtins64_{major}{minor}.dll"],
    },
    requires: Names::NONE,
    built_for: None,
    words: Words {
        label: "NVRTC",
        short: "NVRTC",
        product: "NVRTC",
        install: "Install NVRTC (the CUDA toolkit, or the `nvidia-cuda-nvrtc` wheel)",
        override_var: "CUSHIM_NVRTC_LIBRARY",
    },
};
