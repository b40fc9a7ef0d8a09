//! Libraries besides the driver, generated from their pinned headers and run
//! against fakes of each (`tests/fake/lib*.c`) in the layouts users install
//! them in (issue 13): NVML binds `nvmlInit_v2` for `nvmlInit`, nvJitLink the
//! export of its header's own minor, a missing library answers each
//! library's own code, a missing function fails alone, and the search finds
//! pip wheels (by `VIRTUAL_ENV`, `CONDA_PREFIX` and above the executable),
//! conda, the system loader (`LD_LIBRARY_PATH`), a toolkit, a copy already
//! loaded and the directory of a loaded family member, in NVIDIA's own
//! finder's order, binding only the header's major, and NVRTC gets the
//! builtins it opens by name from its own directory. Every scenario runs in
//! Rust and in C++.

use crate::common;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use common::{root, run_ok, scratch, text, CXXFLAGS};

/// Every library of the registry but the driver (whose own programs are
/// `tests/consumer` and `tests/cpp`), with the release its modules are
/// generated for, which its fake names (`family-release:` in
/// `tests/fake/lib<name>.c`). Asserts that each has its fake and its
/// scenarios in both programs (`tests/fake/<name>.rs`, `<name>.cpp`): a
/// library without them fails here, never skipped.
pub(crate) fn libraries() -> Vec<(&'static cushim::library::Library, String)> {
    cushim::library::LIBRARIES
        .iter()
        .copied()
        .filter(|l| l.name != cushim::library::DRIVER.name)
        .map(|library| {
            let fake = root().join(format!("tests/fake/lib{}.c", library.name));
            let text = std::fs::read_to_string(&fake)
                .unwrap_or_else(|e| panic!("{}: {e}", fake.display()));
            let release = text
                .lines()
                .find_map(|l| l.split("family-release: ").nth(1))
                .and_then(|rest| rest.split_whitespace().next())
                .unwrap_or_else(|| panic!("{} names no family-release", fake.display()))
                .to_string();
            for scenarios in ["rs", "cpp"] {
                let path = root().join(format!("tests/fake/{}.{scenarios}", library.name));
                assert!(path.is_file(), "{} is missing", path.display());
            }
            (library, release)
        })
        .collect()
}

/// The Rust program's `libraries.rs`: each library's module and its
/// scenarios, and `which`, `present` and `absent` over them.
fn libraries_rs(dir: &Path) -> String {
    let libraries = libraries();
    let mut text = String::from("// Written by tests/family.rs from cushim's registry.\n");
    let arms = |call: &dyn Fn(&str) -> String| -> String {
        libraries
            .iter()
            .map(|(l, _)| format!("        {:?} => {},\n", l.name, call(l.name)))
            .collect()
    };
    for (library, _) in &libraries {
        let (name, stem) = (library.name, library.stem);
        text.push_str(&format!(
            "\n#[allow(clippy::pedantic, missing_docs)]\nmod {name} {{\n    include!({:?});\n}}\n\nmod {name}_scenarios {{\n    #[allow(unused_imports)]\n    use super::*;\n    include!({:?});\n}}\n",
            dir.join(format!("{stem}.rs")).display().to_string(),
            root().join(format!("tests/fake/{name}.rs")).display().to_string(),
        ));
    }
    let unknown = "        other => panic!(\"unknown library {other}\"),\n";
    text.push_str(&format!(
        "\n/// Where `lib`'s loader found it, or why it found none.\nfn which(lib: &str) {{\n    match lib {{\n{}{unknown}    }}\n}}\n",
        arms(&|name| format!("which!({name})"))
    ));
    for scenario in ["present", "absent"] {
        text.push_str(&format!(
            "\n/// `lib`'s own calls, library {scenario}, then `which`.\nfn {scenario}(lib: &str) {{\n    match lib {{\n{}{unknown}    }}\n    which(lib);\n}}\n",
            arms(&|name| format!("{name}_scenarios::{scenario}()"))
        ));
    }
    text
}

/// The C++ program's `libraries.h`: each library's pair header, `which`, its
/// scenarios, and `present` and `absent` over them.
fn libraries_h() -> String {
    let libraries = libraries();
    let mut text = String::from("// Written by tests/family.rs from cushim's registry.\n");
    for (library, _) in &libraries {
        text.push_str(&format!("#include \"{}_shim.h\"\n", library.stem));
    }
    let unknown = "    {\n        std::fprintf(stderr, \"unknown library %s\\n\", lib);\n        std::exit(2);\n    }\n";
    text.push_str("\n// Where the library's stubs found it, or why they found none (after\n// asking for its version function).\nstatic void which(const char *lib) {\n");
    for (library, _) in &libraries {
        let (name, stem) = (library.name, library.stem);
        let upper = stem.to_uppercase();
        let version = library.version.name.to_str().unwrap();
        text.push_str(&format!(
            "    if (std::strcmp(lib, \"{name}\") == 0) {{\n        if (cushim_{stem}_load() == CUSHIM_{upper}_OK)\n            std::printf(\"path=%s version=%u\\n\", cushim_{stem}_library_path(), cushim_{stem}_library_version());\n        else\n            std::printf(\"error=%s\\n\", (cushim_{stem}_function_status(\"{version}\"), cushim_{stem}_last_message()));\n        return;\n    }}\n"
        ));
    }
    text.push_str(unknown);
    text.push_str("}\n\n");
    for (library, _) in &libraries {
        text.push_str(&format!(
            "#include \"{}\"\n",
            root()
                .join(format!("tests/fake/{}.cpp", library.name))
                .display()
        ));
    }
    for scenario in ["present", "absent"] {
        text.push_str(&format!(
            "\n// The library's own calls, library {scenario}, then `which`.\nstatic void {scenario}(const char *lib) {{\n"
        ));
        for (library, _) in &libraries {
            text.push_str(&format!(
                "    if (std::strcmp(lib, \"{0}\") == 0) {{\n        {0}_{scenario}();\n        which(lib);\n        return;\n    }}\n",
                library.name
            ));
        }
        text.push_str(unknown);
        text.push_str("}\n");
    }
    text
}

/// The two programs, built once against modules generated for CUDA 13.5.
struct Programs {
    rust: PathBuf,
    cpp: PathBuf,
}

fn programs() -> &'static Programs {
    static BUILT: OnceLock<Programs> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = scratch("family");
        let mut includes = Vec::new();
        for (library, release) in libraries() {
            let lib = library.name;
            cushim::Builder::new()
                .library(lib)
                .cuda_version(&release)
                .languages(&[cushim::Language::Rust, cushim::Language::Cpp])
                .out_dir(&dir)
                .generate()
                .unwrap_or_else(|e| panic!("{lib}: {e}"));
            let pin = cushim::pins::find_for(library, release.parse().unwrap()).unwrap();
            includes.push(cushim::fetch::library_include_dir(library, &pin).unwrap());
        }
        std::fs::write(dir.join("libraries.rs"), libraries_rs(&dir)).unwrap();
        std::fs::write(dir.join("libraries.h"), libraries_h()).unwrap();
        // A host-only <nv/target> for the runtime's half-precision headers,
        // which the cuBLAS headers include (a toolkit has CCCL's own).
        includes.push(root().join("headers/foreign"));
        let target = common::nested_target();
        run_ok(
            Command::new(env!("CARGO"))
                .args([
                    "build",
                    "--offline",
                    "--locked",
                    "--quiet",
                    "--manifest-path",
                ])
                .arg(root().join("tests/family-consumer/Cargo.toml"))
                .arg("--target-dir")
                .arg(&target)
                .env("CUSHIM_FAMILY_DIR", &dir),
        );
        let cpp = dir.join("family-cpp");
        let mut cmd = Command::new("g++");
        cmd.args(CXXFLAGS);
        for i in &includes {
            cmd.arg(format!("-I{}", i.display()));
        }
        cmd.arg(format!("-I{}", dir.display()))
            .arg(root().join("tests/cpp/family.cpp"))
            .args(
                libraries()
                    .iter()
                    .map(|(library, _)| dir.join(format!("{}_shim.cpp", library.stem))),
            )
            // One runtime, whatever the number of pairs.
            .arg(dir.join("cushim_runtime.cpp"))
            .arg("-lm")
            .arg("-o")
            .arg(&cpp);
        run_ok(&mut cmd);
        // The stubs stand in for the libraries: no -l of theirs.
        let needed = run_ok(Command::new("readelf").arg("-d").arg(&cpp));
        for (library, _) in libraries() {
            let lib = format!("lib{}", library.link_name);
            assert!(!needed.contains(&lib), "{lib} in\n{needed}");
        }
        Programs {
            rust: target.join("debug/cushim-family-consumer"),
            cpp,
        }
    })
}

/// Builds the fake `lib` as `dir/<its soname>` with C defines, linked
/// against the fakes it needs (which must be built first in `dir`) with no
/// run path, as the real ones are: only a loader that loads those first from
/// the same directory can open it by path. Returns its path.
fn fake(lib: &str, dir: &Path, defines: &[&str]) -> PathBuf {
    // Its file name and what it needs, for CUDA 13, from its description.
    let library = cushim::library::by_name(lib).unwrap();
    let soname = cushim::library::with_major(library.names_for(13).unix, 13).remove(0);
    // Those in the same directory (not a wheel's relative path).
    let needs = cushim::library::with_major(library.preload_for(13).unix, 13);
    let needs: Vec<String> = needs
        .iter()
        .filter(|n| !n.contains('/'))
        .map(|n| format!("-l:{n}"))
        .collect();
    let soname = soname.as_str();
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(soname);
    run_ok(
        Command::new("cc")
            .args(["-shared", "-fPIC", "-O1", "-Wall", "-Werror"])
            .arg(format!("-Wl,-soname,{soname}"))
            .arg("-o")
            .arg(&path)
            .arg(root().join(format!("tests/fake/lib{lib}.c")))
            .args(defines)
            .args(["-L", "."])
            .args(&needs)
            .arg("-lm")
            .current_dir(dir),
    );
    path
}

