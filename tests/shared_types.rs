//! One library's handles go into another's functions with no cast:
//! `tests/shared-types` includes the committed 13.0 modules of the driver,
//! the CUDA runtime, CUPTI and cuBLAS, passes the driver's `CUcontext` to
//! `cuptiGetContextId` and the runtime's `cudaStream_t` to
//! `cublasSetStream` and `cuStreamQuery`, and asserts that each shared struct
//! has bindgen's layout. It must build without a warning, and its calls
//! reach each module's shims (here without the libraries: each answers its
//! own code).

use crate::common;

use std::process::Command;

use common::{root, run_ok, text};

#[test]
fn one_librarys_handles_go_into_anothers_functions() {
    let target = common::nested_target();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(&cargo)
        .args([
            "build",
            "--quiet",
            "--offline",
            "--locked",
            "--manifest-path",
        ])
        .arg(root().join("tests/shared-types/Cargo.toml"))
        .arg("--target-dir")
        .arg(&target)
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    let (_, stderr) = text(&out);
    assert!(out.status.success(), "the crate must build:\n{stderr}");
    assert!(stderr.trim().is_empty(), "{stderr}");
    let mut run = Command::new(target.join("debug/cushim-shared-types"));
    // No library is found: each override names a file that is not there.
    for library in cushim::library::LIBRARIES {
        run.env(library.words.override_var, common::missing_library());
    }
    let stdout = run_ok(&mut run);
    for line in [
        "cuCtxGetCurrent: CUDA_ERROR_SHARED_OBJECT_INIT_FAILED",
        "cuptiGetContextId: CUPTI_ERROR_NOT_INITIALIZED (0)",
        "cublasSetStream: CUBLAS_STATUS_NOT_INITIALIZED",
        "cuStreamQuery: CUDA_ERROR_SHARED_OBJECT_INIT_FAILED",
        "cuptiGetStreamId: CUPTI_ERROR_NOT_INITIALIZED",
    ] {
        assert!(stdout.contains(line), "{line}:\n{stdout}");
    }
}
