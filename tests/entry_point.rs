//! `--resolve runtime-entry-point`: a driver module that never opens the
//! driver, but takes every function from the CUDA runtime.
//!
//! Two programs, on the driver modules of the 11.8, 12.9 and 13.0 headers
//! generated in that mode (a few functions each): the Rust crate
//! `tests/entry-point` (all three modules) and `tests/cpp/entry_point.cpp`
//! (one build per pair). They run against the fake runtime
//! (`tests/fake/libcudart.c`) built for each case with the release and the
//! entry points it asks for, which hands out the fake driver
//! (`tests/fake/libcuda.c`) from a directory that no search names: the
//! runtime opens it by its absolute path. Every run also points the driver's
//! own override, `CUSHIM_CUDA_LIBRARY`, at a file that does not exist, so a
//! loader that opened the driver itself would fail; and each lists every
//! `libcuda` file mapped in the process, which must be the fake behind the
//! runtime alone.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use common::{compile, include_dir, missing_library, root, run_ok, scratch, text, CXXFLAGS};

/// The releases of the modules, each with the major the Rust program takes.
const RELEASES: [(&str, &str); 3] = [("11.8", "11"), ("12.9", "12"), ("13.0", "13")];

/// The functions the modules hold.
const FUNCTIONS: &str = "^cu(Init|DriverGetVersion|DeviceGetCount|MemAlloc|MemcpyHtoD|StreamQuery|CtxCreate|CtxSynchronize|DeviceTotalMem|GetErrorName|GetErrorString)$";

struct Programs {
    rust: PathBuf,
    /// One per release, in `RELEASES`' order.
    cpp: Vec<PathBuf>,
    /// The fake driver, in a directory of its own that nothing searches.
    driver: PathBuf,
}

fn programs() -> &'static Programs {
    static BUILT: OnceLock<Programs> = OnceLock::new();
    BUILT.get_or_init(|| {
        let modules = scratch("entry-point-modules");
        let mut cpp = Vec::new();
        for (release, _) in RELEASES {
            let dir = modules.join(format!("cuda-{release}"));
            cushim::Builder::new()
                .cuda_version(release)
                .languages(&[cushim::Language::Rust, cushim::Language::Cpp])
                .resolve(cushim::Resolve::RuntimeEntryPoint)
                .allowlist(FUNCTIONS)
                .out_dir(&dir)
                .generate()
                .unwrap_or_else(|e| panic!("{release}: {e}"));
            let include = include_dir(release);
            let pair = compile(&dir, "cuda", &include, &[]);
            let program = dir.join("entry_point");
            run_ok(
                Command::new("g++")
                    .args(CXXFLAGS)
                    .arg(format!("-I{}", include.display()))
                    .arg(format!("-I{}", dir.display()))
                    .arg(root().join("tests/cpp/entry_point.cpp"))
                    .arg(&pair)
                    .arg(common::runtime_object(&dir))
                    .arg("-ldl")
                    .arg("-o")
                    .arg(&program),
            );
            cpp.push(program);
        }
        let target = common::nested_target();
        run_ok(
            Command::new(env!("CARGO"))
                .args(["build", "--offline", "--locked", "--quiet"])
                .arg("--manifest-path")
                .arg(root().join("tests/entry-point/Cargo.toml"))
                .arg("--target-dir")
                .arg(&target)
                .env("CUSHIM_ENTRY_MODULES", &modules)
                .env_remove("RUSTFLAGS"),
        );
        Programs {
            rust: target.join("debug/cushim-entry-point"),
            cpp,
            driver: common::fake_driver("entry-point-behind", &[]),
        }
    })
}

/// Builds the fake runtime `soname` for case `name` with C defines; it hands
/// out the fake driver at `driver` (`None`: the fake driver).
fn cudart(name: &str, soname: &str, defines: &[&str], driver: Option<&Path>) -> PathBuf {
    let driver = driver.map_or_else(|| programs().driver.clone(), Path::to_path_buf);
    let dir = scratch(&format!("entry-point-cudart-{name}"));
    let path = dir.join(soname);
    run_ok(
        Command::new("cc")
            .args(["-shared", "-fPIC", "-O1", "-Wall", "-Werror"])
            .arg(format!("-Wl,-soname,{soname}"))
            .arg("-o")
            .arg(&path)
            .arg(root().join("tests/fake/libcudart.c"))
            .arg(format!("-DFAKE_DRIVER=\"{}\"", driver.display()))
            .args(defines)
            .arg("-ldl"),
    );
    path
}