/// Runs `program SCENARIO ARGS` with only `env` set (and `PATH`), from
/// `cwd`; asserts it printed `ok: SCENARIO`. Returns stdout.
fn run(program: &Path, args: &[&str], env: &[(&str, &Path)], cwd: &Path) -> String {
    let mut cmd = Command::new("timeout");
    cmd.arg("60")
        .arg(program)
        .args(args)
        .env_clear()
        .current_dir(cwd);
    cmd.env("PATH", std::env::var_os("PATH").unwrap_or_default());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let (stdout, stderr) = text(&out);
    assert!(
        out.status.success() && stdout.contains(&format!("ok: {}", args[0])),
        "{} {args:?} with {env:?} failed ({}):\n{stdout}\n{stderr}",
        program.display(),
        out.status
    );
    stdout
}

/// Both programs' output for one scenario.
fn both(args: &[&str], env: &[(&str, &Path)], cwd: &Path) -> [String; 2] {
    let p = programs();
    [run(&p.rust, args, env, cwd), run(&p.cpp, args, env, cwd)]
}

#[test]
fn each_library_binds_the_export_its_header_names_and_a_missing_function_fails_alone() {
    let dir = scratch("family-bind");
    for lib in ["nvrtc", "nvml", "nvjitlink"] {
        fake(lib, &dir, &[]);
    }
    let [rust, cpp] = both(
        &["present", "nvml", "nvrtc", "nvjitlink"],
        &[("LD_LIBRARY_PATH", &dir)],
        &dir,
    );
    // nvmlInit is nvmlInit_v2 (the fake's v1 nvmlInit answers 999, which fails the run).
    assert!(
        rust.contains("nvml: nvmlInit -> nvmlInit_v2 ok, devices 1"),
        "{rust}"
    );
    assert!(cpp.contains("nvml: nvmlInit ok, devices 1"), "{cpp}");
    // nvJitLinkCreate is the 13.5 header's own export.
    assert!(
        rust.contains("nvjitlink: nvJitLinkCreate -> __nvJitLinkCreate_13_5"),
        "{rust}"
    );
    assert!(cpp.contains("nvjitlink: nvJitLinkCreate ok"), "{cpp}");
    // The fake lacks nvrtcGetTileIRSize: NVRTC's failure code (11) for it
    // alone; destroying the program afterwards still works.
    assert!(
        rust.contains("nvrtc: nvrtcGetTileIRSize: `nvrtcGetTileIRSize`: the NVRTC at `libnvrtc.so.13` does not provide `nvrtcGetTileIRSize`"),
        "{rust}"
    );
    assert!(rust.contains("nvrtc: nvrtcGetTileIRSize code 11"), "{rust}");
    assert!(
        cpp.contains("nvrtc: nvrtcGetTileIRSize code 11 status 3"),
        "{cpp}"
    );
    // With the library there, the library answers the error string.
    for out in [&rust, &cpp] {
        assert!(
            out.contains("nvrtcGetErrorString(0) = fake: success"),
            "{out}"
        );
    }
}

#[test]
fn an_nvjitlink_older_than_the_header_is_a_typed_error_and_outdated_library_in_cpp() {
    let dir = scratch("family-old-nvjitlink");
    let old = fake("nvjitlink", &dir, &["-DFAKE_MINOR=2"]);
    let [rust, cpp] = both(
        &["old-nvjitlink"],
        &[("CUSHIM_NVJITLINK_LIBRARY", &old)],
        &dir,
    );
    let why = "nvJitLink too old: `nvJitLinkCreate` needs nvJitLink 13.5, nvJitLink is 13.2";
    assert!(rust.contains(&format!("nvjitlink: {why}")), "{rust}");
    // NVJITLINK_ERROR_OUTDATED_LIBRARY, without asking the library.
    assert!(rust.contains("nvjitlink: raw code 14"), "{rust}");
    assert!(
        cpp.contains(&format!("nvjitlink: raw code 14: {why}")),
        "{cpp}"
    );
    for out in [&rust, &cpp] {
        assert!(out.contains("nvjitlink: version 13.2"), "{out}");
    }
}

#[test]
fn without_the_libraries_each_answers_its_own_not_found_code_and_its_strings() {
    let dir = scratch("family-absent");
    let [rust, cpp] = both(&["absent", "nvml", "nvrtc", "nvjitlink", "nccl"], &[], &dir);
    for out in [&rust, &cpp] {
        // NVML_ERROR_LIBRARY_NOT_FOUND, NVRTC_ERROR_INTERNAL_ERROR, NVJITLINK_ERROR_INTERNAL.
        assert!(out.contains("nvml: nvmlInit code 12"), "{out}");
        assert!(
            out.contains("nvml: NVML library not found; tried `libnvidia-ml.so.1`"),
            "{out}"
        );
        assert!(out.contains("nvrtc: nvrtcCreateProgram code 11"), "{out}");
        assert!(out.contains("nvjitlink: nvJitLinkCreate code 6"), "{out}");
        assert!(
            out.contains("nvjitlink: nvJitLink library not found; tried"),
            "{out}"
        );
        assert!(
            out.contains(
                "or set CUSHIM_NVJITLINK_LIBRARY to the absolute path of `libnvJitLink.so.13`"
            ),
            "{out}"
        );
        // Without the library a status's text is the constant's C name,
        // from the header's enum: what NVRTC itself answers, and never an
        // invented word where the library's own text is unknown (NCCL's).
        assert!(
            out.contains("nvrtcGetErrorString(6) = NVRTC_ERROR_COMPILATION"),
            "{out}"
        );
        assert!(
            out.contains("nccl: ncclGetErrorString(2) = ncclSystemError"),
            "{out}"
        );
        assert!(
            out.contains("nvrtcGetErrorString(12345) = unrecognized status"),
            "{out}"
        );
        assert!(
            out.contains("nvmlErrorString(12) = NVML_ERROR_LIBRARY_NOT_FOUND"),
            "{out}"
        );
    }
    // NVML is searched like the driver: the system loader only.
    assert!(
        !rust.contains("/usr/local/cuda/lib64/libnvidia-ml.so.1"),
        "{rust}"
    );
}

/// The fake trees of the search test: each copy of NVRTC reports its own
/// minor, so the version says which copy won.
struct Trees {
    root: PathBuf,
}

impl Trees {
    fn new(name: &str) -> Trees {
        let root = scratch(name);
        let nvrtc = |dir: &str, minor: u32| {
            fake(
                "nvrtc",
                &root.join(dir),
                &[&format!("-DFAKE_MINOR={minor}")],
            );
        };
        nvrtc("venv/lib/python3.12/site-packages/nvidia/cu13/lib", 1);
        // A virtual environment says so; a directory that only looks like
        // one (`notenv`) is no place the search above the executable takes.
        std::fs::write(root.join("venv/pyvenv.cfg"), "home = /usr/bin\n").unwrap();
        nvrtc("notenv/lib/python3.12/site-packages/nvidia/cu13/lib", 5);
        nvrtc(
            "conda/lib/python3.11/site-packages/nvidia/cuda_nvrtc/lib",
            2,
        );
        nvrtc("conda-lib-only/lib", 3);
        nvrtc("toolkit/lib64", 4);
        nvrtc("system", 6);
        nvrtc("elsewhere", 7);
        nvrtc("family", 8);
        fake("cudart", &root.join("family"), &[]);
        fake(
            "nvrtc",
            &root.join("wrong/lib/python3.12/site-packages/nvidia/cu13/lib"),
            &["-DFAKE_MAJOR=12", "-DFAKE_MINOR=9"],
        );
        Trees { root }
    }

    fn path(&self, dir: &str) -> PathBuf {
        self.root.join(dir)
    }

    /// Runs `which nvrtc` (or `args`) in both programs; asserts both found
    /// `path` reporting `version`.
    fn expect(&self, args: &[&str], env: &[(&str, &Path)], path: &str, version: u32) {
        for out in both(args, env, &self.root) {
            let want = format!("path={path} version={version}");
            assert!(out.contains(&want), "{args:?} {env:?}: want {want}:\n{out}");
        }
    }
}

#[test]
fn the_search_finds_each_install_layout_in_order_and_only_the_headers_major() {
    let t = Trees::new("family-trees-order");
    let venv = t.path("venv");
    let conda = t.path("conda");
    let conda_lib_only = t.path("conda-lib-only");
    let toolkit = t.path("toolkit");
    let system = t.path("system");
    let in_dir = |dir: &str| {
        t.path(dir)
            .join("libnvrtc.so.13")
            .to_string_lossy()
            .into_owned()
    };
    let which = ["which", "nvrtc"];
    let everything: Vec<(&str, &Path)> = vec![
        ("VIRTUAL_ENV", &venv),
        ("CONDA_PREFIX", &conda),
        ("CUDA_HOME", &toolkit),
        ("LD_LIBRARY_PATH", &system),
    ];
    // A virtual environment's wheel first (nvidia/cu13/lib) ...
    t.expect(
        &which,
        &everything,
        &in_dir("venv/lib/python3.12/site-packages/nvidia/cu13/lib"),
        13010,
    );
    // ... then conda's site-packages (nvidia/cuda_nvrtc/lib, the 12.x wheel layout) ...
    t.expect(
        &which,
        &everything[1..],
        &in_dir("conda/lib/python3.11/site-packages/nvidia/cuda_nvrtc/lib"),
        13020,
    );
    // ... then conda's own lib ...
    t.expect(
        &which,
        &[
            ("CONDA_PREFIX", &conda_lib_only),
            ("CUDA_HOME", &toolkit),
            ("LD_LIBRARY_PATH", &system),
        ],
        &in_dir("conda-lib-only/lib"),
        13030,
    );
    // ... then the exact soname through the system loader (LD_LIBRARY_PATH) ...
    t.expect(&which, &everything[2..], "libnvrtc.so.13", 13060);
    t.expect(&which, &everything[3..], "libnvrtc.so.13", 13060);
    // ... and last the toolkit.
    t.expect(
        &which,
        &[("CUDA_HOME", &toolkit)],
        &in_dir("toolkit/lib64"),
        13040,
    );
    // A relative VIRTUAL_ENV is ignored: nothing through the working directory.
    t.expect(
        &which,
        &[
            ("VIRTUAL_ENV", Path::new("venv")),
            ("LD_LIBRARY_PATH", &system),
        ],
        "libnvrtc.so.13",
        13060,
    );
    // A copy of another major earlier in the order is skipped, and named.
    let wrong = t.path("wrong");
    t.expect(
        &which,
        &[("VIRTUAL_ENV", &wrong), ("CUDA_HOME", &toolkit)],
        &in_dir("toolkit/lib64"),
        13040,
    );
    for out in both(&which, &[("VIRTUAL_ENV", &wrong)], &t.root) {
        assert!(
            out.contains(&format!(
                "`{}` is NVRTC 12.9, but the header is for NVRTC 13.x",
                in_dir("wrong/lib/python3.12/site-packages/nvidia/cu13/lib")
            )),
            "{out}"
        );
    }
}

