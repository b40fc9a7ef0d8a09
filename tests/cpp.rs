//! The C++ pair: compiled with g++ against the real pinned headers, linked
//! into a C program and a C++ program instead of `-lcuda`, and run against the
//! fake `libcuda.so.1`.

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use common::{fake_driver, fixture, root, run_ok, scratch, FIXTURES};

const CXXFLAGS: [&str; 5] = ["-std=c++17", "-Wall", "-Wextra", "-Werror", "-O2"];

fn include_dir(version: &str) -> PathBuf {
    cushim::fetch::include_dir(&cushim::pins::find(version.parse().unwrap()).unwrap()).unwrap()
}

/// Generates the C++ pair of `builder` into a fresh scratch directory.
fn pair(name: &str, builder: cushim::Builder) -> PathBuf {
    let dir = scratch(name);
    builder
        .languages(&[cushim::Language::Cpp])
        .out_dir(&dir)
        .generate()
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    dir
}

/// `g++ -c` of `<dir>/<stem>_shim.cpp`; returns the object.
fn compile(dir: &Path, stem: &str, include: &Path, extra: &[&str]) -> PathBuf {
    let object = dir.join(format!("{stem}_shim.o"));
    run_ok(
        Command::new("g++")
            .args(CXXFLAGS)
            .args(extra)
            .arg(format!("-I{}", include.display()))
            .arg(format!("-I{}", dir.display()))
            .arg("-c")
            .arg(dir.join(format!("{stem}_shim.cpp")))
            .arg("-o")
            .arg(&object),
    );
    object
}

#[test]
fn pairs_from_the_real_headers_compile_without_warnings() {
    for version in ["11.8", "12.9", "13.5"] {
        let dir = pair(
            &format!("cpp-{version}"),
            cushim::Builder::new().cuda_version(version),
        );
        compile(&dir, "cuda", &include_dir(version), &[]);
    }
    let dir = pair(
        "cpp-13.5-prefixed",
        cushim::Builder::new()
            .cuda_version("13.5")
            .cpp_prefix("cushim_"),
    );
    let object = compile(&dir, "cuda", &include_dir("13.5"), &[]);
    let nm = run_ok(Command::new("nm").arg("--defined-only").arg(&object));
    assert!(nm.contains(" T cushim_cuMemAlloc_v2\n"), "prefixed export");
    assert!(
        !nm.contains(" T cuMemAlloc_v2\n"),
        "no drop-in export in prefixed mode"
    );
}

#[test]
fn fixture_pairs_compile_without_warnings() {
    let include = root().join("headers/fixtures");
    for name in FIXTURES {
        let dir = pair(
            &format!("cpp-fixture-{name}"),
            cushim::Builder::new().header(fixture(name), None),
        );
        compile(&dir, name, &include, &[]);
    }
}

/// The 13.5 pair, its object, and the C++ test program linked against it.
fn consumer() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let dir = pair("cpp-consumer", cushim::Builder::new().cuda_version("13.5"));
        let include = include_dir("13.5");
        let object = compile(&dir, "cuda", &include, &[]);

        let (api, _) = cushim::load(cushim::Builder::new().cuda_version("13.5").options()).unwrap();
        let mut calls = String::new();
        for f in &api.functions {
            let args = vec!["{}"; f.params.len()].join(", ");
            writeln!(calls, "CALL({}, ({args}))", f.symbol).unwrap();
        }
        std::fs::write(dir.join("calls.inc"), calls).unwrap();

        let bin = dir.join("consumer");
        run_ok(
            Command::new("g++")
                .args(CXXFLAGS)
                .arg(format!("-I{}", include.display()))
                .arg(format!("-I{}", dir.display()))
                .arg(root().join("tests/cpp/consumer.cpp"))
                .arg(&object)
                // Exported like a shared library's: the re-entrancy test reaches
                // the stubs through the global scope.
                .args(["-pthread", "-ldl", "-rdynamic", "-o"])
                .arg(&bin),
        );
        bin
    })
}

fn scenario(args: &[&str], env: &[(&str, &Path)]) -> String {
    common::scenario(consumer(), args, env).0
}

