//! Every fault scenario, as one table, for the two test programs, each run as
//! `PROGRAM SCENARIO ARGS...`:
//!
//! - Rust: the downstream crate `tests/consumer`, whose build.rs generates its
//!   modules with `cushim::Builder` (the 13.5 module and others);
//! - C++: `tests/cpp/consumer.cpp`, linked against the generated 13.5 pair
//!   instead of `-lcuda`.
//!
//! They run against a fake `libcuda.so.1` (`tests/fake/libcuda.c`) built with
//! the row's C defines by the system C compiler: one build per define set,
//! shared by every row and both programs. Each row is one test per program it
//! names, `ROW::rust` and `ROW::cpp` (`cargo test scenarios::too_old`,
//! `cargo test scenarios:: -- --skip ::rust`). A run must succeed within 60 s, in a
//! clean loader environment plus the row's `env`, and print `ok: SCENARIO`
//! and the row's `expect` texts for that program; the Rust loader must also
//! print nothing to stderr.

use crate::common;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::panic::resume_unwind;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

use common::{compile, include_dir, missing_library, pair, root, run_ok, CXXFLAGS};

/// One test program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Program {
    Rust,
    Cpp,
}

/// The programs a row (or one of its expectations) applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Runtimes {
    Rust,
    Cpp,
    Both,
}
use Runtimes::{Both, Cpp, Rust};

impl Runtimes {
    fn has(self, program: Program) -> bool {
        match self {
            Both => true,
            Rust => program == Program::Rust,
            Cpp => program == Program::Cpp,
        }
    }
}

/// An argument or environment value, resolved when the row runs.
#[derive(Clone, Copy, Debug)]
enum Val {
    /// The row's fake `libcuda.so.1`.
    Lib,
    /// The directory holding it, alone.
    LibDir,
    /// An absolute path where no library exists.
    Missing,
    /// An empty directory.
    EmptyDir,
    /// A directory that holds the fake only as a bare `libcuda.so`.
    BareSoDir,
    /// This text.
    Text(&'static str),
}
use Val::{BareSoDir, EmptyDir, Lib, LibDir, Missing, Text};

/// When a row runs at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum When {
    Always,
    /// Only where the system has no `libcuda.so.1` of its own (the default
    /// search would find it).
    NoSystemDriver,
}

/// One row of the table.
struct Scenario {
    /// The row's name: its test module.
    name: &'static str,
    runtimes: Runtimes,
    /// The C defines of the fake driver; `None`: no fake is built.
    fake: Option<&'static [&'static str]>,
    /// The program's first argument: which of its scenarios runs.
    scenario: &'static str,
    /// Its further arguments.
    args: &'static [Val],
    /// Set on top of a clean loader environment.
    env: &'static [(&'static str, Val)],
    /// Texts stdout must contain, besides `ok: SCENARIO`, for these programs.
    expect: &'static [(Runtimes, &'static str)],
    /// How many times the program runs; each run must pass.
    repeat: usize,
    when: When,
}

/// The defaults of a row.
const ROW: Scenario = Scenario {
    name: "",
    runtimes: Both,
    fake: None,
    scenario: "",
    args: &[],
    env: &[],
    expect: &[],
    repeat: 1,
    when: When::Always,
};

// The fake drivers (tests/fake/libcuda.c documents the knobs).

/// A 13.5 driver with cuGetProcAddress_v2 (12.x and later).
const MODERN: &[&str] = &[];
/// cuMemAlloc_v2 left out (the v1 export stays, as a trap).
const NO_MEMALLOC: &[&str] = &["-DFAKE_OMIT_cuMemAlloc_v2"];
/// NVIDIA's toolkit stub: every call fails.
const STUB: &[&str] = &["-DFAKE_STUB"];
/// 11.3 to 11.8: only the 4-argument cuGetProcAddress.
const V1_11_8: &[&str] = &["-DFAKE_PROC_ADDRESS=1", "-DFAKE_DRIVER_VERSION=11080"];
/// No cuGetProcAddress at all (as before 11.3), reporting 12.8.
const NO_PROC_12_8: &[&str] = &["-DFAKE_PROC_ADDRESS=0", "-DFAKE_DRIVER_VERSION=12080"];
/// A 12.2 driver.
const DRIVER_12_2: &[&str] = &["-DFAKE_DRIVER_VERSION=12020"];
/// An 11.2 driver, without cuGetProcAddress.
const NO_PROC_11_2: &[&str] = &["-DFAKE_PROC_ADDRESS=0", "-DFAKE_DRIVER_VERSION=11020"];
/// cuGetProcAddress_v2 answering every odd way seen in the wild.
const QUIRKS: &[&str] = &["-DFAKE_QUIRKS"];
/// An initializer that sleeps 400 ms (to fork in the middle of the load).
const SLOW_LOAD: &[&str] = &["-DFAKE_SLOW_LOAD=400"];
/// An initializer calling back into the program's own cuDriverGetVersion.
const REENTER: &[&str] = &["-DFAKE_REENTER"];

