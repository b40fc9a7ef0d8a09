//! NCCL, the collective communications library, as data: one file per
//! library, and one line of [`super::LIBRARIES`].

use super::{
    Code, Header, Library, LoaderCodes, Names, Naming, ParseSettings, Search, VersionFunction,
    VersionQuery, Words, BFLOAT16, FP8, HALF, RUNTIME, RUNTIME_API,
};

/// NCCL's status for a call that never reached it: `ncclSystemError` ("a
/// call to the system failed"), as for a library that cannot be opened.
const SYSTEM_ERROR: Code = Code {
    name: "ncclSystemError",
    value: 2,
    otherwise: None,
};

/// NCCL 2: `nccl.h`, which includes the runtime's headers and its half,
/// bfloat16 and (from 2.2x) fp8 types (`headers/pins-nccl.txt`). NCCL has
/// its own release train: each CUDA major's pin is NCCL's newest release for
/// it. The file is `libnccl.so.2` for every CUDA major, in `nvidia/nccl/lib`
/// for cu11, cu12 and cu13 alike, and NCCL reports no CUDA release: any copy
/// is bound. NCCL has no Windows build. The header declares each function
/// twice, `ncclX` and `pncclX`; the library exports `pncclX` and `ncclX` as
/// its weak alias, which a profiler may interpose: only `ncclX` is bound.
/// `ncclTimeout` (8) is new in 2.30: each release's codes are its header's.
pub const NCCL: Library = Library {
    name: "nccl",
    stem: "nccl",
    headers: &[Header {
        name: "nccl.h",
        typedefs: None,
        needs: &["nv/target"],
        optional: false,
    }],
    pins: "headers/pins-nccl.txt",
    pin_text: include_str!("../../headers/pins-nccl.txt"),
    parse_files: &[RUNTIME_API, RUNTIME, HALF, BFLOAT16, FP8],
    parse: ParseSettings {
        status_type: "ncclResult_t",
        skip_prefixes: &["pnccl"],
        ..ParseSettings::PLAIN
    },
    naming: Naming::NO_ABI_TABLE,
    flag_word: "flags",
    success: "ncclSuccess",
    codes: LoaderCodes::every(
        SYSTEM_ERROR,
        Code {
            name: "ncclInvalidArgument",
            value: 4,
            otherwise: None,
        },
    ),
    fallbacks: &["ncclGetErrorString"],
    names: Names {
        unix: &["libnccl.so.2"],
        windows: &[],
    },
    by_major: &[],
    link_name: "nccl",
    calling_convention: "",
    version: VersionFunction {
        // 10000 x major + 100 x minor + patch: 23203 for 2.32.3.
        name: c"ncclGetVersion",
        query: VersionQuery::Decimal,
    },
    has_stub: false,
    proc_address: None,
    search: Search::Toolkit {
        wheel_dirs: &["nvidia/nccl/lib"],
        toolkit_subdirs: &[],
    },
    preload: Names::NONE,
    siblings: Names::NONE,
    requires: Names::NONE,
    built_for: None,
    words: Words {
        label: "NCCL",
        short: "NCCL",
        product: "NCCL",
        install: "Install NCCL (an `nvidia-nccl-cu12` or `nvidia-nccl-cu13` wheel, or NVIDIA's libnccl2 package)",
        override_var: "CUSHIM_NCCL_LIBRARY",
    },
};
