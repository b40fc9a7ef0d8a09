//! A crate that uses bindgen's output for cuda.h can switch to cushim's module
//! unchanged: `tests/bindgen-switch` builds one program against bindgen's
//! rustified bindings of the pinned 13.5 header (made here, by the bindgen
//! that cushim is built with; linked with -lcuda) and
//! against cushim's module with `EnumStyle::Rust` (from the shipped data, the
//! `emit` feature only, and no `#[deprecated]` attributes, which bindgen
//! never writes). Both build without a warning, run against the fake driver
//! and must print the same. A third program runs the 13.5 and merged modules
//! in every enum style.

use crate::common;

use std::process::Command;

use common::{include_dir, root, run_ok, text};

#[test]
fn a_program_for_bindgens_rustified_bindings_runs_the_same_on_cushims_module() {
    let fake = common::fake_driver("bindgen-switch", &[]);
    let fake_dir = fake.parent().unwrap().to_path_buf();
    // What -lcuda looks for.
    std::os::unix::fs::symlink("libcuda.so.1", fake_dir.join("libcuda.so")).unwrap();
    // What a bindgen user's build script does, here (the crate copies the
    // file, so that it does not build bindgen itself).
    let include = include_dir("13.5");
    let bindings = bindgen::Builder::default()
        .header(include.join("cuda.h").to_str().unwrap())
        .clang_arg(format!("-I{}", include.display()))
        .allowlist_file(format!("{}/.*", include.display()))
        .default_enum_style(bindgen::EnumVariation::Rust {
            non_exhaustive: false,
        })
        .derive_default(true)
        .layout_tests(false)
        .generate()
        .expect("bindgen reads cuda.h");
    let bindgen_rs = fake_dir.join("bindgen.rs");
    bindings.write_to_file(&bindgen_rs).unwrap();
    let target = common::nested_target();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(&cargo)
        .args(["build", "--quiet", "--offline", "--locked", "--bins"])
        .arg("--manifest-path")
        .arg(root().join("tests/bindgen-switch/Cargo.toml"))
        .arg("--target-dir")
        .arg(&target)
        .env("CUSHIM_SWITCH_BINDGEN", &bindgen_rs)
        .env("CUSHIM_SWITCH_FAKE_DIR", &fake_dir)
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    let (_, stderr) = text(&out);
    assert!(
        out.status.success(),
        "the switch crate must build:\n{stderr}"
    );
    assert!(
        !stderr.contains("warning"),
        "the switch crate must build without warnings:\n{stderr}"
    );
    let bin = |name: &str| {
        let mut cmd = Command::new(target.join("debug").join(name));
        for var in ["CUSHIM_CUDA_LIBRARY", "LD_LIBRARY_PATH", "LD_PRELOAD"] {
            cmd.env_remove(var);
        }
        cmd
    };
    let with_bindgen = run_ok(bin("with_bindgen").env("LD_LIBRARY_PATH", &fake_dir));
    let with_cushim = run_ok(bin("with_cushim").env("CUSHIM_CUDA_LIBRARY", &fake));
    assert_eq!(with_cushim, with_bindgen, "the two builds behave alike");
    // And they did reach the driver and print names.
    for line in [
        "cuInit(7): CUDA_ERROR_INVALID_VALUE = 1",
        "driver version 13050",
        "name \"Fake GPU 1\"",
        "flags CU_CTX_SCHED_SPIN | CU_CTX_MAP_HOST = 9",
        "context 0x1091",
        "cuTexRefSetMipmapLevelClamp: CUDA_ERROR_INVALID_VALUE = 1",
        "cuCtxSynchronize: CUDA_ERROR_INVALID_CONTEXT = 201",
        "verdict of cuCtxSynchronize: no context",
        "CU_MEMORYTYPE_UNIFIED is unified",
    ] {
        assert!(with_bindgen.contains(line), "{line}:\n{with_bindgen}");
    }
    let styles = run_ok(bin("styles").env("CUSHIM_CUDA_LIBRARY", &fake));
    assert!(
        styles.contains("rust_merged: ok") && styles.contains("ok: styles"),
        "{styles}"
    );
}
