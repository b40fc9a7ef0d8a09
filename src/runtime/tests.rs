//! Unit tests of both runtimes as source: the Rust loader with the shim macro
//! expanded over a hand-written function, and the C++ runtime compiled on its
//! own with g++. One table of stream-variable values is parsed by both.

use std::ffi::c_uint;
use std::path::PathBuf;
use std::process::Command;

use cushim_runtime::{self as loader, LibraryInfo, LoadError, StreamMode};

use crate::library::DRIVER;

/// The status type a generated module gets from bindgen, reduced to its shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(transparent)]
pub struct TestResult(pub c_uint);

impl loader::Status for TestResult {
    fn from_code(code: u32) -> Self {
        TestResult(code)
    }
    fn code(&self) -> i64 {
        i64::from(self.0)
    }
}

// What a generated module defines around its shims, here for the driver's
// description.
pub enum Module {}

static CUSHIM_INFO: LibraryInfo = LibraryInfo {
    label: DRIVER.words.label,
    short_name: DRIVER.words.short,
    product: DRIVER.words.product,
    install: DRIVER.words.install,
    override_var: DRIVER.words.override_var,
    names: DRIVER.names.unix,
    version_function: DRIVER.version.name,
    version_query: DRIVER.version.query,
    stub_code: Some(DRIVER.codes.stub_library.value.cast_signed()),
    proc_address: DRIVER.proc_address,
    major: 0,
    wheel_dirs: None,
    toolkit_subdirs: &[],
    preload: &[],
    required: &[],
    built_for: None,
    siblings: &[],
    family: &[],
    codes: super::codes(&DRIVER),
    resolve: loader::Resolve::ProcAddress,
    default_stream: StreamMode::Legacy,
};

static CUSHIM_LIBRARY: loader::Library = loader::Library::new(&CUSHIM_INFO);

impl loader::Module for Module {
    type Status = TestResult;
    const STATUS_NAME: &'static str = "TestResult";
    fn library() -> &'static loader::Library {
        &CUSHIM_LIBRARY
    }
    fn status_names() -> &'static [loader::private::StatusName] {
        CUSHIM_STATUS_NAMES
    }
    fn functions() -> &'static [&'static loader::Function] {
        FUNCTIONS
    }
}

type Error = loader::Error<Module>;
struct Api;

static CUSHIM_STATUS_NAMES: &[loader::private::StatusName] = &[
    loader::private::StatusName {
        code: 0,
        name: c"CUDA_SUCCESS",
    },
    loader::private::StatusName {
        code: 1,
        name: c"CUDA_ERROR_INVALID_VALUE",
    },
];
static FUNCTIONS: &[&loader::Function] = &[
    &__cushim_fn_cuInit,
    &__cushim_fn_cuGetErrorName,
    &__cushim_fn_cuGetErrorString,
    &__cushim_fn_cuStatusText,
    &__cushim_fn_cuValue,
];

/// The lazy mode's switches, as a generated module defines them.
macro_rules! cushim_lazy {
    ($($lazy:tt)*) => { $($lazy)* };
}
macro_rules! cushim_linked {
    ($($linked:tt)*) => {};
}

include!("shim_macro.rs");

cushim_shim! {
    fn cuInit(flags: ::core::ffi::c_uint) -> TestResult;
    attrs [];
    static __cushim_fn_cuInit, export c"cuInit", name "cuInit", proc c"cuInit", version 2000, since 0, per_thread [];
    link [cuInit];
    returns status, fallback [];
    aliases [cuInitAlias];
}

cushim_shim! {
    fn cuGetErrorName(error: TestResult, pStr: *mut *const ::core::ffi::c_char) -> TestResult;
    attrs [];
    static __cushim_fn_cuGetErrorName, export c"cuGetErrorName", name "cuGetErrorName", proc c"cuGetErrorName", version 6000, since 0, per_thread [];
    link [cuGetErrorName];
    returns status, fallback [name error, pStr];
    aliases [];
}

