//! Calls the driver through both generated modules, and each other library
//! through its own; without the libraries each call answers with the
//! loader's error instead of failing to start.

#[cfg(not(feature = "emit"))]
#[allow(dead_code)]
mod cuda {
    include!(concat!(env!("OUT_DIR"), "/cuda.rs"));
}

#[cfg(not(feature = "emit"))]
#[allow(dead_code)]
mod merged {
    include!(concat!(env!("OUT_DIR"), "/merged/cuda.rs"));
}

/// Other libraries' modules, each in its own module, as a user includes them.
#[cfg(not(feature = "emit"))]
#[allow(dead_code, non_snake_case)]
mod family {
    pub mod nvrtc_11_8 {
        include!(concat!(env!("OUT_DIR"), "/nvrtc-11.8/nvrtc.rs"));
    }
    pub mod cublas_13_0 {
        include!(concat!(env!("OUT_DIR"), "/cublas-13.0/cublas.rs"));
    }
    pub mod nvml_12_9 {
        include!(concat!(env!("OUT_DIR"), "/nvml-12.9/nvml.rs"));
    }
    pub mod cuda {
        include!(concat!(env!("OUT_DIR"), "/family-13.5/cuda.rs"));
    }
    pub mod nvrtc {
        include!(concat!(env!("OUT_DIR"), "/family-13.5/nvrtc.rs"));
    }
    pub mod cublas {
        include!(concat!(env!("OUT_DIR"), "/family-13.5/cublas.rs"));
    }
    pub mod cudart_12_9 {
        include!(concat!(env!("OUT_DIR"), "/math-12.9/cudart.rs"));
    }
    pub mod cufft_12_9 {
        include!(concat!(env!("OUT_DIR"), "/math-12.9/cufft.rs"));
    }
    pub mod curand_12_6 {
        include!(concat!(env!("OUT_DIR"), "/curand-12.6/curand.rs"));
    }
    pub mod cusparse_13_0 {
        include!(concat!(env!("OUT_DIR"), "/cusparse-13.0/cusparse.rs"));
    }
    pub mod cusolver_11_8 {
        include!(concat!(env!("OUT_DIR"), "/cusolver-11.8/cusolver.rs"));
    }
    pub mod cudnn_12_6 {
        include!(concat!(env!("OUT_DIR"), "/dnn/cudnn.rs"));
    }
    pub mod nccl_13_0 {
        include!(concat!(env!("OUT_DIR"), "/dnn/nccl.rs"));
    }
    pub mod cutensor_12_9 {
        include!(concat!(env!("OUT_DIR"), "/dnn/cutensor.rs"));
    }
    pub mod cupti_12_4 {
        include!(concat!(env!("OUT_DIR"), "/dnn/cupti.rs"));
    }
    pub mod nvtx_12_8 {
        include!(concat!(env!("OUT_DIR"), "/dnn/nvtx.rs"));
    }
    pub mod cufile_12_8 {
        include!(concat!(env!("OUT_DIR"), "/dnn/cufile.rs"));
    }

    pub fn run() {
        let mut device = std::ptr::null_mut();
        let r = unsafe { cudart_12_9::Api::cudaMalloc(&raw mut device, 8) };
        println!("cudart 12.9: {r:?}");
        let mut plan = 0;
        let r = unsafe { cufft_12_9::Api::cufftPlan1d(&raw mut plan, 8, cufft_12_9::cufftType_t::CUFFT_C2C, 1) };
        println!("cufft 12.9: {r:?}");
        let mut generator = std::ptr::null_mut();
        let philox = curand_12_6::curandRngType::CURAND_RNG_PSEUDO_PHILOX4_32_10;
        let r = unsafe { curand_12_6::Api::curandCreateGenerator(&raw mut generator, philox) };
        println!("curand 12.6: {r:?}");
        let mut sparse = std::ptr::null_mut();
        let r = unsafe { cusparse_13_0::Api::cusparseCreate(&raw mut sparse) };
        println!("cusparse 13.0: {r:?}");
        let mut dense = std::ptr::null_mut();
        let r = unsafe { cusolver_11_8::Api::cusolverDnCreate(&raw mut dense) };
        println!("cusolver 11.8: {r:?}");
        let mut handle = std::ptr::null_mut();
        let r = unsafe { cudnn_12_6::Api::cudnnCreate(&raw mut handle) };
        println!("cudnn 12.6: {r:?}");
        let mut version = 0;
        let r = unsafe { nccl_13_0::Api::ncclGetVersion(&raw mut version) };
        println!("nccl 13.0: {r:?}");
        let mut tensor = std::ptr::null_mut();
        let r = unsafe { cutensor_12_9::Api::cutensorCreate(&raw mut tensor) };
        println!("cutensor 12.9: {r:?}");
        let mut stamp = 0;
        let r = unsafe { cupti_12_4::Api::cuptiGetTimestamp(&raw mut stamp) };
        println!("cupti 12.4: {r:?}");
        let r = unsafe { nvtx_12_8::Api::nvtxRangePushA(c"range".as_ptr()) };
        println!("nvtx 12.8: {r:?}");
        let r = unsafe { cufile_12_8::Api::cuFileDriverOpen() };
        println!("cufile 12.8: {r:?}");
        let (mut major, mut minor) = (0, 0);
        let old = unsafe { nvrtc_11_8::Api::nvrtcVersion(&raw mut major, &raw mut minor) };
        println!("nvrtc 11.8: {old:?}");
        let new = unsafe { nvrtc::Api::nvrtcVersion(&raw mut major, &raw mut minor) };
        println!("nvrtc 13.5: {new:?}");
        let mut handle = std::ptr::null_mut();
        let blas = unsafe { cublas::Api::cublasCreate(&raw mut handle) };
        println!("cublas 13.5: {blas:?}");
        let mut handle13 = std::ptr::null_mut();
        let blas13 = unsafe { cublas_13_0::Api::cublasCreate(&raw mut handle13) };
        println!("cublas 13.0: {blas13:?}");
        let nvml = unsafe { nvml_12_9::Api::nvmlInit() };
        println!("nvml 12.9: {nvml:?}");
        let driver = unsafe { cuda::Api::cuInit(0) };
        println!("driver 13.5: {driver:?}");
    }
}