#[test]
fn a_c_program_links_against_the_stubs_and_runs_without_a_driver() {
    let dir = pair("cpp-c-program", cushim::Builder::new().cuda_version("13.5"));
    let include = include_dir("13.5");
    let object = compile(&dir, "cuda", &include, &[]);
    let c_object = dir.join("c_program.o");
    run_ok(
        Command::new("gcc")
            .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-c"])
            .arg(format!("-I{}", include.display()))
            .arg(format!("-I{}", dir.display()))
            .arg(root().join("tests/cpp/c_program.c"))
            .arg("-o")
            .arg(&c_object),
    );
    let bin = dir.join("c_program");
    run_ok(
        Command::new("g++")
            .arg(&c_object)
            .arg(&object)
            .args(["-pthread", "-ldl", "-o"])
            .arg(&bin),
    );
    let missing = root().join("target/test-scratch/no-such-dir/libcuda.so.1");
    let out = run_ok(Command::new(&bin).env("CUSHIM_CUDA_LIBRARY", &missing));
    assert!(out.contains("cuInit -> 303, status 1"), "{out}");
}

#[test]
fn without_a_driver_every_stub_returns_the_documented_code() {
    let missing = root().join("target/test-scratch/no-such-dir/libcuda.so.1");
    let out = scenario(
        &["no-library", missing.to_str().unwrap()],
        &[("CUSHIM_CUDA_LIBRARY", &missing)],
    );
    assert!(out.contains("checked 492 functions"), "{out}");
}

#[test]
fn with_the_fake_driver_calls_go_through() {
    let lib = fake_driver("cpp-full", &[]);
    scenario(&["fake"], &[("LD_LIBRARY_PATH", lib.parent().unwrap())]);
    scenario(&["set-path", lib.to_str().unwrap()], &[]);
}

#[test]
fn a_removed_symbol_fails_that_function_alone() {
    let lib = fake_driver("cpp-no-memalloc", &["-DFAKE_OMIT_cuMemAlloc_v2"]);
    scenario(&["missing-symbol"], &[("CUSHIM_CUDA_LIBRARY", &lib)]);
}

#[test]
fn the_toolkit_stub_is_reported_and_never_called() {
    let lib = fake_driver("cpp-stub", &["-DFAKE_STUB"]);
    scenario(
        &["stub", lib.to_str().unwrap()],
        &[("CUSHIM_CUDA_LIBRARY", &lib)],
    );
}

#[test]
fn thirty_two_threads_racing_load_once() {
    let lib = fake_driver("cpp-race", &[]);
    let missing = root().join("target/test-scratch/no-such-dir/libcuda.so.1");
    for _ in 0..5 {
        scenario(&["race"], &[("CUSHIM_CUDA_LIBRARY", &lib)]);
        scenario(&["race-no-library"], &[("CUSHIM_CUDA_LIBRARY", &missing)]);
    }
}

