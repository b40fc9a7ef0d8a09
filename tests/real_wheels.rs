//! Real NVIDIA libraries where no GPU is needed (issue 36): the aarch64 and
//! win_amd64 wheels of the libraries in [`REAL`] (NVRTC, nvJitLink and the
//! CUDA runtime 13.0), pinned by sha256 in `headers/real-wheels.txt`, run
//! under `qemu-aarch64` and under Wine. One C++ program
//! (`tests/real_wheels/main.cpp`) runs each library's part
//! (`tests/real_wheels/<library>.cpp`), which prints one line: NVRTC
//! compiles a saxpy kernel and prints the PTX's size and hash, nvJitLink
//! links a saxpy kernel written in PTX into a cubin for sm_90 and prints its
//! size and hash, the runtime prints `cudaRuntimeGetVersion` and
//! `cudaDriverGetVersion`. Built against the committed 13.0 pairs it must
//! print what it prints linked to the libraries directly (on Windows, to the
//! DLLs, with mingw-w64), and without the libraries each library's "not
//! found" code; Windows prints what aarch64 prints, but for the runtime,
//! which there answers every call with `cudaErrorNotSupported` (801) when it
//! cannot load `nvcuda.dll` (aarch64's answers 13000, and driver version 0
//! with `cudaSuccess`). The Rust program (`tests/real_wheels/rust`: NVRTC
//! and nvJitLink through the committed 13.0 modules) prints the same lines
//! on both.
//!
//! cuBLAS (`cublasGetProperty`) is left out: its 13.0 wheel (nvidia-cublas
//! 13.1.1.3) is 543 MB for aarch64 and 404 MB for Windows, far beyond what a
//! CI run should download and keep for one call.
//!
//! The wheels are fetched once per cache (`cushim::fetch::cache_dir`, under
//! `real-wheels/`) with `pip download`, each in a thread of its own: 84 MB
//! for aarch64 (NVRTC 43, nvJitLink 39, the runtime 2) and 116 MB for Windows
//! (77, 36 and 3), 200 MB in all; only the libraries stay (194 MB and 184 MB,
//! 378 MB). Without network or tools these tests fail, unless
//! `CUSHIM_SKIP_REAL_WHEELS=1` says to skip them.

use crate::common;

use std::collections::BTreeSet;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

use common::{root, run_ok, scratch};
use cushim::library::{with_major, Library, CUDART, NVJITLINK, NVRTC};
use sha2::{Digest, Sha256};

/// A library whose real wheels the tests run.
struct Real {
    library: &'static Library,
    /// Whether the Rust program runs it too.
    rust: bool,
    /// What its part prints under Wine where that is not what it prints
    /// under qemu: the runtime's answer without `nvcuda.dll`.
    windows: Option<&'static str>,
}

/// The libraries, in the order their parts run and print.
const REAL: [Real; 3] = [
    Real {
        library: &NVRTC,
        rust: true,
        windows: None,
    },
    Real {
        library: &NVJITLINK,
        rust: true,
        windows: None,
    },
    Real {
        library: &CUDART,
        rust: false,
        windows: Some("cudart: cudaRuntimeGetVersion failed: 801"),
    },
];

/// The release of the committed pairs and modules, and its major.
const RELEASE: &str = "13.0";
const MAJOR: u32 = 13;
/// The cross toolchain's root, where qemu finds the dynamic loader and libc.
const SYSROOT: &str = "/usr/aarch64-linux-gnu";
/// The Rust targets.
const RUST_AARCH64: &str = "aarch64-unknown-linux-gnu";
const RUST_WINDOWS: &str = "x86_64-pc-windows-gnu";
/// The platform tags of the wheels, as `pip download --platform` takes them.
const AARCH64: &str = "manylinux2014_aarch64";
const WINDOWS: &str = "win_amd64";

/// Whether these tests are skipped on purpose; says so on stderr.
fn skipped() -> bool {
    let skip = std::env::var_os("CUSHIM_SKIP_REAL_WHEELS").is_some();
    if skip {
        eprintln!("real_wheels: skipped (CUSHIM_SKIP_REAL_WHEELS is set)");
    }
    skip
}

