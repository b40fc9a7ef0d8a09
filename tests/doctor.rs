//! `cushim doctor` against the fake drivers: what it prints, and that it fails
//! clearly without a driver or with only the stub.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

use common::{fake_driver, text};

fn doctor(library: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cushim"))
        .arg("doctor")
        .args(args)
        .env("CUSHIM_CUDA_LIBRARY", library)
        .env_remove("CUSHIM_PER_THREAD_DEFAULT_STREAM")
        .output()
        .expect("cushim runs")
}

#[test]
fn a_modern_driver_lists_what_it_lacks() {
    let lib = fake_driver("doctor-modern", &[]);
    let out = doctor(&lib, &[]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.contains("driver version:   13.5 (13050)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("resolution:       cuGetProcAddress_v2"),
        "{stdout}"
    );
    assert!(
        stdout.contains("stream mode:      legacy (flag 1)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("523 functions; 21 available, 502 not"),
        "{stdout}"
    );
    let row = |name: &str| {
        stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .map(str::to_string)
    };
    assert!(row("cuMemAlloc").is_none(), "cuMemAlloc is available");
    let missing = row("cuCtxGetCurrent").expect("listed");
    assert!(
        missing.contains("missing (cuGetProcAddress_v2 status 1)"),
        "{missing}"
    );
}

#[test]
fn an_older_driver_shows_what_it_is_too_old_for() {
    let lib = fake_driver("doctor-12.2", &["-DFAKE_DRIVER_VERSION=12020"]);
    let out = doctor(&lib, &["--stream", "per-thread"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.contains("driver version:   12.2 (12020)"),
        "{stdout}"
    );
    assert!(stdout.contains("stream mode:      per-thread"), "{stdout}");
    let ctx = stdout
        .lines()
        .find(|l| l.starts_with("cuCtxCreate "))
        .expect("cuCtxCreate listed");
    assert!(
        ctx.contains("cuCtxCreate_v4")
            && ctx.contains("driver too old: needs 12.5, driver is 12.2"),
        "{ctx}"
    );
    let twin = stdout
        .lines()
        .find(|l| l.starts_with("cuMemcpyHtoDAsync "))
        .expect("listed");
    assert!(
        twin.contains("cuMemcpyHtoDAsync_v2_ptsz"),
        "per-thread mode checks the twin: {twin}"
    );
}

#[test]
fn no_driver_or_only_the_stub_is_a_clear_failure() {
    let out = doctor(
        &common::target().join("test-scratch/no-such-dir/libcuda.so.1"),
        &[],
    );
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("no CUDA driver: cannot load"), "{stderr}");
    assert!(stderr.contains("hint:"), "{stderr}");

    let stub = fake_driver("doctor-stub", &["-DFAKE_STUB"]);
    let out = doctor(&stub, &[]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("is NVIDIA's stub library"), "{stderr}");

    let out = doctor(Path::new("relative/libcuda.so.1"), &[]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("not an absolute path"), "{stderr}");
}

#[test]
fn doctor_needs_neither_libclang_nor_fetched_headers() {
    let lib = fake_driver("doctor-bare", &[]);
    let cache = common::scratch("doctor-empty-cache");
    let out = Command::new(env!("CARGO_BIN_EXE_cushim"))
        .arg("doctor")
        .env("CUSHIM_CUDA_LIBRARY", &lib)
        .env("CUSHIM_CACHE_DIR", &cache)
        .env("LIBCLANG_PATH", cache.join("no-libclang-here"))
        .env("PATH", "/nonexistent")
        .env_remove("CUSHIM_PER_THREAD_DEFAULT_STREAM")
        .output()
        .expect("cushim runs");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.contains("523 functions; 21 available, 502 not"),
        "{stdout}"
    );
    assert_eq!(
        common::files_under(&cache),
        Vec::<std::path::PathBuf>::new()
    );
}

/// Every library's doctor answers from the data the crate ships: with the
/// network off, an empty cache, no libclang and no python3, each one says
/// whether its library is here (none is, on this machine's search path for
/// the test: every override points at a missing file) and names the file it
/// looked for, never a pip error, and the cache stays empty.
#[test]
fn every_library_s_doctor_is_offline_and_says_whether_it_is_present() {
    let cache = common::scratch("doctor-offline-cache");
    let missing = common::scratch("doctor-offline-missing");
    // Found on this process's PATH; the command itself gets none.
    let unshare = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|d| d.join("unshare"))
        .find(|p| p.is_file())
        .expect("unshare (util-linux) is installed");
    for library in cushim::library::LIBRARIES {
        let mut command = Command::new(&unshare);
        command
            .args(["-n", "--"])
            .arg(env!("CARGO_BIN_EXE_cushim"))
            .args(["doctor", "--lib", library.name])
            .env("CUSHIM_CACHE_DIR", &cache)
            .env("LIBCLANG_PATH", cache.join("no-libclang-here"))
            .env("PATH", "/nonexistent");
        // Each library's own override, at a file that does not exist.
        command.env(library.words.override_var, missing.join("absent.so"));
        let started = std::time::Instant::now();
        let out = command.output().expect("unshare runs");
        let (stdout, stderr) = text(&out);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}: {stdout}{stderr}",
            library.name
        );
        assert!(
            stderr.contains(library.words.label),
            "{}: {stderr}",
            library.name
        );
        assert!(stderr.contains("absent.so"), "{}: {stderr}", library.name);
        assert!(!stderr.contains("pip"), "{}: {stderr}", library.name);
        // Generous: it takes milliseconds; a fetch would take far longer.
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }
    assert_eq!(
        common::files_under(&cache),
        Vec::<std::path::PathBuf>::new()
    );
}