/// A toolkit's directory for this program's architecture below `targets/`
/// (`x86_64-linux` on x86-64; SBSA's `sbsa-linux` on aarch64), in a toolkit
/// whose `lib64` does not link there (one unpacked from an archive), is
/// searched by both programs, after `lib64` and `lib`; another
/// architecture's is not. `doctor` lists it as the candidate it used.
#[test]
fn the_toolkit_s_directory_for_this_architecture_is_searched_and_no_other() {
    let (own, other) = if cfg!(target_arch = "aarch64") {
        ("sbsa-linux", "x86_64-linux")
    } else {
        ("x86_64-linux", "sbsa-linux")
    };
    let dir = scratch("family-toolkit-targets");
    let toolkit = dir.join("toolkit");
    let lib = toolkit.join("targets").join(own).join("lib");
    let path = fake("nvrtc", &lib, &["-DFAKE_MINOR=4"]);
    let which = ["which", "nvrtc"];
    for out in both(&which, &[("CUDA_HOME", &toolkit)], &dir) {
        let want = format!("path={} version=13040", path.display());
        assert!(out.contains(&want), "want {want}:\n{out}");
    }
    let foreign = dir.join("foreign");
    fake(
        "nvrtc",
        &foreign.join("targets").join(other).join("lib"),
        &[],
    );
    for out in both(&which, &[("CUDA_HOME", &foreign)], &dir) {
        assert!(out.contains("error="), "{other} was searched:\n{out}");
    }
    let doctor = doctor_nvrtc(&[("CUDA_HOME", &toolkit)]);
    assert!(
        row(&doctor, path.to_str().unwrap(), "CUDA_HOME").ends_with("used"),
        "{doctor}"
    );
}

/// `cushim doctor --lib nvrtc --cuda 13.5` with only `env` set (and what it
/// needs to find its headers); asserts it succeeded and returns stdout.
fn doctor_nvrtc(env: &[(&str, &Path)]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_cushim"))
        .args(["doctor", "--lib", "nvrtc", "--cuda", "13.5"])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", std::env::var_os("HOME").unwrap_or_default())
        .envs(std::env::var_os("CUSHIM_CACHE_DIR").map(|d| ("CUSHIM_CACHE_DIR", d)))
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{env:?}:\n{stdout}\n{stderr}");
    stdout
}

/// The row of doctor's candidates table for `candidate`, proposed by `from`.
fn row<'a>(doctor: &'a str, candidate: &str, from: &str) -> &'a str {
    doctor
        .lines()
        .find(|l| {
            l.split_whitespace().next() == Some(candidate)
                && l[candidate.len()..].trim_start().starts_with(from)
        })
        .unwrap_or_else(|| panic!("no row for {candidate} from {from}:\n{doctor}"))
        .trim_end()
}

/// Issue 20, item 10: users choose a library with `LD_LIBRARY_PATH`, and
/// NVIDIA's own finder (cuda-pathfinder) asks the system loader before it
/// reads `CUDA_HOME` or `CUDA_PATH`: a wheel's directory on
/// `LD_LIBRARY_PATH` wins over a good toolkit named by either variable, for
/// NVRTC and cuBLAS (with its cuBLASLt). A copy of another major there is
/// still skipped and named. `doctor` shows the order and why each candidate
/// won or lost.
#[test]
fn ld_library_path_wins_over_cuda_path_and_cuda_home_as_in_nvidias_finder() {
    let dir = scratch("family-ld-library-path");
    let wheel = dir.join("venv/lib/python3.12/site-packages/nvidia/cu13/lib");
    fake("nvrtc", &wheel, &["-DFAKE_MINOR=1"]);
    fake("cublaslt", &wheel, &[]);
    fake("cublas", &wheel, &["-DFAKE_MINOR=1"]);
    let toolkit = dir.join("toolkit");
    fake("nvrtc", &toolkit.join("lib64"), &["-DFAKE_MINOR=4"]);
    fake("cublaslt", &toolkit.join("lib64"), &[]);
    fake("cublas", &toolkit.join("lib64"), &["-DFAKE_MINOR=4"]);
    let other = dir.join("toolkit-2");
    fake("nvrtc", &other.join("lib64"), &["-DFAKE_MINOR=6"]);
    let wrong = dir.join("wrong");
    fake("nvrtc", &wrong, &["-DFAKE_MAJOR=12", "-DFAKE_MINOR=9"]);
    // An empty directory first on LD_LIBRARY_PATH, then the wheel's.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let path = std::env::join_paths([&empty, &wheel]).unwrap();
    let path = Path::new(&path);
    for var in ["CUDA_PATH", "CUDA_HOME"] {
        for out in both(
            &["which", "nvrtc"],
            &[("LD_LIBRARY_PATH", path), (var, &toolkit)],
            &dir,
        ) {
            assert!(
                out.contains("path=libnvrtc.so.13 version=13010"),
                "{var}: LD_LIBRARY_PATH's NVRTC must win:\n{out}"
            );
        }
        for out in both(
            &["which", "cublas"],
            &[("LD_LIBRARY_PATH", path), (var, &toolkit)],
            &dir,
        ) {
            assert!(
                out.contains("path=libcublas.so.13 version=13010"),
                "{var}: LD_LIBRARY_PATH's cuBLAS must win:\n{out}"
            );
        }
        // Without it, the toolkit's.
        let nvrtc = toolkit.join("lib64/libnvrtc.so.13").display().to_string();
        for out in both(&["which", "nvrtc"], &[(var, &toolkit)], &dir) {
            assert!(
                out.contains(&format!("path={nvrtc} version=13040")),
                "{out}"
            );
        }
    }
    // CUDA_HOME before CUDA_PATH, as NVIDIA's finder reads them.
    let nvrtc = toolkit.join("lib64/libnvrtc.so.13").display().to_string();
    for out in both(
        &["which", "nvrtc"],
        &[("CUDA_HOME", &toolkit), ("CUDA_PATH", &other)],
        &dir,
    ) {
        assert!(
            out.contains(&format!("path={nvrtc} version=13040")),
            "{out}"
        );
    }
    // A copy of another major on LD_LIBRARY_PATH is skipped: the toolkit's loads.
    for out in both(
        &["which", "nvrtc"],
        &[("LD_LIBRARY_PATH", &wrong), ("CUDA_PATH", &toolkit)],
        &dir,
    ) {
        assert!(
            out.contains(&format!("path={nvrtc} version=13040")),
            "{out}"
        );
    }
    // ... and named, by the file the system loader found.
    let wrong_file = wrong.join("libnvrtc.so.13").display().to_string();
    for out in both(&["which", "nvrtc"], &[("LD_LIBRARY_PATH", &wrong)], &dir) {
        assert!(
            out.contains(&format!(
                "`{wrong_file}` is NVRTC 12.9, but the header is for NVRTC 13.x"
            )),
            "{out}"
        );
    }
    // doctor: the order, the winner by its file, and the toolkit's copy that
    // the order left untried.
    let out = doctor_nvrtc(&[("LD_LIBRARY_PATH", path), ("CUDA_PATH", &toolkit)]);
    let winner = wheel.join("libnvrtc.so.13").display().to_string();
    assert!(
        out.contains(&format!("library:          {winner}\n")),
        "{out}"
    );
    assert!(
        out.contains("found by:         system loader, as `libnvrtc.so.13`"),
        "{out}"
    );
    assert!(
        out.contains(
            "conda, system loader (LD_LIBRARY_PATH, loader cache), CUDA_HOME, CUDA_PATH, /usr/local/cuda"
        ),
        "{out}"
    );
    assert!(
        out.contains("search order:     override (CUSHIM_NVRTC_LIBRARY), loaded, family,"),
        "{out}"
    );
    let used = row(&out, "libnvrtc.so.13", "system loader");
    assert!(used.ends_with(&format!("used: `{winner}`")), "{used}");
    let lost = row(&out, &nvrtc, "CUDA_PATH");
    assert!(
        lost.ends_with(&format!(
            "not tried: `{winner}` (system loader) comes first"
        )),
        "{lost}"
    );
    // The rows come in the search's order.
    assert!(out.find(used).unwrap() < out.find(lost).unwrap(), "{out}");
    // An empty or relative entry is the working directory to the system
    // loader, which now comes before the toolkit: doctor warns.
    let relative = std::env::join_paths([Path::new("lib"), &wheel]).unwrap();
    let out = doctor_nvrtc(&[("LD_LIBRARY_PATH", Path::new(&relative))]);
    assert!(
        out.contains("warning:          LD_LIBRARY_PATH has an empty or relative entry (`lib`)"),
        "{out}"
    );
    // With the wrong major on LD_LIBRARY_PATH: skipped, named, and the toolkit used.
    let out = doctor_nvrtc(&[("LD_LIBRARY_PATH", &wrong), ("CUDA_PATH", &toolkit)]);
    let skipped = row(&out, "libnvrtc.so.13", "system loader");
    assert!(
        skipped.contains(&format!(
            "skipped: `{wrong_file}` is NVRTC 12.9, but the header is for NVRTC 13.x"
        )),
        "{skipped}"
    );
    let used = row(&out, &nvrtc, "CUDA_PATH");
    assert!(used.ends_with("used"), "{used}");
}

/// Builds the fake NVRTC builtins as `dir/name` (its soname too); returns its path.
fn builtins(dir: &Path, name: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(name);
    run_ok(
        Command::new("cc")
            .args(["-shared", "-fPIC", "-O1", "-Wall", "-Werror"])
            .arg(format!("-Wl,-soname,{name}"))
            .arg("-o")
            .arg(&path)
            .arg(root().join("tests/fake/libnvrtc-builtins.c")),
    );
    path
}

