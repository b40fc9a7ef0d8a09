//! Real NVIDIA libraries where no GPU is needed (issue 36): the aarch64 and
//! win_amd64 NVRTC 13.0 wheels, pinned by sha256 in
//! `headers/real-wheels.txt`, compile a saxpy kernel
//! (`tests/real_wheels/saxpy.cpp`) through the committed 13.0 pair under
//! `qemu-aarch64` and under Wine. Each program prints the PTX's size and
//! hash; through the stubs it must print what the same program prints when
//! linked to the library directly, and Windows what aarch64 prints.
//!
//! The wheels are fetched once per cache (`cushim::fetch::cache_dir`, under
//! `real-wheels/`) with `pip download`: 43 MB for aarch64 and 77 MB for
//! Windows; only the libraries stay (104 MB and 95 MB). Without network or
//! tools these tests fail, unless `CUSHIM_SKIP_REAL_WHEELS=1` says to skip
//! them.

use crate::common;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use common::{root, run_ok, scratch};
use sha2::{Digest, Sha256};

/// The cross toolchain's root, where qemu finds the dynamic loader and libc.
const SYSROOT: &str = "/usr/aarch64-linux-gnu";
/// The Rust target of the aarch64 program.
const RUST_TARGET: &str = "aarch64-unknown-linux-gnu";
/// The platform tags of the two wheels, as `pip download --platform` takes them.
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

/// One line of `headers/real-wheels.txt`.
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

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn file_sha256(path: &Path) -> Option<String> {
    fs::read(path).ok().map(|b| sha256(&b))
}

/// The directory that holds the pinned entries of `platform`'s wheel at
/// their paths in the wheel (`nvidia/cu13/...`), once a test run: see
/// [`fetch`].
fn libraries(platform: &'static str) -> PathBuf {
    static AARCH64_DIR: OnceLock<PathBuf> = OnceLock::new();
    static WINDOWS_DIR: OnceLock<PathBuf> = OnceLock::new();
    let once = match platform {
        AARCH64 => &AARCH64_DIR,
        _ => &WINDOWS_DIR,
    };
    once.get_or_init(|| fetch(platform)).clone()
}