const LIBRARY: &str = "CUSHIM_CUDA_LIBRARY";
const PER_THREAD: &str = "CUSHIM_PER_THREAD_DEFAULT_STREAM";

/// `ROW: Scenario { runtimes: Both|Rust|Cpp, ... }` rows: `TABLE`, and a module
/// `ROW` with a test `rust` and/or `cpp`.
macro_rules! table {
    ($($row:ident: Scenario { runtimes: $runtimes:ident, $($field:tt)* },)*) => {
        const TABLE: &[Scenario] = &[
            $(Scenario { name: stringify!($row), runtimes: $runtimes, $($field)* },)*
        ];
        $(mod $row { tests_of!($runtimes, stringify!($row)); })*
    };
}

macro_rules! tests_of {
    (Both, $row:expr) => {
        tests_of!(Rust, $row);
        tests_of!(Cpp, $row);
    };
    (Rust, $row:expr) => {
        #[test]
        fn rust() {
            super::run($row, super::Program::Rust);
        }
    };
    (Cpp, $row:expr) => {
        #[test]
        fn cpp() {
            super::run($row, super::Program::Cpp);
        }
    };
}

table! {
    // No library at the override path: every function fails with the
    // documented code, and dlerror's reason is kept.
    no_library: Scenario {
        runtimes: Both,
        scenario: "no-library",
        args: &[Missing],
        env: &[(LIBRARY, Missing)],
        expect: &[
            (Rust, "checked 523 shims"),
            (Rust, "cannot open shared object file"),
            (Cpp, "checked 523 functions"),
        ],
        ..ROW
    },
    // The default search, with nothing to find.
    no_library_default_search: Scenario {
        runtimes: Rust,
        scenario: "no-library",
        args: &[Text("libcuda.so.1")],
        env: &[("LD_LIBRARY_PATH", EmptyDir)],
        expect: &[(Rust, "tried `libcuda.so.1`")],
        when: When::NoSystemDriver,
        ..ROW
    },
    // Only a bare `libcuda.so` on the search path (a toolkit's link, or
    // the stub's name): never loaded by default.
    bare_libcuda_so: Scenario {
        runtimes: Both,
        fake: Some(MODERN),
        scenario: "no-library",
        args: &[Text("libcuda.so.1")],
        env: &[("LD_LIBRARY_PATH", BareSoDir)],
        expect: &[(Rust, "tried `libcuda.so.1`")],
        when: When::NoSystemDriver,
        ..ROW
    },
    // Found by the default search: calls round-trip.
    fake: Scenario {
        runtimes: Both,
        fake: Some(MODERN),
        scenario: "fake",
        env: &[("LD_LIBRARY_PATH", LibDir)],
        ..ROW
    },
    // The path set by the program, before the first call.
    set_path: Scenario {
        runtimes: Cpp,
        fake: Some(MODERN),
        scenario: "set-path",
        args: &[Lib],
        ..ROW
    },
    // A missing symbol fails that function alone.
    missing_symbol: Scenario {
        runtimes: Both,
        fake: Some(NO_MEMALLOC),
        scenario: "missing-symbol",
        env: &[(LIBRARY, Lib)],
        ..ROW
    },
    // The toolkit stub is detected and never called.
    stub: Scenario {
        runtimes: Both,
        fake: Some(STUB),
        scenario: "stub",
        args: &[Lib],
        env: &[(LIBRARY, Lib)],
        ..ROW
    },
    // 32 threads racing on the first call load once.
    race: Scenario {
        runtimes: Both,
        fake: Some(MODERN),
        scenario: "race",
        env: &[(LIBRARY, Lib)],
        repeat: 5,
        ..ROW
    },
    // ... and all see the same failure when there is no library.
    race_no_library: Scenario {
        runtimes: Both,
        scenario: "race-no-library",
        env: &[(LIBRARY, Missing)],
        repeat: 5,
        ..ROW
    },
    // 12.x and later: cuGetProcAddress_v2.
    binds_proc_v2: Scenario {
        runtimes: Both,
        fake: Some(MODERN),
        scenario: "binds-proc",
        env: &[(LIBRARY, Lib)],
        expect: &[(Rust, "bound through cuGetProcAddress_v2")],
        ..ROW
    },
    // 11.3 to 11.8: only the 4-argument cuGetProcAddress.
    binds_proc_v1: Scenario {
        runtimes: Both,
        fake: Some(V1_11_8),
        scenario: "binds-proc",
        env: &[(LIBRARY, Lib)],
        expect: &[(Rust, "bound through cuGetProcAddress\n")],
        ..ROW
    },
    // Before 11.3: exact exports.
    binds_dlsym: Scenario {
        runtimes: Both,
        fake: Some(NO_PROC_12_8),
        scenario: "binds-dlsym",
        env: &[(LIBRARY, Lib)],
        expect: &[(Rust, "bound through none")],
        ..ROW
    },
    // A module generated with --resolve dlsym ignores cuGetProcAddress.
    dlsym_module: Scenario {
        runtimes: Rust,
        fake: Some(MODERN),
        scenario: "dlsym-module",
        env: &[(LIBRARY, Lib)],
        ..ROW
    },
    // Per-thread default stream mode binds the _ptds/_ptsz twins.
    per_thread: Scenario {
        runtimes: Both,
        fake: Some(MODERN),
        scenario: "per-thread",
        env: &[(LIBRARY, Lib)],
        ..ROW
    },
    // ... also when chosen by the environment.
    per_thread_env: Scenario {
        runtimes: Rust,
        fake: Some(MODERN),
        scenario: "per-thread-env",
        env: &[(LIBRARY, Lib), (PER_THREAD, Text("1"))],
        ..ROW
    },
    // "0" means off: legacy binding.
    per_thread_env_zero_is_legacy: Scenario {
        runtimes: Rust,
        fake: Some(MODERN),
        scenario: "binds-proc",
        env: &[(LIBRARY, Lib), (PER_THREAD, Text("0"))],
        ..ROW
    },
    // A driver older than the function: a typed error and no call.
    too_old_12_2: Scenario {
        runtimes: Both,
        fake: Some(DRIVER_12_2),
        scenario: "too-old",
        args: &[Text("12020")],
        env: &[(LIBRARY, Lib)],
        ..ROW
    },
    too_old_11_2_without_proc_address: Scenario {
        runtimes: Both,
        fake: Some(NO_PROC_11_2),
        scenario: "too-old",
        args: &[Text("11020")],
        env: &[(LIBRARY, Lib)],
        ..ROW
    },
    // Every odd cuGetProcAddress answer gets its own error.
    quirks: Scenario {
        runtimes: Both,
        fake: Some(QUIRKS),
        scenario: "quirks",
        env: &[(LIBRARY, Lib)],
        ..ROW
    },
    // Introspection lists what the driver lacks.
    introspection: Scenario {
        runtimes: Rust,
        fake: Some(MODERN),
        scenario: "introspection",
        env: &[(LIBRARY, Lib)],
        ..ROW
    },
    // A relative override is refused, without trying to open it.
    relative_override: Scenario {
        runtimes: Both,
        scenario: "relative-override",
        env: &[(LIBRARY, Text("libcuda.so.1"))],
        ..ROW
    },
    // The module merged from 12.2 and 13.5 binds the right variant.
    merged_12_2: Scenario {
        runtimes: Rust,
        fake: Some(DRIVER_12_2),
        scenario: "merged",
        args: &[Text("12020")],
        env: &[(LIBRARY, Lib)],
        ..ROW
    },
    merged_13_5: Scenario {
        runtimes: Rust,
        fake: Some(MODERN),
        scenario: "merged",
        args: &[Text("13050")],
        env: &[(LIBRARY, Lib)],
        ..ROW
    },
    // A program defining cuInit itself still reaches the driver (its exports:
    // `the_rust_program_exports_its_own_cu_init_and_no_shim`).
    interposition: Scenario {
        runtimes: Rust,
        fake: Some(MODERN),
        scenario: "interposition",
        env: &[(LIBRARY, Lib)],
        ..ROW
    },
    // A fork during the first load does not hang the child.
    fork_during_load: Scenario {
        runtimes: Both,
        fake: Some(SLOW_LOAD),
        scenario: "fork-during-load",
        env: &[(LIBRARY, Lib)],
        ..ROW
    },
    // A driver calling back during its own load does not deadlock.
    reentrant: Scenario {
        runtimes: Both,
        fake: Some(REENTER),
        scenario: "reentrant",
        env: &[(LIBRARY, Lib)],
        ..ROW
    },
    // Stubs work from atexit handlers.
    at_exit: Scenario {
        runtimes: Both,
        fake: Some(MODERN),
        scenario: "at-exit",
        env: &[(LIBRARY, Lib)],
        expect: &[(Both, "atexit: driver 13050")],
        ..ROW
    },
    // A driver already loaded (here by LD_PRELOAD) is the one used.
    preloaded: Scenario {
        runtimes: Both,
        fake: Some(MODERN),
        scenario: "preloaded",
        env: &[(LIBRARY, Lib), ("LD_PRELOAD", Lib)],
        ..ROW
    },
}