/// How a case finds the runtime.
enum Find<'a> {
    /// Its directory on `LD_LIBRARY_PATH` (the system loader).
    LibraryPath(&'a Path),
    /// `CUSHIM_CUDART_LIBRARY`.
    Override(&'a Path),
    /// The program loads it itself first.
    Preloaded(&'a Path),
}

/// Runs `program ARGS` (`SCENARIO` among them) with only `env` set (and `PATH`, and the driver's own
/// override at a file that does not exist), under `timeout 60`; asserts it
/// printed `ok: SCENARIO`. Returns stdout.
fn run(program: &Path, args: &[&str], scenario: &str, env: &[(&str, &Path)]) -> String {
    let mut cmd = Command::new("timeout");
    cmd.arg("60").arg(program).args(args).env_clear();
    cmd.env("PATH", std::env::var_os("PATH").unwrap_or_default());
    cmd.env("CUSHIM_CUDA_LIBRARY", missing_library());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let (stdout, stderr) = text(&out);
    assert!(
        out.status.success() && stdout.contains(&format!("ok: {scenario}")),
        "{} {args:?} with {env:?} failed ({}):\n{stdout}\n{stderr}",
        program.display(),
        out.status
    );
    stdout
}

/// Both programs' output for `scenario` of the module of `release`, the
/// runtime found as `find` says, with `env` besides: `[rust, cpp]`.
fn both(release: &str, scenario: &str, find: &Find<'_>, env: &[(&str, &Path)]) -> [String; 2] {
    let p = programs();
    let at = RELEASES.iter().position(|(r, _)| *r == release).unwrap();
    let major = RELEASES[at].1;
    let mut env: Vec<(&str, &Path)> = env.to_vec();
    let runtime = match find {
        Find::LibraryPath(path) => {
            env.push(("LD_LIBRARY_PATH", path.parent().unwrap()));
            path
        }
        Find::Override(path) => {
            env.push(("CUSHIM_CUDART_LIBRARY", path));
            path
        }
        Find::Preloaded(path) => path,
    };
    let runtime_text = runtime.display().to_string();
    let args: Vec<&str> = match find {
        Find::Preloaded(_) => vec![scenario, &runtime_text],
        _ => vec![scenario],
    };
    let rust_args: Vec<&str> = std::iter::once(major).chain(args.iter().copied()).collect();
    let rust = run(&p.rust, &rust_args, scenario, &env);
    env.push(("CUSHIM_TEST_CUDART", runtime));
    env.push(("CUSHIM_TEST_DRIVER", &p.driver));
    let cpp = run(&p.cpp[at], &args, scenario, &env);
    [rust, cpp]
}

/// What every run that reached the driver prints: the calls reached the
/// fake driver behind the runtime, the only `libcuda` in the process, at the
/// ABI the header names (`cuMemAlloc_v2`, never the 32-bit v1 export).
fn assert_reached(outputs: &[String; 2]) {
    let driver = programs().driver.display().to_string();
    for out in outputs {
        for line in [
            "cuInit -> 0\n",
            "cuDriverGetVersion -> 0 (13050)",
            "cuDeviceGetCount -> 0 (2)",
            &format!("driver: {driver}\n"),
            "driver version: 13050",
            "cuMemAlloc -> 0 (0x7f0000000010) called cuMemAlloc_v2 bound cuMemAlloc_v2",
            "cuCtxSynchronize -> 201 called cuCtxSynchronize",
            "cuDeviceTotalMem -> 500",
            "open attempts: 1\n",
        ] {
            assert!(out.contains(line), "{line}:\n{out}");
        }
        let mapped: Vec<&str> = out.lines().filter(|l| l.starts_with("mapped: ")).collect();
        assert_eq!(
            mapped,
            [format!("mapped: {driver}")],
            "only the driver behind the runtime is mapped:\n{out}"
        );
    }
}

fn assert_all(outputs: &[String; 2], lines: &[&str]) {
    for out in outputs {
        for line in lines {
            assert!(out.contains(line), "{line}:\n{out}");
        }
    }
}

#[test]
fn a_12_5_or_later_runtime_hands_out_each_function_at_its_abi_version() {
    let runtime = cudart("13-5", "libcudart.so.13", &[], None);
    let outputs = both("13.0", "calls", &Find::LibraryPath(&runtime), &[]);
    assert_reached(&outputs);
    assert_all(
        &outputs,
        &[
            // The function's ABI version (cuMemAlloc_v2 is 3.2's), not the header's 13000.
            "asked at 3020",
            "cuMemcpyHtoD -> 0 called cuMemcpyHtoD_v2\n",
            "cuStreamQuery -> 0 called cuStreamQuery\n",
            "cuCtxCreate: available",
            "entry point 0, flags 1, last cuCtxCreate",
            "cudaGetDriverEntryPointByVersion",
        ],
    );
    let [rust, cpp] = &outputs;
    for line in [
        "driver found by: runtime entry point",
        "runtime: CUDA runtime 13050 found by system loader",
        &format!("runtime file: {}", runtime.display()),
        "entry point: cudaGetDriverEntryPointByVersion",
        "(cudaGetDriverEntryPointByVersion status 1)",
    ] {
        assert!(rust.contains(line), "{line}:\n{rust}");
    }
    assert!(
        cpp.contains("(cudaGetDriverEntryPointByVersion answered 1)"),
        "{cpp}"
    );
}

#[test]
fn the_per_thread_mode_asks_with_flag_2_from_a_runtime_already_loaded() {
    let runtime = cudart("13-5-loaded", "libcudart.so.13", &[], None);
    let per_thread = PathBuf::from("1");
    let outputs = both(
        "13.0",
        "preloaded",
        &Find::Preloaded(&runtime),
        &[("CUSHIM_PER_THREAD_DEFAULT_STREAM", &per_thread)],
    );
    assert_reached(&outputs);
    assert_all(
        &outputs,
        &[
            "cuMemcpyHtoD -> 0 called cuMemcpyHtoD_v2_ptds",
            "cuStreamQuery -> 0 called cuStreamQuery_ptsz",
            "entry point 0, flags 3,",
        ],
    );
    assert!(
        outputs[0].contains("runtime: CUDA runtime 13050 found by loaded"),
        "{}",
        outputs[0]
    );
}

/// A 12.9 header binds `cuCtxCreate` to `cuCtxCreate_v2` (the 3.2 ABI), which
/// the fake driver lacks. Asked at the header's CUDA version (12090), the
/// runtime would hand out `cuCtxCreate_v4`, of another signature.
#[test]
fn the_version_asked_is_the_functions_abi_not_the_headers_release() {
    let runtime = cudart("12-9", "libcudart.so.12", &["-DFAKE_VERSION=12090"], None);
    let outputs = both("12.9", "calls", &Find::LibraryPath(&runtime), &[]);
    assert_reached(&outputs);
    let [rust, cpp] = &outputs;
    assert!(
        rust.contains("cuCtxCreate -> 36: driver too old: cuGetProcAddress knows `cuCtxCreate` but not its CUDA 3.2 ABI"),
        "{rust}"
    );
    assert!(
        cpp.contains("cuCtxCreate -> status 5: driver too old: cuGetProcAddress knows `cuCtxCreate` but not its CUDA 3.2 ABI"),
        "{cpp}"
    );
    assert_all(&outputs, &["asked at 3020", "entry point 0,"]);
}

#[test]
fn a_12_0_to_12_4_runtime_hands_out_the_drivers_lookup_through_its_4_argument_entry_point() {
    let runtime = cudart("12-2", "libcudart.so.12", &["-DFAKE_VERSION=12020"], None);
    let per_thread = PathBuf::from("1");
    let outputs = both(
        "12.9",
        "calls",
        &Find::Override(&runtime),
        &[("CUSHIM_PER_THREAD_DEFAULT_STREAM", &per_thread)],
    );
    assert_reached(&outputs);
    assert_all(
        &outputs,
        &[
            // Asked once, for cuGetProcAddress, at the runtime's own release.
            "by version 0, entry point 1, flags 1, last cuGetProcAddress",
            "asked at 12020",
            // Each function then bound through the driver's lookup at its ABI.
            "cuMemcpyHtoD -> 0 called cuMemcpyHtoD_v2_ptds",
            "cuStreamQuery -> 0 called cuStreamQuery_ptsz",
        ],
    );
    let [rust, cpp] = &outputs;
    for line in [
        "runtime: CUDA runtime 12020 found by override",
        "entry point: cudaGetDriverEntryPoint\n",
        "lookup: cuGetProcAddress_v2\n",
        "cuCtxCreate -> 36",
    ] {
        assert!(rust.contains(line), "{line}:\n{rust}");
    }
    assert!(cpp.contains("cuCtxCreate -> status 5"), "{cpp}");
}

#[test]
fn a_13_x_runtime_without_the_by_version_entry_point_takes_the_4_argument_one() {
    let runtime = cudart(
        "13-no-by-version",
        "libcudart.so.13",
        &["-DFAKE_NO_BY_VERSION"],
        None,
    );
    let outputs = both("13.0", "calls", &Find::LibraryPath(&runtime), &[]);
    assert_reached(&outputs);
    assert_all(
        &outputs,
        &[
            "by version 0, entry point 1, flags 1, last cuGetProcAddress",
            "cuCtxCreate: available",
        ],
    );
}

#[test]
fn an_11_x_runtime_hands_out_the_drivers_v1_lookup_through_its_3_argument_entry_point() {
    let runtime = cudart("11-8", "libcudart.so.11.0", &["-DFAKE_VERSION=11080"], None);
    let outputs = both("11.8", "calls", &Find::LibraryPath(&runtime), &[]);
    assert_reached(&outputs);
    assert_all(
        &outputs,
        &[
            "by version 0, entry point 1, flags 1, last cuGetProcAddress",
            "asked at 11080",
            "cuMemcpyHtoD -> 0 called cuMemcpyHtoD_v2\n",
        ],
    );
    let rust = &outputs[0];
    for line in [
        "runtime: CUDA runtime 11080 found by system loader",
        "lookup: cuGetProcAddress\n",
        "(cuGetProcAddress returned 500)",
    ] {
        assert!(rust.contains(line), "{line}:\n{rust}");
    }
}

#[test]
fn a_missing_function_answered_as_success_with_a_null_pointer_is_not_found() {
    let runtime = cudart(
        "13-null-success",
        "libcudart.so.13",
        &["-DFAKE_NULL_SUCCESS"],
        None,
    );
    let outputs = both("13.0", "calls", &Find::LibraryPath(&runtime), &[]);
    assert_reached(&outputs);
    let [rust, cpp] = &outputs;
    assert!(
        rust.contains("(cudaGetDriverEntryPointByVersion succeeded with a NULL pointer)"),
        "{rust}"
    );
    assert!(
        cpp.contains("(cudaGetDriverEntryPointByVersion answered 0)"),
        "{cpp}"
    );
}

/// Without a usable runtime every call answers the driver's own "no
/// library" code (`CUDA_ERROR_SHARED_OBJECT_INIT_FAILED`), saying why, and
/// no driver is loaded.
fn assert_unusable(outputs: &[String; 2], why: &str) {
    for out in outputs {
        for line in ["cuInit -> 303", "cuMemAlloc -> 303", why] {
            assert!(out.contains(line), "{line}:\n{out}");
        }
        assert!(!out.contains("mapped: "), "no driver is loaded:\n{out}");
    }
    assert!(outputs[0].contains("error 303: "), "{}", outputs[0]);
}

#[test]
fn without_a_runtime_every_call_says_the_driver_is_reached_only_through_it() {
    let missing = scratch("entry-point-no-runtime").join("libcudart.so.13");
    let outputs = both("13.0", "unusable", &Find::Override(&missing), &[]);
    assert_unusable(
        &outputs,
        "the CUDA driver is reached only through the CUDA runtime (`--resolve runtime-entry-point`), which could not be used: CUDA runtime library not found",
    );
}

#[test]
fn a_runtime_with_no_driver_behind_it_is_named() {
    let nowhere = scratch("entry-point-no-driver").join("libcuda.so.1");
    let runtime = cudart(
        "13-no-driver",
        "libcudart.so.13",
        &[],
        Some(nowhere.as_path()),
    );
    let outputs = both("13.0", "unusable", &Find::LibraryPath(&runtime), &[]);
    assert_unusable(
        &outputs,
        &format!(
            "the CUDA runtime at `{}` did not hand out the CUDA driver (cudaGetDriverEntryPointByVersion did not hand out `cuDriverGetVersion`",
            runtime.display()
        ),
    );
}

#[test]
fn a_runtime_older_than_its_entry_points_is_named() {
    let runtime = cudart("11-2", "libcudart.so.11.0", &["-DFAKE_VERSION=11020"], None);
    let outputs = both("11.8", "unusable", &Find::LibraryPath(&runtime), &[]);
    assert_unusable(
        &outputs,
        "it exports neither `cudaGetDriverEntryPointByVersion` (12.5 and later) nor `cudaGetDriverEntryPoint` (11.3 and later)",
    );
}

#[test]
fn only_the_drivers_lazy_modules_take_the_mode() {
    let dir = scratch("entry-point-refused");
    for (builder, why) in [
        (
            cushim::Builder::new().library("nvrtc"),
            "is for the driver only: the CUDA runtime's entry point hands out driver functions, not NVRTC's",
        ),
        (
            cushim::Builder::new().link(cushim::Link::Linked),
            "has no lazy shims: its program links libcuda",
        ),
    ] {
        let e = builder
            .cuda_version("13.0")
            .resolve(cushim::Resolve::RuntimeEntryPoint)
            .out_dir(&dir)
            .generate()
            .expect_err("refused")
            .to_string();
        assert!(e.contains(why), "{e}");
    }
    assert!(common::files_under(&dir).is_empty(), "nothing is written");
}

#[test]
fn the_command_line_offers_the_mode_and_check_reproduces_its_output() {
    let (help, _) = text(&common::cushim(&["generate", "--help"]));
    assert!(help.contains("runtime-entry-point"), "{help}");
    let dir = scratch("entry-point-check");
    let dir_text = dir.display().to_string();
    let out = common::cushim(&[
        "generate",
        "--cuda",
        "13.0",
        "--resolve",
        "runtime-entry-point",
        "--out",
        &dir_text,
    ]);
    assert!(out.status.success(), "{:?}", text(&out));
    let module = std::fs::read_to_string(dir.join("cuda.rs")).unwrap();
    assert!(
        module
            .contains("resolve: cushim_runtime::Resolve::RuntimeEntryPoint(&CUSHIM_RUNTIME_INFO)"),
        "the driver's description points at the runtime's"
    );
    assert!(module.contains("override_var: \"CUSHIM_CUDART_LIBRARY\""));
    let pair = std::fs::read_to_string(dir.join("cuda_shim.cpp")).unwrap();
    assert!(pair.contains("    &cushim_runtime_library,\n};"), "{pair}");
    let out = common::cushim(&["check", "--dir", &dir_text]);
    assert!(out.status.success(), "{:?}", text(&out));
}

#[test]
fn doctor_says_the_driver_came_through_the_runtime_and_searches_for_the_runtime() {
    let runtime = cudart("13-5-doctor", "libcudart.so.13", &[], None);
    let doctor = |env: &[(&str, &Path)]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_cushim"));
        cmd.args([
            "doctor",
            "--cuda",
            "13.0",
            "--resolve",
            "runtime-entry-point",
        ])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("CUSHIM_CUDA_LIBRARY", missing_library())
        .current_dir(root());
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    };
    let out = doctor(&[("LD_LIBRARY_PATH", runtime.parent().unwrap())]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    for line in [
        format!("library:          {}\n", programs().driver.display()),
        "found by:         runtime entry point\n".to_string(),
        format!(
            "through:          the CUDA runtime 13.5 (13050) at `{}`, found by system loader",
            runtime.display()
        ),
        "resolution:       cudaGetDriverEntryPointByVersion of the CUDA runtime, at each function's ABI version".to_string(),
        "search order:     override (CUSHIM_CUDART_LIBRARY), loaded,".to_string(),
        format!("libcudart.so.13  system loader  used: `{}`", runtime.display()),
    ] {
        assert!(stdout.contains(&line), "{line}:\n{stdout}");
    }
    // Without a runtime: no driver, and why.
    let missing = scratch("entry-point-doctor-none").join("libcudart.so.13");
    let out = doctor(&[("CUSHIM_CUDART_LIBRARY", &missing)]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("no CUDA driver: the CUDA driver is reached only through the CUDA runtime"),
        "{stderr}"
    );
}
