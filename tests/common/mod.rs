//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Where the tests build and write: cargo's target directory
/// (`CARGO_TARGET_DIR` when set, relative to the checkout if relative), never
/// anywhere else in the checkout.
pub fn target() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => root().join(dir),
        _ => root().join("target"),
    }
}

/// The target directory that the nested crates under `tests/` share: the
/// same libloading, runtime and cushim build dependency (and its askama,
/// syn and bindgen) are built once for all of them, not once per crate.
/// Cargo locks it, so two tests building at once take turns. A binary that
/// a test keeps across builds of one crate with other features is copied
/// out ([`keep_binary`]).
pub fn nested_target() -> PathBuf {
    target().join("nested")
}

/// Copies the binary `name` of the last build in [`nested_target`] to
/// `kept`, before another build of its crate replaces it.
pub fn keep_binary(name: &str, kept: &Path) {
    std::fs::copy(nested_target().join("debug").join(name), kept).unwrap();
}

pub fn fixture(name: &str) -> PathBuf {
    root().join("headers/fixtures").join(format!("{name}.h"))
}

/// Where no library exists: an absolute path for `CUSHIM_CUDA_LIBRARY`.
pub fn missing_library() -> PathBuf {
    target().join("test-scratch/no-such-dir/libcuda.so.1")
}

/// Whether cmake runs here; without it a test is skipped only where
/// `CUSHIM_SKIP_CMAKE` says so (`.ci/run` installs cmake).
#[allow(dead_code)]
pub fn have_cmake() -> bool {
    let have = Command::new("cmake")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        have || std::env::var_os("CUSHIM_SKIP_CMAKE").is_some(),
        "install cmake (as .ci/run does), or set CUSHIM_SKIP_CMAKE=1"
    );
    have
}

/// The insta settings of every snapshot test: snapshots live in `snapshots/`,
/// named without the test module and without the asserted expression.
pub fn insta_settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path(root().join("snapshots"));
    s.set_prepend_module_to_snapshot(false);
    s.set_omit_expression(true);
    s
}

pub const FIXTURES: [&str; 8] = [
    "aliases",
    "cudaapi",
    "deprecated",
    "enums",
    "params",
    "per_thread",
    "pfn_table",
    "types",
];