/// Cross-compiles with mingw-w64 and runs under Wine: no driver, a planted
/// `nvcuda.dll` beside the executable and in the working directory.
#[test]
fn windows_build_reports_no_library_and_never_loads_a_planted_dll() {
    let have = |tool: &str| {
        Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !(have("x86_64-w64-mingw32-g++-posix") && have("wine")) {
        assert!(
            std::env::var_os("CUSHIM_SKIP_WINDOWS").is_some(),
            "install g++-mingw-w64-x86-64 and wine64 (as .ci/run does), or set CUSHIM_SKIP_WINDOWS=1"
        );
        return;
    }
    let dir = pair("cpp-windows", cushim::Builder::new().cuda_version("13.5"));
    let include = include_dir("13.5");
    let exe = dir.join("program.exe");
    run_ok(
        Command::new("x86_64-w64-mingw32-g++-posix")
            .args(CXXFLAGS)
            .arg(format!("-I{}", include.display()))
            .arg(format!("-I{}", dir.display()))
            .arg(root().join("tests/cpp/windows_program.cpp"))
            .arg(dir.join("cuda_shim.cpp"))
            .args(["-static", "-o"])
            .arg(&exe),
    );
    let cwd = dir.join("cwd");
    std::fs::create_dir_all(&cwd).unwrap();
    for d in [&dir, &cwd] {
        run_ok(
            Command::new("x86_64-w64-mingw32-gcc")
                .args(["-shared", "-O1", "-Wall", "-Werror", "-o"])
                .arg(d.join("nvcuda.dll"))
                .arg(root().join("tests/cpp/planted_nvcuda.c")),
        );
    }
    let marker = format!("Z:{}", dir.join("planted-marker").display()).replace('/', "\\");
    let out = run_ok(
        Command::new("wine")
            .arg(&exe)
            .arg(&marker)
            .current_dir(&cwd)
            .env("WINEPREFIX", dir.join("wine-prefix"))
            .env("WINEDEBUG", "-all")
            .env("CUSHIM_PLANT_MARKER", &marker),
    );
    assert!(out.contains("cuInit -> 303, status 1"), "{out}");
    assert!(out.contains("tried `nvcuda.dll`"), "{out}");
    assert!(
        out.contains("control: LoadLibraryA(\"nvcuda.dll\") loads the planted DLL"),
        "{out}"
    );
    assert!(out.contains("ok: windows"), "{out}");
}

#[test]
fn each_driver_generation_binds_the_right_symbol() {
    let modern = fake_driver("cpp-modern", &[]);
    scenario(&["binds-proc"], &[("CUSHIM_CUDA_LIBRARY", &modern)]);
    let v1 = fake_driver(
        "cpp-v1",
        &["-DFAKE_PROC_ADDRESS=1", "-DFAKE_DRIVER_VERSION=11080"],
    );
    scenario(&["binds-proc"], &[("CUSHIM_CUDA_LIBRARY", &v1)]);
    let old = fake_driver(
        "cpp-old",
        &["-DFAKE_PROC_ADDRESS=0", "-DFAKE_DRIVER_VERSION=12080"],
    );
    scenario(&["binds-dlsym"], &[("CUSHIM_CUDA_LIBRARY", &old)]);
}

#[test]
fn per_thread_mode_binds_the_twins() {
    let lib = fake_driver("cpp-per-thread", &[]);
    scenario(&["per-thread"], &[("CUSHIM_CUDA_LIBRARY", &lib)]);
}

#[test]
fn a_driver_older_than_the_function_gets_the_documented_code_and_no_call() {
    let lib = fake_driver("cpp-12.2", &["-DFAKE_DRIVER_VERSION=12020"]);
    scenario(&["too-old", "12020"], &[("CUSHIM_CUDA_LIBRARY", &lib)]);
    let old = fake_driver(
        "cpp-11.2",
        &["-DFAKE_PROC_ADDRESS=0", "-DFAKE_DRIVER_VERSION=11020"],
    );
    scenario(&["too-old", "11020"], &[("CUSHIM_CUDA_LIBRARY", &old)]);
}

#[test]
fn every_odd_cu_get_proc_address_answer_gets_a_status() {
    let lib = fake_driver("cpp-quirks", &["-DFAKE_QUIRKS"]);
    scenario(&["quirks"], &[("CUSHIM_CUDA_LIBRARY", &lib)]);
}

#[test]
fn a_relative_override_is_refused() {
    scenario(
        &["relative-override"],
        &[("CUSHIM_CUDA_LIBRARY", Path::new("libcuda.so.1"))],
    );
}

#[test]
fn every_committed_pair_compiles_against_its_own_headers() {
    let mut checked = 0;
    for pin in cushim::pins::all() {
        let dir = root().join("generated").join(pin.cuda.dir_name());
        run_ok(
            Command::new("g++")
                .args(["-std=c++17", "-Wall", "-Wextra", "-Werror", "-fsyntax-only"])
                .arg(format!(
                    "-I{}",
                    include_dir(&pin.cuda.to_string()).display()
                ))
                .arg(format!("-I{}", dir.display()))
                .arg(dir.join("cuda_shim.cpp")),
        );
        checked += 1;
    }
    assert_eq!(checked, 16);
}

#[test]
fn stubs_work_from_atexit_handlers_and_reuse_a_preloaded_driver() {
    let lib = fake_driver("cpp-exit", &[]);
    let out = scenario(&["at-exit"], &[("CUSHIM_CUDA_LIBRARY", &lib)]);
    assert!(out.contains("atexit: driver 13050"), "{out}");
    scenario(
        &["preloaded"],
        &[("CUSHIM_CUDA_LIBRARY", &lib), ("LD_PRELOAD", &lib)],
    );
}

#[test]
fn a_fork_during_the_first_load_does_not_hang_the_child() {
    let lib = fake_driver("cpp-slow-load", &["-DFAKE_SLOW_LOAD=400"]);
    scenario(&["fork-during-load"], &[("CUSHIM_CUDA_LIBRARY", &lib)]);
}

#[test]
fn a_driver_calling_back_during_its_own_load_does_not_deadlock() {
    let lib = fake_driver("cpp-reenter", &["-DFAKE_REENTER"]);
    scenario(&["reentrant"], &[("CUSHIM_CUDA_LIBRARY", &lib)]);
}
