//! cuFile, the GPUDirect Storage API, as data: one file per library, and one
//! line of [`super::LIBRARIES`].

use super::{
    Code, Header, Library, LoaderCodes, Names, Naming, ParseSettings, Search, StatusField,
    VersionFunction, VersionQuery, Words,
};

/// What cuFile answers where GPUDirect Storage cannot run: the loader's
/// answer when there is no library at all.
const PLATFORM_NOT_SUPPORTED: Code = Code {
    name: "CU_FILE_PLATFORM_NOT_SUPPORTED",
    value: 5007,
    otherwise: None,
};

/// cuFile's catch-all failure: a function the library lacks.
const INTERNAL_ERROR: Code = Code {
    name: "CU_FILE_INTERNAL_ERROR",
    value: 5030,
    otherwise: None,
};

/// cuFile: `cufile.h`, which includes the driver's `cuda.h` from the
/// runtime's wheel and the system's socket headers (`headers/pins-cufile.txt`).
/// Linux only, with wheels from CUDA 12.6 on: the releases before have no
/// pin. The file is `libcufile.so.0` for every release, in
/// `nvidia/cufile/lib` (cu12) or `nvidia/cu13/lib`. Its status is a struct
/// returned by value, `CUfileError_t { CUfileOpError err; CUresult cu_err; }`:
/// the code is `err`, and a shim that cannot reach the library answers that
/// code with `cu_err` zero. CUDA 13.0 renumbered the tail of the codes
/// (`CU_FILE_IO_MAX_ERROR` 5039 → 5050): each release's codes are its
/// header's. `cuFileGetVersion` answers 1000 × major + 10 × minor of cuFile's
/// own release (1150 for 1.15), which binds no CUDA major: any copy is bound.
/// cuFile opens `libcufile_rdma.so.1` by name, and 13.0's has no run path to
/// find it beside itself: it is loaded from the same directory first.
pub const CUFILE: Library = Library {
    name: "cufile",
    stem: "cufile",
    headers: &[Header::alone("cufile.h")],
    pins: "headers/pins-cufile.txt",
    pin_text: include_str!("../../headers/pins-cufile.txt"),
    parse_files: &[&["cuda.h"]],
    parse: ParseSettings {
        status_type: "CUfileError_t",
        status_field: Some(StatusField {
            field: "err",
            codes: "CUfileOpError",
        }),
        // glibc's `loff_t` and `struct timespec`, which cufile.h uses without
        // asking for them, are hidden from a strict C11 parse without it.
        defines: &["_DEFAULT_SOURCE"],
        // `#define cuFileDriverClose cuFileDriverClose_v2`.
        alias_macros: true,
        ..ParseSettings::PLAIN
    },
    naming: Naming::NO_ABI_TABLE,
    flag_word: "flags",
    success: "CU_FILE_SUCCESS",
    codes: LoaderCodes {
        library_not_found: PLATFORM_NOT_SUPPORTED,
        symbol_not_found: INTERNAL_ERROR,
        stub_library: PLATFORM_NOT_SUPPORTED,
        too_old: INTERNAL_ERROR,
        not_initialized: Code {
            name: "CU_FILE_DRIVER_NOT_INITIALIZED",
            value: 5001,
            otherwise: None,
        },
        invalid_value: Code {
            name: "CU_FILE_INVALID_VALUE",
            value: 5022,
            otherwise: None,
        },
    },
    // Its error text is a `static inline` function of the header, not an export.
    fallbacks: &[],
    names: Names {
        unix: &["libcufile.so.0"],
        windows: &[],
    },
    by_major: &[],
    link_name: "cufile",
    calling_convention: "",
    version: VersionFunction {
        name: c"cuFileGetVersion",
        query: VersionQuery::NumberInStatus,
    },
    has_stub: false,
    proc_address: None,
    search: Search::Toolkit {
        wheel_dirs: &["nvidia/cu{major}/lib", "nvidia/cufile/lib"],
        toolkit_subdirs: &[],
    },
    preload: Names::NONE,
    siblings: Names {
        unix: &["libcufile_rdma.so.1"],
        windows: &[],
    },
    requires: Names::NONE,
    built_for: None,
    words: Words {
        label: "cuFile",
        short: "cuFile",
        product: "cuFile",
        install:
            "Install cuFile (the CUDA toolkit's GPUDirect Storage, or the `nvidia-cufile` wheel)",
        override_var: "CUSHIM_CUFILE_LIBRARY",
    },
};
