//! cuDNN 9, the deep neural network library, as data: one file per library,
//! and one line of [`super::LIBRARIES`].

use super::{
    Code, Header, Library, LoaderCodes, Names, Naming, ParseSettings, Search, VersionFunction,
    VersionQuery, Words, RUNTIME_API, TYPES,
};

/// What cuDNN answers when it is not initialized, in every release of 9.
const NOT_INITIALIZED: Code = Code {
    name: "CUDNN_STATUS_NOT_INITIALIZED",
    value: 1001,
    otherwise: None,
};

/// What cuDNN answers for what it does not support.
const NOT_SUPPORTED: Code = Code {
    name: "CUDNN_STATUS_NOT_SUPPORTED",
    value: 3000,
    otherwise: None,
};

/// cuDNN 9: `cudnn.h` and the headers that declare its functions
/// (`cudnn_graph.h`, `cudnn_ops.h`, ...; the subquadratic and GNN headers
/// only in newer releases), which include the runtime's headers
/// (`headers/pins-cudnn.txt`). cuDNN has its own release train: each CUDA
/// major's pin is cuDNN 9's newest release for it. The file is
/// `libcudnn.so.9` for every CUDA major, in `nvidia/cudnn/lib` for cu11,
/// cu12 and cu13 alike: the CUDA release it was built for comes from
/// `cudnnGetCudartVersion`, and a copy for another major is passed over.
/// `libcudnn.so.9` is a small front that opens its sublibraries by name on
/// first use, searching `LD_LIBRARY_PATH` before its own directory, and
/// stops the process when it cannot open `libcudnn_graph.so.9`: the graph
/// library must be beside it (else the shims answer
/// `CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED`, `CUDNN_STATUS_NOT_INITIALIZED`
/// before 9.2), and every other sublibrary there is loaded after it, before
/// the first call, so that its own opens find them.
pub const CUDNN: Library = Library {
    name: "cudnn",
    stem: "cudnn",
    headers: &[
        Header::alone("cudnn.h"),
        Header::alone("cudnn_graph.h"),
        Header::alone("cudnn_ops.h"),
        Header::alone("cudnn_cnn.h"),
        Header::alone("cudnn_adv.h"),
        Header::newer("cudnn_subquadratic_ops.h"),
        Header::newer("cudnn_gnn_ops.h"),
    ],
    pins: "headers/pins-cudnn.txt",
    pin_text: include_str!("../../headers/pins-cudnn.txt"),
    parse_files: &[RUNTIME_API, TYPES, &["cudnn_version.h"]],
    parse: ParseSettings {
        status_type: "cudnnStatus_t",
        ..ParseSettings::PLAIN
    },
    naming: Naming::NO_ABI_TABLE,
    flag_word: "flags",
    success: "CUDNN_STATUS_SUCCESS",
    codes: LoaderCodes {
        library_not_found: Code {
            name: "CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED",
            value: 1008,
            otherwise: Some(&NOT_INITIALIZED),
        },
        symbol_not_found: NOT_SUPPORTED,
        stub_library: NOT_INITIALIZED,
        too_old: NOT_SUPPORTED,
        not_initialized: NOT_INITIALIZED,
        invalid_value: Code {
            name: "CUDNN_STATUS_BAD_PARAM",
            value: 2000,
            otherwise: None,
        },
    },
    fallbacks: &["cudnnGetErrorString"],
    names: Names {
        unix: &["libcudnn.so.9"],
        windows: &["cudnn64_9.dll"],
    },
    by_major: &[],
    link_name: "cudnn",
    // `CUDNNWINAPI` is `__stdcall` on Windows (a no-op on x64), empty elsewhere.
    calling_convention: "",
    version: VersionFunction {
        // `size_t cudnnGetVersion(void)`: 92801 for 9.28.1.
        name: c"cudnnGetVersion",
        query: VersionQuery::Returned,
    },
    has_stub: false,
    proc_address: None,
    search: Search::Toolkit {
        wheel_dirs: &["nvidia/cudnn/lib"],
        toolkit_subdirs: &[],
    },
    preload: Names::NONE,
    // In the order of their dependencies: `cnn` needs `ops` and `graph`.
    // `engines_runtime_compiled` needs the driver, and stays unloaded
    // without one, as it would in cuDNN's own hands.
    siblings: Names {
        unix: &[
            "libcudnn_ops.so.9",
            "libcudnn_cnn.so.9",
            "libcudnn_adv.so.9",
            "libcudnn_ext.so.9",
            "libcudnn_heuristic.so.9",
            "libcudnn_engines_precompiled.so.9",
            "libcudnn_engines_runtime_compiled.so.9",
            "libcudnn_engines_tensor_ir.so.9",
        ],
        windows: &[
            "cudnn_ops64_9.dll",
            "cudnn_cnn64_9.dll",
            "cudnn_adv64_9.dll",
            "cudnn_ext64_9.dll",
            "cudnn_heuristic64_9.dll",
            "cudnn_engines_precompiled64_9.dll",
            "cudnn_engines_runtime_compiled64_9.dll",
            "cudnn_engines_tensor_ir64_9.dll",
        ],
    },
    requires: Names {
        unix: &["libcudnn_graph.so.9"],
        windows: &["cudnn_graph64_9.dll"],
    },
    built_for: Some(c"cudnnGetCudartVersion"),
    words: Words {
        label: "cuDNN",
        short: "cuDNN",
        product: "cuDNN",
        install: "Install cuDNN 9 (an `nvidia-cudnn-cu12` or `nvidia-cudnn-cu13` wheel, or NVIDIA's cuDNN package)",
        override_var: "CUSHIM_CUDNN_LIBRARY",
    },
};
