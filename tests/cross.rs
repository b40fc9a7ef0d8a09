//! Cross-compiling (issue 36, item 5): a build script runs on the host and
//! generates for the target, and cushim's output is the same for every
//! target and every host (what differs between systems, the output picks
//! with `cfg(windows)` and `#ifdef _WIN32`).
//!
//! - `tests/cross`, whose build.rs generates the driver's and NVRTC's 13.5
//!   modules from the IR cushim ships, is built for this machine and for
//!   x86_64-pc-windows-gnu (the build script still runs here, with cargo's
//!   `TARGET` set to Windows). Run natively and under Wine, each program
//!   reports its own system's items: `cuWGLGetDevice` and `nvcuda.dll` on
//!   Windows, neither but `libcuda.so.1` here. The two build scripts wrote
//!   the same bytes, and the Windows build's C++ pair compiles with mingw-w64
//!   to an object that defines `cuWGLGetDevice`.
//! - The reverse, a Windows host: the same program, built for Windows and run
//!   under Wine, generates the modules through cushim's library API (the
//!   emitters and the writer, from the shipped IR) into its `OUT_DIR`, byte
//!   for byte what it generates here and what `generated/cuda-13.5` commits.
//! - Reading headers, bindgen takes the target from cargo's `TARGET` unless
//!   told: the types must be read for the functions' target, whatever
//!   `TARGET` says.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{include_dir, root, run_ok, scratch, text};

const WINDOWS: &str = "x86_64-pc-windows-gnu";

/// Builds `tests/cross` in the nested target directory, for `target` or for
/// this machine; returns the program's path.
fn build(target: Option<&str>) -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "--quiet", "--locked", "--manifest-path"])
        .arg(root().join("tests/cross/Cargo.toml"))
        .arg("--target-dir")
        .arg(common::nested_target())
        .env_remove("RUSTFLAGS");
    if let Some(t) = target {
        cmd.args(["--target", t]).env(
            "CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER",
            "x86_64-w64-mingw32-gcc",
        );
    }
    run_ok(&mut cmd);
    let dir = match target {
        Some(t) => common::nested_target().join(t),
        None => common::nested_target(),
    };
    let exe = if target == Some(WINDOWS) { ".exe" } else { "" };
    dir.join(format!("debug/cushim-cross{exe}"))
}

/// The OUT_DIR that the last run of the build script for `target` (or this
/// machine) wrote: the newest of the package's.
fn out_dir(target: Option<&str>) -> PathBuf {
    let dir = match target {
        Some(t) => common::nested_target().join(t),
        None => common::nested_target(),
    };
    std::fs::read_dir(dir.join("debug/build"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("cushim-cross-"))
        .map(|e| e.path().join("out"))
        .filter(|out| out.join("cuda.rs").is_file())
        .max_by_key(|out| {
            std::fs::metadata(out.join("cuda.rs"))
                .and_then(|m| m.modified())
                .unwrap()
        })
        .expect("the build script wrote cuda.rs")
}

/// Every file of `dir` (no subdirectory) by name, with its bytes.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

/// The program's report: its `key: value` lines, in order (`\r\n` or `\n`).
fn report(stdout: &str) -> Vec<(String, String)> {
    stdout
        .lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn value<'a>(report: &'a [(String, String)], key: &str) -> &'a str {
    report
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("no `{key}` in {report:?}"))
}

/// The entries of the Rust module's `FUNCTIONS` that only Windows has.
fn windows_only_functions(module: &str) -> usize {
    module
        .lines()
        .filter(|l| l.trim_start().starts_with("#[cfg(windows)] &__cushim_fn_"))
        .count()
}

/// `g++ -c` of the pair's source with `compiler`; the object's global
/// symbols (`nm -g`).
fn pair_symbols(compiler: &str, nm: &str, dir: &Path, object: &Path) -> String {
    let include = include_dir("13.5");
    run_ok(
        Command::new(compiler)
            .args(["-std=c++17", "-Wall", "-Wextra", "-Werror", "-O0", "-c"])
            .arg(format!("-I{}", include.display()))
            .arg(format!("-I{}", dir.display()))
            .arg(dir.join("cuda_shim.cpp"))
            .arg("-o")
            .arg(object),
    );
    run_ok(Command::new(nm).arg("-g").arg(object))
}

/// Whether `nm`'s listing defines `symbol` in the text section.
fn defines(nm: &str, symbol: &str) -> bool {
    nm.lines().any(|l| l.ends_with(&format!(" T {symbol}")))
}

