//! aarch64 (issue 36): the C++ pairs cross-compiled with
//! `aarch64-linux-gnu-g++`, their programs run under `qemu-aarch64` against
//! fake drivers built for aarch64, and the Rust modules cross-built for
//! `aarch64-unknown-linux-gnu`. `.ci/run` installs the tools; without them
//! these tests fail, unless `CUSHIM_SKIP_AARCH64=1` says to skip them.
//!
//! What runs under emulation is chosen to stay cheap: the register probe,
//! the C program, and the scenario rows that show the fallback answers, a
//! missing symbol, the binding paths and the race of first calls, for both
//! runtimes. The other rows test the loader's search and the platform's
//! loader, which are the same code on every architecture.

use crate::common;
use crate::cpp::body;
use crate::scenarios::{self, Machine, Program, Runner};

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use common::{include_dir, missing_library, root, run_ok, scratch, CXXFLAGS};

/// The GNU triple of the cross tools.
const TRIPLE: &str = "aarch64-linux-gnu";
/// The Rust target.
const RUST_TARGET: &str = "aarch64-unknown-linux-gnu";
/// The cross toolchain's root, where qemu finds the dynamic loader and libc.
const SYSROOT: &str = "/usr/aarch64-linux-gnu";

fn tool(name: &str) -> String {
    format!("{TRIPLE}-{name}")
}

/// Whether the cross tools (and, with `rust`, the Rust target) are here;
/// without them a test fails unless `CUSHIM_SKIP_AARCH64` is set.
fn tools(rust: bool) -> bool {
    let have = common::have(&tool("g++"))
        && common::have(&tool("objdump"))
        && common::have("qemu-aarch64")
        && (!rust || common::have_rust_target(RUST_TARGET));
    assert!(
        have || std::env::var_os("CUSHIM_SKIP_AARCH64").is_some(),
        "install g++-aarch64-linux-gnu, qemu-user and the {RUST_TARGET} Rust target (as .ci/run does), or set CUSHIM_SKIP_AARCH64=1"
    );
    have
}

/// The committed 13.5 pairs.
fn generated() -> PathBuf {
    root().join("generated/cuda-13.5")
}

/// `qemu-aarch64 PROGRAM ARGS...` with `env` set for the emulated program
/// alone (`-E`: the emulator's own loader never sees an aarch64
/// `LD_PRELOAD`), in a clean loader environment, under `timeout 60`.
/// Asserts that it succeeded and printed `ok: SCENARIO`; returns (stdout,
/// stderr), as [`common::scenario`] does.
fn emulate(program: &Path, args: &[&str], env: &[(&str, &Path)]) -> (String, String) {
    let mut cmd = Command::new("timeout");
    cmd.args(["60", "qemu-aarch64", "-L", SYSROOT]);
    for (k, v) in env {
        cmd.arg("-E").arg(format!("{k}={}", v.display()));
    }
    cmd.arg(program).args(args);
    for var in [
        "CUSHIM_CUDA_LIBRARY",
        "CUSHIM_PER_THREAD_DEFAULT_STREAM",
        "LD_LIBRARY_PATH",
        "LD_PRELOAD",
        "QEMU_LD_PREFIX",
    ] {
        cmd.env_remove(var);
    }
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let (stdout, stderr) = common::text(&out);
    assert!(
        out.status.success(),
        "{args:?} under qemu-aarch64 failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    assert!(stdout.contains(&format!("ok: {}", args[0])), "{stdout}");
    (stdout, stderr)
}

/// The committed 13.5 driver pair and the runtime beside it, compiled for
/// aarch64 as a C program's build compiles them (`-fno-exceptions`), once:
/// the pair's object and the runtime's. The pair reads no CUDA header: its
/// stubs are all assembly.
fn driver_objects() -> &'static (PathBuf, PathBuf) {
    static OBJECTS: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    OBJECTS.get_or_init(|| {
        let dir = scratch("aarch64-driver");
        let objects = (dir.join("cuda_shim.o"), dir.join("cushim_runtime.o"));
        for (source, object) in [
            ("cuda_shim.cpp", &objects.0),
            ("cushim_runtime.cpp", &objects.1),
        ] {
            run_ok(
                Command::new(tool("g++"))
                    .args(CXXFLAGS)
                    .args(["-fno-exceptions", "-c"])
                    .arg(format!("-I{}", generated().display()))
                    .arg(generated().join(source))
                    .arg("-o")
                    .arg(object),
            );
        }
        objects
    })
}

