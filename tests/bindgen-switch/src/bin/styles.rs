//! The 13.5 module in every enum style, and the merged module in two, each
//! run against the fake driver: the typed layer, the drop-in codes of a
//! missing function (the status type built from a code) and `Debug`.

macro_rules! modules {
    ($($name:ident $dir:literal),* $(,)?) => {
        $(
            #[allow(dead_code)]
            mod $name {
                include!(concat!(env!("OUT_DIR"), "/styles/", $dir, "/cuda.rs"));
            }
        )*
        fn every_style() {
            $(common!($name);)*
        }
    };
}

/// What every style does alike.
macro_rules! common {
    ($m:ident) => {{
        use cuda::Status as _;
        use $m as cuda;
        unsafe {
            assert!(cuda::Api::cuInit(0).is_ok());
            let e = cuda::Api::cuCtxSynchronize().unwrap_err();
            assert_eq!(format!("{e:?}"), "Status(CUDA_ERROR_INVALID_CONTEXT (201))");
            let mut n = 0;
            let r = cuda::cuDeviceGetCount(&mut n);
            assert!(r.is_success() && n == 2);
            // The fake has no cuCtxGetDevice: the shim builds CUDA_ERROR_NOT_FOUND.
            let mut device = 0;
            let r = cuda::cuCtxGetDevice(&mut device);
            assert_eq!(r.code(), 500, "{}", stringify!($m));
            assert!(matches!(
                cuda::Api::cuCtxGetDevice(&mut device),
                Err(cuda::Error::Load(_))
            ));
        }
        println!("{}: ok", stringify!($m));
    }};
}

modules! {
    bitfield "bitfield",
    newtype "newtype",
    newtype_global "newtype_global",
    rust "rust",
    rust_non_exhaustive "rust_non_exhaustive",
    consts "consts",
    consts_bare "consts-bare",
    newtype_global_bare "newtype_global-bare",
    consts_merged "consts-merged",
    rust_merged "rust-merged",
}

fn main() {
    every_style();
    // Names, not numbers, and the bit operators.
    {
        use newtype::*;
        assert_eq!(
            format!("{:?}", CUresult::CUDA_ERROR_INVALID_VALUE),
            "CUDA_ERROR_INVALID_VALUE"
        );
        assert_eq!(format!("{:?}", CUresult(12345)), "cudaError_enum(12345)");
        let flags = CUctx_flags::CU_CTX_SCHED_SPIN | CUctx_flags::CU_CTX_MAP_HOST;
        assert_eq!(flags.0, 9);
        assert_eq!(format!("{flags:?}"), "CU_CTX_SCHED_SPIN | CU_CTX_MAP_HOST");
        assert_eq!(
            format!("{:?}", CUctx_flags(8 | 1024)),
            "CU_CTX_MAP_HOST | CUctx_flags_enum(1024)"
        );
        assert_eq!(
            format!("{:?}", CUctx_flags::CU_CTX_BLOCKING_SYNC),
            "CU_CTX_SCHED_BLOCKING_SYNC"
        );
        let mut f = CUctx_flags::CU_CTX_SCHED_MASK;
        f &= CUctx_flags::CU_CTX_SCHED_YIELD;
        f |= CUctx_flags::CU_CTX_SYNC_MEMOPS;
        assert_eq!(f.0, 130);
    }
    {
        use bitfield::*;
        let both = CUmemorytype::CU_MEMORYTYPE_HOST | CUmemorytype::CU_MEMORYTYPE_DEVICE;
        assert_eq!(format!("{both:?}"), "CU_MEMORYTYPE_ARRAY");
        assert_eq!(
            format!("{:?}", CUresult::CUDA_ERROR_OUT_OF_MEMORY),
            "CUDA_ERROR_OUT_OF_MEMORY"
        );
    }
    {
        use newtype_global::*;
        assert_eq!(
            format!("{:?}", cudaError_enum_CUDA_ERROR_NOT_FOUND),
            "CUDA_ERROR_NOT_FOUND"
        );
        assert_eq!(newtype_global_bare::CUDA_ERROR_NOT_FOUND.0, 500);
    }
    {
        assert_eq!(consts::cudaError_enum_CUDA_ERROR_NOT_FOUND, 500);
        assert_eq!(
            consts_bare::CUDA_ERROR_NOT_FOUND | consts_bare::CUDA_ERROR_INVALID_VALUE,
            501
        );
        let r: consts::CUresult = consts::cudaError_enum_CUDA_SUCCESS;
        assert_eq!(r, 0);
    }
    {
        use rust::*;
        assert_eq!(
            format!("{:?}", CUresult::CUDA_ERROR_NOT_FOUND),
            "CUDA_ERROR_NOT_FOUND"
        );
        assert_eq!(CUresult::CUDA_ERROR_NOT_FOUND as u32, 500);
        assert_eq!(
            format!("{:?}", rust_non_exhaustive::CUresult::CUDA_SUCCESS),
            "CUDA_SUCCESS"
        );
    }
    println!("ok: styles");
}