/// Where the programs and the fake drivers are built and run: this machine,
/// or another architecture under an emulator (`tests/aarch64.rs`).
pub(crate) struct Machine {
    /// What its scratch names start with (the fakes', ...).
    pub prefix: &'static str,
    /// The C compiler that builds its fake drivers.
    pub cc: &'static str,
    /// A test program, built for it once.
    pub program: fn(Program) -> &'static Path,
    /// Runs a program's scenario.
    pub run: Runner,
}

/// Runs `PROGRAM ARGS...` with `env` as [`common::scenario`] does; returns
/// (stdout, stderr).
pub(crate) type Runner = fn(&Path, &[&str], &[(&str, &Path)]) -> (String, String);

/// This machine.
const NATIVE: Machine = Machine {
    prefix: "",
    cc: "cc",
    program: native_program,
    run: common::scenario,
};

fn native_program(program: Program) -> &'static Path {
    match program {
        Program::Rust => rust_program(),
        Program::Cpp => cpp_program(),
    }
}

/// Runs row `name` in `program` on this machine.
fn run(name: &str, program: Program) {
    run_on(name, program, &NATIVE);
}

/// Runs row `name` in `program` on `machine`.
pub(crate) fn run_on(name: &str, program: Program, machine: &Machine) {
    let row = TABLE.iter().find(|r| r.name == name).expect("a row");
    if row.when == When::NoSystemDriver && system_has_libcuda() {
        eprintln!("{name}: this machine has a libcuda.so.1: not run");
        return;
    }
    let lib = row.fake.map(|defines| fake(machine, defines));
    let value = |v: Val| -> PathBuf {
        let fake_lib = || lib.unwrap_or_else(|| panic!("{name}: {v:?} needs a fake"));
        match v {
            Lib => fake_lib().to_path_buf(),
            LibDir => fake_lib().parent().unwrap().to_path_buf(),
            Missing => missing_library(),
            EmptyDir => empty_dir().to_path_buf(),
            BareSoDir => {
                let dir = common::scratch(&format!("{}bare-so-{name}-{program:?}", machine.prefix));
                std::fs::copy(fake_lib(), dir.join("libcuda.so")).unwrap();
                dir
            }
            Text(text) => PathBuf::from(text),
        }
    };
    let mut args = vec![row.scenario.to_string()];
    for &arg in row.args {
        args.push(value(arg).into_os_string().into_string().unwrap());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let env: Vec<(&str, PathBuf)> = row.env.iter().map(|&(k, v)| (k, value(v))).collect();
    let env: Vec<(&str, &Path)> = env.iter().map(|(k, v)| (*k, v.as_path())).collect();
    let bin = (machine.program)(program);
    for run in 1..=row.repeat {
        let (stdout, stderr) = (machine.run)(bin, &args, &env);
        if program == Program::Rust {
            assert!(
                stderr.is_empty(),
                "{name}: the loader prints nothing on its own: {stderr}"
            );
        }
        for &(runtimes, text) in row.expect {
            if runtimes.has(program) {
                assert!(
                    stdout.contains(text),
                    "{name} ({program:?}, run {run}): no {text:?} in:\n{stdout}"
                );
            }
        }
    }
}

/// The fake driver built for `machine` with `defines`: once per machine,
/// define set and test run.
fn fake(machine: &Machine, defines: &'static [&'static str]) -> &'static Path {
    /// A fake's machine (its prefix) and sorted defines.
    type Key = (&'static str, Vec<&'static str>);
    type Builds = BTreeMap<Key, &'static OnceLock<PathBuf>>;
    static BUILDS: Mutex<Builds> = Mutex::new(BTreeMap::new());
    let mut key = defines.to_vec();
    key.sort_unstable();
    let build = *BUILDS
        .lock()
        .unwrap()
        .entry((machine.prefix, key.clone()))
        .or_insert_with(|| Box::leak(Box::default()));
    // Built outside the map's lock: different define sets build in parallel.
    build.get_or_init(|| {
        let name = format!("{}{}", machine.prefix, fake_name(&key));
        common::fake_driver_with(machine.cc, &name, &key)
    })
}

