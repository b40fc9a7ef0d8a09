//! Every library of the registry but the driver on Windows (issue 36, item
//! 2): the family programs, C++ built with mingw-w64 against the committed
//! CUDA 13.5 pairs and Rust (`tests/family-consumer`) against the committed
//! 13.5 modules for x86_64-pc-windows-gnu, run under Wine. Without the
//! libraries each one answers its own "library not found" naming its Windows
//! file, or, with no Windows file, that it has none; with each fake built as
//! a DLL under its Windows name in a toolkit's `bin` (or, for a library the
//! driver installs, named by its override variable), each one's own calls
//! run against its fake. Four Wine runs: each program absent, then present.

use crate::common;
use crate::family::libraries;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use common::{root, run_ok, scratch, CXXFLAGS};

use cushim::library::{with_major, Library, Search};

/// The release of the committed pairs the program is built against.
const RELEASE: &str = "13.5";
const MAJOR: u32 = 13;
/// The Rust program's target.
const TARGET: &str = "x86_64-pc-windows-gnu";

/// Its Windows files for CUDA 13: empty for a library that has none.
fn windows_names(library: &Library) -> Vec<String> {
    with_major(library.names_for(MAJOR).windows, MAJOR)
}

/// Whether the program runs `library`'s own calls: it has a Windows file and
/// its headers compile (`with_header`).
fn has_calls(library: &Library, with_header: &[&str]) -> bool {
    !windows_names(library).is_empty() && with_header.contains(&library.name)
}

/// The program's `libraries.h`: each library's pair header and `which`; the
/// own calls (`tests/fake/<name>.cpp`) of those with a Windows file and
/// `with_header`, and for the others only `which`; `present` and `absent`
/// over them.
fn libraries_h(with_header: &[&str]) -> String {
    let libraries = libraries();
    let mut text = String::from("// Written by tests/family_windows.rs from cushim's registry.\n");
    for (library, _) in &libraries {
        text.push_str(&format!("#include \"{}_shim.h\"\n", library.stem));
    }
    let unknown = "    {\n        std::fprintf(stderr, \"unknown library %s\\n\", lib);\n        std::exit(2);\n    }\n";
    text.push_str("\nstatic void which(const char *lib) {\n");
    for (library, _) in &libraries {
        let (name, stem) = (library.name, library.stem);
        let upper = stem.to_uppercase();
        let version = library.version.name.to_str().unwrap();
        text.push_str(&format!(
            "    if (std::strcmp(lib, \"{name}\") == 0) {{\n        if (cushim_{stem}_load() == CUSHIM_{upper}_OK)\n            std::printf(\"{name}: path=%s version=%u\\n\", cushim_{stem}_library_path(), cushim_{stem}_library_version());\n        else\n            std::printf(\"{name}: error=%s\\n\", (cushim_{stem}_function_status(\"{version}\"), cushim_{stem}_last_message()));\n        return;\n    }}\n"
        ));
    }
    text.push_str(unknown);
    text.push_str("}\n\n");
    for (library, _) in &libraries {
        if has_calls(library, with_header) {
            text.push_str(&format!(
                "#include \"{}\"\n",
                root()
                    .join(format!("tests/fake/{}.cpp", library.name))
                    .display()
            ));
        }
    }
    for scenario in ["present", "absent"] {
        text.push_str(&format!("\nstatic void {scenario}(const char *lib) {{\n"));
        for (library, _) in &libraries {
            let calls = if has_calls(library, with_header) {
                format!("{}_{scenario}();\n        ", library.name)
            } else {
                String::new()
            };
            text.push_str(&format!(
                "    if (std::strcmp(lib, \"{0}\") == 0) {{\n        {calls}which(lib);\n        return;\n    }}\n",
                library.name
            ));
        }
        text.push_str(unknown);
        text.push_str("}\n");
    }
    text
}