cushim_shim! {
    fn cuGetErrorString(error: TestResult, pStr: *mut *const ::core::ffi::c_char) -> TestResult;
    attrs [];
    static __cushim_fn_cuGetErrorString, export c"cuGetErrorString", name "cuGetErrorString", proc c"cuGetErrorString", version 6000, since 0, per_thread [];
    link [cuGetErrorString];
    returns status, fallback [name error, pStr];
    aliases [];
}

// A function that returns its status's text (as `nvrtcGetErrorString` does),
// and one that returns a value, not a status (as `cudnnGetVersion` does).
cushim_shim! {
    fn cuStatusText(error: TestResult) -> *const ::core::ffi::c_char;
    attrs [];
    static __cushim_fn_cuStatusText, export c"cuStatusText", name "cuStatusText", proc c"cuStatusText", version 0, since 0, per_thread [];
    link [cuStatusText];
    returns answer, fallback [name error];
    aliases [];
}

cushim_shim! {
    fn cuValue(flags: ::core::ffi::c_uint) -> usize;
    attrs [];
    static __cushim_fn_cuValue, export c"cuValue", name "cuValue", proc c"cuValue", version 0, since 0, per_thread [];
    link [cuValue];
    returns value, fallback [zero];
    aliases [];
}

/// The only test that touches the loader's process-wide state: the first call
/// of a shim with no library anywhere.
#[test]
fn without_a_library_the_shim_answers_the_description_code_and_loads_once() {
    let missing = std::env::temp_dir().join("cushim-no-such-dir/libcuda.so.1");
    std::env::set_var(CUSHIM_INFO.override_var, &missing);
    std::env::remove_var(loader::STREAM_VAR);

    // SAFETY: the shim never reaches a driver here.
    let code = unsafe { cuInit(0) };
    assert_eq!(code, TestResult(CUSHIM_INFO.codes.library_not_found));
    assert_eq!(code.0, 303, "the driver's documented value");
    for _ in 0..100 {
        // SAFETY: as above.
        assert_eq!(unsafe { cuInitAlias(0) }, code);
    }
    assert_eq!(CUSHIM_LIBRARY.open_attempts(), 1, "a failure is cached");

    // SAFETY: as above.
    let typed = unsafe { Api::cuInit(0) };
    let Err(Error::Load(LoadError::LibraryNotFound { tried, .. })) = typed else {
        panic!("{typed:?}");
    };
    assert_eq!(tried.len(), 1);
    assert_eq!(PathBuf::from(&tried[0].name), missing);
    assert!(tried[0].error.contains("No such file"), "{tried:?}");
    assert!(__cushim_fn_cuInit.check().is_err());
    assert!(matches!(
        CUSHIM_LIBRARY.last_error(),
        Some(LoadError::LibraryNotFound { .. })
    ));
    assert!(!loader::private::is_available::<Module>("cuInit"));
    assert_eq!(
        loader::private::function::<Module>("cuInitAlias").map(|f| f.name),
        Some("cuInit"),
        "a function is found by its aliases too"
    );
    // Without a library, a function returning its status's text answers
    // the constant's C name from the header's enum (never NULL), and one
    // returning a value zero.
    // SAFETY: the answers are static C strings.
    let text = |code: u32| unsafe { std::ffi::CStr::from_ptr(cuStatusText(TestResult(code))) };
    assert_eq!(text(1), c"CUDA_ERROR_INVALID_VALUE");
    assert_eq!(text(777), c"unrecognized status");
    // SAFETY: as above.
    assert!(unsafe { Api::cuStatusText(TestResult(1)) }.is_ok());
    // SAFETY: the shim never reaches a driver here.
    assert_eq!(unsafe { cuValue(0) }, 0);
    // SAFETY: as above.
    let typed = unsafe { Api::cuValue(0) };
    assert!(
        matches!(typed, Err(Error::Load(LoadError::LibraryNotFound { .. }))),
        "{typed:?}"
    );
    // Without a library the fallbacks still name status values, as in C++:
    // the name and the text function alike answer the C name.
    for function in [cuGetErrorName, cuGetErrorString] {
        let mut name: *const std::ffi::c_char = std::ptr::null();
        // SAFETY: a valid out-pointer.
        assert_eq!(unsafe { function(TestResult(1), &mut name) }, TestResult(0));
        // SAFETY: the fallback stored a static C string.
        assert_eq!(
            unsafe { std::ffi::CStr::from_ptr(name) },
            c"CUDA_ERROR_INVALID_VALUE"
        );
    }
    let mut name: *const std::ffi::c_char = std::ptr::null();
    // SAFETY: as above.
    assert_eq!(
        unsafe { cuGetErrorName(TestResult(777), &mut name) },
        TestResult(1)
    );
    assert!(name.is_null());
    // SAFETY: NULL is answered, not written through.
    assert_eq!(
        unsafe { cuGetErrorName(TestResult(0), std::ptr::null_mut()) },
        TestResult(1)
    );
    assert_eq!(
        format!("{} / {:?}", Error::Status(TestResult(1)), Error::Status(TestResult(1))),
        "CUDA driver call failed: CUDA_ERROR_INVALID_VALUE (1) / Status(CUDA_ERROR_INVALID_VALUE (1))"
    );
    let missing = loader::private::require::<Module>(&["cuInit", "cuNoSuchThing"]).unwrap_err();
    assert_eq!(missing.functions.len(), 2);
    assert!(missing
        .to_string()
        .contains("cuNoSuchThing: not a function of this header"));
    assert!(missing
        .to_string()
        .starts_with("2 required CUDA driver function(s)"));
    assert!(loader::private::preload_all::<Module>().is_err());
    assert_eq!(
        Error::Status(TestResult(2)).to_string(),
        "CUDA driver call failed: TestResult 2"
    );
    let late = CUSHIM_LIBRARY
        .set_stream_mode(StreamMode::PerThread)
        .unwrap_err();
    assert_eq!(late.current, StreamMode::Legacy);
}

