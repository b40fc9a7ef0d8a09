//! nvJitLink, the JIT linker, as data: one file per library, and one line of
//! [`super::LIBRARIES`].

use super::{
    Code, Header, Library, LoaderCodes, Names, Naming, ParseSettings, Search, VersionFunction,
    VersionQuery, Words,
};

/// nvJitLink, the JIT linker: `nvJitLink.h` from the `nvidia-nvjitlink`
/// wheels (`headers/pins-nvjitlink.txt`; none for 11.8). Its functions are
/// `static inline` wrappers around exports of the header's own minor
/// (`nvJitLinkCreate` calls `__nvJitLinkCreate_13_5`), which the parse reads
/// as the C name of that export, with that minor as its ABI version: an older
/// library is "too old" without being asked. `NVJITLINK_ERROR_OUTDATED_LIBRARY` is 14
/// in 13.x headers (a 12.x header without it gets the documented 14 too,
/// which is only right with its `NEW_ERROR_CODES`).
pub const NVJITLINK: Library = Library {
    name: "nvjitlink",
    stem: "nvjitlink",
    headers: &[Header::alone("nvJitLink.h")],
    pins: "headers/pins-nvjitlink.txt",
    pin_text: include_str!("../../headers/pins-nvjitlink.txt"),
    parse_files: &[],
    parse: ParseSettings {
        status_type: "nvJitLinkResult",
        inline_wrappers: true,
        wrapper_versions: true,
        ..ParseSettings::PLAIN
    },
    naming: Naming::NO_ABI_TABLE,
    flag_word: "flags",
    success: "NVJITLINK_SUCCESS",
    codes: LoaderCodes {
        library_not_found: Code {
            name: "NVJITLINK_ERROR_INTERNAL",
            value: 6,
            otherwise: None,
        },
        symbol_not_found: Code {
            name: "NVJITLINK_ERROR_OUTDATED_LIBRARY",
            value: 14,
            otherwise: None,
        },
        stub_library: Code {
            name: "NVJITLINK_ERROR_INTERNAL",
            value: 6,
            otherwise: None,
        },
        too_old: Code {
            name: "NVJITLINK_ERROR_OUTDATED_LIBRARY",
            value: 14,
            otherwise: None,
        },
        not_initialized: Code {
            name: "NVJITLINK_ERROR_INTERNAL",
            value: 6,
            otherwise: None,
        },
        invalid_value: Code {
            name: "NVJITLINK_ERROR_INVALID_INPUT",
            value: 4,
            otherwise: None,
        },
    },
    fallbacks: &[],
    names: Names {
        unix: &["libnvJitLink.so.{major}"],
        windows: &["nvJitLink_{major}0_0.dll"],
    },
    by_major: &[],
    link_name: "nvJitLink",
    calling_convention: "",
    version: VersionFunction {
        name: c"nvJitLinkVersion",
        query: VersionQuery::MajorMinor,
    },
    has_stub: false,
    proc_address: None,
    search: Search::Toolkit {
        wheel_dirs: &["nvidia/cu{major}/lib", "nvidia/nvjitlink/lib"],
        toolkit_subdirs: &[],
    },
    preload: Names::NONE,
    siblings: Names::NONE,
    requires: Names::NONE,
    built_for: None,
    words: Words {
        label: "nvJitLink",
        short: "nvJitLink",
        product: "nvJitLink",
        install: "Install nvJitLink (the CUDA toolkit, or the `nvidia-nvjitlink` wheel)",
        override_var: "CUSHIM_NVJITLINK_LIBRARY",
    },
};