/// The cached directory of `platform`'s entries when every one passes its
/// pin, else fetched first with `pip download` (the wheel checked against
/// its pin, then deleted).
fn fetch(platform: &str) -> PathBuf {
    let pins: Vec<Pinned> = pins()
        .into_iter()
        .filter(|p| p.platform == platform)
        .collect();
    let wheel = pins
        .iter()
        .find(|p| p.path == "-")
        .expect("the wheel's pin");
    let entries: Vec<&Pinned> = pins.iter().filter(|p| p.path != "-").collect();
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
    let staging = cache.join(format!(".staging-{platform}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&staging);
    fs::create_dir_all(&staging).unwrap();
    let started = std::time::Instant::now();
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

/// A venv at `venv` (`pyvenv.cfg` at its root) with the wheel's entries in
/// `site` (`lib/python3.12/site-packages` or `Lib/site-packages`); every
/// directory in it writable by its owner alone, as the loader's trust rule
/// asks.
fn venv(venv: &Path, site: &str, platform: &'static str) {
    let libraries = libraries(platform);
    fs::create_dir_all(venv).unwrap();
    fs::write(venv.join("pyvenv.cfg"), "home = /usr/bin\n").unwrap();
    for e in pins()
        .iter()
        .filter(|p| p.platform == platform && p.path != "-")
    {
        place(&libraries.join(&e.path), &venv.join(site).join(&e.path));
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

/// NVRTC's header for 13.0, from the header cache: the 13.0 pair needs it.
fn nvrtc_include() -> PathBuf {
    let pin = cushim::pins::find_for(&cushim::library::NVRTC, "13.0".parse().unwrap()).unwrap();
    cushim::fetch::library_include_dir(&cushim::library::NVRTC, &pin).unwrap()
}

fn generated() -> PathBuf {
    root().join("generated/cuda-13.0")
}

fn saxpy() -> PathBuf {
    root().join("tests/real_wheels/saxpy.cpp")
}

/// The line the program printed, `ptx <size> <hash>`, checked for its shape.
fn ptx_line(stdout: &str) -> String {
    let line = stdout.replace('\r', "").trim().to_string();
    let f: Vec<&str> = line.split(' ').collect();
    assert!(
        f.len() == 3 && f[0] == "ptx" && f[1].parse::<u64>().is_ok_and(|n| n > 500),
        "not a PTX line: {stdout:?}"
    );
    line
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
    cmd
}

/// The PTX line of [`qemu`]'s run, which must succeed.
fn emulate(program: &Path, env: &[(&str, &Path)]) -> String {
    let started = std::time::Instant::now();
    let line = ptx_line(&run_ok(&mut qemu(program, env)));
    eprintln!(
        "real_wheels: {} in {:.1?}",
        program.display(),
        started.elapsed()
    );
    line
}

/// The PTX line of the real aarch64 NVRTC, compiling through the stubs
/// and linked directly, once a test run; asserts that they agree. With the
/// venv it ran from.
fn aarch64_ptx() -> &'static (String, PathBuf) {
    static PTX: OnceLock<(String, PathBuf)> = OnceLock::new();
    PTX.get_or_init(aarch64_runs)
}

fn aarch64_runs() -> (String, PathBuf) {
    need(
        &["aarch64-linux-gnu-g++", "qemu-aarch64"],
        "g++-aarch64-linux-gnu and qemu-user",
    );
    let dir = scratch("real-wheels-aarch64");
    let venv_dir = dir.join("venv");
    venv(&venv_dir, "lib/python3.12/site-packages", AARCH64);
    let include = nvrtc_include();
    let gpp = || {
        let mut c = Command::new("aarch64-linux-gnu-g++");
        c.args(["-std=c++17", "-O2", "-Wall", "-Werror"])
            .arg(format!("-I{}", include.display()))
            .arg(saxpy());
        c
    };
    let stubs = dir.join("stubs");
    run_ok(
        gpp()
            .arg(format!("-I{}", generated().display()))
            .arg(generated().join("nvrtc_shim.cpp"))
            .arg(generated().join("cushim_runtime.cpp"))
            .arg("-o")
            .arg(&stubs),
    );
    // Linked directly, with an RPATH (not a RUNPATH) so that NVRTC's own
    // dlopen of its builtins library searches there too.
    let lib = libraries(AARCH64).join("nvidia/cu13/lib");
    let linked = dir.join("linked");
    run_ok(
        gpp()
            .arg(format!("-L{}", lib.display()))
            .arg(format!("-Wl,--disable-new-dtags,-rpath,{}", lib.display()))
            .arg("-l:libnvrtc.so.13")
            .arg("-o")
            .arg(&linked),
    );
    let direct = emulate(&linked, &[]);
    // Outside the venv and without VIRTUAL_ENV the stubs find no NVRTC.
    let out = qemu(&stubs, &[]).output().unwrap();
    let (stdout, _) = common::text(&out);
    assert!(
        !out.status.success() && stdout.contains("nvrtcCreateProgram"),
        "{stdout}"
    );
    // Through VIRTUAL_ENV.
    assert_eq!(emulate(&stubs, &[("VIRTUAL_ENV", &venv_dir)]), direct);
    // From inside the venv, without VIRTUAL_ENV: the walk above the program.
    let inside = venv_dir.join("bin/saxpy");
    place(&stubs, &inside);
    fs::set_permissions(venv_dir.join("bin"), fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(emulate(&inside, &[]), direct);
    (direct, venv_dir)
}

#[test]
fn the_real_aarch64_nvrtc_compiles_through_the_stubs_as_linked() {
    if skipped() {
        return;
    }
    aarch64_ptx();
}

#[test]
fn the_real_windows_nvrtc_compiles_through_the_stubs_as_linked_and_as_on_aarch64() {
    if skipped() {
        return;
    }
    need(
        &["x86_64-w64-mingw32-g++-posix", "wine"],
        "g++-mingw-w64-x86-64 and wine64",
    );
    let dir = scratch("real-wheels-windows");
    let _prefix = common::RemovedAfter(dir.join("wine-prefix"));
    let venv_dir = dir.join("venv");
    venv(&venv_dir, "Lib/site-packages", WINDOWS);
    let include = nvrtc_include();
    let gpp = || {
        let mut c = Command::new("x86_64-w64-mingw32-g++-posix");
        c.args(["-std=c++17", "-O2", "-Wall", "-Werror", "-static"])
            .arg(format!("-I{}", include.display()))
            .arg(saxpy());
        c
    };
    let stubs = dir.join("stubs.exe");
    run_ok(
        gpp()
            .arg(format!("-I{}", generated().display()))
            .arg(generated().join("nvrtc_shim.cpp"))
            .arg(generated().join("cushim_runtime.cpp"))
            .arg("-o")
            .arg(&stubs),
    );
    // Linked directly to the DLL, run beside it.
    let bin = dir.join("linked");
    let libraries = libraries(WINDOWS);
    for e in pins()
        .iter()
        .filter(|p| p.platform == WINDOWS && p.path != "-")
    {
        let from = libraries.join(&e.path);
        place(&from, &bin.join(from.file_name().unwrap()));
    }
    let linked = bin.join("linked.exe");
    run_ok(
        gpp()
            .arg(bin.join("nvrtc64_130_0.dll"))
            .arg("-o")
            .arg(&linked),
    );
    let wine = |exe: &Path, env: &[(&str, String)]| {
        let mut cmd = Command::new("timeout");
        cmd.args(["120", "wine"])
            .arg(exe)
            .current_dir(&dir)
            .env("WINEPREFIX", dir.join("wine-prefix"))
            .env("WINEDEBUG", "-all")
            .env_remove("VIRTUAL_ENV")
            .env_remove("CONDA_PREFIX")
            .env_remove("CUDA_PATH")
            .envs(env.iter().map(|(k, v)| (*k, v.as_str())));
        cmd
    };
    let ptx = |exe: &Path, env: &[(&str, String)]| {
        let started = std::time::Instant::now();
        let line = ptx_line(&run_ok(&mut wine(exe, env)));
        eprintln!(
            "real_wheels: {} in {:.1?}",
            exe.display(),
            started.elapsed()
        );
        line
    };
    let direct = ptx(&linked, &[]);
    // Without VIRTUAL_ENV the stubs find no NVRTC.
    let out = wine(&stubs, &[]).output().unwrap();
    let (stdout, _) = common::text(&out);
    assert!(
        !out.status.success() && stdout.contains("nvrtcCreateProgram"),
        "{stdout}"
    );
    let venv_wine = format!("Z:{}", venv_dir.display()).replace('/', "\\");
    assert_eq!(ptx(&stubs, &[("VIRTUAL_ENV", venv_wine)]), direct);
    // The same PTX as the aarch64 library's.
    assert_eq!(aarch64_ptx().0, direct);
}

/// The Rust NVRTC module of 13.0 (`tests/real_wheels/rust`), cross-built
/// for aarch64, compiles the same PTX as the C++ program linked directly,
/// from VIRTUAL_ENV and from inside the venv.
#[test]
fn the_real_aarch64_nvrtc_compiles_through_the_rust_module_as_linked() {
    if skipped() {
        return;
    }
    need(&["aarch64-linux-gnu-gcc"], "gcc-aarch64-linux-gnu");
    let have_target = Command::new("rustc")
        .args(["--print", "target-libdir", "--target", RUST_TARGET])
        .output()
        .is_ok_and(|o| {
            o.status.success() && Path::new(String::from_utf8_lossy(&o.stdout).trim()).is_dir()
        });
    assert!(
        have_target,
        "rustup target add {RUST_TARGET} (as .ci/run does), or set CUSHIM_SKIP_REAL_WHEELS=1"
    );
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let target_dir = common::nested_target();
    run_ok(
        Command::new(cargo)
            .args(["build", "--quiet", "--locked", "--target", RUST_TARGET])
            .arg("--manifest-path")
            .arg(root().join("tests/real_wheels/rust/Cargo.toml"))
            .arg("--target-dir")
            .arg(&target_dir)
            .env(
                "CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER",
                "aarch64-linux-gnu-gcc",
            )
            .env_remove("RUSTFLAGS"),
    );
    let program = target_dir
        .join(RUST_TARGET)
        .join("debug/cushim-real-wheels");
    let (direct, venv_dir) = aarch64_ptx();
    assert_eq!(&emulate(&program, &[("VIRTUAL_ENV", venv_dir)]), direct);
    let inside = venv_dir.join("bin/cushim-real-wheels");
    let _ = fs::remove_file(&inside);
    fs::copy(&program, &inside).unwrap();
    assert_eq!(&emulate(&inside, &[]), direct);
}
