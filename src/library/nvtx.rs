//! NVTX, the tools extension (annotations for profilers), as data: one file
//! per library, and one line of [`super::LIBRARIES`].

use super::{
    Code, Header, Library, LoaderCodes, Names, Naming, ParseSettings, Search, VersionFunction,
    VersionQuery, Words,
};

/// NVTX has no status type: no code is ever answered.
const NO_CODE: Code = Code {
    name: "",
    value: 0,
    otherwise: None,
};

/// NVTX v3: `nvtx3/nvToolsExt.h`, which is header-only unless read with
/// `NVTX_NO_IMPL` defined: then it declares the functions that the library
/// exports (`headers/pins-nvtx.txt`). Its functions return nothing, a range
/// id or a handle, never a status: without the library each shim answers
/// zero (or NULL), which NVTX's own header-only build answers without a tool
/// attached too. The library is `libnvtx3interop.so.1` from 12.9 and
/// `libnvToolsExt.so.1` before (the same export names), the first found;
/// neither has a version function, so `nvtxRangePushA` only tells it from
/// another file. No wheel has a Windows DLL.
pub const NVTX: Library = Library {
    name: "nvtx",
    stem: "nvtx",
    headers: &[Header::alone("nvtx3/nvToolsExt.h")],
    pins: "headers/pins-nvtx.txt",
    pin_text: include_str!("../../headers/pins-nvtx.txt"),
    parse_files: &[&[
        "nvtx3/nvtxDetail/nvtxLinkOnce.h",
        "nvtx3/nvtxDetail/nvtxTypes.h",
    ]],
    parse: ParseSettings {
        defines: &["NVTX_NO_IMPL"],
        ..ParseSettings::PLAIN
    },
    naming: Naming::NO_ABI_TABLE,
    flag_word: "flags",
    // No status type.
    success: "",
    codes: LoaderCodes::every(NO_CODE, NO_CODE),
    fallbacks: &[],
    names: Names {
        unix: &["libnvtx3interop.so.1", "libnvToolsExt.so.1"],
        windows: &[],
    },
    by_major: &[],
    link_name: "nvtx3interop",
    calling_convention: "",
    version: VersionFunction {
        name: c"nvtxRangePushA",
        query: VersionQuery::Absent,
    },
    has_stub: false,
    proc_address: None,
    search: Search::Toolkit {
        wheel_dirs: &["nvidia/cu{major}/lib", "nvidia/nvtx/lib"],
        toolkit_subdirs: &[],
    },
    preload: Names::NONE,
    siblings: Names::NONE,
    requires: Names::NONE,
    built_for: None,
    words: Words {
        label: "NVTX",
        short: "NVTX",
        product: "NVTX",
        install: "Install NVTX's library (the CUDA toolkit, or the `nvidia-nvtx` wheel)",
        override_var: "CUSHIM_NVTX_LIBRARY",
    },
};