/// `function`'s mnemonics and their first operand, as `adrp x16`.
fn shape(instructions: &[String]) -> Vec<String> {
    instructions
        .iter()
        .map(|i| {
            let mut words = i.split_whitespace();
            let op = words.next().unwrap_or_default();
            match words.next() {
                Some(first) => format!("{op} {}", first.trim_end_matches(',')),
                None => op.to_string(),
            }
        })
        .collect()
}

/// The committed 13.5 driver pair's `cuInit` on aarch64 is four instructions
/// ending in `br`: the slot's address (`adrp`, `add`), its load with acquire
/// semantics (`ldar`, as the C++ stubs' atomic load) and the jump through
/// x16. Its thunk tags the slot's address in x9 and branches to the binder.
/// Built with `-mbranch-protection=standard`, the export and the thunk start
/// with `bti c` and the object says it is BTI-ready.
#[test]
fn an_aarch64_stub_is_four_instructions_ending_in_br() {
    if !tools(false) {
        return;
    }
    let objdump = |object: &Path| {
        run_ok(
            Command::new(tool("objdump"))
                .args(["-d", "--no-show-raw-insn"])
                .arg(object),
        )
    };
    let listing = objdump(&driver_objects().0);
    let init = body(&listing, "cuInit");
    assert_eq!(
        shape(&init),
        ["adrp x16", "add x16", "ldar x16", "br x16"],
        "{init:?}"
    );
    let thunk = body(&listing, "cushim_cuda_thunk_cuInit");
    assert_eq!(shape(&thunk)[..2], ["adrp x9", "add x9"], "{thunk:?}");
    assert!(
        thunk.len() == 3 && thunk[2].starts_with("b\t") && thunk[2].ends_with("<cushim_cuda_bind>"),
        "{thunk:?}"
    );
    // cuGetErrorName answers from the fallback table: the same jump.
    let name = body(&listing, "cuGetErrorName");
    assert_eq!(shape(&name), shape(&init), "{name:?}");

    let dir = scratch("aarch64-bti");
    let object = dir.join("cuda_shim.o");
    run_ok(
        Command::new(tool("g++"))
            .args(CXXFLAGS)
            .args(["-mbranch-protection=standard", "-c"])
            .arg(format!("-I{}", generated().display()))
            .arg(generated().join("cuda_shim.cpp"))
            .arg("-o")
            .arg(&object),
    );
    let listing = objdump(&object);
    let init = body(&listing, "cuInit");
    assert_eq!(
        shape(&init),
        ["bti c", "adrp x16", "add x16", "ldar x16", "br x16"],
        "{init:?}"
    );
    let thunk = body(&listing, "cushim_cuda_thunk_cuInit");
    assert_eq!(shape(&thunk)[0], "bti c", "{thunk:?}");
    let notes = run_ok(Command::new(tool("readelf")).arg("-n").arg(&object));
    assert!(notes.contains("AArch64 feature: BTI, PAC"), "{notes}");
}

/// A C program linked against the committed 13.5 driver pair, built for
/// aarch64, gets CUDA_ERROR_SHARED_OBJECT_INIT_FAILED (303) from `cuInit`
/// under qemu, where no driver exists.
/// `tests/cpp/c_program.c` on the committed 13.5 driver pair, built for
/// aarch64 once.
fn c_program() -> &'static Path {
    static PROGRAM: OnceLock<PathBuf> = OnceLock::new();
    PROGRAM.get_or_init(|| {
        let dir = scratch("aarch64-c-program");
        let (shim, runtime) = driver_objects();
        let object = dir.join("c_program.o");
        run_ok(
            Command::new(tool("gcc"))
                .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-c"])
                .arg(format!("-I{}", include_dir("13.5").display()))
                .arg(format!("-I{}", generated().display()))
                .arg(root().join("tests/cpp/c_program.c"))
                .arg("-o")
                .arg(&object),
        );
        let bin = dir.join("c_program");
        run_ok(
            Command::new(tool("gcc"))
                .arg(&object)
                .arg(shim)
                .arg(runtime)
                .args(["-pthread", "-ldl", "-o"])
                .arg(&bin),
        );
        bin
    })
}