#[test]
fn a_build_script_on_linux_generates_what_a_windows_build_needs_and_back() {
    if !(common::have("x86_64-w64-mingw32-gcc")
        && common::have("x86_64-w64-mingw32-g++-posix")
        && common::have("wine")
        && common::have_rust_target(WINDOWS))
    {
        assert!(
            std::env::var_os("CUSHIM_SKIP_WINDOWS").is_some(),
            "install g++-mingw-w64-x86-64, wine64 and the {WINDOWS} Rust target (as .ci/run does), or set CUSHIM_SKIP_WINDOWS=1"
        );
        return;
    }
    let linux_exe = build(None);
    let windows_exe = build(Some(WINDOWS));
    let dir = scratch("cross");
    // Its wine prefix weighs 0.7 GB.
    let _removed = common::RemovedAfter(dir.clone());

    // The C++ pairs compile while the programs run.
    let (linux_out, windows_out) = (out_dir(None), out_dir(Some(WINDOWS)));
    let cpp = {
        let (dir, windows_out) = (dir.clone(), windows_out.clone());
        std::thread::spawn(move || {
            let windows = pair_symbols(
                "x86_64-w64-mingw32-g++-posix",
                "x86_64-w64-mingw32-nm",
                &windows_out,
                &dir.join("windows.o"),
            );
            let linux = pair_symbols("g++", "nm", &windows_out, &dir.join("linux.o"));
            (windows, linux)
        })
    };

    // Here: the build script ran for this machine.
    let here =
        run_ok(Command::new(&linux_exe).env("CUSHIM_CUDA_LIBRARY", common::missing_library()));
    let here = report(&here);
    let host = value(&here, "build script host");
    assert_eq!(value(&here, "build script target"), host, "{here:?}");
    assert_eq!(value(&here, "build script target os"), "linux");
    assert_eq!(value(&here, "driver names"), "libcuda.so.1");
    assert_eq!(value(&here, "driver cuWGLGetDevice"), "false");
    assert_eq!(value(&here, "driver cuInit"), "true");
    assert_eq!(value(&here, "nvrtc names"), "libnvrtc.so.13");
    assert!(
        value(&here, "driver cuInit call").starts_with("Err(Load(LibraryNotFound"),
        "{here:?}"
    );

    // Windows, under Wine: the build script ran here for Windows.
    let exe = dir.join("cushim-cross.exe");
    std::fs::copy(&windows_exe, &exe).unwrap();
    common::wine_bcryptprimitives(&dir);
    let wine = |env: &[(&str, &str)], args: &[&str]| {
        run_ok(
            Command::new("wine")
                .arg(&exe)
                .args(args)
                .current_dir(&dir)
                .env("WINEPREFIX", dir.join("wine-prefix"))
                .env("WINEDEBUG", "-all")
                .envs(env.iter().copied()),
        )
    };
    let there = report(&wine(&[], &[]));
    assert_eq!(value(&there, "build script host"), host, "{there:?}");
    assert_eq!(value(&there, "build script target"), WINDOWS);
    assert_eq!(value(&there, "build script target os"), "windows");
    assert_eq!(value(&there, "driver names"), "nvcuda.dll");
    assert_eq!(value(&there, "driver cuWGLGetDevice"), "true");
    assert_eq!(value(&there, "driver cuInit"), "true");
    assert_eq!(value(&there, "nvrtc names"), "nvrtc64_130_0.dll");
    assert!(
        value(&there, "driver cuWGLGetDevice call").starts_with("Err("),
        "{there:?}"
    );
    // The one module lists the Windows-only functions only there.
    let module = std::fs::read_to_string(windows_out.join("cuda.rs")).unwrap();
    let only = windows_only_functions(&module);
    assert!(only >= 1, "no `#[cfg(windows)]` function in cuda.rs");
    let count = |report: &[(String, String)]| -> usize {
        value(report, "driver functions").parse().unwrap()
    };
    assert_eq!(count(&there), count(&here) + only);
    assert_eq!(
        value(&there, "nvrtc functions"),
        value(&here, "nvrtc functions")
    );

    // The Windows build's script asked cargo to rerun when bindgen's extra
    // arguments for Windows change.
    let output = std::fs::read_to_string(windows_out.with_file_name("output")).unwrap();
    for var in [
        "BINDGEN_EXTRA_CLANG_ARGS",
        "BINDGEN_EXTRA_CLANG_ARGS_x86_64-pc-windows-gnu",
        "BINDGEN_EXTRA_CLANG_ARGS_x86_64_pc_windows_gnu",
    ] {
        let line = format!("cargo:rerun-if-env-changed={var}");
        assert!(output.lines().any(|l| l == line), "no {line}:\n{output}");
    }

    // The two build scripts wrote the same bytes: the output does not
    // depend on the target.
    let written = contents(&linux_out);
    let names: Vec<&str> = written.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "cuda.rs",
            "cuda_shim.cpp",
            "cuda_shim.h",
            "cushim_runtime.cpp",
            "cushim_runtime.h",
            "nvrtc.rs",
            "nvrtc_shim.cpp",
            "nvrtc_shim.h"
        ]
    );
    assert!(
        written == contents(&windows_out),
        "{} and {} differ",
        linux_out.display(),
        windows_out.display()
    );

    // A Windows host: cushim built for Windows generates, under Wine, into
    // the `OUT_DIR` a build script there would get, what it generates here,
    // over a stale file (a rename over an existing file).
    let (on_windows, on_linux) = (dir.join("windows/out"), dir.join("linux/out"));
    std::fs::create_dir_all(&on_windows).unwrap();
    std::fs::write(on_windows.join("cuda.rs"), "stale\n").unwrap();
    let wine_dir = format!("Z:{}", on_windows.display()).replace('/', "\\");
    wine(&[("OUT_DIR", &wine_dir)], &["generate"]);
    run_ok(Command::new(&linux_exe).arg("generate").arg(&on_linux));
    let generated = contents(&on_linux);
    assert!(
        generated == contents(&on_windows),
        "{} and {} differ",
        on_linux.display(),
        on_windows.display()
    );
    // And it is what the build scripts wrote, and what `generated/` commits.
    assert!(generated == written, "{} differs", on_linux.display());
    for (name, bytes) in &written {
        let committed = std::fs::read(root().join("generated/cuda-13.5").join(name)).unwrap();
        assert!(*bytes == committed, "{name} is not generated/cuda-13.5's");
    }
    assert!(
        !written.iter().any(|(_, bytes)| bytes.contains(&b'\r')),
        "a carriage return"
    );

    // The Windows build's C++ pair declares and defines the Windows-only
    // function for mingw-w64, and not for this machine.
    let (windows_nm, linux_nm) = cpp.join().unwrap();
    assert!(defines(&windows_nm, "cuWGLGetDevice"), "{windows_nm}");
    assert!(defines(&windows_nm, "cuInit"), "{windows_nm}");
    assert!(!defines(&linux_nm, "cuWGLGetDevice"), "{linux_nm}");
    assert!(defines(&linux_nm, "cuInit"), "{linux_nm}");
}