/// A fresh directory under the target directory, removed first if it exists.
pub fn scratch(name: &str) -> PathBuf {
    let dir = target().join("test-scratch").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Removes a scratch directory when dropped, unless the test is failing
/// (then it stays, to be looked at): for the ones that weigh hundreds of MB,
/// a wine prefix or a nested crate's target directory.
pub struct RemovedAfter(pub PathBuf);

impl Drop for RemovedAfter {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Runs the `cushim` binary built for these tests.
pub fn cushim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cushim"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("cushim runs")
}

pub fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Every file under `dir`, recursively.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(files_under(&p));
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Builds the fake driver (`tests/fake/libcuda.c`) as `<dir>/libcuda.so.1`
/// with extra C defines, using the system C compiler.
pub fn fake_driver(name: &str, defines: &[&str]) -> PathBuf {
    fake_driver_with("cc", name, defines)
}

/// [`fake_driver`] with the C compiler `cc` (a cross compiler), and with
/// `defines` also the extra sources or options it is given.
pub fn fake_driver_with(cc: &str, name: &str, defines: &[&str]) -> PathBuf {
    let dir = scratch(&format!("fake-{name}"));
    let lib = dir.join("libcuda.so.1");
    let status = Command::new(cc)
        // -Bsymbolic: like NVIDIA's library, the fake's references to its own
        // functions are not interposed by a program that defines the same names.
        .args([
            "-shared",
            "-fPIC",
            "-O1",
            "-Wall",
            "-Werror",
            "-Wl,-Bsymbolic",
            // The real library's soname, which a -lcuda link records.
            "-Wl,-soname,libcuda.so.1",
            "-o",
        ])
        .arg(&lib)
        .arg(root().join("tests/fake/libcuda.c"))
        .args(defines)
        .status()
        .expect("a C compiler runs");
    assert!(status.success(), "the fake driver compiles");
    lib
}

/// Runs `cmd`; panics with its output unless it succeeds. Returns stdout.
pub fn run_ok(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let (stdout, stderr) = text(&out);
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    stdout
}

/// Runs one scenario of a test program (`bin SCENARIO ARGS...`) in a clean
/// loader environment plus `env`, under `timeout 60` so that a deadlocked
/// loader fails the test instead of stalling it. Asserts that it succeeded and
/// printed `ok: SCENARIO`; returns (stdout, stderr).
pub fn scenario(bin: &Path, args: &[&str], env: &[(&str, &Path)]) -> (String, String) {
    let mut cmd = Command::new("timeout");
    cmd.arg("60").arg(bin).args(args);
    for var in [
        "CUSHIM_CUDA_LIBRARY",
        "CUSHIM_PER_THREAD_DEFAULT_STREAM",
        "LD_LIBRARY_PATH",
        "LD_PRELOAD",
    ] {
        cmd.env_remove(var);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let (stdout, stderr) = text(&out);
    assert!(
        out.status.success(),
        "scenario {args:?} failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    assert!(stdout.contains(&format!("ok: {}", args[0])), "{stdout}");
    (stdout, stderr)
}

/// The flags every C++ pair compiles with: no warning is allowed.
pub const CXXFLAGS: [&str; 6] = [
    "-std=c++17",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-O2",
    "-Wc++20-compat",
];

/// The cached include directory of a pinned CUDA release.
pub fn include_dir(version: &str) -> PathBuf {
    cushim::fetch::include_dir(&cushim::pins::find(version.parse().unwrap()).unwrap()).unwrap()
}

/// Generates the C++ pair of `builder` into a fresh scratch directory.
pub fn pair(name: &str, builder: cushim::Builder) -> PathBuf {
    let dir = scratch(name);
    builder
        .languages(&[cushim::Language::Cpp])
        .out_dir(&dir)
        .generate()
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    dir
}

/// The object of the C++ runtime that [`compile`] builds beside a pair.
pub fn runtime_object(dir: &Path) -> PathBuf {
    dir.join("cushim_runtime.o")
}

/// `g++ -c` of `<dir>/<stem>_shim.cpp`, and of the runtime written beside it
/// (into [`runtime_object`]) with the same flags; returns the pair's object.
pub fn compile(dir: &Path, stem: &str, include: &Path, extra: &[&str]) -> PathBuf {
    run_ok(
        Command::new("g++")
            .args(CXXFLAGS)
            .args(extra)
            .arg("-c")
            .arg(dir.join("cushim_runtime.cpp"))
            .arg("-o")
            .arg(runtime_object(dir)),
    );
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

/// Runs the Windows program `exe` (in `dir`) under Wine with a planted
/// `nvcuda.dll` (`tests/cpp/planted.c`) in `dir` and in the working
/// directory; returns its output. The plant writes a marker file when loaded;
/// the program gets the marker's path as its argument.
pub fn run_beside_planted_dll(dir: &Path, exe: &Path) -> String {
    run_beside_planted_dlls(dir, exe, &[])
}

/// [`run_beside_planted_dll`] with a planted `nvrtc64_130_0.dll` too, and
/// `env` set (paths in Wine's `Z:\...` form).
pub fn run_beside_planted_dlls(dir: &Path, exe: &Path, env: &[(&str, String)]) -> String {
    let cwd = dir.join("cwd");
    std::fs::create_dir_all(&cwd).unwrap();
    for d in [dir, cwd.as_path()] {
        planted_dll(d, "nvcuda.dll", "PLANT_NVCUDA");
        planted_dll(d, "nvrtc64_130_0.dll", "PLANT_NVRTC");
    }
    let marker = format!("Z:{}", dir.join("planted-marker").display()).replace('/', "\\");
    run_ok(
        Command::new("wine")
            .arg(exe)
            .arg(&marker)
            .current_dir(&cwd)
            .env("WINEPREFIX", dir.join("wine-prefix"))
            .env("WINEDEBUG", "-all")
            .env("CUSHIM_PLANT_MARKER", &marker)
            .envs(env.iter().map(|(k, v)| (*k, v.as_str()))),
    )
}

/// Whether the mingw-w64 C++ compiler and Wine are here, for the Windows
/// checks. Without them the test must be skipped on purpose
/// (`CUSHIM_SKIP_WINDOWS`), never silently.
/// Whether `tool` is on the PATH.
pub fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether rustc has the standard library of `target`.
pub fn have_rust_target(target: &str) -> bool {
    Command::new("rustc")
        .args(["--print", "target-libdir", "--target", target])
        .output()
        .is_ok_and(|o| {
            o.status.success()
                && std::path::Path::new(String::from_utf8_lossy(&o.stdout).trim()).is_dir()
        })
}

pub fn windows_cpp_tools() -> bool {
    if have("x86_64-w64-mingw32-g++-posix") && have("wine") {
        return true;
    }
    assert!(
        std::env::var_os("CUSHIM_SKIP_WINDOWS").is_some(),
        "install g++-mingw-w64-x86-64 and wine64 (as .ci/run does), or set CUSHIM_SKIP_WINDOWS=1"
    );
    false
}

/// Whether the Windows C++ tools ([`windows_cpp_tools`]) and Rust's
/// `target` for Windows are here: a test that builds both kinds of program
/// runs, or is skipped on purpose (`CUSHIM_SKIP_WINDOWS`); else it fails,
/// saying what to install.
pub fn windows_tools(target: &str) -> bool {
    if !windows_cpp_tools() {
        return false;
    }
    assert!(
        have_rust_target(target) || std::env::var_os("CUSHIM_SKIP_WINDOWS").is_some(),
        "install the {target} Rust target (as .ci/run does), or set CUSHIM_SKIP_WINDOWS=1"
    );
    have_rust_target(target)
}

/// Builds a planted DLL (`tests/cpp/planted.c`) named `name` into `dir`: it
/// writes the marker file named by `CUSHIM_PLANT_MARKER` when loaded, and
/// exports the functions `define` selects (`PLANT_NVCUDA`, `PLANT_NVRTC`).
pub fn planted_dll(dir: &Path, name: &str, define: &str) {
    run_ok(
        Command::new("x86_64-w64-mingw32-gcc")
            .args(["-shared", "-O1", "-Wall", "-Werror", "-o"])
            .arg(dir.join(name))
            .arg(format!("-D{define}"))
            .arg(root().join("tests/cpp/planted.c")),
    );
}

/// `path` as Wine names it: `Z:\...`.
pub fn wine_path(path: &Path) -> String {
    format!("Z:{}", path.display()).replace('/', "\\")
}

/// A `wine` command that runs `exe` in the Wine prefix `dir/wine-prefix`,
/// quiet, without any variable that the search reads (`VIRTUAL_ENV`,
/// `CONDA_PREFIX`, `CUDA_PATH`, `CUDA_HOME`, every library's override), and
/// stopped after five minutes: a program that hangs under Wine fails its
/// test rather than the whole run.
pub fn wine(dir: &Path, exe: &Path) -> Command {
    let mut cmd = Command::new("timeout");
    cmd.args(["300", "wine"])
        .arg(exe)
        .env("WINEPREFIX", dir.join("wine-prefix"))
        .env("WINEDEBUG", "-all");
    for library in cushim::library::LIBRARIES {
        cmd.env_remove(library.words.override_var);
    }
    for var in ["CUDA_PATH", "CUDA_HOME", "VIRTUAL_ENV", "CONDA_PREFIX"] {
        cmd.env_remove(var);
    }
    cmd
}

/// Creates the Wine prefix `dir/wine-prefix`, which takes seconds: run it
/// beside the builds.
pub fn wine_prefix(dir: &Path) {
    run_ok(
        Command::new("wine")
            .args(["wineboot", "--init"])
            .env("WINEPREFIX", dir.join("wine-prefix"))
            .env("WINEDEBUG", "-all"),
    );
}

/// Builds into `dir` the DLL that Wine 8 lacks and Rust's standard library
/// takes its random numbers from, for a Rust program run from `dir`.
pub fn wine_bcryptprimitives(dir: &Path) {
    run_ok(
        Command::new("x86_64-w64-mingw32-gcc")
            .args(["-shared", "-O1", "-Wall", "-Werror", "-o"])
            .arg(dir.join("bcryptprimitives.dll"))
            .arg(root().join("tests/windows-consumer/wine/bcryptprimitives.c"))
            .arg("-ladvapi32"),
    );
}

/// Builds `tests/windows-consumer` (the committed 13.5 driver, NVRTC and
/// NVTX modules) for x86_64-pc-windows-gnu in the nested target directory;
/// returns the program's path there.
pub fn windows_consumer() -> PathBuf {
    const TARGET: &str = "x86_64-pc-windows-gnu";
    let target_dir = nested_target();
    run_ok(
        Command::new(env!("CARGO"))
            .args([
                "build",
                "--quiet",
                "--locked",
                "--target",
                TARGET,
                "--manifest-path",
            ])
            .arg(root().join("tests/windows-consumer/Cargo.toml"))
            .arg("--target-dir")
            .arg(&target_dir)
            .env(
                "CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER",
                "x86_64-w64-mingw32-gcc",
            )
            .env_remove("RUSTFLAGS"),
    );
    target_dir
        .join(TARGET)
        .join("debug/cushim-windows-consumer.exe")
}