/// Issue 20, item 11: NVRTC opens `libnvrtc-builtins.so.<major>.<minor>` by
/// bare name when it compiles, so NVRTC from a pip wheel, with no toolkit
/// and no `LD_LIBRARY_PATH`, failed every compile ("failed to open
/// libnvrtc-builtins.so.13.0"). The loaders load the builtins from NVRTC's
/// own directory, whichever step found it; a missing or unusable one leaves
/// NVRTC usable, and only the compile fails, as NVRTC answers.
#[test]
fn nvrtc_from_a_wheel_compiles_with_the_builtins_beside_it_that_it_opens_by_name() {
    let dir = scratch("family-builtins");
    let venv = dir.join("venv");
    let wheel = venv.join("lib/python3.12/site-packages/nvidia/cu13/lib");
    let nvrtc = fake("nvrtc", &wheel, &["-DFAKE_MINOR=0", "-DFAKE_BUILTINS"]);
    let builtins = builtins(&wheel, "libnvrtc-builtins.so.13.0");
    // The fake behaves as NVRTC does: opened by path alone, with its
    // builtins beside it, its compile fails.
    let alone = Command::new("python3")
        .arg("-c")
        .arg(format!(
            "import ctypes; n = ctypes.CDLL({:?}); p = ctypes.c_void_p(); \
             n.nvrtcCreateProgram(ctypes.byref(p), b'k', b'k.cu', 0, None, None); \
             print('code', n.nvrtcCompileProgram(p, 0, None))",
            nvrtc.display().to_string()
        ))
        .env_remove("LD_LIBRARY_PATH")
        .output()
        .unwrap();
    let (stdout, stderr) = text(&alone);
    assert!(stdout.contains("code 7"), "{stdout}{stderr}");
    let compiled = format!("nvrtc: compile code 0 log builtins {}", builtins.display());
    let found = format!("path={} version=13000", nvrtc.display());
    // Found in the wheel by VIRTUAL_ENV, by the override, and as a copy the
    // program loaded itself (by path, with no search).
    let compiles = |args: &[&str], env: &[(&str, &Path)]| {
        let [rust, cpp] = both(args, env, &dir);
        for out in [&rust, &cpp] {
            assert!(out.contains(&compiled), "{args:?} {env:?}:\n{out}");
        }
        assert!(
            rust.contains(&format!("sibling: {} loaded", builtins.display())),
            "{rust}"
        );
    };
    compiles(&["compile"], &[("VIRTUAL_ENV", &venv)]);
    compiles(&["compile"], &[("CUSHIM_NVRTC_LIBRARY", &nvrtc)]);
    compiles(&["compile", nvrtc.to_str().unwrap()], &[]);
    for out in both(&["compile"], &[("VIRTUAL_ENV", &venv)], &dir) {
        assert!(out.contains(&found), "{out}");
    }
    // Above the executable, in a sealed environment.
    std::fs::write(venv.join("pyvenv.cfg"), "home = /usr/bin\n").unwrap();
    let bin = venv.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let p = programs();
    for program in [&p.rust, &p.cpp] {
        let copy = bin.join(program.file_name().unwrap());
        std::fs::copy(program, &copy).unwrap();
        seal(&venv);
        let out = run(&copy, &["compile"], &[], &dir);
        assert!(out.contains(&compiled) && out.contains(&found), "{out}");
    }
    // ... but not a builtins file that others can write there: NVRTC loads,
    // its compile fails.
    chmod(&builtins, 0o666);
    let out = run(
        &bin.join(p.rust.file_name().unwrap()),
        &["compile"],
        &[],
        &dir,
    );
    assert!(
        out.contains("nvrtc: compile code 7 log failed to open libnvrtc-builtins.so.13.0")
            && out.contains(&found)
            && out.contains("is writable by group and others"),
        "{out}"
    );
    let out = run(
        &bin.join(p.cpp.file_name().unwrap()),
        &["compile"],
        &[],
        &dir,
    );
    assert!(
        out.contains("nvrtc: compile code 7 log failed to open libnvrtc-builtins.so.13.0")
            && out.contains(&found),
        "{out}"
    );
    chmod(&builtins, 0o644);
    // doctor names the builtins it loaded.
    let out = doctor_nvrtc(&[("VIRTUAL_ENV", &venv)]);
    assert!(
        out.contains(&format!(
            "opens by name:    `{}` loaded",
            builtins.display()
        )),
        "{out}"
    );
    // Best effort: unusable (a FIFO, which would block the loader) or
    // absent, the builtins are skipped and NVRTC is still used; only the
    // compile fails, with NVRTC's own status.
    std::fs::remove_file(&builtins).unwrap();
    run_ok(Command::new("mkfifo").arg(&builtins));
    let [rust, cpp] = both(&["compile"], &[("VIRTUAL_ENV", &venv)], &dir);
    for out in [&rust, &cpp] {
        assert!(
            out.contains("nvrtc: compile code 7 log failed to open libnvrtc-builtins.so.13.0")
                && out.contains(&found),
            "{out}"
        );
    }
    assert!(
        rust.contains(&format!(
            "sibling: {} not a regular file (a FIFO)",
            builtins.display()
        )),
        "{rust}"
    );
    std::fs::remove_file(&builtins).unwrap();
    let [rust, cpp] = both(&["compile"], &[("VIRTUAL_ENV", &venv)], &dir);
    for out in [&rust, &cpp] {
        assert!(
            out.contains("nvrtc: compile code 7 log failed to open libnvrtc-builtins.so.13.0")
                && out.contains(&found),
            "{out}"
        );
    }
    assert!(
        rust.contains(&format!("sibling: {} no such file", builtins.display())),
        "{rust}"
    );
}

#[test]
fn the_search_finds_a_wheel_above_the_executable_a_loaded_copy_and_a_loaded_siblings_directory() {
    let t = Trees::new("family-trees-loaded");
    let system = t.path("system");
    // Programs installed into the virtual environment find its wheels with
    // no variable set (a Python extension, or a tool in venv/bin).
    let bin = t.path("venv/bin");
    std::fs::create_dir_all(&bin).unwrap();
    let p = programs();
    for program in [&p.rust, &p.cpp] {
        let copy = bin.join(program.file_name().unwrap());
        std::fs::copy(program, &copy).unwrap();
        seal(&t.path("venv"));
        let out = run(
            &copy,
            &["which", "nvrtc"],
            &[("LD_LIBRARY_PATH", &system)],
            &t.root,
        );
        let want = t
            .path("venv/lib/python3.12/site-packages/nvidia/cu13/lib/libnvrtc.so.13")
            .display()
            .to_string();
        assert!(out.contains(&format!("path={want} version=13010")), "{out}");
    }
    let bin = t.path("notenv/bin");
    std::fs::create_dir_all(&bin).unwrap();
    for program in [&p.rust, &p.cpp] {
        let copy = bin.join(program.file_name().unwrap());
        std::fs::copy(program, &copy).unwrap();
        let out = run(
            &copy,
            &["which", "nvrtc"],
            &[("LD_LIBRARY_PATH", &system)],
            &t.root,
        );
        assert!(out.contains("path=libnvrtc.so.13 version=13060"), "{out}");
    }
    // A copy the program loaded itself wins over the search.
    let elsewhere = t.path("elsewhere/libnvrtc.so.13");
    t.expect(
        &["preloaded", elsewhere.to_str().unwrap()],
        &[("LD_LIBRARY_PATH", &system)],
        elsewhere.to_str().unwrap(),
        13070,
    );
    // A loaded libcudart.so.13 shows where its siblings are.
    let cudart = t.path("family/libcudart.so.13");
    let sibling: OsString = t.path("family/libnvrtc.so.13").into();
    t.expect(
        &["preloaded", cudart.to_str().unwrap()],
        &[("LD_LIBRARY_PATH", &system)],
        &sibling.to_string_lossy(),
        13080,
    );
}

#[test]
fn cublas_binds_the_v2_exports_never_the_legacy_names_and_loads_cublaslt_from_its_directory() {
    let dir = scratch("family-cublas");
    let wheel = dir.join("venv/lib/python3.12/site-packages/nvidia/cu13/lib");
    fake("cublaslt", &wheel, &[]);
    fake("cublas", &wheel, &[]);
    // Opened by path without cuBLASLt loaded first, the fake cannot load.
    let alone = Command::new("python3")
        .arg("-c")
        .arg(format!(
            "import ctypes; ctypes.CDLL({:?})",
            wheel.join("libcublas.so.13").display().to_string()
        ))
        .output()
        .unwrap();
    assert!(!alone.status.success(), "the fake needs its cuBLASLt");
    let venv = dir.join("venv");
    for out in both(
        &["present", "cublas", "cublaslt"],
        &[("VIRTUAL_ENV", &venv)],
        &dir,
    ) {
        // The legacy `cublasSgemm` in the fake aborts: reaching this line means it was never bound.
        assert!(out.contains("cublas: cublasSgemm"), "{out}");
        let cublas = wheel.join("libcublas.so.13").display().to_string();
        assert!(
            out.contains(&format!("path={cublas} version=13010")),
            "{out}"
        );
        // cuBLASLt's own module finds the copy cuBLAS's loader loaded, and
        // names its file.
        let cublaslt = wheel.join("libcublasLt.so.13").display().to_string();
        assert!(
            out.contains(&format!("path={cublaslt} version=13010")),
            "{out}"
        );
    }
    let [rust, cpp] = both(&["absent", "cublas"], &[], &dir);
    for out in [&rust, &cpp] {
        assert!(out.contains("cublas: cublasCreate code 1"), "{out}");
        assert!(
            out.contains("cublas: cublasGetStatusName(7) = CUBLAS_STATUS_INVALID_VALUE"),
            "{out}"
        );
    }
}