/// The C program under qemu with the driver's override set to `library`.
fn c_program_with(library: &Path) -> String {
    let out = Command::new("qemu-aarch64")
        .args(["-L", SYSROOT])
        .arg("-E")
        .arg(format!("CUSHIM_CUDA_LIBRARY={}", library.display()))
        .arg(c_program())
        .output()
        .unwrap();
    let (stdout, stderr) = common::text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    stdout
}

#[test]
fn a_c_program_gets_303_under_qemu_without_a_driver() {
    if !tools(false) {
        return;
    }
    let stdout = c_program_with(&missing_library());
    assert!(stdout.contains("cuInit -> 303, status 1"), "{stdout}");
}

/// A driver built for x86-64, named by the override on aarch64, is refused
/// before the platform's loader sees it, with both machines named: the ELF
/// machine check on this architecture.
#[test]
fn a_driver_built_for_another_machine_is_refused_on_aarch64() {
    if !tools(false) {
        return;
    }
    let x86_64 = common::fake_driver("aarch64-foreign-machine", &[]);
    let stdout = c_program_with(&x86_64);
    assert!(stdout.contains("cuInit -> 303, status 1"), "{stdout}");
    assert!(
        stdout
            .contains("an ELF file for machine 62 (x86-64), but this program is for 183 (AArch64)"),
        "{stdout}"
    );
}

/// The Rust loader refuses a library built for x86-64 on aarch64 with the
/// same message: NVRTC's fake, built for this machine, named by its
/// override for `tests/cross` (built for aarch64) under qemu.
#[test]
fn the_rust_module_refuses_a_library_built_for_another_machine_on_aarch64() {
    if !tools(true) {
        return;
    }
    let library = cushim::library::by_name("nvrtc").unwrap();
    let name = cushim::library::with_major(library.names_for(13).unix, 13).remove(0);
    let x86_64 = scratch("aarch64-foreign-machine-rust").join(&name);
    run_ok(
        Command::new("cc")
            .args(["-shared", "-fPIC", "-O1", "-Wall", "-Werror"])
            .arg(format!("-Wl,-soname,{name}"))
            .arg("-o")
            .arg(&x86_64)
            .arg(root().join(format!("tests/fake/lib{}.c", library.name)))
            .arg("-lm"),
    );
    let (stdout, _) = emulate(
        cross_program(),
        &["which"],
        &[(library.words.override_var, &x86_64)],
    );
    assert!(
        stdout.contains("error=") && stdout.contains(&format!("`{}`", x86_64.display())),
        "{stdout}"
    );
    assert!(
        stdout
            .contains("an ELF file for machine 62 (x86-64), but this program is for 183 (AArch64)"),
        "{stdout}"
    );
}

/// `tests/cross` (the driver's and NVRTC's 13.5 modules) built for aarch64,
/// once.
fn cross_program() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        cargo_for_aarch64(&["build", "--quiet"], "tests/cross/Cargo.toml", &[]);
        common::nested_target()
            .join(RUST_TARGET)
            .join("debug/cushim-cross")
    })
}