/// `table-default`, `table-DRIVER_VERSION-12020`, ...: a scratch name per
/// define set.
fn fake_name(defines: &[&str]) -> String {
    if defines.is_empty() {
        return "table-default".into();
    }
    let parts: Vec<String> = defines
        .iter()
        .map(|d| d.trim_start_matches("-DFAKE_").replace('=', "-"))
        .collect();
    format!("table-{}", parts.join("+"))
}

fn empty_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| common::scratch("empty-lib-dir"))
}

fn system_has_libcuda() -> bool {
    Command::new("/sbin/ldconfig")
        .arg("-p")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains("libcuda.so.1"))
        .unwrap_or(false)
}

/// Builds `tests/consumer` once; returns its binary.
fn rust_program() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let target = common::nested_target();
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let out = Command::new(cargo)
            .args(["build", "--quiet", "--manifest-path"])
            .arg(root().join("tests/consumer/Cargo.toml"))
            .arg("--target-dir")
            .arg(&target)
            .env_remove("RUSTFLAGS")
            .output()
            .expect("cargo runs");
        assert!(
            out.status.success(),
            "the consumer crate must build without warnings:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        target.join("debug/cushim-consumer")
    })
}

/// The 13.5 pair, its object, and the C++ test program linked against it,
/// built once. The pair's object compiles on one core while the list of calls
/// and the program's own object are made on the other.
fn cpp_program() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let include = include_dir("13.5");
        std::thread::scope(|s| {
            let calls = s.spawn(calls_inc);
            let dir = pair("cpp-consumer", cushim::Builder::new().cuda_version("13.5"));
            let shim = {
                let (dir, include) = (dir.clone(), &include);
                s.spawn(move || compile(&dir, "cuda", include, &[]))
            };
            let calls = calls.join().unwrap_or_else(|e| resume_unwind(e));
            std::fs::write(dir.join("calls.inc"), calls).unwrap();
            let program = dir.join("consumer.o");
            run_ok(
                Command::new("g++")
                    .args(CXXFLAGS)
                    .arg("-pthread")
                    .arg(format!("-I{}", include.display()))
                    .arg(format!("-I{}", dir.display()))
                    .arg("-c")
                    .arg(root().join("tests/cpp/consumer.cpp"))
                    .arg("-o")
                    .arg(&program),
            );
            let shim = shim.join().unwrap_or_else(|e| resume_unwind(e));
            let bin = dir.join("consumer");
            run_ok(
                Command::new("g++")
                    .arg(&program)
                    .arg(&shim)
                    .arg(common::runtime_object(&dir))
                    // Exported like a shared library's: the re-entrancy test
                    // reaches the stubs through the global scope.
                    .args(["-pthread", "-ldl", "-rdynamic", "-o"])
                    .arg(&bin),
            );
            bin
        })
    })
}