#[test]
fn every_failure_maps_to_the_code_of_the_description() {
    let codes = CUSHIM_INFO.codes;
    let library = &CUSHIM_INFO;
    let cases = [
        (LoadError::Reentrant { library }, codes.library_not_found),
        (
            LoadError::ForkedDuringLoad { library },
            codes.not_initialized,
        ),
        (
            LoadError::StubLibrary {
                library,
                path: "/stubs/libcuda.so".into(),
            },
            codes.stub_library,
        ),
        (
            LoadError::TooOld {
                library,
                function: "cuCtxCreate",
                required: 12050,
                found: 12020,
            },
            codes.too_old,
        ),
        (
            LoadError::SymbolNotFound {
                library,
                function: "cuX",
                symbol: "cuX",
                path: "libcuda.so.1".into(),
                error: "status 1".into(),
            },
            codes.symbol_not_found,
        ),
    ];
    for (error, code) in cases {
        assert_eq!(error.code(), code, "{error}");
    }
    let too_old = LoadError::TooOld {
        library,
        function: "cuCtxCreate",
        required: 12050,
        found: 12020,
    };
    assert_eq!(
        too_old.to_string(),
        "driver too old: `cuCtxCreate` needs CUDA 12.5, driver is 12.2"
    );
}

#[test]
fn a_target_is_the_twin_only_in_per_thread_mode() {
    let (proc_name, symbol, twin) = (c"cuMemcpyHtoD", c"cuMemcpyHtoD_v2", c"cuMemcpyHtoD_v2_ptds");
    let legacy = loader::doctor::Target::new(
        proc_name,
        (symbol, 3020),
        Some((twin, 7000)),
        StreamMode::Legacy,
    );
    assert_eq!(
        (legacy.symbol, legacy.version, legacy.flags),
        (symbol, 3020, 1)
    );
    let per_thread = loader::doctor::Target::new(
        proc_name,
        (symbol, 3020),
        Some((twin, 7000)),
        StreamMode::PerThread,
    );
    assert_eq!(
        (per_thread.symbol, per_thread.version, per_thread.flags),
        (twin, 7000, 2)
    );
    let no_twin =
        loader::doctor::Target::new(proc_name, (symbol, 3020), None, StreamMode::PerThread);
    assert_eq!((no_twin.symbol, no_twin.flags), (symbol, 1));
}