/// NVRTC (the library `tests/cross` binds besides the driver) under a
/// toolkit root named by `CUDA_HOME`, with its fake built for aarch64 only
/// in `targets/<dir>/lib`, as in a toolkit unpacked from an archive (no
/// `lib64` linking there): the C program on the committed 13.5 pair and the
/// Rust module, under qemu, find it in SBSA's (`sbsa-linux`) and Jetson's
/// (`aarch64-linux`) directory, and not in x86-64's.
#[test]
fn both_loaders_search_the_toolkit_s_aarch64_target_directories() {
    if !tools(true) {
        return;
    }
    let library = cushim::library::by_name("nvrtc").unwrap();
    let name = cushim::library::with_major(library.names_for(13).unix, 13).remove(0);
    let dir = scratch("aarch64-toolkit-targets");
    // The C program: the pair's status API, on the committed pair.
    let source = dir.join("which.c");
    let (stem, upper) = (library.stem, library.stem.to_uppercase());
    std::fs::write(
        &source,
        format!(
            "#include <stdio.h>\n#include \"{stem}_shim.h\"\n\nint main(void) {{\n    if (cushim_{stem}_load() == CUSHIM_{upper}_OK)\n        printf(\"path=%s\\n\", cushim_{stem}_library_path());\n    else\n        printf(\"error=%s\\n\", cushim_{stem}_last_message());\n    printf(\"ok: which\\n\");\n    return 0;\n}}\n"
        ),
    )
    .unwrap();
    let pin = cushim::pins::find_for(library, "13.5".parse().unwrap()).unwrap();
    let include = cushim::fetch::library_include_dir(library, &pin).unwrap();
    let pair = dir.join("pair.o");
    run_ok(
        Command::new(tool("g++"))
            .args(CXXFLAGS)
            .args(["-fno-exceptions", "-c"])
            .arg(format!("-I{}", include.display()))
            .arg(format!("-I{}", generated().display()))
            .arg(generated().join(format!("{stem}_shim.cpp")))
            .arg("-o")
            .arg(&pair),
    );
    let c_program = dir.join("which");
    run_ok(
        Command::new(tool("gcc"))
            .args(["-std=c11", "-Wall", "-Wextra", "-Werror"])
            .arg(format!("-I{}", generated().display()))
            .arg(&source)
            .arg(&pair)
            .arg(&driver_objects().1)
            .args(["-lstdc++", "-pthread", "-ldl", "-o"])
            .arg(&c_program),
    );
    let rust_program = cross_program();
    let fake = dir.join(&name);
    run_ok(
        Command::new(tool("gcc"))
            .args(["-shared", "-fPIC", "-O1", "-Wall", "-Werror"])
            .arg(format!("-Wl,-soname,{name}"))
            .arg("-o")
            .arg(&fake)
            .arg(root().join(format!("tests/fake/lib{}.c", library.name)))
            .arg("-lm"),
    );
    for (target, found) in [
        ("sbsa-linux", true),
        ("aarch64-linux", true),
        ("x86_64-linux", false),
    ] {
        let toolkit = dir.join(format!("toolkit-{target}"));
        let lib = toolkit.join("targets").join(target).join("lib");
        std::fs::create_dir_all(&lib).unwrap();
        std::fs::copy(&fake, lib.join(&name)).unwrap();
        for program in [c_program.as_path(), rust_program] {
            let (stdout, _) = emulate(program, &["which"], &[("CUDA_HOME", &toolkit)]);
            let want = format!("path={}\n", lib.join(&name).display());
            assert_eq!(stdout.contains(&want), found, "{target}: {want}:\n{stdout}");
            assert!(found || stdout.contains("error="), "{stdout}");
        }
    }
}

/// The register probe (`tests/aarch64/registers.h`): its pair, its fake
/// driver (`tests/fake/libcuda.c` and `tests/aarch64/registers.c`, whose
/// initializer changes every register a call may change) and its program,
/// built with `cc`/`cxx` into `dir`. Returns the program and the fake.
fn probe(dir: &Path, cc: &str, cxx: &str, prefix: &str) -> (PathBuf, PathBuf) {
    let pair = dir.join("pair");
    cushim::Builder::new()
        .header(root().join("tests/aarch64/registers.h"), None)
        .languages(&[cushim::Language::Cpp])
        .out_dir(&pair)
        .generate()
        .unwrap();
    let sources = root().join("tests/aarch64");
    let mut objects = Vec::new();
    for (compiler, source, flags) in [
        (cxx, pair.join("registers_shim.cpp"), &CXXFLAGS[..]),
        (cxx, pair.join("cushim_runtime.cpp"), &CXXFLAGS[..]),
        (
            cc,
            sources.join("registers_program.c"),
            &["-std=c11", "-Wall", "-Wextra", "-Werror", "-O2"][..],
        ),
    ] {
        let object = dir.join(source.file_name().unwrap()).with_extension("o");
        run_ok(
            Command::new(compiler)
                .args(flags)
                .args(["-fno-exceptions", "-c"])
                .arg(format!("-I{}", pair.display()))
                .arg(format!("-I{}", sources.display()))
                .arg(&source)
                .arg("-o")
                .arg(&object),
        );
        objects.push(object);
    }
    let bin = dir.join("registers");
    run_ok(
        Command::new(cc)
            .args(&objects)
            .args(["-pthread", "-ldl", "-o"])
            .arg(&bin),
    );
    let registers = sources.join("registers.c");
    let fake = common::fake_driver_with(
        cc,
        &format!("{prefix}registers"),
        &[registers.to_str().unwrap()],
    );
    (bin, fake)
}

