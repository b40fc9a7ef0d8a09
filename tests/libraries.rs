//! Libraries besides the driver, through the same description-driven parse
//! (issue 13's first step): NVRTC's pinned header is fetched from its own
//! wheel, parsed with none of the driver's settings, and listed. Loaders are
//! not generated for it yet, and asking for them is a clear error.

use crate::common;

use common::{cushim, text};

fn nvrtc_13_5() -> cushim::ir::Api {
    let options = cushim::Builder::new().cuda_version("13.5").library("nvrtc");
    cushim::load(options.options()).expect("NVRTC 13.5 loads").0
}

#[test]
fn nvrtc_is_parsed_from_its_own_pinned_wheel_with_its_own_settings() {
    let api = nvrtc_13_5();
    assert_eq!(api.library.name, "nvrtc");
    let names: Vec<&str> = api.functions.iter().map(|f| f.name.as_str()).collect();
    for name in [
        "nvrtcVersion",
        "nvrtcCreateProgram",
        "nvrtcCompileProgram",
        "nvrtcGetPTX",
    ] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    assert!(
        names.iter().all(|n| n.starts_with("nvrtc")),
        "only nvrtc.h's own functions: {names:?}"
    );
    // No PFN table: each symbol is its name, with no ABI version, and no
    // warning about a missing table; no per-thread twins (the driver's defines
    // are not in this parse).
    for f in &api.functions {
        assert_eq!(f.symbol, f.name);
        assert_eq!(f.version, None);
        assert!(f.per_thread.is_none(), "{}", f.name);
    }
    assert!(api.diagnostics.is_empty(), "{:?}", api.diagnostics);
    // The status type is nvrtcResult, although the header's first function
    // returns a string.
    let code = |name: &str| {
        api.status_codes
            .iter()
            .find(|c| c.name == name)
            .map(|c| c.value)
    };
    assert_eq!(code("NVRTC_SUCCESS"), Some(0));
    assert_eq!(code("NVRTC_ERROR_INVALID_INPUT"), Some(3));
    assert_eq!(code("NVRTC_ERROR_INTERNAL_ERROR"), Some(11));
    assert_eq!(api.codes.library_not_found, 11);
    assert_eq!(api.codes.invalid_value, 3);
}