/// Values of the stream variable, ordinary and odd: both runtimes must agree on each.
const STREAM_VALUES: &[&str] = &[
    "1",
    "true",
    "on",
    "0",
    "false",
    "off",
    " 1 ",
    "1\n",
    "\t0",
    "\r\non\r\n",
    "\x0b1",
    "TRUE",
    "On",
    "",
    " ",
    "2",
    "yes",
    "1 1",
    "10",
    "o n",
    "on\u{a0}",
    "\u{a0}0",
];

/// The Rust runtime's answer, as the C++ runtime spells it (0 unset, 1 legacy, 2 per-thread).
fn rust_mode(value: &str) -> i32 {
    match loader::stream_mode_from_env(value) {
        None => 0,
        Some(StreamMode::Legacy) => 1,
        Some(StreamMode::PerThread) => 2,
    }
}

#[test]
fn the_rust_rule_accepts_exactly_the_listed_words() {
    for v in loader::STREAM_ON {
        assert_eq!(rust_mode(v), 2);
    }
    for v in loader::STREAM_OFF {
        assert_eq!(rust_mode(v), 1);
    }
    assert_eq!(rust_mode(" 1 "), 2);
    assert_eq!(rust_mode("TRUE"), 0);
    assert_eq!(
        rust_mode("\x0b1"),
        0,
        "vertical tab is not ASCII whitespace in Rust"
    );
}

/// `const char *const name[] = {"a", "b", nullptr};`
fn c_array(name: &str, words: &[&str]) -> String {
    let quoted: String = words.iter().map(|w| format!("{w:?}, ")).collect();
    format!("const char *const {name}[] = {{{quoted}nullptr}};\n")
}

/// The hand-written description of the driver that the C++ runtime is
/// tested with alone: the driver's own words and codes, the one-row tables
/// of [`build_cpp_runtime_program`].
struct CppDriver;

impl super::fields::Values for CppDriver {
    #[deny(clippy::wildcard_enum_match_arm)]
    fn value(&self, field: super::fields::Field) -> Option<String> {
        use super::fields::Field;
        let info = &super::CUSHIM_LIBRARY;
        let c = super::CUSHIM_CODES;
        Some(match field {
            Field::Abi => "&CUSHIM_RUNTIME_ABI".into(),
            Field::Label => format!("{:?}", info.label),
            Field::ShortName => format!("{:?}", info.short_name),
            Field::Product => format!("{:?}", info.product),
            Field::Install => format!("{:?}", info.install),
            Field::OverrideVar => format!("{:?}", info.override_var),
            Field::Names => "names".into(),
            Field::VersionFunction => format!("{:?}", info.version_function.to_str().unwrap()),
            Field::VersionQuery => "cushim::VersionQuery::number".into(),
            Field::Stub => "true".into(),
            Field::Major => "0u".into(),
            Field::ToolkitSearch => "false".into(),
            Field::WheelDirs
            | Field::ToolkitSubdirs
            | Field::Preload
            | Field::Required
            | Field::Siblings
            | Field::Family => "none".into(),
            Field::BuiltFor => "nullptr".into(),
            Field::BuiltForMajor => "0u".into(),
            Field::Codes => format!(
                "{{{}, {}, {}, {}, {}, 0, {}}}",
                c.library_not_found,
                c.symbol_not_found,
                c.stub_library,
                c.too_old,
                c.not_initialized,
                c.invalid_value
            ),
            Field::Driver => "&driver".into(),
            Field::Functions => "functions".into(),
            Field::Count | Field::StatusCount => "1".into(),
            Field::Aliases => "aliases".into(),
            Field::Statuses => "statuses".into(),
            Field::State => "&state".into(),
            Field::States => "states".into(),
            Field::Slots => "cushim_table::slots".into(),
            Field::Thread => "thread".into(),
            Field::Variables => "nullptr".into(),
            Field::VariableCount => "0".into(),
            Field::ProcAddress | Field::Resolve | Field::DefaultStream => return None,
        })
    }
}

/// The C++ runtime alone, linked with a hand-written description of the
/// driver and a one-row table; built once for every test that runs it.
fn cpp_runtime_program() -> &'static std::path::Path {
    static BIN: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BIN.get_or_init(build_cpp_runtime_program)
}

