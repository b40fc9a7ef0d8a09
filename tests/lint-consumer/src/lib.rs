//! Vendors the committed modules of the newest and the oldest pinned release
//! and the merged module, as a library that documents everything it exports.
#![deny(missing_docs)]

/// The CUDA 13.5 driver API, loaded on first use.
pub mod cuda {
    include!("../../../generated/cuda-13.5/cuda.rs");
}

/// The CUDA 11.8 driver API.
pub mod cuda_11_8 {
    include!("../../../generated/cuda-11.8/cuda.rs");
}

/// Every driver API from 11.8 to 13.5.
pub mod merged {
    include!("../../../generated/merged/cuda.rs");
}