#[test]
fn cudart_cufft_curand_cusparse_cusolver_and_cusolvermg_load_after_what_they_need_and_lack_only_what_they_lack(
) {
    let dir = scratch("family-more");
    let toolkit = dir.join("toolkit");
    let lib64 = toolkit.join("lib64");
    // Dependencies first: each fake is linked against those it needs.
    for lib in [
        "cudart",
        "nvjitlink",
        "cublaslt",
        "cublas",
        "cufft",
        "curand",
        "cusparse",
        "cusolver",
        "cusolvermg",
    ] {
        fake(lib, &lib64, &[]);
    }
    // Opened by path alone, cuRAND, cuSOLVER and cuSOLVERMg cannot load: the
    // loaders must load what they need first, from their directory.
    for alone in [
        "libcurand.so.10",
        "libcusolver.so.12",
        "libcusolverMg.so.12",
    ] {
        assert_cannot_load_alone(&lib64.join(alone));
    }
    let [rust, cpp] = both(
        &[
            "present",
            "cudart",
            "cufft",
            "curand",
            "cusparse",
            "cusolver",
            "cusolvermg",
        ],
        &[("CUDA_HOME", &toolkit)],
        &dir,
    );
    let in_lib64 = |file: &str| lib64.join(file).display().to_string();
    for out in [&rust, &cpp] {
        for want in [
            "cudart: memory [7, 7, 7, 7, 7, 7, 7, 7], device fake device".to_string(),
            // cudaErrorSharedObjectSymbolNotFound for the function the fake lacks.
            "cudart: cudaDeviceReset code 302".into(),
            // driver_types.h's constants and cuda_profiler_api.h's function
            // (which the fake lacks) are cudart's.
            "cudart: flags [1, 2, 2], cudaProfilerStop code 302".into(),
            "cufft: forward 10+0i -2+2i -2+0i -2-2i".into(),
            // CUFFT_NOT_SUPPORTED for the function the library lacks; the
            // plan is destroyed after it.
            "cufft: cufftXtSetJITCallback code 16".into(),
            "curand: uniform [0.".into(),
            // CUSPARSE_STATUS_NOT_SUPPORTED, CUSOLVER_STATUS_NOT_SUPPORTED.
            "cusparse: cusparseXgebsr2csr code 10".into(),
            "cusolver: cusolverDnLoggerSetLevel code 9".into(),
            "cusolvermg: grid of 1 device made".into(),
            "cusolvermg: cusolverMgDestroyMatrixDesc code 9".into(),
            format!("path={} version=13050", in_lib64("libcudart.so.13")),
            format!("path={} version=12000", in_lib64("libcufft.so.12")),
            format!("path={} version=10040", in_lib64("libcurand.so.10")),
            format!("path={} version=12060", in_lib64("libcusparse.so.12")),
            format!("path={} version=12000", in_lib64("libcusolver.so.12")),
            // No version function: the file name tells its major.
            format!("path={} version=0", in_lib64("libcusolverMg.so.12")),
        ] {
            assert!(out.contains(&want), "want {want}:\n{out}");
        }
    }
    // The same numbers through both languages' stubs.
    let uniform = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("curand: uniform"))
            .map(str::to_string)
    };
    assert_eq!(uniform(&rust), uniform(&cpp));
    assert!(
        rust.contains(&format!(
            "curand: `curandGenerateBinomial`: the cuRAND at `{}` does not provide `curandGenerateBinomial`",
            in_lib64("libcurand.so.10")
        )),
        "{rust}"
    );
    assert!(
        cpp.contains("curand: curandGenerateBinomial code 203"),
        "{cpp}"
    );

    // None of them: each answers its own code and names the file it wants.
    let [rust, cpp] = both(
        &[
            "absent",
            "cudart",
            "cufft",
            "curand",
            "cusparse",
            "cusolver",
            "cusolvermg",
        ],
        &[],
        &dir,
    );
    for out in [&rust, &cpp] {
        for want in [
            "cudart: cudaMalloc code 303",
            // CUFFT_MISSING_DEPENDENCY: 13.x headers declare it.
            "cufft: cufftPlan1d code 17",
            "curand: curandCreateGenerator code 203",
            "cusparse: cusparseCreate code 1",
            "cusolver: cusolverDnCreate code 1",
            "cusolvermg: cusolverMgCreate code 1",
            "cufft: cuFFT library not found; tried",
            "or set CUSHIM_CUFFT_LIBRARY to the absolute path of `libcufft.so.12`",
        ] {
            assert!(out.contains(want), "want {want}:\n{out}");
        }
    }

    // A cuFFT of another major (CUDA 12's cuFFT 11 under 13.0 headers) is
    // skipped, and named.
    let old = dir.join("old");
    fake(
        "cufft",
        &old.join("lib64"),
        &["-DFAKE_MAJOR=11", "-DFAKE_MINOR=4"],
    );
    for out in both(&["which", "cufft"], &[("CUDA_HOME", &old)], &dir) {
        assert!(
            out.contains(&format!(
                "`{}` is cuFFT 11.4, but the header is for cuFFT 12.x",
                old.join("lib64/libcufft.so.12").display()
            )),
            "{out}"
        );
    }
}

/// Asserts that the fake at `path` cannot be opened by path alone (by a
/// loader other than cushim's): it needs libraries that only a loader that
/// loads them first from its directory provides.
fn assert_cannot_load_alone(path: &Path) {
    let opened = Command::new("python3")
        .arg("-c")
        .arg(format!(
            "import ctypes; ctypes.CDLL({:?})",
            path.display().to_string()
        ))
        .output()
        .unwrap();
    assert!(
        !opened.status.success(),
        "{} needs its dependencies",
        path.display()
    );
}

/// A fake sublibrary as `dir/name` (cuDNN's `libcudnn_graph.so.9`, ...,
/// cuFile's `libcufile_rdma.so.1`), which tells which file it is.
fn sublibrary(dir: &Path, name: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(name);
    run_ok(
        Command::new("cc")
            .args(["-shared", "-fPIC", "-O1", "-Wall", "-Werror"])
            .arg(format!("-Wl,-soname,{name}"))
            .arg("-o")
            .arg(&path)
            .arg(root().join("tests/fake/sublibrary.c"))
            .arg("-ldl"),
    );
    path
}

/// The scenarios of the test below: the libraries that a toolkit installs
/// in directories of their own, each present and each absent.
const DNN_PRESENT: [&str; 7] = [
    "present", "cudnn", "nccl", "cutensor", "cupti", "nvtx", "cufile",
];
const DNN_ABSENT: [&str; 7] = [
    "absent", "cudnn", "nccl", "cutensor", "cupti", "nvtx", "cufile",
];

#[test]
fn cudnn_nccl_cutensor_cupti_nvtx_and_cufile_load_what_they_open_and_need_and_a_missing_graph_library_is_an_error_not_an_abort(
) {
    let dir = scratch("family-dnn");
    let toolkit = dir.join("toolkit");
    let lib64 = toolkit.join("lib64");
    for lib in ["cublaslt", "cudnn", "nccl", "cutensor", "nvtx", "cufile"] {
        fake(lib, &lib64, &[]);
    }
    for sub in [
        "libcudnn_graph.so.9",
        "libcudnn_ops.so.9",
        "libcufile_rdma.so.1",
    ] {
        sublibrary(&lib64, sub);
    }
    // CUPTI where a toolkit keeps it.
    let extras = toolkit.join("extras/CUPTI/lib64");
    fake("cupti", &extras, &[]);
    // Another cuDNN's sublibraries first on LD_LIBRARY_PATH, where cuDNN's
    // own open by name would look first.
    let foreign = dir.join("foreign");
    for sub in [
        "libcudnn_graph.so.9",
        "libcudnn_ops.so.9",
        "libcufile_rdma.so.1",
    ] {
        sublibrary(&foreign, sub);
    }
    // Opened by path alone, cuTENSOR cannot load: it needs cuBLASLt first.
    assert_cannot_load_alone(&lib64.join("libcutensor.so.2"));
    let env = [("CUDA_HOME", &*toolkit), ("LD_LIBRARY_PATH", &*foreign)];
    let [rust, cpp] = both(&DNN_PRESENT, &env, &dir);
    let in_lib64 = |file: &str| lib64.join(file).display().to_string();
    for out in [&rust, &cpp] {
        for want in [
            "cudnn: version 92801".to_string(),
            // cuDNN opened its ops library by name: the copy beside it,
            // loaded first, not LD_LIBRARY_PATH's.
            format!("cudnn: ops from {}", in_lib64("libcudnn_ops.so.9")),
            // CUDNN_STATUS_NOT_SUPPORTED for the function the fake lacks.
            "cudnn: cudnnBackendCreateDescriptor code 3000".into(),
            "nccl: version 23203".into(),
            "nccl: all-reduce [1.5, 2.5, 3.5]".into(),
            // ncclSystemError for the function the fake lacks.
            "nccl: ncclCommCount code 2".into(),
            "cutensor: version 20801".into(),
            // CUTENSOR_STATUS_NOT_SUPPORTED.
            "cutensor: cutensorLoggerSetLevel code 15".into(),
            // The library's own compute descriptor, read from its export.
            "cutensor: contraction with the library's 32F descriptor code 0".into(),
            format!("path={} version=9280", in_lib64("libcudnn.so.9")),
            format!("path={} version=2320", in_lib64("libnccl.so.2")),
            format!("path={} version=2080", in_lib64("libcutensor.so.2")),
            "cupti: timestamp 1234567890123".into(),
            // CUPTI_ERROR_NOT_SUPPORTED for the function the fake lacks.
            "cupti: cuptiActivityFlushAll code 27".into(),
            // Every CUPTI header's: PC sampling (the fake lacks it), the
            // callback ids, the parameter structs.
            "cupti: cuLaunchKernel id 307, params 64 bytes, cuptiPCSamplingGetData code 27".into(),
            // Kept, its API number no version.
            format!("path={} version=0", extras.join("libcupti.so.13").display()),
            // NVTX's values, and NULL for the function the fake lacks.
            "nvtx: push 0 1 pop 1 domain null true".into(),
            format!("path={} version=0", in_lib64("libnvtx3interop.so.1")),
            // cuFile 1.15; the header's cuFileDriverClose bound to
            // cuFileDriverClose_v2 (the fake's old export would answer
            // 5030); CU_FILE_INTERNAL_ERROR, with no driver error, for the
            // function the fake lacks; RDMA from beside it, not from
            // LD_LIBRARY_PATH.
            "cufile: version 1150".into(),
            format!("cufile: rdma from {}", in_lib64("libcufile_rdma.so.1")),
            "cufile: read 4 [7, 7, 7, 7]".into(),
            "cufile: cuFileBufRegister code 5030 cu_err 0".into(),
            format!("path={} version=1150", in_lib64("libcufile.so.0")),
        ] {
            assert!(out.contains(&want), "want {want}:\n{out}");
        }
    }

    // None of them: each answers its own code; cuDNN's version function, no status, 0.
    let [rust, cpp] = both(&DNN_ABSENT, &[], &dir);
    for out in [&rust, &cpp] {
        for want in [
            // CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED, ncclSystemError,
            // CUTENSOR_STATUS_NOT_INITIALIZED.
            "cudnn: cudnnCreate code 1008",
            "cudnn: cudnnGetVersion 0",
            "nccl: ncclGetVersion code 2",
            "cutensor: cutensorCreate code 1",
            // No library, so no descriptor to read.
            "cutensor: CUTENSOR_COMPUTE_DESC_32F None",
            // CUPTI_ERROR_NOT_INITIALIZED.
            "cupti: cuptiGetTimestamp code 15",
            // NVTX has no status: zero without the library.
            "nvtx: push 0 0 pop 0 domain null true",
            // CU_FILE_PLATFORM_NOT_SUPPORTED in the status struct; a byte
            // count of zero.
            "cufile: cuFileDriverOpen code 5007 cu_err 0",
            "cufile: cuFileRead 0",
            "or set CUSHIM_CUFILE_LIBRARY to the absolute path of `libcufile.so.0`",
            "or set CUSHIM_CUDNN_LIBRARY to the absolute path of `libcudnn.so.9`",
            "or set CUSHIM_NCCL_LIBRARY to the absolute path of `libnccl.so.2`",
        ] {
            assert!(out.contains(want), "want {want}:\n{out}");
        }
    }

    // cuDNN without its graph library beside it would stop the process on
    // its first call: it is passed over, and the shims answer
    // CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED; cuTENSOR without cuBLASLt
    // cannot load, and says what it lacks.
    let broken = dir.join("broken");
    fake("cublaslt", &broken.join("lib64"), &[]);
    fake("cudnn", &broken.join("lib64"), &[]);
    fake("cutensor", &broken.join("lib64"), &[]);
    std::fs::remove_file(broken.join("lib64/libcublasLt.so.13")).unwrap();
    let [rust, cpp] = both(&DNN_ABSENT, &[("CUDA_HOME", &broken)], &dir);
    for out in [&rust, &cpp] {
        for want in [
            "cudnn: cudnnCreate code 1008".to_string(),
            format!(
                "it needs `{}` beside it, which cannot be loaded (no such file); the cuDNN would stop the process on its first call without it",
                broken.join("lib64/libcudnn_graph.so.9").display()
            ),
            "cutensor: cutensorCreate code 1".into(),
            "libcublasLt.so.13: cannot open shared object file".into(),
        ] {
            assert!(out.contains(&want), "want {want}:\n{out}");
        }
    }

    // Built for CUDA 12 (the directory does not tell): passed over, and named.
    let old = dir.join("old");
    fake("cublaslt", &old.join("lib64"), &[]);
    fake("cudnn", &old.join("lib64"), &["-DFAKE_CUDART=12090"]);
    fake("cutensor", &old.join("lib64"), &["-DFAKE_CUDART=12080"]);
    sublibrary(&old.join("lib64"), "libcudnn_graph.so.9");
    for (lib, function, built) in [
        ("cudnn", "cudnnGetCudartVersion", "12.9"),
        ("cutensor", "cutensorGetCudartVersion", "12.8"),
    ] {
        for out in both(&["which", lib], &[("CUDA_HOME", &old)], &dir) {
            let want = format!(
                "it was built for CUDA {built} (its `{function}`), but the header is for CUDA 13.x"
            );
            assert!(out.contains(&want), "want {want}:\n{out}");
        }
    }
    // The wrong cuDNN first (LD_LIBRARY_PATH), a right one later (CUDA_HOME):
    // the wrong one's graph library, loaded before its release was known,
    // stays loaded and would serve the right one's open by name, so the
    // search stops. cuTENSOR requires nothing: its search goes on to the
    // right copy.
    let env = [
        ("LD_LIBRARY_PATH", &*old.join("lib64")),
        ("CUDA_HOME", &*toolkit),
    ];
    for out in both(&["which", "cudnn"], &env, &dir) {
        assert!(
            out.contains("`libcudnn_graph.so.9` from its directory stay loaded, so no other copy is tried (name the right one with CUSHIM_CUDNN_LIBRARY)"),
            "{out}"
        );
        assert!(!out.contains("path="), "{out}");
    }
    for out in both(&["which", "cutensor"], &env, &dir) {
        assert!(
            out.contains(&format!(
                "path={} version=2080",
                in_lib64("libcutensor.so.2")
            )),
            "{out}"
        );
    }
}