/// The binder hands every argument register on: x0-x7, the indirect
/// result's address in x8 and v0-v7 on aarch64 (under qemu), rdi-r9 and
/// xmm0-xmm7 on x86-64, and the arguments on the stack past them. Each
/// function of the probe runs first in a process of its own, so that its
/// first call loads the library, whose initializer changes every register a
/// call may change, between the binder's saving and restoring. Without the
/// library each stub answers 303.
#[test]
fn the_binder_keeps_every_argument_register_on_aarch64_and_x86_64() {
    let aarch64 = tools(false);
    let mut machines: Vec<(&str, &str, &str, Runner)> =
        vec![("", "cc", "g++", common::scenario as Runner)];
    if aarch64 {
        machines.push((
            "aarch64-",
            "aarch64-linux-gnu-gcc",
            "aarch64-linux-gnu-g++",
            emulate,
        ));
    }
    for (prefix, cc, cxx, run) in machines {
        let dir = scratch(&format!("{prefix}register-probe"));
        let (bin, fake) = probe(&dir, cc, cxx, prefix);
        for scenario in ["integers", "floats", "mixed", "indirect"] {
            run(&bin, &[scenario], &[("CUSHIM_CUDA_LIBRARY", &fake)]);
        }
        run(
            &bin,
            &["no-library"],
            &[("CUSHIM_CUDA_LIBRARY", &missing_library())],
        );
    }
}

/// Rows of `tests/scenarios.rs` that run under qemu for both programs: the
/// fallback answers of every function (`no_library`), calls that round-trip
/// and a function the fake lacks (`fake`), a missing symbol, the toolkit
/// stub, the binding paths, a driver too old, per-thread twins, and 32
/// threads racing on the first call.
const ROWS: &[&str] = &[
    "no_library",
    "fake",
    "missing_symbol",
    "stub",
    "binds_proc_v2",
    "binds_dlsym",
    "too_old_12_2",
    "per_thread",
    "race",
];

/// aarch64 under qemu, for the scenario table.
const AARCH64: Machine = Machine {
    prefix: "aarch64-",
    cc: "aarch64-linux-gnu-gcc",
    program,
    run: emulate,
};

fn program(program: Program) -> &'static Path {
    match program {
        Program::Cpp => cpp_program(),
        Program::Rust => rust_program(),
    }
}

/// `tests/cpp/consumer.cpp` built for aarch64 against the committed 13.5
/// pair. The system's OpenGL, EGL and VDPAU headers, which the interop
/// headers include, are architecture-neutral: searched after the cross
/// compiler's own.
fn cpp_program() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let dir = scratch("aarch64-cpp-consumer");
        std::fs::write(dir.join("calls.inc"), scenarios::calls_inc()).unwrap();
        let object = dir.join("consumer.o");
        run_ok(
            Command::new(tool("g++"))
                .args(CXXFLAGS)
                .args(["-pthread", "-c"])
                .arg(format!("-I{}", include_dir("13.5").display()))
                .arg(format!("-I{}", generated().display()))
                .arg(format!("-I{}", dir.display()))
                .args(["-idirafter", "/usr/include"])
                .arg(root().join("tests/cpp/consumer.cpp"))
                .arg("-o")
                .arg(&object),
        );
        let (shim, runtime) = driver_objects();
        let bin = dir.join("consumer");
        run_ok(
            Command::new(tool("g++"))
                .arg(&object)
                .arg(shim)
                .arg(runtime)
                .args(["-pthread", "-ldl", "-rdynamic", "-o"])
                .arg(&bin),
        );
        bin
    })
}