/// `calls.inc` of `tests/cpp/consumer.cpp`: a call of every 13.5 function of
/// this system, with value-initialised arguments.
pub(crate) fn calls_inc() -> String {
    let options = cushim::Builder::new().cuda_version("13.5");
    let (api, _) = cushim::load(options.options()).unwrap();
    let mut calls = String::new();
    // Functions of another system (`cuWGLGetDevice`) are not declared here.
    for f in api.functions.iter().filter(|f| f.platform.is_none()) {
        let args = vec!["{}"; f.params.len()].join(", ");
        writeln!(calls, "CALL({}, ({args}))", f.symbol).unwrap();
    }
    calls
}

// Checks on the table itself and on what its rows run.

#[test]
fn every_row_is_well_formed() {
    for row in TABLE {
        let name = row.name;
        assert!(!row.scenario.is_empty(), "{name}: no scenario");
        assert!(row.repeat >= 1, "{name}: runs at least once");
        let values = row.args.iter().chain(row.env.iter().map(|(_, v)| v));
        for v in values {
            if matches!(v, Lib | LibDir) {
                assert!(row.fake.is_some(), "{name}: {v:?} needs a fake");
            }
        }
        for (runtimes, text) in row.expect {
            assert!(
                [Program::Rust, Program::Cpp]
                    .iter()
                    .any(|&p| runtimes.has(p) && row.runtimes.has(p)),
                "{name}: {text:?} is expected of a program the row does not run"
            );
        }
    }
    // One scratch name per define set, distinct for distinct sets.
    let mut sets: Vec<Vec<&str>> = TABLE
        .iter()
        .filter_map(|r| r.fake)
        .map(|d| {
            let mut d = d.to_vec();
            d.sort_unstable();
            d
        })
        .collect();
    sets.sort();
    sets.dedup();
    let mut names: Vec<String> = sets.iter().map(|d| fake_name(d)).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), sets.len(), "{names:?}");
}