#[test]
fn list_takes_a_library_and_generate_takes_several() {
    let out = cushim(&["list", "--lib", "nvrtc", "--cuda", "13.5"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("nvrtcCompileProgram"), "{stdout}");
    assert!(stdout.contains("nvrtc.h"), "{stdout}");
    assert!(!stderr.contains("warning"), "{stderr}");

    // One generate, two libraries, each named after its header; the
    // provenance line regenerates each on its own.
    let dir = common::scratch("nvrtc-generate");
    let out_dir = dir.join("out");
    let out = cushim(&[
        "generate",
        "--lib",
        "nvrtc,nvjitlink",
        "--cuda",
        "13.5",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let (_, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let names: Vec<String> = common::files_under(&out_dir)
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "cushim_runtime.cpp",
            "cushim_runtime.h",
            "nvjitlink.rs",
            "nvjitlink_shim.cpp",
            "nvjitlink_shim.h",
            "nvrtc.rs",
            "nvrtc_shim.cpp",
            "nvrtc_shim.h"
        ]
    );
    let nvrtc = std::fs::read_to_string(out_dir.join("nvrtc.rs")).unwrap();
    assert!(
        nvrtc.contains("// Regenerate with: cushim generate --cuda 13.5 --lib nvrtc"),
        "{}",
        &nvrtc[..400]
    );
    assert!(
        nvrtc.contains(
            "names: if cfg!(windows) { &[\"nvrtc64_130_0.dll\"] } else { &[\"libnvrtc.so.13\"] },"
        ),
        "the header's major only"
    );

    let out = cushim(&["list", "--lib", "nope"]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("unknown library `nope`"), "{stderr}");
    assert!(
        stderr.contains("driver, nvrtc, nvml, nvjitlink"),
        "{stderr}"
    );

    let out = cushim(&["list", "--lib", "nvrtc", "--cuda", "12.7"]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
}

/// NVML declares the versioned names and maps the plain ones to them with
/// `#define`: the plain name is an alias of the versioned symbol, and the v1
/// prototypes stay hidden.
#[test]
fn nvml_reads_its_alias_macros_and_its_own_codes() {
    let options = cushim::Builder::new().cuda_version("13.5").library("nvml");
    let api = cushim::load(options.options()).expect("NVML 13.5 loads").0;
    let find = |name: &str| api.functions.iter().find(|f| f.name == name);
    let init = find("nvmlInit_v2").expect("nvmlInit_v2");
    assert_eq!(init.symbol, "nvmlInit_v2");
    assert_eq!(init.aliases, ["nvmlInit"]);
    assert_eq!(
        find("nvmlDeviceGetCount_v2").map(|f| f.aliases.clone()),
        Some(vec!["nvmlDeviceGetCount".to_string()])
    );
    assert!(find("nvmlInit").is_none(), "the v1 prototype is hidden");
    // 17 versioned names and 2 renamed ones in 13.5 (docs/library-facts.md).
    let aliased = api
        .functions
        .iter()
        .filter(|f| !f.aliases.is_empty())
        .count();
    assert_eq!(aliased, 19);
    assert!(api.diagnostics.is_empty(), "{:?}", api.diagnostics);
    assert_eq!(api.codes.library_not_found, 12);
    assert_eq!(api.codes.symbol_not_found, 13);
    assert!(api
        .status_codes
        .iter()
        .any(|c| c.name == "NVML_ERROR_FUNCTION_NOT_FOUND" && c.value == 13));
}

/// nvJitLink's functions are static inline wrappers around exports of the
/// header's own minor: callers write `nvJitLinkCreate`, the library is asked
/// for `__nvJitLinkCreate_13_5`. The wrappers themselves are never shims.
#[test]
fn nvjitlink_names_the_export_of_the_headers_own_minor() {
    for (release, suffix) in [("13.5", "_13_5"), ("12.9", "_12_9")] {
        let options = cushim::Builder::new()
            .cuda_version(release)
            .library("nvjitlink");
        let api = cushim::load(options.options()).expect("nvJitLink loads").0;
        let create = api
            .functions
            .iter()
            .find(|f| f.name == "nvJitLinkCreate")
            .expect("nvJitLinkCreate");
        assert_eq!(create.symbol, format!("__nvJitLinkCreate{suffix}"));
        for f in &api.functions {
            assert!(
                !f.name.starts_with("__"),
                "{release}: {} has no C name",
                f.symbol
            );
            if f.name != "nvJitLinkVersion" {
                assert_eq!(f.symbol, format!("__{}{suffix}", f.name), "{release}");
            }
        }
        assert!(api.diagnostics.is_empty(), "{:?}", api.diagnostics);
    }
    let out = cushim(&["list", "--lib", "nvjitlink", "--cuda", "11.8"]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("no pinned nvjitlink headers for CUDA `11.8`"),
        "{stderr}"
    );
}

/// `cushim fetch --lib` fetches a library's pinned headers into its own
/// cache entry and says where they are.
#[test]
fn fetch_takes_a_library() {
    let out = cushim(&["fetch", "--lib", "nvrtc", "13.5"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let dir = stdout
        .strip_prefix("CUDA 13.5 (nvrtc): ")
        .map(str::trim)
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(dir.ends_with("nvrtc-13.5/include"), "{dir}");
    assert!(std::path::Path::new(dir).join("nvrtc.h").is_file());
    let out = cushim(&["fetch", "--lib", "nope"]);
    assert_eq!(out.status.code(), Some(1));
}

/// `diff --lib` compares one library's releases: nvJitLink's exports move
/// to the new header's minor, and 13.0's `nvJitLinkCreate` takes `const
/// char *const *options`.
#[test]
fn diff_takes_a_library() {
    let out = cushim(&["diff", "--lib", "nvjitlink", "12.9", "13.0"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.starts_with("CUDA 12.9 -> 13.0"), "{stdout}");
    assert!(
        stdout.contains(
            "nvJitLinkCreate: __nvJitLinkCreate_12_9 (ABI 12.9) -> __nvJitLinkCreate_13_0 (ABI 13.0)"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("const char *const *options"), "{stdout}");
}