#[test]
fn cudart_binds_its_per_thread_twins_and_keeps_a_runtime_that_sees_no_driver_and_each_major_is_checked(
) {
    let dir = scratch("family-cudart");
    let toolkit = dir.join("toolkit");
    let lib64 = toolkit.join("lib64");
    fake("cudart", &lib64, &[]);
    let on = Path::new("1");
    // The legacy default stream by default, the per-thread twin when asked.
    for (env, ran) in [
        (vec![("CUDA_HOME", toolkit.as_path())], "cudaMemcpyAsync"),
        (
            vec![
                ("CUDA_HOME", toolkit.as_path()),
                ("CUSHIM_PER_THREAD_DEFAULT_STREAM", on),
            ],
            "cudaMemcpyAsync_ptsz",
        ),
    ] {
        for out in both(&["cudart-stream"], &env, &dir) {
            assert!(
                out.contains(&format!("cudart: ran {ran}\n")),
                "{env:?}: {out}"
            );
        }
    }
    // 11.8's runtime answers cudaErrorInsufficientDriver (35) without a
    // driver: the library is there, its major unread, and it is kept.
    let no_driver = dir.join("no-driver");
    fake("cudart", &no_driver.join("lib64"), &["-DFAKE_NO_DRIVER"]);
    for out in both(&["which", "cudart"], &[("CUDA_HOME", &no_driver)], &dir) {
        let path = no_driver.join("lib64/libcudart.so.13");
        assert!(
            out.contains(&format!("path={} version=0", path.display())),
            "{out}"
        );
    }
    // A library of another major than the 13.0 header's is skipped and
    // named, each by the version its own function reports.
    for (lib, defines, file, says) in [
        (
            "cudart",
            &["-DFAKE_VERSION=12090"][..],
            "libcudart.so.13",
            "is CUDA runtime 12.9, but the header is for CUDA 13.x",
        ),
        (
            "cusparse",
            &["-DFAKE_MAJOR=11"][..],
            "libcusparse.so.12",
            "is cuSPARSE 11.6, but the header is for cuSPARSE 12.x",
        ),
        (
            "cusolver",
            &["-DFAKE_MAJOR=11"][..],
            "libcusolver.so.12",
            "is cuSOLVER 11.0, but the header is for cuSOLVER 12.x",
        ),
    ] {
        let old = dir.join(format!("old-{lib}"));
        let lib64 = old.join("lib64");
        for dependency in ["nvjitlink", "cublaslt", "cublas", "cusparse"] {
            if lib == "cusolver" {
                fake(dependency, &lib64, &[]);
            }
        }
        if lib == "cusparse" {
            fake("nvjitlink", &lib64, &[]);
        }
        fake(lib, &lib64, defines);
        for out in both(&["which", lib], &[("CUDA_HOME", &old)], &dir) {
            let want = format!("`{}` {says}", lib64.join(file).display());
            assert!(out.contains(&want), "want {want}:\n{out}");
        }
    }
}

#[test]
fn doctor_shows_each_candidate_tried_the_winner_and_its_missing_functions() {
    let t = Trees::new("family-trees-doctor");
    let wrong = t.path("wrong");
    let toolkit = t.path("toolkit");
    let out = Command::new(env!("CARGO_BIN_EXE_cushim"))
        .args(["doctor", "--lib", "nvrtc", "--cuda", "13.5"])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", std::env::var_os("HOME").unwrap_or_default())
        .envs(std::env::var_os("CUSHIM_CACHE_DIR").map(|d| ("CUSHIM_CACHE_DIR", d)))
        .env("VIRTUAL_ENV", &wrong)
        .env("CUDA_HOME", &toolkit)
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let winner = toolkit.join("lib64/libnvrtc.so.13");
    assert!(
        stdout.contains(&format!("library:          {}", winner.display())),
        "{stdout}"
    );
    assert!(stdout.contains("found by:         CUDA_HOME"), "{stdout}");
    assert!(
        stdout.contains("NVRTC version:    13.4 (13040)"),
        "{stdout}"
    );
    // The fake lacks most of the header's functions; each is listed.
    assert!(stdout.contains("nvrtcGetTileIRSize"), "{stdout}");
    // The skipped wrong-major copy, and why.
    assert!(
        stdout.contains("is NVRTC 12.9, but the header is for NVRTC 13.x"),
        "{stdout}"
    );
    assert!(stdout.contains("pip wheel (VIRTUAL_ENV)"), "{stdout}");
}