/// `tests/consumer` cross-built for aarch64 (its build script runs here).
fn rust_program() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let target = common::nested_target();
        cargo_for_aarch64(&["build", "--quiet"], "tests/consumer/Cargo.toml", &[]);
        target.join(RUST_TARGET).join("debug/cushim-consumer")
    })
}

/// `cargo ARGS --target aarch64-unknown-linux-gnu` on `manifest`, in the
/// nested crates' target directory, linked by the cross compiler.
fn cargo_for_aarch64(args: &[&str], manifest: &str, env: &[(&str, &Path)]) {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(args)
        .args(["--locked", "--target", RUST_TARGET, "--manifest-path"])
        .arg(root().join(manifest))
        .arg("--target-dir")
        .arg(common::nested_target())
        .env("CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER", tool("gcc"))
        .env_remove("RUSTFLAGS");
    for (k, v) in env {
        cmd.env(k, v);
    }
    run_ok(&mut cmd);
}

#[test]
fn scenario_rows_of_the_cpp_program_under_qemu() {
    if !tools(false) {
        return;
    }
    for row in ROWS {
        scenarios::run_on(row, Program::Cpp, &AARCH64);
    }
}

#[test]
fn scenario_rows_of_the_rust_program_under_qemu() {
    if !tools(true) {
        return;
    }
    for row in ROWS {
        scenarios::run_on(row, Program::Rust, &AARCH64);
    }
}

/// Every committed 13.5 pair compiles and assembles for aarch64 as a user
/// builds it (the headers on the include path, read only where a stub is
/// C++), and its stubs' types match the headers as aarch64 reads them
/// (`CUSHIM_CHECK_SIGNATURES`, where `char` is unsigned).
#[test]
fn every_committed_13_5_pair_compiles_for_aarch64() {
    if !tools(false) {
        return;
    }
    let dir = scratch("aarch64-pairs");
    let mut checked = 0;
    for library in cushim::library::LIBRARIES {
        let pin = cushim::pins::find_for(library, "13.5".parse().unwrap()).unwrap();
        let include = cushim::fetch::library_include_dir(library, &pin).unwrap();
        let source = generated().join(format!("{}_shim.cpp", library.stem));
        let object = dir.join(format!("{}_shim.o", library.stem));
        for flags in [
            &["-O0", "-c", "-o", object.to_str().unwrap()][..],
            &["-fsyntax-only", "-DCUSHIM_CHECK_SIGNATURES"][..],
        ] {
            run_ok(
                Command::new(tool("g++"))
                    .args(["-std=c++17", "-Wall", "-Wextra", "-Werror"])
                    .args(flags)
                    .arg(format!("-I{}", include.display()))
                    .arg(format!("-I{}", generated().display()))
                    // The system's OpenGL, EGL and VDPAU headers, then
                    // cushim's stand-ins for what it lacks (`nv/target`):
                    // the pairs include the real headers, never the
                    // parse's stand-ins where a system has them (an Arm
                    // `cuda_gl_interop.h` wants OpenGL's `GL_VERSION`).
                    .args(["-idirafter", "/usr/include"])
                    .arg("-idirafter")
                    .arg(root().join("headers/foreign"))
                    .arg(&source),
            );
        }
        checked += 1;
    }
    assert_eq!(checked, cushim::library::LIBRARIES.len());
}

/// Every committed Rust module that `tests/lint-consumer` vendors (each
/// library's newest and oldest release, and the driver's merged module)
/// type-checks for aarch64, where C's `char` is unsigned.
#[test]
fn every_vendored_rust_module_checks_for_aarch64() {
    if !tools(true) {
        return;
    }
    let target = common::nested_target();
    let list = target.join("lint-modules-aarch64.rs");
    let modules = crate::lint::modules_rs();
    std::fs::create_dir_all(&target).unwrap();
    // Written only when it changes, so that cargo keeps its build.
    if std::fs::read_to_string(&list).ok().as_deref() != Some(modules.as_str()) {
        std::fs::write(&list, &modules).unwrap();
    }
    cargo_for_aarch64(
        &["check", "--quiet", "--lib"],
        "tests/lint-consumer/Cargo.toml",
        &[("CUSHIM_LINT_MODULES", &list)],
    );
}
