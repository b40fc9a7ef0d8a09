//! Vendors the committed modules of the newest and the oldest pinned release
//! and the merged module, and each other library's newest and oldest module,
//! as a library that documents everything it exports. Edition 2021 builds the
//! driver's and NVRTC's alone (the `every-library` feature is edition 2024's
//! default): what an edition changes is the modules' common shape, which
//! those show; edition 2024 lints every library.
#![deny(missing_docs)]

/// The CUDA 13.5 driver API, loaded on first use.
pub mod cuda {
    include!("../../../generated/cuda-13.5/cuda.rs");
}

/// The CUDA 11.8 driver API.
#[cfg(feature = "every-library")]
pub mod cuda_11_8 {
    include!("../../../generated/cuda-11.8/cuda.rs");
}

/// Every driver API from 11.8 to 13.5.
pub mod merged {
    include!("../../../generated/merged/cuda.rs");
}

/// NVRTC of CUDA 13.5.
pub mod nvrtc {
    include!("../../../generated/cuda-13.5/nvrtc.rs");
}

/// NVRTC of CUDA 11.8 (`libnvrtc.so.11.2`).
#[cfg(feature = "every-library")]
pub mod nvrtc_11_8 {
    include!("../../../generated/cuda-11.8/nvrtc.rs");
}

/// nvJitLink of CUDA 13.5.
#[cfg(feature = "every-library")]
pub mod nvjitlink {
    include!("../../../generated/cuda-13.5/nvjitlink.rs");
}

/// NVML of CUDA 13.5.
#[cfg(feature = "every-library")]
pub mod nvml {
    include!("../../../generated/cuda-13.5/nvml.rs");
}

/// cuBLAS of CUDA 13.5.
#[cfg(feature = "every-library")]
pub mod cublas {
    include!("../../../generated/cuda-13.5/cublas.rs");
}

/// cuBLAS of CUDA 11.8.
#[cfg(feature = "every-library")]
pub mod cublas_11_8 {
    include!("../../../generated/cuda-11.8/cublas.rs");
}

/// cuBLASLt of CUDA 13.5.
#[cfg(feature = "every-library")]
pub mod cublaslt {
    include!("../../../generated/cuda-13.5/cublasLt.rs");
}

/// The CUDA runtime of CUDA 13.0.
#[cfg(feature = "every-library")]
pub mod cudart {
    include!("../../../generated/cuda-13.0/cudart.rs");
}

/// The CUDA runtime of CUDA 12.9 (its `_v2` names and per-thread twins).
#[cfg(feature = "every-library")]
pub mod cudart_12_9 {
    include!("../../../generated/cuda-12.9/cudart.rs");
}

/// cuFFT of CUDA 12.9 (its `__cufftXtSetJITCallback_12_7`).
#[cfg(feature = "every-library")]
pub mod cufft {
    include!("../../../generated/cuda-12.9/cufft.rs");
}

/// cuRAND of CUDA 13.0.
#[cfg(feature = "every-library")]
pub mod curand {
    include!("../../../generated/cuda-13.0/curand.rs");
}

/// cuSPARSE of CUDA 13.0.
#[cfg(feature = "every-library")]
pub mod cusparse {
    include!("../../../generated/cuda-13.0/cusparse.rs");
}

/// cuSOLVER of CUDA 13.0.
#[cfg(feature = "every-library")]
pub mod cusolver {
    include!("../../../generated/cuda-13.0/cusolver.rs");
}

/// cuDNN 9 of CUDA 13.0.
#[cfg(feature = "every-library")]
pub mod cudnn {
    include!("../../../generated/cuda-13.0/cudnn.rs");
}

/// NCCL of CUDA 12.9.
#[cfg(feature = "every-library")]
pub mod nccl {
    include!("../../../generated/cuda-12.9/nccl.rs");
}

/// NVTX of CUDA 13.0.
#[cfg(feature = "every-library")]
pub mod nvtx {
    include!("../../../generated/cuda-13.0/nvtx.rs");
}

/// cuFile of CUDA 13.0: a status struct.
#[cfg(feature = "every-library")]
pub mod cufile {
    include!("../../../generated/cuda-13.0/cufile.rs");
}

/// CUPTI of CUDA 12.9.
#[cfg(feature = "every-library")]
pub mod cupti {
    include!("../../../generated/cuda-12.9/cupti.rs");
}

/// cuTENSOR 2 of CUDA 11.8.
#[cfg(feature = "every-library")]
pub mod cutensor {
    include!("../../../generated/cuda-11.8/cutensor.rs");
}