#[test]
fn the_omit_knob_removes_the_v2_export_and_keeps_the_v1_trap() {
    let nm = run_ok(Command::new("nm").arg("-D").arg(fake(&NATIVE, NO_MEMALLOC)));
    assert!(
        !nm.contains(" cuMemAlloc_v2"),
        "the knob removes the export"
    );
    assert!(
        nm.contains(" cuMemAlloc\n"),
        "the v1 export stays, as a trap"
    );
}

#[test]
fn the_rust_program_exports_its_own_cu_init_and_no_shim() {
    let nm = run_ok(Command::new("nm").arg("-D").arg(rust_program()));
    assert!(
        nm.contains(" T cuInit\n"),
        "the program does export its own cuInit"
    );
    assert!(
        !nm.contains(" T cuMemAlloc"),
        "the generated shims export nothing"
    );
}

#[test]
fn the_builder_tells_cargo_about_every_header_it_read() {
    rust_program();
    let build = common::nested_target().join("debug/build");
    // The build script's latest run (older runs' directories may remain).
    let output = std::fs::read_dir(&build)
        .expect("the consumer's build dir")
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("cushim-consumer-")
        })
        .map(|e| e.path().join("output"))
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
        .max()
        .and_then(|(_, p)| std::fs::read_to_string(p).ok())
        .expect("a build script output");
    let reruns: Vec<&str> = output
        .lines()
        .filter_map(|l| l.strip_prefix("cargo:rerun-if-changed="))
        .collect();
    for header in ["fixtures/common/base.h", "fixtures/types.h"] {
        assert!(
            reruns.iter().any(|r| r.ends_with(header)),
            "no rerun-if-changed for {header}:\n{output}"
        );
    }
    // Pinned releases come from the data cushim ships: no header is read.
    assert!(
        !reruns.iter().any(|r| r.contains("/include/cuda")),
        "a pinned release read cached headers:\n{output}"
    );
    for var in cushim::BUILDER_ENV {
        assert!(
            output
                .lines()
                .any(|l| l == format!("cargo:rerun-if-env-changed={var}")),
            "no rerun-if-env-changed for {var}:\n{output}"
        );
    }
}

/// A C++ exception thrown by the library while the Rust loader loads it
/// (from its constructor, inside `dlopen`, or from its version function)
/// cannot cross into Rust: the process aborts, at once, with no thread left
/// hanging (RELIABILITY row 15; issue 20, item 9). The README says so.
#[test]
fn a_foreign_exception_during_the_load_aborts_the_rust_program_and_never_hangs() {
    let dir = common::scratch("throwing-drivers-rust");
    for (name, source) in [
        ("constructor", "tests/cpp/throwing_constructor_driver.cpp"),
        ("version", "tests/cpp/throwing_driver.cpp"),
    ] {
        let driver = dir.join(name).join("libcuda.so.1");
        std::fs::create_dir_all(driver.parent().unwrap()).unwrap();
        run_ok(
            Command::new("g++")
                .args(["-std=c++17", "-shared", "-fPIC", "-o"])
                .arg(&driver)
                .arg(root().join(source)),
        );
        let out = Command::new("timeout")
            .arg("20")
            .arg(rust_program())
            .arg("fake")
            .env_remove("LD_LIBRARY_PATH")
            .env_remove("LD_PRELOAD")
            .env("CUSHIM_CUDA_LIBRARY", &driver)
            .output()
            .expect("the program runs");
        let (stdout, stderr) = common::text(&out);
        use std::os::unix::process::ExitStatusExt as _;
        assert_eq!(
            out.status.signal(),
            Some(6), // SIGABRT
            "{name}: an abort, not a hang (timeout's 124) nor a caught exception: {}\n{stdout}\n{stderr}",
            out.status
        );
        assert!(!stdout.contains("ok: fake"), "{name}: {stdout}");
    }
}