/// Asserts that `tools` are all here.
fn need(tools: &[&str], packages: &str) {
    let missing: Vec<_> = tools.iter().filter(|t| !common::have(t)).collect();
    assert!(
        missing.is_empty(),
        "missing {missing:?}: install {packages} (as .ci/run does), or set CUSHIM_SKIP_REAL_WHEELS=1"
    );
}

/// Asserts that rustc has the standard library of `target`.
fn need_rust_target(target: &str) {
    assert!(
        common::have_rust_target(target),
        "rustup target add {target} (as .ci/run does), or set CUSHIM_SKIP_REAL_WHEELS=1"
    );
}

/// One line of `headers/real-wheels.txt`.
#[derive(Clone)]
struct Pinned {
    wheel: String,
    version: String,
    platform: String,
    /// The entry's path in the wheel; `-` for the wheel itself.
    path: String,
    sha256: String,
}

fn pins() -> Vec<Pinned> {
    let text = fs::read_to_string(root().join("headers/real-wheels.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 5, "headers/real-wheels.txt: {l}");
            Pinned {
                wheel: f[0].into(),
                version: f[1].into(),
                platform: f[2].into(),
                path: f[3].into(),
                sha256: f[4].into(),
            }
        })
        .collect()
}

/// The wheel, and its version, that carries `library`'s headers of
/// [`RELEASE`]: the first of its pin.
fn header_wheel(library: &Library) -> (String, String) {
    let pin = cushim::pins::find_for(library, RELEASE.parse().unwrap()).unwrap();
    (pin.wheels[0].name.clone(), pin.wheels[0].version.clone())
}

/// Every wheel of `headers/real-wheels.txt` is the header wheel of a
/// library of [`REAL`], at the header's version, and each of those has a
/// wheel and a library file for each platform: what the other tests take
/// for granted.
#[test]
fn the_real_wheels_are_the_header_wheels_of_the_libraries_run() {
    let pins = pins();
    let wheels: Vec<(String, String)> = REAL.iter().map(|r| header_wheel(r.library)).collect();
    for p in &pins {
        assert!(
            wheels.contains(&(p.wheel.clone(), p.version.clone())),
            "headers/real-wheels.txt: {} {} carries no 13.0 header of {:?}",
            p.wheel,
            p.version,
            REAL.iter().map(|r| r.library.name).collect::<Vec<_>>()
        );
    }
    for (real, (wheel, version)) in REAL.iter().zip(&wheels) {
        for (platform, file) in [
            (AARCH64, unix_name(real.library)),
            (WINDOWS, windows_name(real.library)),
        ] {
            let of = |path: &str| {
                pins.iter().any(|p| {
                    &p.wheel == wheel
                        && &p.version == version
                        && p.platform == platform
                        && (p.path == path || path != "-" && p.path.ends_with(&format!("/{path}")))
                })
            };
            assert!(of("-"), "{wheel} {version} {platform}: no pin of the wheel");
            assert!(of(&file), "{wheel} {version} {platform}: no pin of {file}");
        }
    }
}

/// `library`'s file for [`MAJOR`] on Linux and on Windows: the first of the
/// registry's names.
fn unix_name(library: &Library) -> String {
    with_major(library.names_for(MAJOR).unix, MAJOR).remove(0)
}