/// Stand-ins for the POSIX headers that a Linux-only library's header
/// includes (`<arpa/inet.h>`, `<sys/socket.h>`), from winsock: mingw-w64
/// has none. Only the types such a header names (`struct sockaddr`,
/// `loff_t`) are needed, to compile the pair that reports it has no
/// Windows library.
fn posix_stand_ins(dir: &Path) -> PathBuf {
    let posix = dir.join("posix");
    for (file, text) in [
        ("arpa/inet.h", "#include <winsock2.h>\n"),
        (
            "sys/socket.h",
            "#include <winsock2.h>\n#include <sys/types.h>\ntypedef long long loff_t;\n",
        ),
    ] {
        let path = posix.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    posix
}

/// `g++ -c` of `source` for Windows into `object`, with `includes`; whether
/// it compiled.
fn compile(source: &Path, object: &Path, includes: &[PathBuf]) -> bool {
    let mut cmd = Command::new("x86_64-w64-mingw32-g++-posix");
    cmd.args(CXXFLAGS).arg("-c");
    for i in includes {
        cmd.arg("-isystem").arg(i);
    }
    cmd.arg(format!(
        "-I{}",
        root().join("generated/cuda-13.5").display()
    ))
    .arg(source)
    .arg("-o")
    .arg(object);
    let out = cmd.output().unwrap();
    out.status.success()
}

/// Whether the headers that `library`'s own calls include (the `#include`
/// lines of `tests/fake/<name>.cpp`) compile for Windows with `includes`,
/// after its pair's header, as in the program.
fn headers_compile(library: &Library, dir: &Path, includes: &[PathBuf]) -> bool {
    let calls = root().join(format!("tests/fake/{}.cpp", library.name));
    let text = std::fs::read_to_string(&calls).unwrap();
    let pair = format!("#include \"{}_shim.h\"\n", library.stem);
    let lines: String = std::iter::once(pair)
        .chain(
            text.lines()
                .filter(|l| l.starts_with("#include"))
                .map(|l| format!("{l}\n")),
        )
        .collect();
    let source = dir.join(format!("{}_headers.cpp", library.name));
    std::fs::write(&source, lines).unwrap();
    compile(
        &source,
        &dir.join(format!("{}_headers.o", library.name)),
        includes,
    )
}

/// The program and which libraries' own calls it has.
struct Program {
    exe: PathBuf,
    /// Those whose headers, and those their calls include, mingw-w64
    /// compiles: the program runs their calls if they have a Windows file.
    /// A pair whose headers do not compile is built without (headerless).
    with_header: Vec<&'static str>,
    /// Those with a Windows file whose calls the program cannot run, and
    /// what fails for mingw-w64: their headers, the headers their calls
    /// include, or a link of what the header declares (a function imported
    /// from the DLL, `__imp_<symbol>`, or an object the library exports)
    /// that the pair does not define. None, the test asserts.
    without_calls: Vec<(&'static str, String)>,
}

/// Builds the program into `dir`: each pair with its library's headers
/// where mingw-w64 compiles them, else without; the calls of those with
/// headers and a Windows file.
fn program(dir: &Path) -> Program {
    let generated = root().join("generated/cuda-13.5");
    let posix = posix_stand_ins(dir);
    let mut objects = Vec::new();
    let mut with_header = Vec::new();
    let mut without_calls = Vec::new();
    let mut includes = Vec::new();
    for (library, _) in libraries() {
        let pin = cushim::pins::find_for(library, RELEASE.parse().unwrap()).unwrap();
        let include = cushim::fetch::library_include_dir(library, &pin).unwrap();
        let source = generated.join(format!("{}_shim.cpp", library.stem));
        let object = dir.join(format!("{}_shim.o", library.stem));
        let own = [include, root().join("headers/foreign"), posix.clone()];
        if compile(&source, &object, &own) {
            if headers_compile(library, dir, &own) {
                with_header.push(library.name);
            } else if !windows_names(library).is_empty() {
                without_calls.push((library.name, "the headers its calls include".into()));
            }
            includes.push(own[0].clone());
        } else {
            if !windows_names(library).is_empty() {
                without_calls.push((library.name, "its headers".into()));
            }
            assert!(
                compile(&source, &object, &[]),
                "{}: its pair builds for Windows neither with its headers nor without",
                library.name
            );
        }
        objects.push(object);
    }
    includes.extend([root().join("headers/foreign"), posix]);
    let runtime = dir.join("cushim_runtime.o");
    assert!(compile(
        &generated.join("cushim_runtime.cpp"),
        &runtime,
        &[]
    ));
    objects.push(runtime);
    let exe = dir.join("family.exe");
    loop {
        std::fs::write(dir.join("libraries.h"), libraries_h(&with_header)).unwrap();
        let mut cmd = Command::new("x86_64-w64-mingw32-g++-posix");
        cmd.args(CXXFLAGS);
        for i in &includes {
            cmd.arg("-isystem").arg(i);
        }
        cmd.arg(format!("-I{}", generated.display()))
            .arg(format!("-I{}", dir.display()))
            .arg(root().join("tests/cpp/family_every_windows.cpp"))
            .args(&objects)
            .args(["-static", "-o"])
            .arg(&exe);
        let out = cmd.output().unwrap();
        if out.status.success() {
            break;
        }
        // A call of a symbol that the header declares imported from the
        // DLL (`__declspec(dllimport)`), or of an object the library exports,
        // that the pair does not define: that library's calls go (and the
        // test fails, naming them).
        let (_, stderr) = common::text(&out);
        let missing: Vec<&str> = stderr
            .split("undefined reference to `")
            .skip(1)
            .filter_map(|rest| rest.split('\'').next())
            .map(|s| s.trim_start_matches("__imp_"))
            .collect();
        let culprit = with_header.iter().position(|name| {
            let stem = cushim::library::by_name(name).unwrap().stem;
            let pair = std::fs::read_to_string(generated.join(format!("{stem}_shim.cpp"))).unwrap();
            missing.iter().any(|m| pair.contains(&format!("\"{m}\"")))
        });
        let Some(culprit) = culprit else {
            panic!("the program does not link:\n{stderr}");
        };
        let name = with_header.remove(culprit);
        let stem = cushim::library::by_name(name).unwrap().stem;
        let pair = std::fs::read_to_string(generated.join(format!("{stem}_shim.cpp"))).unwrap();
        let mut its: Vec<&str> = missing
            .into_iter()
            .filter(|m| pair.contains(&format!("\"{m}\"")))
            .collect();
        its.sort_unstable();
        its.dedup();
        without_calls.push((name, format!("a link of {}", its.join(", "))));
    }
    Program {
        exe,
        with_header,
        without_calls,
    }
}

/// Builds the fake of `library` as `dir/<its first Windows file>`, linked
/// against the DLLs it loads first (built before it in `dir`), and its
/// sublibraries beside it. Returns the DLL's path.
fn fake(library: &Library, dir: &Path) -> PathBuf {
    let dll = dir.join(&windows_names(library)[0]);
    let mut cmd = Command::new("x86_64-w64-mingw32-gcc");
    cmd.args(["-shared", "-O1", "-Wall", "-Werror", "-o"])
        .arg(&dll)
        .arg(root().join(format!("tests/fake/lib{}.c", library.name)));
    for need in with_major(library.preload_for(MAJOR).windows, MAJOR) {
        cmd.arg(dir.join(need));
    }
    run_ok(&mut cmd);
    let own = [library.requires.windows, library.siblings.windows].concat();
    for name in with_major(&own, MAJOR) {
        let another = libraries()
            .iter()
            .any(|(other, _)| windows_names(other).contains(&name));
        if !another && !dir.join(&name).exists() {
            run_ok(
                Command::new("x86_64-w64-mingw32-gcc")
                    .args(["-shared", "-O1", "-Wall", "-Werror", "-o"])
                    .arg(dir.join(&name))
                    .arg(root().join("tests/fake/sublibrary.c")),
            );
        }
    }
    dll
}

/// The Rust program's `libraries.rs`: each library's module (the committed
/// 13.5 one) and its calls (`tests/fake/<name>.rs`), and `which`, `present`
/// and `absent` over them; a library without a Windows file runs only its
/// absent calls.
fn libraries_rs() -> String {
    let libraries = libraries();
    let generated = root().join("generated/cuda-13.5");
    let mut text = String::from("// Written by tests/family_windows.rs from cushim's registry.\n");
    for (library, _) in &libraries {
        let (name, stem) = (library.name, library.stem);
        text.push_str(&format!(
            "\n#[allow(clippy::pedantic, missing_docs, dead_code)]\nmod {name} {{\n    include!({:?});\n}}\n\n#[allow(dead_code)]\nmod {name}_scenarios {{\n    #[allow(unused_imports)]\n    use super::*;\n    include!({:?});\n}}\n",
            generated.join(format!("{stem}.rs")).display().to_string(),
            root().join(format!("tests/fake/{name}.rs")).display().to_string(),
        ));
    }
    let unknown = "        other => panic!(\"unknown library {other}\"),\n";
    let arms = |call: &dyn Fn(&Library) -> String| -> String {
        libraries
            .iter()
            .map(|(l, _)| format!("        {:?} => {},\n", l.name, call(l)))
            .collect()
    };
    text.push_str(&format!(
        "\nfn which(lib: &str) {{\n    match lib {{\n{}{unknown}    }}\n}}\n",
        arms(&|l| format!("which!({})", l.name))
    ));
    for scenario in ["present", "absent"] {
        text.push_str(&format!(
            "\nfn {scenario}(lib: &str) {{\n    match lib {{\n{}{unknown}    }}\n    which(lib);\n}}\n",
            arms(&|l| if scenario == "present" && windows_names(l).is_empty() {
                "{}".to_string()
            } else {
                format!("{}_scenarios::{scenario}()", l.name)
            })
        ));
    }
    text
}

/// Builds the Rust program (`tests/family-consumer`) for Windows into `dir`,
/// with the DLL that Wine 8 lacks beside it; returns its path.
fn rust_program(dir: &Path) -> PathBuf {
    let modules = dir.join("rust");
    std::fs::create_dir_all(&modules).unwrap();
    std::fs::write(modules.join("libraries.rs"), libraries_rs()).unwrap();
    let target = common::nested_target();
    run_ok(
        Command::new(env!("CARGO"))
            .args([
                "build",
                "--offline",
                "--locked",
                "--quiet",
                "--target",
                TARGET,
            ])
            .arg("--manifest-path")
            .arg(root().join("tests/family-consumer/Cargo.toml"))
            .arg("--target-dir")
            .arg(&target)
            .env("CUSHIM_FAMILY_DIR", &modules)
            .env(
                "CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER",
                "x86_64-w64-mingw32-gcc",
            )
            .env_remove("RUSTFLAGS"),
    );
    let exe = dir.join("family-rust.exe");
    std::fs::copy(
        target.join(TARGET).join("debug/cushim-family-consumer.exe"),
        &exe,
    )
    .unwrap();
    // Wine 8 lacks the DLL that Rust's standard library takes its random numbers from.
    common::wine_bcryptprimitives(dir);
    exe
}

/// Runs `exe SCENARIO LIB...` under Wine with only `env` of the CUDA
/// variables; asserts it printed `ok: SCENARIO`. Returns its output, one
/// line per `\n`.
fn wine(dir: &Path, exe: &Path, args: &[&str], env: &[(String, String)]) -> String {
    let mut cmd = common::wine(dir, exe);
    cmd.args(args).current_dir(dir);
    cmd.envs(env.iter().map(|(k, v)| (k, v)));
    let out = run_ok(&mut cmd).replace('\r', "");
    assert!(out.contains(&format!("ok: {}", args[0])), "{out}");
    out
}

/// What the present run's loaders are given: the variables (`CUDA_PATH`,
/// and an override variable for a library the driver installs), and the
/// DLL each library must load.
type Installed = (Vec<(String, String)>, Vec<(&'static str, String)>);

/// Builds the fake of each library in `on_windows` under `dir`, each after
/// the DLLs it loads first: in the toolkit's `bin`, or, for a library the
/// driver installs, where its override variable names it.
fn install_fakes(dir: &Path, on_windows: &[&'static Library]) -> Installed {
    // Each fake after the DLLs it loads first.
    let toolkit = dir.join("toolkit");
    let bin = toolkit.join("bin");
    let system = dir.join("system");
    let mut env = vec![("CUDA_PATH".to_string(), common::wine_path(&toolkit))];
    let mut expected = Vec::new();
    let mut pending = on_windows.to_vec();
    while !pending.is_empty() {
        let before = pending.len();
        pending.retain(|library| {
            let needs = with_major(library.preload_for(MAJOR).windows, MAJOR);
            if !needs.iter().all(|n| bin.join(n).exists()) {
                return true;
            }
            let place = match library.search {
                Search::System => &system,
                Search::Toolkit { .. } => &bin,
            };
            std::fs::create_dir_all(place).unwrap();
            let dll = fake(library, place);
            if place == &system {
                env.push((
                    library.words.override_var.to_string(),
                    common::wine_path(&dll),
                ));
            }
            expected.push((library.name, common::wine_path(&dll)));
            false
        });
        assert!(
            pending.len() < before,
            "a cycle among the fakes' dependencies"
        );
    }
    (env, expected)
}

/// Every library of the registry on Windows, in the C++ and the Rust
/// program, with none installed and with every fake.
#[test]
fn every_library_on_windows_answers_without_its_dll_and_works_with_its_fake() {
    if !common::windows_tools(TARGET) {
        return;
    }
    let start = Instant::now();
    let dir = scratch("family-every-windows");
    // Its wine prefix weighs 0.7 GB.
    let _removed = common::RemovedAfter(dir.clone());
    let libraries = libraries();
    let on_windows: Vec<&'static Library> = libraries
        .iter()
        .map(|(l, _)| *l)
        .filter(|l| !windows_names(l).is_empty())
        .collect();
    // The two programs and the fakes, built side by side.
    let (
        Program {
            exe,
            with_header,
            without_calls,
        },
        rust,
        (env, expected),
    ) = std::thread::scope(|s| {
        let rust = s.spawn(|| rust_program(&dir));
        let fakes = s.spawn(|| install_fakes(&dir, &on_windows));
        // The Wine prefix, which takes seconds to create.
        s.spawn(|| common::wine_prefix(&dir));
        let cpp = program(&dir);
        (cpp, rust.join().unwrap(), fakes.join().unwrap())
    });
    for (name, why) in &without_calls {
        eprintln!("family_windows: {name}: its C++ calls do not build for Windows: {why}");
    }
    // Every library with a Windows file runs its own calls, in C++ as in
    // Rust: the pairs define what its header declares imported from the DLL
    // (`__imp_<symbol>`) and the objects it exports, and have GCC read the
    // layout macros that its header spells for MSVC.
    let with_calls: Vec<&Library> = on_windows
        .iter()
        .copied()
        .filter(|l| has_calls(l, &with_header))
        .collect();
    assert!(without_calls.is_empty(), "{without_calls:?}");
    assert_eq!(with_calls.len() + without_calls.len(), on_windows.len());
    // Absent, the Rust program runs every library's calls: those without a
    // Windows file too.
    let every: Vec<&Library> = libraries.iter().map(|(l, _)| *l).collect();
    let programs = [("C++", &exe, &with_calls), ("Rust", &rust, &every)];
    let names: Vec<&str> = libraries.iter().map(|(l, _)| l.name).collect();
    let built = start.elapsed();

    let mut args = vec!["absent"];
    args.extend(&names);
    for (language, exe, calls) in programs {
        let out = wine(&dir, exe, &args, &[]);
        for (library, _) in &libraries {
            let want = match windows_names(library).first() {
                Some(file) => format!(
                    "error={} library not found; tried `{file}`",
                    library.words.label
                ),
                None => format!(
                    "error={} has no library for Windows; set {} to the absolute path of one to use it",
                    library.words.label, library.words.override_var
                ),
            };
            assert!(
                out.contains(&want),
                "{language}: {}: want {want}:\n{out}",
                library.name
            );
        }
        // Its own calls answered (present, they check that they succeed:
        // a failure ends the program).
        for library in calls {
            let own = format!("{}: ", library.name);
            assert!(
                out.lines()
                    .any(|l| l.starts_with(&own) && !l.starts_with(&format!("{own}error="))),
                "{language}: {}: its own calls printed nothing:\n{out}",
                library.name
            );
        }
    }
    let absent = start.elapsed();

    let mut args = vec!["present"];
    args.extend(&names);
    for (language, exe, _) in programs {
        let out = wine(&dir, exe, &args, &env);
        for (name, dll) in &expected {
            let want = format!("path={dll} version=");
            assert!(
                out.contains(&want),
                "{language}: {name}: want {want}:\n{out}"
            );
        }
        for (library, _) in &libraries {
            if windows_names(library).is_empty() {
                let want = format!("error={} has no library for Windows", library.words.label);
                assert!(out.contains(&want), "{language}: {}:\n{out}", library.name);
            }
        }
    }
    let present = start.elapsed();
    eprintln!(
        "family_windows: built in {built:?}, absent runs by {absent:?}, present runs by {present:?}"
    );
}