/// Reading headers (`header`, `docs`), the types come from bindgen, which in
/// a build script reads cargo's `TARGET`: the output must not change with it.
/// cushim's command line runs the same pipeline as `Builder::generate`.
#[test]
fn a_build_for_another_target_reads_the_headers_as_a_build_for_this_one() {
    let dir = scratch("cross-types");
    let fixture = common::fixture("types");
    let generate = |target: Option<&str>, args: &[&str], out: &Path| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_cushim"));
        cmd.arg("generate")
            .args(args)
            .arg("--out")
            .arg(out)
            .current_dir(root())
            .env_remove("BINDGEN_EXTRA_CLANG_ARGS");
        match target {
            Some(t) => cmd.env("TARGET", t),
            None => cmd.env_remove("TARGET"),
        };
        let o = cmd.output().unwrap();
        let (stdout, stderr) = text(&o);
        assert!(
            o.status.success(),
            "TARGET={target:?} {args:?}:\n{stdout}\n{stderr}"
        );
        contents(out)
    };
    // The fixture includes stddef.h, which bindgen finds for no MSVC target
    // on Linux; the release's cuda.h includes stdlib.h, which mingw-w64's
    // headers would bring in (and its malloc.h, gcc's mm_malloc.h).
    let header = ["--header", fixture.to_str().unwrap(), "--lang", "rust"];
    // `docs` reads the release's cached headers: fetched first if need be.
    let _ = include_dir("13.5");
    let docs = ["--cuda", "13.5", "--docs"];
    let cases: [(&str, &[&str]); 2] = [("fixture", &header), ("release", &docs)];
    for (name, args) in cases {
        let expected = generate(None, args, &dir.join(name).join("host"));
        for target in [
            "x86_64-pc-windows-msvc",
            WINDOWS,
            "aarch64-unknown-linux-gnu",
        ] {
            let got = generate(Some(target), args, &dir.join(name).join(target));
            assert!(got == expected, "{name} for {target} differs");
        }
    }
}