/// On a machine without cuFFT, `doctor --lib cufft` fails and names the file
/// that CUDA 13's cuFFT has (`libcufft.so.12`), not CUDA's major.
#[test]
fn doctor_without_cufft_fails_and_names_its_own_file() {
    let empty = common::scratch("doctor-no-cufft");
    let out = Command::new(env!("CARGO_BIN_EXE_cushim"))
        .args(["doctor", "--lib", "cufft"])
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", &empty)
        .env("CUSHIM_CACHE_DIR", &empty)
        .env("CUDA_HOME", &empty)
        .output()
        .expect("cushim runs");
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    let both = format!("{stdout}{stderr}");
    assert!(both.contains("no cuFFT: cannot load"), "{both}");
    assert!(both.contains("libcufft.so.12"), "{both}");
    assert!(!both.contains("libcufft.so.13"), "{both}");
}

/// Every library a toolkit, conda or pip installs: on a machine without it,
/// `doctor --lib NAME` fails, says so by the library's label and names the
/// file it looked for (for the newest release's major, from the library's
/// description). A cuDNN without its graph library is passed over, and
/// doctor says why.
#[test]
fn doctor_names_each_toolkit_library_s_file_and_passes_over_a_cudnn_without_its_graph_library() {
    let empty = common::scratch("doctor-toolkit-libraries");
    let doctor = |lib: &str, cuda_home: &std::path::Path| {
        let out = Command::new(env!("CARGO_BIN_EXE_cushim"))
            .args(["doctor", "--lib", lib])
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", &empty)
            .env("CUSHIM_CACHE_DIR", &empty)
            .env("CUDA_HOME", cuda_home)
            .output()
            .expect("cushim runs");
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(1), "{lib}: {stdout}{stderr}");
        format!("{stdout}{stderr}")
    };
    let mut checked = 0;
    for library in cushim::library::LIBRARIES {
        // A library the driver installs may be on this machine.
        if library.search == cushim::library::Search::System {
            continue;
        }
        let newest = cushim::pins::all_for(library).pop().unwrap().cuda;
        let major = newest.number() / 1000;
        let names = cushim::library::with_major(library.names_for(major).unix, major);
        let both = doctor(library.name, &empty);
        assert!(
            both.contains(&format!("no {}: cannot load", library.words.label)),
            "{}: {both}",
            library.name
        );
        assert!(both.contains(&names[0]), "{}: {both}", library.name);
        checked += 1;
    }
    assert!(checked > 0);
    // A cuDNN whose graph library is not beside it: cuDNN would abort on
    // its first call, so it is passed over, and doctor says why.
    let toolkit = empty.join("toolkit");
    let lib64 = toolkit.join("lib64");
    std::fs::create_dir_all(&lib64).unwrap();
    let front = lib64.join("libcudnn.so.9");
    let built = Command::new("cc")
        .args(["-shared", "-fPIC", "-O1", "-Wl,-soname,libcudnn.so.9", "-o"])
        .arg(&front)
        .arg(common::root().join("tests/fake/libcudnn.c"))
        .arg("-ldl")
        .status()
        .unwrap();
    assert!(built.success());
    let both = doctor(cushim::library::CUDNN.name, &toolkit);
    assert!(
        both.contains(&format!(
            "it needs `{}` beside it",
            lib64.join("libcudnn_graph.so.9").display()
        )),
        "{both}"
    );
}