/// Without the `emit` feature, the pinned defaults; with it, the allow lists
/// alone (the defaults are the same modules, built already).
fn main() {
    #[cfg(not(feature = "emit"))]
    {
        let one = unsafe { cuda::Api::cuInit(0) };
        let all = unsafe { merged::Api::cuInit(0) };
        println!("13.5: {one:?}");
        println!("11.8..13.5: {all:?}");
        family::run();
    }
    #[cfg(feature = "emit")]
    allowed::run();
}

/// With the `emit` feature: each library's module of one function (or a few).
#[cfg(feature = "emit")]
#[allow(dead_code, non_snake_case)]
mod allowed {
    pub mod cuda {
        include!(concat!(env!("OUT_DIR"), "/allowed/cuda.rs"));
    }
    pub mod nvrtc {
        include!(concat!(env!("OUT_DIR"), "/allowed/nvrtc.rs"));
    }
    pub mod nvjitlink {
        include!(concat!(env!("OUT_DIR"), "/allowed/nvjitlink.rs"));
    }
    pub mod nvml {
        include!(concat!(env!("OUT_DIR"), "/allowed/nvml.rs"));
    }
    pub mod cublas {
        include!(concat!(env!("OUT_DIR"), "/allowed/cublas.rs"));
    }
    pub mod cublasLt {
        include!(concat!(env!("OUT_DIR"), "/allowed/cublasLt.rs"));
    }
    pub mod cudart {
        include!(concat!(env!("OUT_DIR"), "/allowed/cudart.rs"));
    }
    pub mod cufft {
        include!(concat!(env!("OUT_DIR"), "/allowed/cufft.rs"));
    }
    pub mod curand {
        include!(concat!(env!("OUT_DIR"), "/allowed/curand.rs"));
    }
    pub mod cusparse {
        include!(concat!(env!("OUT_DIR"), "/allowed/cusparse.rs"));
    }
    pub mod cusolver {
        include!(concat!(env!("OUT_DIR"), "/allowed/cusolver.rs"));
    }
    pub mod cudnn {
        include!(concat!(env!("OUT_DIR"), "/allowed/cudnn.rs"));
    }
    pub mod nccl {
        include!(concat!(env!("OUT_DIR"), "/allowed/nccl.rs"));
    }
    pub mod cutensor {
        include!(concat!(env!("OUT_DIR"), "/allowed/cutensor.rs"));
    }
    pub mod cupti {
        include!(concat!(env!("OUT_DIR"), "/allowed/cupti.rs"));
    }
    pub mod nvtx {
        include!(concat!(env!("OUT_DIR"), "/allowed/nvtx.rs"));
    }
    pub mod cufile {
        include!(concat!(env!("OUT_DIR"), "/allowed/cufile.rs"));
    }

    pub fn run() {
        let functions = [
            cuda::FUNCTIONS.len(),
            nvrtc::FUNCTIONS.len(),
            nvjitlink::FUNCTIONS.len(),
            nvml::FUNCTIONS.len(),
            cublas::FUNCTIONS.len(),
            cublasLt::FUNCTIONS.len(),
            cudart::FUNCTIONS.len(),
            cufft::FUNCTIONS.len(),
            curand::FUNCTIONS.len(),
            cusparse::FUNCTIONS.len(),
            cusolver::FUNCTIONS.len(),
            cudnn::FUNCTIONS.len(),
            nccl::FUNCTIONS.len(),
            cutensor::FUNCTIONS.len(),
            cupti::FUNCTIONS.len(),
            nvtx::FUNCTIONS.len(),
            cufile::FUNCTIONS.len(),
        ];
        println!("allowed: {functions:?}");
        let (mut major, mut minor) = (0, 0);
        let v = unsafe { nvrtc::Api::nvrtcVersion(&raw mut major, &raw mut minor) };
        println!("allowed nvrtc 12.4: {v:?}");
    }
}
