//! Pinned releases of every library from the data cushim ships, with no
//! optional feature: the driver's 13.5 and merged modules, NVRTC 11.8,
//! cuBLAS 13.0, NVML 12.9, the driver, NVRTC and cuBLAS 13.5 together,
//! cudart and cuFFT 12.9, cuRAND 12.6 (a release `generated/` does not
//! commit), cuSPARSE 13.0, cuSOLVER 11.8, cuDNN 12.6, NCCL 13.0, cuTENSOR
//! 12.9, CUPTI 12.4 and NVTX 12.8.
//! With the `emit` feature, instead, an option beyond the defaults for each
//! library (an allow list), which the emitters serve from the shipped IR.

use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let rust = [cushim::Language::Rust];
    let emit = std::env::var_os("CARGO_FEATURE_EMIT").is_some();
    // The defaults without the feature; with it only the allow lists, new
    // beside the defaults that the build without it made already.
    let mut builds = if emit { Vec::new() } else { defaults(&out) };
    if emit {
        // Each from 12.4, cuFile (which has no release before 12.6) from 12.6.
        for (library, allow) in [
            ("driver", "^cuInit$"),
            ("nvrtc", "^nvrtcVersion$"),
            ("nvjitlink", "^nvJitLinkVersion$"),
            ("nvml", "^nvmlInitWithFlags$"),
            ("cublas", "^cublasCreate"),
            ("cublaslt", "^cublasLtCreate$"),
            ("cudart", "^cudaMalloc$"),
            ("cufft", "^cufftPlan1d$"),
            ("curand", "^curandCreateGenerator$"),
            ("cusparse", "^cusparseCreate$"),
            ("cusolver", "^cusolverDnCreate$"),
            ("cudnn", "^cudnnCreate$"),
            ("nccl", "^ncclGetVersion$"),
            ("cutensor", "^cutensorCreate$"),
            ("cupti", "^cuptiGetTimestamp$"),
            ("nvtx", "^nvtxRangePushA$"),
            ("cufile", "^cuFileDriverOpen$"),
        ] {
            builds.push(
                cushim::Builder::new()
                    .library(library)
                    .cuda_version(if library == "cufile" { "12.6" } else { "12.4" })
                    .allowlist(allow)
                    .languages(&rust)
                    .out_dir(out.join("allowed")),
            );
        }
    }
    for builder in builds {
        if let Err(e) = builder.generate() {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}

/// Every library's pinned defaults: the driver's 13.5 and merged modules, and
/// each other library's release, into their own directories under `out`.
fn defaults(out: &std::path::Path) -> Vec<cushim::Builder> {
    let rust = [cushim::Language::Rust];
    let mut builds = vec![
        cushim::Builder::new().cuda_version("13.5"),
        cushim::Builder::new()
            .cuda_range("11.8", "13.5")
            .languages(&rust)
            .out_dir(out.join("merged")),
    ];
    for (library, cuda, dir) in [
        ("nvrtc", "11.8", "nvrtc-11.8"),
        ("cublas", "13.0", "cublas-13.0"),
        ("nvml", "12.9", "nvml-12.9"),
        ("driver", "13.5", "family-13.5"),
        ("nvrtc", "13.5", "family-13.5"),
        ("cublas", "13.5", "family-13.5"),
        ("cudart", "12.9", "math-12.9"),
        ("cufft", "12.9", "math-12.9"),
        ("curand", "12.6", "curand-12.6"),
        ("cusparse", "13.0", "cusparse-13.0"),
        ("cusolver", "11.8", "cusolver-11.8"),
        ("cudnn", "12.6", "dnn"),
        ("nccl", "13.0", "dnn"),
        ("cutensor", "12.9", "dnn"),
        ("cupti", "12.4", "dnn"),
        ("nvtx", "12.8", "dnn"),
        ("cufile", "12.8", "dnn"),
    ] {
        builds.push(
            cushim::Builder::new()
                .library(library)
                .cuda_version(cuda)
                .out_dir(out.join(dir)),
        );
    }
    builds
}
