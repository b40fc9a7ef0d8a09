//! A pinned build needs nothing but cushim itself: `tests/offline`, an
//! edition-2024 crate whose build.rs asks for CUDA 13.5 and the merged
//! 11.8..13.5 module with no optional feature, builds and runs with the
//! network off (`unshare -n`, `cargo --offline`), libclang pointing nowhere,
//! python3 and pip shadowed by programs that leave a mark when run, and empty
//! home and cache directories that must stay empty. The same build asks for
//! every library of the registry at a release of its own (`build.rs`), and
//! with `--features emit` for an option beyond the defaults of each.

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

/// The OUT_DIR of the offline crate's build script that holds `path`.
fn out_dir_with(target: &Path, path: &str) -> PathBuf {
    std::fs::read_dir(target.join("debug/build"))
        .unwrap()
        .flatten()
        .map(|e| e.path().join("out"))
        .find(|p| p.join(path).exists())
        .unwrap_or_else(|| panic!("an OUT_DIR with {path}"))
}

/// The modules the build script wrote into `out_dir` (`modules.txt`): each
/// library's name, release and file stem. Asserts that they are every
/// library of the registry, in its order.
fn modules(out_dir: &Path) -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(out_dir.join("modules.txt")).unwrap();
    let modules: Vec<(String, String, String)> = text
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            (f[0].to_string(), f[1].to_string(), f[2].to_string())
        })
        .collect();
    let names: Vec<&str> = modules.iter().map(|m| m.0.as_str()).collect();
    let registry: Vec<&str> = cushim::library::LIBRARIES.iter().map(|l| l.name).collect();
    assert_eq!(names, registry, "a module of every library");
    modules
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
    // A module of every library and the driver's two, one loader
    // compiled: the runtime twice, for the program with its loader and for
    // the build script as the description alone, and libloading once, for
    // the program only; and no proc macro (askama's, nanoserde's) built for
    // cushim.
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
    let out_dir = out_dir_with(&target, "cuda.rs");
    let mut same = vec![
        ("cuda.rs".to_string(), "cuda-13.5/cuda.rs".to_string()),
        ("cuda_shim.cpp".into(), "cuda-13.5/cuda_shim.cpp".into()),
        ("cuda_shim.h".into(), "cuda-13.5/cuda_shim.h".into()),
        ("merged/cuda.rs".into(), "merged/cuda.rs".into()),
    ];
    // Every library of the registry answers without its library, from the
    // data cushim ships, with no feature; each module of a release that
    // `generated/` commits is the committed one.
    for (name, release, stem) in modules(&out_dir) {
        assert!(
            stdout.contains(&format!("{name} {release}: Err(LibraryNotFound")),
            "{name} {release} answers without its library:\n{stdout}"
        );
        let dir = format!("cuda-{release}");
        if root()
            .join("generated")
            .join(&dir)
            .join(format!("{stem}.rs"))
            .is_file()
        {
            for file in [
                format!("{stem}.rs"),
                format!("{stem}_shim.cpp"),
                format!("{stem}_shim.h"),
            ] {
                same.push((format!("every/{file}"), format!("{dir}/{file}")));
            }
        }
    }
    assert!(same.len() > 4, "no library's release is a committed one");
    for (written, committed) in same {
        let written = std::fs::read_to_string(out_dir.join(written)).unwrap();
        let committed = std::fs::read_to_string(root().join("generated").join(&committed)).unwrap();
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
        )),
        "{stdout}"
    );
    for (name, release, _) in modules(&out_dir_with(&target, "allowed")) {
        assert!(
            stdout.contains(&format!("allowed {name} {release}: Err(LibraryNotFound")),
            "{stdout}"
        );
    }
    untouched(&marks);
}