fn build_cpp_runtime_program() -> PathBuf {
    let dir = crate::temp::test_scratch("cpp-runtime");
    let info = &super::CUSHIM_LIBRARY;
    let (v2, v1) = info.proc_address.unwrap();
    let mut source = String::from(
        "#include <cstdio>\n#include <cstring>\n#include \"cushim_runtime.h\"\n#define CUSHIM_CALL\nnamespace {\n",
    );
    source.push_str(&c_array("names", info.names));
    source.push_str(&c_array("none", &[]));
    source.push_str(&c_array("stream_on", loader::STREAM_ON));
    source.push_str(&c_array("stream_off", loader::STREAM_OFF));
    source.push_str(&format!(
        "const cushim::Driver driver = {{{:?}, {:?}, false, {:?}, stream_on, stream_off}};\n",
        v2.to_str().unwrap(),
        v1.to_str().unwrap(),
        loader::STREAM_VAR
    ));
    source.push_str(
        "const cushim::Function functions[] = {{\"cuInit\", \"cuInit\", \"cuInit\", 2000u, -1, false, false}};\n\
         const cushim::Alias aliases[] = {{\"cuInitAlias\", \"cuInit\"}, {nullptr, nullptr}};\n\
         const cushim::StatusName statuses[] = {{0, \"CUDA_SUCCESS\"}};\n\
         cushim::Library state;\ncushim::FunctionState states[1];\nthread_local cushim::Thread thread_state;\n\
         cushim::Thread *thread() { return &thread_state; }\n\
         struct cushim_table { static void *slots[1]; };\n#define CUSHIM_SLOTS cushim_table::slots\n",
    );
    source.push_str(&super::fields::cpp_literal("cushim_this", &CppDriver));
    source.push_str("\n}\n");
    source.push_str(
        r#"CUSHIM_STUB(int, cuInit, cuInit, 0, (unsigned int flags), (flags), cushim_code, CUSHIM_UNCHECKED)
void *cushim_table::slots[1] = {CUSHIM_BINDER(cuInit)};

int main(int argc, char **argv) {
    if (argc > 1 && std::strcmp(argv[1], "env") == 0) {
        for (int i = 2; i < argc; ++i) std::printf("%d\n", cushim_runtime_stream_value(&cushim_this, argv[i]));
        return 0;
    }
    if (argc > 1 && std::strcmp(argv[1], "warning") == 0) {
        const char *w = cushim_runtime_stream_mode_warning(&cushim_this);
        std::printf("%s\n", w ? w : "(none)");
        return 0;
    }
    if (argc > 1 && std::strcmp(argv[1], "override") == 0) {
        std::printf("%d\n", cushim_runtime_override_value(nullptr));
        for (int i = 2; i < argc; ++i) std::printf("%d\n", cushim_runtime_override_value(argv[i]));
        return 0;
    }
    int rc = cuInit(0);
    std::printf("%d %d %u\n%s\n", rc, cushim_runtime_last_status(&cushim_this),
                cushim_runtime_library_open_attempts(&cushim_this), cushim_runtime_last_message(&cushim_this));
    return 0;
}
"#,
    );
    let main = dir.join("main.cpp");
    std::fs::write(&main, source).unwrap();
    let bin = dir.join("runtime-alone");
    std::fs::write(dir.join(super::cpp::HEADER_NAME), super::cpp::header()).unwrap();
    std::fs::write(dir.join(super::cpp::SOURCE_NAME), super::cpp::SOURCE).unwrap();
    let out = Command::new("g++")
        .args([
            "-std=c++17",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-O1",
            "-pthread",
        ])
        .arg(format!("-I{}", dir.display()))
        .arg(&main)
        .arg(dir.join(super::cpp::SOURCE_NAME))
        .args(["-ldl", "-o"])
        .arg(&bin)
        .output()
        .expect("g++ runs");
    assert!(
        out.status.success(),
        "the C++ runtime compiles alone:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    bin
}

#[test]
fn both_runtimes_warn_alike_about_a_stream_value_they_ignore() {
    let bin = cpp_runtime_program();
    for value in ["yes", "2", "1", " off ", ""] {
        let out = Command::new(bin)
            .arg("warning")
            .env(loader::STREAM_VAR, value)
            .output()
            .unwrap();
        let cpp = String::from_utf8_lossy(&out.stdout).trim_end().to_string();
        let rust = loader::doctor::stream_warning_for(value, StreamMode::Legacy)
            .unwrap_or_else(|| "(none)".into());
        assert_eq!(cpp, rust, "{value:?}");
    }
    assert_eq!(
        loader::doctor::stream_warning_for("yes", StreamMode::Legacy).as_deref(),
        Some("CUSHIM_PER_THREAD_DEFAULT_STREAM=`yes` is ignored: it is none of 1/true/on (per-thread) and 0/false/off (legacy); the legacy default stream is used")
    );
    assert_eq!(
        loader::doctor::stream_warning_for("on", StreamMode::Legacy),
        None
    );
    let out = Command::new(bin)
        .arg("warning")
        .env_remove(loader::STREAM_VAR)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "(none)\n");
}

