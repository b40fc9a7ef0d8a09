//! A pinned build needs nothing but cushim itself: `tests/offline`, an
//! edition-2024 crate whose build.rs asks for CUDA 13.5 and the merged
//! 11.8..13.5 module with no optional feature, builds and runs with the
//! network off (`unshare -n`, `cargo --offline`), libclang pointing nowhere,
//! python3 and pip shadowed by programs that leave a mark when run, and empty
//! home and cache directories that must stay empty.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{root, scratch};

/// Every path under `dir`, relative, sorted; `target` left out.
fn listing(dir: &Path) -> Vec<PathBuf> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            let rel = p.strip_prefix(base).unwrap().to_path_buf();
            if rel == Path::new("target") {
                continue;
            }
            out.push(rel);
            if p.is_dir() && !p.is_symlink() {
                walk(base, &p, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// A directory of `python3`, `python`, `pip` and `pip3` that each record
/// their call in `marks` and fail.
fn shadowed_tools(dir: &Path, marks: &Path) {
    use std::os::unix::fs::PermissionsExt;
    for tool in ["python3", "python", "pip", "pip3"] {
        let path = dir.join(tool);
        std::fs::write(
            &path,
            format!(
                "#!/bin/sh\necho \"{tool} $*\" >> '{}'\nexit 127\n",
                marks.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

#[test]
fn a_pinned_build_needs_no_network_no_libclang_no_python_and_writes_only_out_dir() {
    let scratch = scratch("offline");
    // Its own target directory, rebuilt on every run: 0.9 GB gone after.
    let _removed = common::RemovedAfter(scratch.clone());
    let (home, cache, xdg, bin, target) = (
        scratch.join("home"),
        scratch.join("cache"),
        scratch.join("xdg"),
        scratch.join("bin"),
        scratch.join("target"),
    );
    for d in [&home, &cache, &xdg, &bin] {
        std::fs::create_dir_all(d).unwrap();
    }
    let marks = scratch.join("marks");
    shadowed_tools(&bin, &marks);
    let crate_dir = root().join("tests/offline");
    let before = listing(&crate_dir);

    // Cargo keeps finding its registry and toolchain where they are.
    let user_home = PathBuf::from(std::env::var_os("HOME").expect("HOME is set"));
    let cargo_home =
        std::env::var_os("CARGO_HOME").map_or_else(|| user_home.join(".cargo"), PathBuf::from);
    let rustup_home =
        std::env::var_os("RUSTUP_HOME").map_or_else(|| user_home.join(".rustup"), PathBuf::from);
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let run = |features: &[&str]| {
        Command::new("unshare")
            .args([
                "-n",
                "--",
                &cargo,
                "run",
                "--quiet",
                "--offline",
                "--locked",
            ])
            .args(features)
            .arg("--manifest-path")
            .arg(crate_dir.join("Cargo.toml"))
            .arg("--target-dir")
            .arg(&target)
            // The toolchain's own variables (RUSTUP_TOOLCHAIN, RUSTC) stay.
            .env_remove("CARGO_TARGET_DIR")
            .env_remove("RUSTFLAGS")
            .env_remove("CUDA_PATH")
            .env_remove("CUDA_HOME")
            .env_remove("BINDGEN_EXTRA_CLANG_ARGS")
            .env("PATH", &path)
            .env("HOME", &home)
            .env("XDG_CACHE_HOME", &xdg)
            .env("CUSHIM_CACHE_DIR", &cache)
            .env("CARGO_HOME", &cargo_home)
            .env("RUSTUP_HOME", &rustup_home)
            .env("LIBCLANG_PATH", scratch.join("no-libclang-here"))
            .env("CUSHIM_CUDA_LIBRARY", common::missing_library())
            .output()
            .expect("unshare runs")
    };
    let out = run(&[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the offline build failed:\n{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("13.5: Err(Load(LibraryNotFound")
            && stdout.contains("11.8..13.5: Err(Load(LibraryNotFound"),
        "both modules answer without a driver:\n{stdout}"
    );
    // Every library, from the data cushim ships, with no feature.
    for library in [
        "nvrtc 11.8",
        "nvrtc 13.5",
        "cublas 13.5",
        "cublas 13.0",
        "nvml 12.9",
        "driver 13.5",
        "cudart 12.9",
        "cufft 12.9",
        "curand 12.6",
        "cusparse 13.0",
        "cusolver 11.8",
        "cudnn 12.6",
        "nccl 13.0",
        "cutensor 12.9",
        "cupti 12.4",
        "nvtx 12.8",
        "cufile 12.8",
    ] {
        assert!(
            stdout.contains(&format!("{library}: Err(Load(LibraryNotFound")),
            "{library} answers without its library:\n{stdout}"
        );
    }
    let untouched = |marks: &Path| {
        assert!(
            !marks.exists(),
            "python3 or pip ran: {}",
            std::fs::read_to_string(marks).unwrap_or_default()
        );
        for d in [&home, &cache, &xdg] {
            assert_eq!(
                listing(d),
                Vec::<PathBuf>::new(),
                "{} was written",
                d.display()
            );
        }
        assert_eq!(
            listing(&crate_dir),
            before,
            "the crate's own directory was written"
        );
    };
    untouched(&marks);
    // Nineteen modules of sixteen libraries, one loader compiled: the
    // runtime twice, for the program with its loader and for the build script
    // as the description alone, and libloading once, for the program only;
    // and no proc macro (askama's, nanoserde's) built for cushim.
    let deps: Vec<String> = std::fs::read_dir(target.join("debug/deps"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let rlibs = |stem: &str| {
        deps.iter()
            .filter(|name| name.starts_with(&format!("lib{stem}-")) && name.ends_with(".rlib"))
            .count()
    };
    assert_eq!(
        rlibs("cushim_runtime"),
        2,
        "the runtime: with and without its loader"
    );
    assert_eq!(rlibs("libloading"), 1, "the loader is compiled once");
    assert!(
        !deps
            .iter()
            .any(|n| n.contains("askama") || n.contains("nanoserde")),
        "a proc macro was built: {deps:?}"
    );

    // What the build wrote is in OUT_DIR, and it is what `generated/` holds.
    let build = target.join("debug/build");
    let out_dir = std::fs::read_dir(&build)
        .unwrap()
        .flatten()
        .map(|e| e.path().join("out"))
        .find(|p| p.join("cuda.rs").is_file())
        .expect("an OUT_DIR with cuda.rs");
    for (written, committed) in [
        ("cuda.rs", "cuda-13.5/cuda.rs"),
        ("cuda_shim.cpp", "cuda-13.5/cuda_shim.cpp"),
        ("cuda_shim.h", "cuda-13.5/cuda_shim.h"),
        ("merged/cuda.rs", "merged/cuda.rs"),
        ("nvrtc-11.8/nvrtc.rs", "cuda-11.8/nvrtc.rs"),
        ("cublas-13.0/cublas_shim.cpp", "cuda-13.0/cublas_shim.cpp"),
        ("nvml-12.9/nvml.rs", "cuda-12.9/nvml.rs"),
        ("family-13.5/cublas.rs", "cuda-13.5/cublas.rs"),
        ("math-12.9/cudart.rs", "cuda-12.9/cudart.rs"),
        ("math-12.9/cufft_shim.cpp", "cuda-12.9/cufft_shim.cpp"),
        ("cusolver-11.8/cusolver.rs", "cuda-11.8/cusolver.rs"),
        ("dnn/nccl.rs", "cuda-13.0/nccl.rs"),
        ("dnn/cutensor_shim.cpp", "cuda-12.9/cutensor_shim.cpp"),
    ] {
        let written = std::fs::read_to_string(out_dir.join(written)).unwrap();
        let committed = std::fs::read_to_string(root().join("generated").join(committed)).unwrap();
        // The provenance's command line differs (`--out`), nothing else.
        let body = |t: &str| {
            t.lines()
                .skip_while(|l| l.starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(body(&written), body(&committed), "{committed}");
    }

    // Options beyond the defaults, for every library, from the IR that the
    // `emit` feature ships: still offline, nothing written outside.
    let out = run(&["--features", "emit"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the offline emit build failed:\n{stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!(
            "allowed: {:?}",
            vec![1; cushim::library::LIBRARIES.len()]
        )) && stdout.contains("allowed nvrtc 12.4: Err(Load(LibraryNotFound"),
        "{stdout}"
    );
    untouched(&marks);
}