/// NVRTC's C++ stubs built for Windows (mingw-w64) and run under Wine: the
/// DLL of the header's major is found in a pip wheel (`VIRTUAL_ENV`'s
/// `Lib\site-packages\nvidia\cu13\bin\x86_64`) or a toolkit (`CUDA_PATH\bin`),
/// and a planted `nvrtc64_130_0.dll` beside the executable and in the working
/// directory is never loaded. The wheel's builtins DLL, which NVRTC opens by
/// bare name, is loaded from the wheel's directory.
#[test]
fn on_windows_the_dll_of_the_headers_major_is_found_in_wheels_and_toolkits_never_beside_the_program(
) {
    if !common::windows_cpp_tools() {
        return;
    }
    let dir = scratch("family-windows");
    // Its wine prefix weighs 0.7 GB.
    let _removed = common::RemovedAfter(dir.clone());
    cushim::Builder::new()
        .library("nvrtc")
        .cuda_version("13.5")
        .languages(&[cushim::Language::Cpp])
        .out_dir(&dir)
        .generate()
        .unwrap();
    let library = cushim::library::by_name("nvrtc").unwrap();
    let pin = cushim::pins::find_for(library, "13.5".parse().unwrap()).unwrap();
    let include = cushim::fetch::library_include_dir(library, &pin).unwrap();
    let exe = dir.join("program.exe");
    run_ok(
        Command::new("x86_64-w64-mingw32-g++-posix")
            .args(CXXFLAGS)
            .arg(format!("-I{}", include.display()))
            .arg(format!("-I{}", dir.display()))
            .arg(root().join("tests/cpp/family_windows.cpp"))
            .arg(dir.join("nvrtc_shim.cpp"))
            .arg(dir.join("cushim_runtime.cpp"))
            .args(["-static", "-o"])
            .arg(&exe),
    );
    // The fake NVRTC as the DLL of a pip wheel and of a toolkit, each
    // reporting its own minor, opening its builtins by name when it compiles.
    let dll = |to: &Path, minor: &str| {
        std::fs::create_dir_all(to).unwrap();
        run_ok(
            Command::new("x86_64-w64-mingw32-gcc")
                .args(["-shared", "-O1", "-Wall", "-Werror", "-o"])
                .arg(to.join("nvrtc64_130_0.dll"))
                .arg(root().join("tests/fake/libnvrtc.c"))
                .arg(format!("-DFAKE_MINOR={minor}"))
                .arg("-DFAKE_BUILTINS"),
        );
    };
    let cwd = dir.join("cwd");
    std::fs::create_dir_all(&cwd).unwrap();
    for d in [&dir, &cwd] {
        common::planted_dll(d, "nvrtc64_130_0.dll", "PLANT_NVRTC");
    }
    let wheel = dir.join("venv/Lib/site-packages/nvidia/cu13/bin/x86_64");
    dll(&wheel, "1");
    run_ok(
        Command::new("x86_64-w64-mingw32-gcc")
            .args(["-shared", "-O1", "-Wall", "-Werror", "-o"])
            .arg(wheel.join("nvrtc-builtins64_131.dll"))
            .arg(root().join("tests/fake/libnvrtc-builtins.c")),
    );
    let toolkit = dir.join("toolkit/bin");
    dll(&toolkit, "4");
    let windows = |p: &Path| format!("Z:{}", p.display()).replace('/', "\\");
    let marker = dir.join("planted-marker");
    let run = |env: &[(&str, String)]| -> String {
        let mut cmd = Command::new("wine");
        cmd.arg(&exe)
            .current_dir(&cwd)
            .env("WINEPREFIX", dir.join("wine-prefix"))
            .env("WINEDEBUG", "-all")
            .env("CUSHIM_PLANT_MARKER", windows(&marker))
            .env_remove("VIRTUAL_ENV")
            .env_remove("CONDA_PREFIX")
            .env_remove("CUDA_PATH")
            .env_remove("CUDA_HOME");
        for (k, v) in env {
            cmd.env(k, v);
        }
        run_ok(&mut cmd)
    };
    let venv = windows(&dir.join("venv"));
    let out = run(&[
        ("VIRTUAL_ENV", venv.clone()),
        ("CUDA_PATH", windows(&dir.join("toolkit"))),
    ]);
    assert!(out.contains("nvrtcVersion -> 0, 13.1"), "{out}");
    assert!(
        out.contains(&format!(
            "path={venv}\\Lib\\site-packages\\nvidia\\cu13\\bin\\x86_64\\nvrtc64_130_0.dll"
        )),
        "{out}"
    );
    // Its builtins, loaded from its directory (Windows finds a loaded DLL by
    // its module name).
    assert!(
        out.contains("compile -> 0, log builtins ")
            && out.contains("\\nvidia\\cu13\\bin\\x86_64\\nvrtc-builtins64_131.dll"),
        "{out}"
    );
    let out = run(&[("CUDA_PATH", windows(&dir.join("toolkit")))]);
    assert!(out.contains("nvrtcVersion -> 0, 13.4"), "{out}");
    // The toolkit has no builtins: NVRTC is used, only the compile fails.
    assert!(
        out.contains("compile -> 7, log failed to open nvrtc-builtins64_134.dll"),
        "{out}"
    );
    // With neither, nothing is found: the planted copies stay unloaded.
    let out = run(&[]);
    assert!(out.contains("nvrtcVersion -> 11, 0.0"), "{out}");
    assert!(out.contains("tried `nvrtc64_130_0.dll`"), "{out}");
    assert!(!marker.exists(), "a planted DLL was loaded: {out}");
    // A wheel's DLL that is truncated, or built for another machine, is
    // skipped and named (issue 20, item 6); the toolkit's copy loads.
    let good = std::fs::read(wheel.join("nvrtc64_130_0.dll")).unwrap();
    let pe = u32::from_le_bytes(good[0x3c..0x40].try_into().unwrap()) as usize;
    let mut x86 = good.clone();
    x86[pe + 4..pe + 6].copy_from_slice(&0x14c_u16.to_le_bytes());
    let cases: [(&str, Vec<u8>, &str); 2] = [
        (
            "truncated",
            good[..good.len() / 2].to_vec(),
            "(truncated: a section ends at byte ",
        ),
        (
            "x86",
            x86,
            "(a DLL for machine 0x14c (x86), but this program is for 0x8664 (x86-64))",
        ),
    ];
    for (case, bytes, why) in cases {
        let venv = dir.join(case);
        let wheel = venv.join("Lib/site-packages/nvidia/cu13/bin/x86_64");
        std::fs::create_dir_all(&wheel).unwrap();
        std::fs::write(wheel.join("nvrtc64_130_0.dll"), bytes).unwrap();
        let out = run(&[
            ("VIRTUAL_ENV", windows(&venv)),
            ("CUDA_PATH", windows(&dir.join("toolkit"))),
        ]);
        assert!(out.contains("nvrtcVersion -> 0, 13.4"), "{case}: {out}");
        let out = run(&[("VIRTUAL_ENV", windows(&venv))]);
        let dll = format!(
            "{}\\Lib\\site-packages\\nvidia\\cu13\\bin\\x86_64\\nvrtc64_130_0.dll",
            windows(&venv)
        );
        assert!(out.contains(&format!("`{dll}` {why}")), "{case}: {out}");
    }
}

/// Takes write access away from group and others under `dir`, whatever the
/// umask the tests run with: a Python environment above the program is
/// searched only when nobody but root and its user can write it.
fn seal(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::symlink_metadata(dir).unwrap();
    if meta.file_type().is_symlink() {
        return;
    }
    let mode = meta.permissions().mode() & 0o7755;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(mode)).unwrap();
    if meta.is_dir() {
        for entry in std::fs::read_dir(dir).unwrap() {
            seal(&entry.unwrap().path());
        }
    }
}