/// Values of the override variable: both runtimes must agree on each.
const OVERRIDE_VALUES: &[&str] = &[
    "",
    "/usr/lib/libcuda.so.1",
    "//double/slash.so",
    "relative/libcuda.so.1",
    "./libcuda.so.1",
    "libcuda.so.1",
    " /leading-space.so",
    "~/libcuda.so.1",
];

/// The Rust runtime's answer, as the C++ runtime spells it (0 search, 1 open, -1 refused).
fn rust_override(value: Option<&str>) -> i32 {
    match loader::doctor::library_override(&CUSHIM_INFO, value.map(Into::into)) {
        Ok(None) => 0,
        Ok(Some(_)) => 1,
        Err(_) => -1,
    }
}

#[test]
fn the_cpp_runtime_compiles_alone_and_parses_every_value_as_the_rust_one() {
    let bin = cpp_runtime_program();
    let out = Command::new(bin)
        .arg("override")
        .args(OVERRIDE_VALUES)
        .output()
        .unwrap();
    let cpp: Vec<i32> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    let rust: Vec<i32> = std::iter::once(rust_override(None))
        .chain(OVERRIDE_VALUES.iter().map(|v| rust_override(Some(v))))
        .collect();
    assert_eq!(cpp, rust, "unset, then {OVERRIDE_VALUES:?}");
    assert_eq!(rust, [0, 0, 1, 1, -1, -1, -1, -1, -1]);

    let out = Command::new(bin)
        .arg("env")
        .args(STREAM_VALUES)
        .output()
        .unwrap();
    assert!(out.status.success());
    let cpp: Vec<i32> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    let rust: Vec<i32> = STREAM_VALUES.iter().map(|v| rust_mode(v)).collect();
    assert_eq!(cpp, rust, "values: {STREAM_VALUES:?}");

    let missing = std::env::temp_dir().join("cushim-no-such-dir/libcuda.so.1");
    let out = Command::new(bin)
        .env(super::CUSHIM_LIBRARY.override_var, &missing)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next().unwrap_or_default();
    assert_eq!(
        first,
        format!("{} 1 1", super::CUSHIM_CODES.library_not_found),
        "code, status LIBRARY_NOT_FOUND, one attempt: {text}"
    );
    assert!(
        text.contains("CUDA driver library not found; tried"),
        "{text}"
    );
}

#[test]
fn the_runtime_that_hands_out_the_driver_is_the_headers_major_and_needs_it() {
    let e = super::runtime_infos(0).unwrap_err().to_string();
    assert!(e.contains("the release of these headers is unknown"), "{e}");
    let (unix, windows) = super::runtime_infos(11).unwrap();
    assert_eq!(unix.names, ["libcudart.so.11.0"]);
    assert_eq!(windows.names, ["cudart64_110.dll"]);
    assert_eq!(unix.major, 11);
    assert_eq!(unix.override_var, "CUSHIM_CUDART_LIBRARY");
    let (unix, _) = super::runtime_infos(13).unwrap();
    assert_eq!(unix.names, ["libcudart.so.13"]);
    assert_eq!(unix.version_function, c"cudaRuntimeGetVersion");
}