fn windows_name(library: &Library) -> String {
    with_major(library.names_for(MAJOR).windows, MAJOR).remove(0)
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn file_sha256(path: &Path) -> Option<String> {
    fs::read(path).ok().map(|b| sha256(&b))
}

/// A pinned entry of a wheel and where it lies in the cache.
struct Entry {
    /// Its path in the wheel (`nvidia/cu13/...`).
    path: String,
    file: PathBuf,
}

/// The pinned entries of every wheel of `platform`, once a test run: each
/// wheel fetched (see [`fetch`]) in a thread of its own.
fn entries(platform: &'static str) -> &'static [Entry] {
    static AARCH64_ENTRIES: OnceLock<Vec<Entry>> = OnceLock::new();
    static WINDOWS_ENTRIES: OnceLock<Vec<Entry>> = OnceLock::new();
    let once = match platform {
        AARCH64 => &AARCH64_ENTRIES,
        _ => &WINDOWS_ENTRIES,
    };
    once.get_or_init(|| {
        let pins: Vec<Pinned> = pins()
            .into_iter()
            .filter(|p| p.platform == platform)
            .collect();
        let wheels: BTreeSet<&str> = pins.iter().map(|p| p.wheel.as_str()).collect();
        std::thread::scope(|s| {
            let fetches: Vec<_> = wheels
                .iter()
                .map(|wheel| {
                    let of: Vec<&Pinned> = pins.iter().filter(|p| p.wheel == *wheel).collect();
                    s.spawn(move || {
                        let dir = fetch(&of);
                        of.iter()
                            .filter(|p| p.path != "-")
                            .map(|p| Entry {
                                path: p.path.clone(),
                                file: dir.join(&p.path),
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            fetches
                .into_iter()
                .flat_map(|f| f.join().unwrap())
                .collect()
        })
    })
}

/// The cached directory of one wheel's pinned entries (`pins`, the wheel's
/// own line among them) when every one passes its pin, else fetched first
/// with `pip download` (the wheel checked against its pin, then deleted).
fn fetch(pins: &[&Pinned]) -> PathBuf {
    let wheel = pins
        .iter()
        .find(|p| p.path == "-")
        .expect("the wheel's pin");
    let platform = &wheel.platform;
    let entries: Vec<&&Pinned> = pins.iter().filter(|p| p.path != "-").collect();
    let cache = cushim::fetch::cache_dir().unwrap().join("real-wheels");
    let dir = cache.join(format!("{}-{}-{platform}", wheel.wheel, wheel.version));
    let good = |dir: &Path| {
        entries
            .iter()
            .all(|e| file_sha256(&dir.join(&e.path)).as_deref() == Some(e.sha256.as_str()))
    };
    if good(&dir) {
        return dir;
    }
    let staging = cache.join(format!(
        ".staging-{}-{platform}-{}",
        wheel.wheel,
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&staging);
    fs::create_dir_all(&staging).unwrap();
    let started = Instant::now();
    run_ok(
        Command::new("python3")
            .args(["-m", "pip", "download", "--quiet", "--no-deps"])
            .args(["--only-binary=:all:", "--python-version", "3.12"])
            .args(["--platform", platform, "--dest"])
            .arg(&staging)
            .arg(format!("{}=={}", wheel.wheel, wheel.version)),
    );
    let file = fs::read_dir(&staging)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "whl"))
        .expect("pip downloaded a wheel");
    let bytes = fs::read(&file).unwrap();
    assert_eq!(sha256(&bytes), wheel.sha256, "{}", file.display());
    eprintln!(
        "real_wheels: fetched {} ({} bytes) in {:.1?}",
        file.file_name().unwrap().to_string_lossy(),
        bytes.len(),
        started.elapsed()
    );
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let tree = staging.join("tree");
    for e in &entries {
        let mut entry = zip.by_name(&e.path).unwrap();
        let mut data = Vec::new();
        std::io::copy(&mut entry, &mut data).unwrap();
        assert_eq!(sha256(&data), e.sha256, "{}", e.path);
        let to = tree.join(&e.path);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::write(&to, data).unwrap();
    }
    let _ = fs::remove_dir_all(&dir);
    // Another test run sharing the cache may have put it in place first.
    let renamed = fs::rename(&tree, &dir);
    fs::remove_dir_all(&staging).unwrap();
    assert!(good(&dir), "{}: {renamed:?}", dir.display());
    dir
}

/// `from`'s file `path` at `to`'s `path`: a hard link, else a copy.
fn place(from: &Path, to: &Path) {
    fs::create_dir_all(to.parent().unwrap()).unwrap();
    if fs::hard_link(from, to).is_err() {
        fs::copy(from, to).unwrap();
    }
}

/// A venv at `venv` (`pyvenv.cfg` at its root) with the entries of every
/// wheel of `platform` in `site` (`lib/python3.12/site-packages` or
/// `Lib/site-packages`); every directory in it writable by its owner alone,
/// as the loader's trust rule asks.
fn venv(venv: &Path, site: &str, platform: &'static str) {
    fs::create_dir_all(venv).unwrap();
    fs::write(venv.join("pyvenv.cfg"), "home = /usr/bin\n").unwrap();
    for e in entries(platform) {
        place(&e.file, &venv.join(site).join(&e.path));
    }
    for d in common::files_under(venv)
        .iter()
        .filter_map(|f| f.parent())
        .flat_map(Path::ancestors)
        .filter(|d| d.starts_with(venv))
    {
        fs::set_permissions(d, fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// The committed pairs of [`RELEASE`].
fn generated() -> PathBuf {
    root().join(format!("generated/cuda-{RELEASE}"))
}

/// The C++ program's build with `compiler` (`-O2`, no warning allowed):
/// `main.cpp` and every library's part, with the libraries' headers of
/// [`RELEASE`] from the header cache; the caller adds the stubs or the
/// libraries, and `-o`.
fn cpp_program(compiler: &str) -> Command {
    let programs = root().join("tests/real_wheels");
    let mut cmd = Command::new(compiler);
    cmd.args(["-std=c++17", "-O2", "-Wall", "-Werror"]);
    let mut list = String::new();
    for real in &REAL {
        let pin = cushim::pins::find_for(real.library, RELEASE.parse().unwrap()).unwrap();
        let include = cushim::fetch::library_include_dir(real.library, &pin).unwrap();
        cmd.arg("-isystem").arg(include);
        list.push_str(&format!("CUSHIM_REAL({})", real.library.name));
    }
    cmd.arg(format!("-I{}", programs.display()))
        .arg(format!("-DCUSHIM_REAL_LIBRARIES={list}"))
        .arg(programs.join("main.cpp"));
    for real in &REAL {
        cmd.arg(programs.join(format!("{}.cpp", real.library.name)));
    }
    cmd
}

/// [`cpp_program`] through the committed pairs: each library's
/// `<stem>_shim.cpp` and the runtime.
fn through_the_stubs(cmd: &mut Command) -> &mut Command {
    cmd.arg(format!("-I{}", generated().display()));
    for real in &REAL {
        cmd.arg(generated().join(format!("{}_shim.cpp", real.library.stem)));
    }
    cmd.arg(generated().join("cushim_runtime.cpp"))
}

/// `cmd`, with the variables that would steer the stubs' search removed.
fn clean(cmd: &mut Command) -> &mut Command {
    for var in [
        "VIRTUAL_ENV",
        "CONDA_PREFIX",
        "CUDA_HOME",
        "CUDA_PATH",
        "LD_LIBRARY_PATH",
        "LD_PRELOAD",
        "QEMU_LD_PREFIX",
    ] {
        cmd.env_remove(var);
    }
    for real in &REAL {
        cmd.env_remove(real.library.words.override_var);
    }
    cmd
}

/// `qemu-aarch64 program` with `env` for the emulated program alone, in a
/// clean loader environment.
fn qemu(program: &Path, env: &[(&str, &Path)]) -> Command {
    let mut cmd = Command::new("timeout");
    cmd.args(["120", "qemu-aarch64", "-L", SYSROOT]);
    for (k, v) in env {
        cmd.arg("-E").arg(format!("{k}={}", v.display()));
    }
    cmd.arg(program);
    clean(&mut cmd);
    cmd
}

/// The lines that `cmd` (a run of the C++ or the Rust program, which must
/// exit 0) printed, one for each of `reals` in order, each starting with its
/// library's name.
fn lines(mut cmd: Command, reals: &[&Real]) -> Vec<String> {
    let started = Instant::now();
    let stdout = run_ok(&mut cmd).replace('\r', "");
    let program = cmd.get_args().last().unwrap_or_default();
    let from_env = cmd
        .get_args()
        .any(|a| a.to_string_lossy().starts_with("VIRTUAL_ENV="))
        || cmd
            .get_envs()
            .any(|(k, v)| k == "VIRTUAL_ENV" && v.is_some());
    eprintln!(
        "real_wheels: {}{} in {:.1?}",
        program.display(),
        if from_env { " with VIRTUAL_ENV" } else { "" },
        started.elapsed()
    );
    let lines: Vec<String> = stdout.lines().map(str::to_string).collect();
    let names: Vec<&str> = reals.iter().map(|r| r.library.name).collect();
    assert!(
        lines.len() == reals.len()
            && lines.iter().zip(&names).all(|(l, n)| {
                l.strip_prefix(n)
                    .is_some_and(|rest| rest.starts_with([' ', ':']))
            }),
        "not one line for each of {names:?}:\n{stdout}"
    );
    lines
}

/// Asserts that every line is its library's success: `<name> <what>...`.
fn assert_worked(lines: &[String]) {
    for (line, real) in lines.iter().zip(&REAL) {
        assert!(
            line.starts_with(&format!("{} ", real.library.name)),
            "{line}"
        );
    }
}

/// Asserts that each library's first call failed with its "library not
/// found" code: the stubs found none.
fn assert_not_found(lines: &[String]) {
    for (line, real) in lines.iter().zip(&REAL) {
        let name = real.library.name;
        let code = real.library.codes.library_not_found.value;
        assert!(
            line.starts_with(&format!("{name}: ")) && line.ends_with(&format!(" failed: {code}")),
            "{name} without its library: {line}"
        );
    }
}

/// The lines of the libraries that the Rust program runs.
fn of_rust(lines: &[String]) -> Vec<String> {
    REAL.iter()
        .zip(lines)
        .filter(|(r, _)| r.rust)
        .map(|(_, l)| l.clone())
        .collect()
}

fn rust_reals() -> Vec<&'static Real> {
    REAL.iter().filter(|r| r.rust).collect()
}

fn all_reals() -> Vec<&'static Real> {
    REAL.iter().collect()
}

/// Builds the Rust program (`tests/real_wheels/rust`) for `target` with the
/// linker `linker`; returns its path in the nested target directory.
fn rust_program(target: &str, linker: &str) -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let target_dir = common::nested_target();
    let linker_var = format!(
        "CARGO_TARGET_{}_LINKER",
        target.to_uppercase().replace('-', "_")
    );
    run_ok(
        Command::new(cargo)
            .args(["build", "--quiet", "--locked", "--target", target])
            .arg("--manifest-path")
            .arg(root().join("tests/real_wheels/rust/Cargo.toml"))
            .arg("--target-dir")
            .arg(&target_dir)
            .env(linker_var, linker)
            .env_remove("RUSTFLAGS"),
    );
    let exe = if target.contains("windows") {
        "cushim-real-wheels.exe"
    } else {
        "cushim-real-wheels"
    };
    target_dir.join(target).join("debug").join(exe)
}

/// The lines of the real aarch64 libraries, through the stubs and linked
/// directly, once a test run; asserts that they agree, from VIRTUAL_ENV
/// and from inside the venv, and that without either the stubs find none.
/// With the venv it ran from.
fn aarch64_lines() -> &'static (Vec<String>, PathBuf) {
    static LINES: OnceLock<(Vec<String>, PathBuf)> = OnceLock::new();
    LINES.get_or_init(aarch64_runs)
}

fn aarch64_runs() -> (Vec<String>, PathBuf) {
    need(
        &["aarch64-linux-gnu-g++", "qemu-aarch64"],
        "g++-aarch64-linux-gnu and qemu-user",
    );
    let dir = scratch("real-wheels-aarch64");
    let venv_dir = dir.join("venv");
    let stubs = dir.join("stubs");
    let linked = dir.join("linked");
    let compiler = "aarch64-linux-gnu-g++";
    std::thread::scope(|s| {
        s.spawn(|| {
            run_ok(
                through_the_stubs(&mut cpp_program(compiler))
                    .arg("-o")
                    .arg(&stubs),
            )
        });
        venv(&venv_dir, "lib/python3.12/site-packages", AARCH64);
        // Linked directly, with an RPATH (not a RUNPATH) so that NVRTC's own
        // dlopen of its builtins library searches there too.
        let mut cmd = cpp_program(compiler);
        let dirs: BTreeSet<&Path> = entries(AARCH64)
            .iter()
            .map(|e| e.file.parent().unwrap())
            .collect();
        for lib in dirs {
            cmd.arg(format!("-L{}", lib.display()))
                .arg(format!("-Wl,--disable-new-dtags,-rpath,{}", lib.display()));
        }
        for real in &REAL {
            cmd.arg(format!("-l:{}", unix_name(real.library)));
        }
        run_ok(cmd.arg("-o").arg(&linked));
    });
    // The program inside the venv, without VIRTUAL_ENV: the walk above it.
    let inside = venv_dir.join("bin/real-wheels");
    place(&stubs, &inside);
    fs::set_permissions(venv_dir.join("bin"), fs::Permissions::from_mode(0o755)).unwrap();
    let all = &all_reals();
    let [direct, nowhere, from_env, from_inside] = std::thread::scope(|s| {
        [
            qemu(&linked, &[]),
            qemu(&stubs, &[]),
            qemu(&stubs, &[("VIRTUAL_ENV", &venv_dir)]),
            qemu(&inside, &[]),
        ]
        .map(|cmd| s.spawn(move || lines(cmd, all)))
        .map(|run| run.join().unwrap())
    });
    assert_worked(&direct);
    assert_not_found(&nowhere);
    assert_eq!(from_env, direct, "through VIRTUAL_ENV");
    assert_eq!(from_inside, direct, "from inside the venv");
    (direct, venv_dir)
}

#[test]
fn the_real_aarch64_libraries_run_through_the_stubs_as_linked() {
    if skipped() {
        return;
    }
    aarch64_lines();
}

/// The Rust program, cross-built for aarch64, prints the same lines as the
/// C++ program linked directly, from VIRTUAL_ENV and from inside the venv.
#[test]
fn the_real_aarch64_libraries_run_through_the_rust_modules_as_linked() {
    if skipped() {
        return;
    }
    need(&["aarch64-linux-gnu-gcc"], "gcc-aarch64-linux-gnu");
    need_rust_target(RUST_AARCH64);
    let program = rust_program(RUST_AARCH64, "aarch64-linux-gnu-gcc");
    let (direct, venv_dir) = aarch64_lines();
    let inside = venv_dir.join("bin/cushim-real-wheels");
    let _ = fs::remove_file(&inside);
    fs::copy(&program, &inside).unwrap();
    let rust = &rust_reals();
    let [from_env, from_inside] = std::thread::scope(|s| {
        [
            qemu(&program, &[("VIRTUAL_ENV", venv_dir.as_path())]),
            qemu(&inside, &[]),
        ]
        .map(|cmd| s.spawn(move || lines(cmd, rust)))
        .map(|run| run.join().unwrap())
    });
    assert_eq!(from_env, of_rust(direct), "through VIRTUAL_ENV");
    assert_eq!(from_inside, of_rust(direct), "from inside the venv");
}

/// The C++ program built with mingw-w64 through the committed pairs and
/// linked to the DLLs; the Rust program cross-built for Windows, beside the
/// DLL that Wine 8 lacks. Through the stubs, from VIRTUAL_ENV and from the
/// venv's `Scripts\` (the walk above the program, under the trust rule), they
/// print what the program linked to the DLLs prints, and that is what aarch64
/// prints (but where [`Real::windows`] says otherwise); without either the
/// stubs find none. The programs share one Wine prefix.
#[test]
fn the_real_windows_libraries_run_through_the_stubs_and_the_rust_modules_as_linked_and_as_on_aarch64(
) {
    if skipped() {
        return;
    }
    need(
        &[
            "x86_64-w64-mingw32-g++-posix",
            "x86_64-w64-mingw32-gcc",
            "wine",
        ],
        "g++-mingw-w64-x86-64 and wine64",
    );
    need_rust_target(RUST_WINDOWS);
    let dir = scratch("real-wheels-windows");
    let _prefix = common::RemovedAfter(dir.join("wine-prefix"));
    let venv_dir = dir.join("venv");
    let stubs = dir.join("stubs.exe");
    // Linked directly to the DLLs, run beside them.
    let bin = dir.join("linked");
    let linked = bin.join("linked.exe");
    let rust = dir.join("rust/cushim-real-wheels.exe");
    let compiler = "x86_64-w64-mingw32-g++-posix";
    let wine = |exe: &Path, env: &[(&str, String)]| {
        let mut cmd = common::wine(&dir, exe);
        cmd.current_dir(&dir);
        clean(&mut cmd).envs(env.iter().map(|(k, v)| (*k, v.as_str())));
        cmd
    };
    let all = &all_reals();
    // Wine makes the prefix while the programs build; the program linked to
    // the DLLs runs first, while the other two may still build.
    let direct = std::thread::scope(|s| {
        let prefix_made = s.spawn(|| run_ok(&mut wine(Path::new("wineboot"), &[])));
        s.spawn(|| {
            let program = rust_program(RUST_WINDOWS, "x86_64-w64-mingw32-gcc");
            place(&program, &rust);
            common::wine_bcryptprimitives(rust.parent().unwrap());
        });
        s.spawn(|| {
            run_ok(
                through_the_stubs(cpp_program(compiler).arg("-static"))
                    .arg("-o")
                    .arg(&stubs),
            )
        });
        venv(&venv_dir, "Lib/site-packages", WINDOWS);
        for e in entries(WINDOWS) {
            place(&e.file, &bin.join(e.file.file_name().unwrap()));
        }
        let mut cmd = cpp_program(compiler);
        cmd.arg("-static");
        for real in &REAL {
            cmd.arg(bin.join(windows_name(real.library)));
        }
        run_ok(cmd.arg("-o").arg(&linked));
        prefix_made.join().unwrap();
        lines(wine(&linked, &[]), all)
    });
    // The same two programs in the venv's `Scripts\`, found by the walk above
    // the program: the venv is its owner's alone, as the trust rule asks.
    let scripts = venv_dir.join("Scripts");
    place(&stubs, &scripts.join("stubs.exe"));
    place(&rust, &scripts.join("cushim-real-wheels.exe"));
    place(
        &rust.with_file_name("bcryptprimitives.dll"),
        &scripts.join("bcryptprimitives.dll"),
    );
    fs::set_permissions(&scripts, fs::Permissions::from_mode(0o755)).unwrap();
    let rust_only = &rust_reals();
    let from_env = &[("VIRTUAL_ENV", common::wine_path(&venv_dir))];
    let wine = &wine;
    let [nowhere, through_stubs, through_rust, stubs_inside, rust_inside] =
        std::thread::scope(|s| {
            [
                s.spawn(|| lines(wine(&stubs, &[]), all)),
                s.spawn(|| lines(wine(&stubs, from_env), all)),
                s.spawn(|| lines(wine(&rust, from_env), rust_only)),
                s.spawn(|| lines(wine(&scripts.join("stubs.exe"), &[]), all)),
                s.spawn(|| {
                    lines(
                        wine(&scripts.join("cushim-real-wheels.exe"), &[]),
                        rust_only,
                    )
                }),
            ]
            .map(|run| run.join().unwrap())
        });
    assert_not_found(&nowhere);
    assert_eq!(through_stubs, direct, "the stubs through VIRTUAL_ENV");
    assert_eq!(through_rust, of_rust(&direct), "Rust through VIRTUAL_ENV");
    assert_eq!(stubs_inside, direct, "the stubs from the venv's Scripts");
    assert_eq!(
        rust_inside,
        of_rust(&direct),
        "Rust from the venv's Scripts"
    );
    let (on_aarch64, _) = aarch64_lines();
    let expected: Vec<String> = REAL
        .iter()
        .zip(on_aarch64)
        .map(|(real, line)| real.windows.map_or(line.clone(), str::to_string))
        .collect();
    assert_eq!(direct, expected, "Windows as aarch64");
}