fn chmod(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Issue 20, item 2: a library planted in a directory above the program that
/// someone else can write (a world-writable `/tmp` holding `pyvenv.cfg`) is
/// never loaded, whichever directory or marker on the way is writable; a
/// properly owned environment above the program still is. OpenSSH's
/// StrictModes rule: owned by root or this user, writable by neither group
/// nor others, from the environment down to the library and to the program.
#[test]
fn a_wheel_above_the_program_is_used_only_if_nobody_else_can_write_its_environment() {
    let dir = scratch("family-strict");
    let ran = dir.join("planted-ran");
    let env = dir.join("env");
    let wheel = env.join("lib/python3.12/site-packages/nvidia/cu13/lib");
    let planted = fake(
        "nvrtc",
        &wheel,
        &[
            "-DFAKE_MINOR=9",
            &format!("-DFAKE_MARKER={:?}", ran.display().to_string()),
        ],
    );
    let toolkit = dir.join("toolkit");
    fake("nvrtc", &toolkit.join("lib64"), &["-DFAKE_MINOR=4"]);
    let good = toolkit.join("lib64/libnvrtc.so.13").display().to_string();
    let bin = env.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let p = programs();
    let copies: Vec<PathBuf> = [&p.rust, &p.cpp]
        .iter()
        .map(|program| {
            let copy = bin.join(program.file_name().unwrap());
            std::fs::copy(program, &copy).unwrap();
            copy
        })
        .collect();
    let venv_marker = env.join("pyvenv.cfg");
    let conda_marker = env.join("conda-meta");
    let which = |env_vars: &[(&str, &Path)]| -> Vec<String> {
        copies
            .iter()
            .map(|copy| run(copy, &["which", "nvrtc"], env_vars, &dir))
            .collect()
    };
    // Each way the environment can be writable by someone else, with the
    // environment marked by a venv's pyvenv.cfg or by conda's conda-meta.
    let site = env.join("lib/python3.12/site-packages");
    let cases: Vec<(&str, PathBuf, u32)> = vec![
        ("the environment, world-writable", env.clone(), 0o777),
        ("the environment, sticky like /tmp", env.clone(), 0o1777),
        ("the environment, group-writable", env.clone(), 0o775),
        ("site-packages", site.clone(), 0o777),
        ("the wheel's directory", site.join("nvidia"), 0o775),
        ("the library's directory", wheel.clone(), 0o757),
        ("the library itself", planted.clone(), 0o666),
        ("the program's directory", bin.clone(), 0o777),
    ];
    for marker in ["pyvenv.cfg", "conda-meta"] {
        let _ = std::fs::remove_file(&venv_marker);
        let _ = std::fs::remove_dir(&conda_marker);
        if marker == "pyvenv.cfg" {
            std::fs::write(&venv_marker, "home = /usr/bin\n").unwrap();
        } else {
            std::fs::create_dir(&conda_marker).unwrap();
        }
        let marker_path = env.join(marker);
        let marker_mode = if marker == "pyvenv.cfg" { 0o666 } else { 0o777 };
        let mut cases = cases.clone();
        cases.push(("the marker", marker_path.clone(), marker_mode));
        for (what, path, mode) in &cases {
            seal(&dir);
            chmod(path, *mode);
            for out in which(&[("CUDA_HOME", &toolkit)]) {
                assert!(
                    out.contains(&format!("path={good} version=13040")),
                    "{marker}, {what} {mode:o}: the toolkit's copy must win:\n{out}"
                );
            }
            assert!(
                !ran.exists(),
                "{marker}, {what} {mode:o}: the planted library was loaded"
            );
        }
        // Without another copy, the message says why the planted one was refused.
        seal(&dir);
        chmod(&env, 0o777);
        for out in which(&[]) {
            assert!(
                out.contains(&planted.display().to_string())
                    && out.contains(&format!(
                        "not used: `{}` is writable by group and others (mode 0777), but a Python environment above the program is searched only if",
                        env.display()
                    )),
                "{out}"
            );
            assert!(!ran.exists(), "{marker}: the planted library was loaded");
        }
        // Owned by another user (the issue's `nobody` planting into root's
        // view), when the tests can give a file away.
        if is_root() {
            seal(&dir);
            std::os::unix::fs::chown(&marker_path, Some(65534), None).unwrap();
            for out in which(&[("CUDA_HOME", &toolkit)]) {
                assert!(out.contains(&format!("path={good} version=13040")), "{out}");
            }
            assert!(
                !ran.exists(),
                "{marker}: a marker of another user's was trusted"
            );
            std::os::unix::fs::chown(&marker_path, Some(0), None).unwrap();
        }
        // Properly owned and sealed, the environment above the program is
        // still searched first.
        seal(&dir);
        for out in which(&[("CUDA_HOME", &toolkit)]) {
            assert!(
                out.contains(&format!("path={} version=13090", planted.display())),
                "{marker}: a sealed environment above the program is used:\n{out}"
            );
        }
        assert!(ran.exists());
        std::fs::remove_file(&ran).unwrap();
    }
    // A link inside the sealed environment that leads out of it: the file it
    // resolves to is judged with every directory above it, up to `/`.
    let outside = dir.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::rename(site.join("nvidia"), outside.join("nvidia")).unwrap();
    std::os::unix::fs::symlink(outside.join("nvidia"), site.join("nvidia")).unwrap();
    seal(&dir);
    for out in which(&[("CUDA_HOME", &toolkit)]) {
        assert!(
            out.contains(&format!("path={} version=13090", planted.display())),
            "a link to a sealed directory is followed:\n{out}"
        );
    }
    std::fs::remove_file(&ran).unwrap();
    chmod(&outside, 0o777);
    for out in which(&[("CUDA_HOME", &toolkit)]) {
        assert!(out.contains(&format!("path={good} version=13040")), "{out}");
    }
    for out in which(&[]) {
        assert!(
            out.contains(&format!(
                "not used: `{}` is writable by group and others",
                outside.display()
            )),
            "{out}"
        );
    }
    assert!(
        !ran.exists(),
        "a link into a directory others can write was followed"
    );
}

fn is_root() -> bool {
    run_ok(Command::new("id").arg("-u")).trim() == "0"
}

/// Issue 20, item 6: a candidate that cannot be a library for this program
/// (truncated, a FIFO, built for another class or machine, or without its
/// version function) is skipped with a message that names it and says what
/// is wrong, and the search goes on to the next copy; none of them crashes
/// or hangs the first call.
#[test]
fn an_unusable_candidate_is_skipped_named_and_the_next_copy_loads() {
    let dir = scratch("family-unusable");
    let toolkit = dir.join("toolkit");
    fake("nvrtc", &toolkit.join("lib64"), &["-DFAKE_MINOR=4"]);
    fake("cublaslt", &toolkit.join("lib64"), &[]);
    fake("cublas", &toolkit.join("lib64"), &[]);
    let wheel = |case: &str| {
        dir.join(case)
            .join("lib/python3.12/site-packages/nvidia/cu13/lib")
    };
    let copy_of_good = |case: &str| -> PathBuf {
        let to = wheel(case);
        std::fs::create_dir_all(&to).unwrap();
        let path = to.join("libnvrtc.so.13");
        std::fs::copy(toolkit.join("lib64/libnvrtc.so.13"), &path).unwrap();
        path
    };
    let patch = |path: &Path, at: usize, bytes: &[u8]| {
        let mut data = std::fs::read(path).unwrap();
        data[at..at + bytes.len()].copy_from_slice(bytes);
        std::fs::write(path, data).unwrap();
    };
    // Truncated past its header: every segment but the first lies beyond the end.
    let truncated = copy_of_good("truncated");
    let len = std::fs::metadata(&truncated).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&truncated)
        .unwrap()
        .set_len(len / 2)
        .unwrap();
    // A FIFO: opening it for reading would wait for a writer forever.
    let fifo = wheel("fifo").join("libnvrtc.so.13");
    std::fs::create_dir_all(fifo.parent().unwrap()).unwrap();
    run_ok(Command::new("mkfifo").arg(&fifo));
    // A 32-bit ELF header (EI_CLASS 1), and a 64-bit one for another machine.
    let narrow = copy_of_good("narrow");
    patch(&narrow, 4, &[1]);
    let foreign = copy_of_good("foreign");
    let other_machine: u16 = if cfg!(target_arch = "aarch64") {
        62
    } else {
        183
    };
    patch(&foreign, 18, &other_machine.to_ne_bytes());
    // Not an ELF file at all.
    let text_file = wheel("text").join("libnvrtc.so.13");
    std::fs::create_dir_all(text_file.parent().unwrap()).unwrap();
    std::fs::write(&text_file, "INPUT(libnvrtc.so.13.0)\n").unwrap();
    // A library without nvrtcVersion.
    let unversioned = fake("nvrtc", &wheel("unversioned"), &["-DFAKE_NO_VERSION"]);
    let cases: [(&str, &Path, &str); 6] = [
        ("truncated", &truncated, "truncated"),
        ("fifo", &fifo, "not a regular file (a FIFO)"),
        (
            "narrow",
            &narrow,
            "a 32-bit ELF file, but this program is 64-bit",
        ),
        ("foreign", &foreign, "an ELF file for machine"),
        ("text", &text_file, "not an ELF file"),
        (
            "unversioned",
            &unversioned,
            "does not export `nvrtcVersion`",
        ),
    ];
    let good = toolkit.join("lib64/libnvrtc.so.13").display().to_string();
    for (case, path, why) in cases {
        let venv = dir.join(case);
        for out in both(
            &["which", "nvrtc"],
            &[("VIRTUAL_ENV", &venv), ("CUDA_HOME", &toolkit)],
            &dir,
        ) {
            assert!(
                out.contains(&format!("path={good} version=13040")),
                "{case}: the next copy must load:\n{out}"
            );
        }
        for out in both(&["which", "nvrtc"], &[("VIRTUAL_ENV", &venv)], &dir) {
            assert!(
                out.contains(&path.display().to_string()) && out.contains(why),
                "{case}: the message must name `{}` and say {why:?}:\n{out}",
                path.display()
            );
        }
    }
    // A truncated dependency (cuBLASLt, loaded first from cuBLAS's
    // directory) is checked too.
    let lt = wheel("truncated-dependency");
    fake("cublaslt", &lt, &[]);
    fake("cublas", &lt, &[]);
    let dep = lt.join("libcublasLt.so.13");
    let len = std::fs::metadata(&dep).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&dep)
        .unwrap()
        .set_len(len / 2)
        .unwrap();
    let venv = dir.join("truncated-dependency");
    let good = toolkit.join("lib64/libcublas.so.13").display().to_string();
    for out in both(
        &["which", "cublas"],
        &[("VIRTUAL_ENV", &venv), ("CUDA_HOME", &toolkit)],
        &dir,
    ) {
        assert!(out.contains(&format!("path={good} version=13010")), "{out}");
    }
}

/// The major of `release` (`13.0` → 13).
fn major(release: &str) -> u32 {
    release
        .parse::<cushim::version::CudaVersion>()
        .unwrap()
        .number()
        / 1000
}

/// Every library of the registry is in both programs: with none of them
/// installed, each one's own calls answer (`tests/fake/<name>.rs` and
/// `.cpp`), and its loader says by its label that it found none and names
/// the file it looked for.
#[test]
fn every_library_answers_without_its_library_in_both_programs() {
    let dir = scratch("family-every-absent");
    let libraries = libraries();
    let mut args = vec!["absent"];
    args.extend(libraries.iter().map(|(l, _)| l.name));
    let [rust, cpp] = both(&args, &[], &dir);
    for (library, release) in &libraries {
        let major = major(release);
        let file = cushim::library::with_major(library.names_for(major).unix, major).remove(0);
        for out in [&rust, &cpp] {
            assert!(
                out.lines()
                    .any(|l| l.starts_with(&format!("{}: ", library.name))),
                "{}: its own calls printed nothing:\n{out}",
                library.name
            );
            let said = format!("error={} library not found", library.words.label);
            assert!(
                out.lines()
                    .any(|l| l.starts_with(&said) && l.contains(&format!("`{file}`"))),
                "{}: want {said} naming `{file}`:\n{out}",
                library.name
            );
        }
    }
}

/// Every library of the registry works in both programs with its fake where
/// a toolkit (or, for a library the driver installs, the system loader)
/// has it, beside the libraries it loads first, requires and opens by name,
/// each built from its description; its own calls succeed, and its loader
/// found the fake.
#[test]
fn every_library_works_in_both_programs_with_its_fake_in_a_toolkit() {
    use cushim::library::{with_major, Search};
    let dir = scratch("family-every-present");
    let toolkit = dir.join("toolkit");
    let lib64 = toolkit.join("lib64");
    let system = dir.join("system");
    let libraries = libraries();
    // Each fake after those it is linked against (those loaded first).
    let mut built: Vec<String> = Vec::new();
    let mut pending: Vec<&(&cushim::library::Library, String)> = libraries.iter().collect();
    while !pending.is_empty() {
        let before = pending.len();
        pending.retain(|(library, release)| {
            let major = major(release);
            let needs = with_major(library.preload_for(major).unix, major);
            if !needs
                .iter()
                .filter(|n| !n.contains('/'))
                .all(|n| built.contains(n))
            {
                return true;
            }
            let place = match library.search {
                Search::System => &system,
                Search::Toolkit { .. } => &lib64,
            };
            fake(library.name, place, &[]);
            built.extend(with_major(library.names_for(major).unix, major));
            let own = [library.requires.unix, library.siblings.unix].concat();
            for name in with_major(&own, major) {
                // Not a name for the minor the library reports, nor another
                // library's (cuFFT opens NVRTC by name): those have fakes of
                // their own.
                let another = libraries.iter().any(|(other, _)| {
                    with_major(other.names_for(major).unix, major).contains(&name)
                });
                if !name.contains('{') && !another {
                    sublibrary(place, &name);
                }
            }
            false
        });
        assert!(
            pending.len() < before,
            "a cycle among the fakes' dependencies"
        );
    }
    let env = [("CUDA_HOME", &*toolkit), ("LD_LIBRARY_PATH", &*system)];
    for (library, release) in &libraries {
        let major = major(release);
        let soname = with_major(library.names_for(major).unix, major).remove(0);
        let found = match library.search {
            // The system loader's answer, by the name it was asked.
            Search::System => soname,
            Search::Toolkit { .. } => lib64.join(&soname).display().to_string(),
        };
        for out in both(&["present", library.name], &env, &dir) {
            assert!(
                out.contains(&format!("path={found} version=")),
                "{}: want path={found}:\n{out}",
                library.name
            );
        }
    }
}
