//! The `cushim` command line as a user meets it: help, bad input, determinism,
//! and the promise that the CLI and `cushim::Builder` write the same bytes.

use crate::common;

use std::fs;

use common::{cushim, files_under, fixture, root, scratch, text};

/// The help speaks of every library, not of the driver alone: each
/// library's override variable follows the one pattern it names.
#[test]
fn the_help_speaks_of_every_library() {
    let (help, _) = text(&cushim(&["--help"]));
    assert!(!help.contains("driver API"), "{help}");
    assert!(help.contains("CUSHIM_<LIB>_LIBRARY"), "{help}");
    for library in cushim::library::LIBRARIES {
        let var = library.words.override_var;
        assert!(
            var.starts_with("CUSHIM_") && var.ends_with("_LIBRARY"),
            "{var}"
        );
    }
    let doctor = help
        .lines()
        .find(|l| l.trim_start().starts_with("doctor "))
        .expect("doctor is listed");
    assert!(doctor.contains("a library"), "{doctor}");
}

#[test]
fn every_subcommand_has_help() {
    for sub in [
        &["--help"][..],
        &["generate", "--help"],
        &["list", "--help"],
        &["fetch", "--help"],
    ] {
        let out = cushim(sub);
        let (stdout, _) = text(&out);
        assert!(out.status.success(), "{sub:?}");
        assert!(stdout.contains("Usage: cushim"), "{sub:?}: {stdout}");
    }
    let (stdout, _) = text(&cushim(&["generate", "--help"]));
    for flag in [
        "--cuda",
        "--cuda-path",
        "--header",
        "--out",
        "--lang",
        "--allow",
        "--block",
    ] {
        assert!(stdout.contains(flag), "generate --help lists {flag}");
    }
}

#[test]
fn a_missing_header_is_a_clear_error_and_writes_nothing() {
    let out_dir = scratch("missing-header");
    let out = cushim(&[
        "generate",
        "--header",
        "headers/fixtures/nope.h",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("header `headers/fixtures/nope.h` not found"),
        "{stderr}"
    );
    assert!(stderr.contains("hint:"), "{stderr}");
    assert!(files_under(&out_dir).is_empty());
}

#[test]
fn a_syntax_error_shows_clangs_file_and_line() {
    let dir = scratch("syntax-error");
    let header = dir.join("broken.h");
    fs::write(
        &header,
        "typedef int CUresult;\n\nCUresult cuBroken(int x;\n",
    )
    .unwrap();
    let out_dir = dir.join("out");
    let out = cushim(&[
        "generate",
        "--header",
        header.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("broken.h:3:"),
        "clang's file:line is shown: {stderr}"
    );
    assert!(stderr.contains("error:"), "{stderr}");
    assert!(!out_dir.exists(), "nothing is written");
}

#[test]
fn an_unwritable_output_dir_is_a_clear_error() {
    let dir = scratch("unwritable");
    let file = dir.join("a-file");
    fs::write(&file, "").unwrap();
    let out_dir = file.join("out");
    let out = cushim(&[
        "generate",
        "--header",
        fixture("cudaapi").to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("cannot create output directory"),
        "{stderr}"
    );
    assert!(stderr.contains("hint:"), "{stderr}");
}

#[test]
fn a_failed_write_leaves_no_partial_file() {
    let dir = scratch("blocked-file");
    // The target name is taken by a directory: the rename must fail, and the
    // temporary file must not stay behind.
    fs::create_dir_all(dir.join("cudaapi.rs/inner")).unwrap();
    let out = cushim(&[
        "generate",
        "--header",
        fixture("cudaapi").to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cannot write"), "{stderr}");
    let left: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(
        left,
        vec![std::ffi::OsString::from("cudaapi.rs")],
        "only the blocking directory remains"
    );
}

#[test]
fn an_invalid_regex_is_a_clear_error() {
    let out = cushim(&[
        "list",
        "--header",
        fixture("cudaapi").to_str().unwrap(),
        "--allow",
        "cu(Init",
    ]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("invalid --allow regex `cu(Init`"),
        "{stderr}"
    );
    assert!(stderr.contains("hint:"), "{stderr}");
}

#[test]
fn a_bad_enum_regex_or_style_is_a_clear_error_and_writes_nothing() {
    let out_dir = scratch("bad-enum-options");
    let out_arg = out_dir.join("out");
    let out = out_arg.to_str().unwrap();
    let cases: [(&[&str], i32, &str); 3] = [
        (
            &["--rustified-enum", "CU(Init"],
            1,
            "invalid --rustified-enum regex `CU(Init`",
        ),
        (
            &["--default-enum-style", "moduleconsts"],
            2,
            "cushim does not offer bindgen's `moduleconsts` enum style",
        ),
        (
            &["--default-enum-style", "rustified"],
            2,
            "unknown enum style `rustified`",
        ),
    ];
    for (args, code, message) in cases {
        let mut words = vec!["generate", "--lang", "rust", "--out", out];
        words.extend_from_slice(args);
        let output = cushim(&words);
        let (_, stderr) = text(&output);
        assert_eq!(output.status.code(), Some(code), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(stderr.contains("hint:"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(!out_arg.exists(), "{args:?} wrote output");
    }
}

#[test]
fn an_unknown_cuda_version_lists_the_pinned_ones() {
    let out = cushim(&["generate", "--cuda", "12.7"]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("unknown CUDA version `12.7`"), "{stderr}");
    assert!(stderr.contains("11.8, 12.0, 12.1"), "{stderr}");
    assert!(stderr.contains("13.5"), "{stderr}");
}

#[test]
fn allow_and_block_filter_by_c_name() {
    let header = fixture("aliases");
    let out = cushim(&[
        "list",
        "--header",
        header.to_str().unwrap(),
        "--allow",
        "^cu(Init|MemAlloc)$",
    ]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let rows: Vec<&str> = stdout
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(rows, ["cuInit", "cuMemAlloc"]);

    let out = cushim(&[
        "list",
        "--header",
        header.to_str().unwrap(),
        "--block",
        "^cuGraph",
    ]);
    let (stdout, _) = text(&out);
    assert!(!stdout.contains("cuGraphInstantiate"), "{stdout}");
    assert!(stdout.contains("cuCtxCreate_v3"), "{stdout}");
}

#[test]
fn cli_and_builder_write_identical_bytes_and_rerun_changes_nothing() {
    for name in ["aliases", "per_thread", "types"] {
        let header = fixture(name);
        let a = scratch(&format!("identical-cli-{name}"));
        let b = scratch(&format!("identical-builder-{name}"));
        let out = cushim(&[
            "generate",
            "--header",
            header.to_str().unwrap(),
            "--out",
            a.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{:?}", text(&out));
        cushim::Builder::new()
            .header(&header, None)
            .out_dir(&b)
            .generate()
            .unwrap();
        for file in [format!("{name}_shim.h"), format!("{name}_shim.cpp")] {
            let cli = fs::read(a.join(&file)).unwrap();
            assert_eq!(
                cli,
                fs::read(b.join(&file)).unwrap(),
                "{file}: CLI and Builder differ"
            );
        }
        let file = format!("{name}.rs");
        let cli_bytes = fs::read(a.join(&file)).unwrap();
        assert_eq!(
            cli_bytes,
            fs::read(b.join(&file)).unwrap(),
            "{name}: CLI and Builder differ"
        );

        let before = fs::metadata(a.join(&file)).unwrap().modified().unwrap();
        let out = cushim(&[
            "generate",
            "--header",
            header.to_str().unwrap(),
            "--out",
            a.to_str().unwrap(),
        ]);
        let (_, stderr) = text(&out);
        assert!(stderr.contains("unchanged"), "{stderr}");
        assert_eq!(
            fs::read(a.join(&file)).unwrap(),
            cli_bytes,
            "{name}: a second run differs"
        );
        assert_eq!(
            fs::metadata(a.join(&file)).unwrap().modified().unwrap(),
            before,
            "not rewritten"
        );
    }
}

/// Builder → command line → Builder, for every Builder call that has a flag:
/// the arguments the options table writes, parsed by the real CLI, give the
/// same options back.
#[test]
fn every_builder_call_round_trips_through_the_command_line() {
    use clap::Parser;
    use cushim::Builder;
    let builders = [
        Builder::new(),
        Builder::new().cuda_version("12.9"),
        Builder::new().cuda_range("11.8", "13.5"),
        Builder::new().cuda_path(None),
        Builder::new().cuda_path(Some("/opt/cuda".into())),
        Builder::new().header("dir/api.h", None),
        Builder::new().header("dir/api.h", Some("dir/apiTypedefs.h".into())),
        Builder::new().out_dir("o"),
        Builder::new().languages(&[cushim::Language::Rust]),
        Builder::new().languages(&[cushim::Language::Cpp]),
        Builder::new().allowlist("^cuMem"),
        Builder::new().blocklist("-Async$"),
        Builder::new()
            .clang_arg("-DX=1")
            .clang_arg("-I/opt/include"),
        Builder::new().cpp_prefix("cushim_"),
        Builder::new().resolve(cushim::Resolve::Dlsym),
        Builder::new().stream(cushim::StreamMode::PerThread),
        Builder::new().docs(true),
        Builder::new().default_enum_style(cushim::EnumStyle::Rust),
        Builder::new()
            .rustified_non_exhaustive_enum("cudaError_enum")
            .constified_enum("-CU.*")
            .newtype_global_enum("CUlimit_enum")
            .newtype_enum("x")
            .bitfield_enum("CU.*_flags_enum")
            .rustified_enum(".*")
            .prepend_enum_name(false),
        Builder::new()
            .derive_partialeq(true)
            .derive_eq(true)
            .derive_hash(true)
            .derive_partialord(true)
            .derive_ord(true),
        Builder::new().derive_ord(true).derive_hash(true),
        Builder::new()
            .cuda_version("13.5")
            .allowlist("^cuMem")
            .blocklist("Async$")
            .clang_arg("-DX=1")
            .docs(true)
            .languages(&[cushim::Language::Cpp, cushim::Language::Rust])
            .out_dir("o")
            .cpp_prefix("cushim_")
            .resolve(cushim::Resolve::Dlsym)
            .stream(cushim::StreamMode::PerThread),
    ];
    for built in builders {
        let options = built.checked_options().unwrap();
        let mut words: Vec<std::ffi::OsString> = vec!["cushim".into(), "generate".into()];
        words.extend(options.args(cushim::options::Paths::Exact, None));
        let cli =
            cushim::cli::Cli::try_parse_from(&words).unwrap_or_else(|e| panic!("{words:?}: {e}"));
        let cushim::cli::Command::Generate(g) = cli.command else {
            panic!("generate")
        };
        let parsed = cushim::Builder::from_options(g.options().unwrap());
        assert_eq!(parsed.options(), options, "{words:?}");
    }
}

#[test]
fn a_malformed_version_is_an_error_not_a_panic() {
    let e = cushim::Builder::new()
        .cuda_version("thirteen")
        .generate()
        .unwrap_err()
        .to_string();
    assert!(e.contains("`thirteen` is not a CUDA version"), "{e}");
    let out = cushim(&["generate", "--cuda", "13.x"]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("`13.x` is not a CUDA version"), "{stderr}");
    // A range without `--merged` points to it.
    let out = cushim(&["generate", "--cuda", "11.8..13.5", "--lang", "rust"]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("`11.8..13.5` is a range of releases") && stderr.contains("add `--merged`"),
        "{stderr}"
    );
}

/// A library that versions none of its functions (cuBLAS) shows no `?`
/// where the driver shows ABI versions, and `list` and `diff` say once what
/// it has instead: one export per C name, bound by its name (with an example
/// from the header, `cublasSgemm` binding `cublasSgemm_v2`). The driver,
/// whose functions have ABI versions, gets no such note.
#[test]
fn a_library_without_abi_versions_lists_and_diffs_without_question_marks() {
    let says_what_it_has = |stderr: &str| {
        stderr.matches("has no ABI versions").count() == 1
            && stderr.contains("cuBLAS has no ABI versions: each C name binds one export of the library by that export's name")
            && stderr.contains("binds `cublas")
    };
    let out = cushim(&["list", "--lib", "cublas", "--cuda", "13.5"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.lines().count() > 500, "{stdout}");
    assert!(!stdout.contains(" ? "), "{stdout}");
    assert!(says_what_it_has(&stderr), "{stderr}");
    let out = cushim(&["diff", "--lib", "cublas", "12.9", "13.0"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("added ("), "{stdout}");
    assert!(
        !stdout.contains("ABI ?") && !stdout.contains("(ABI"),
        "{stdout}"
    );
    assert!(says_what_it_has(&stderr), "{stderr}");
    for args in [&["list", "--cuda", "13.5"][..], &["diff", "12.9", "13.0"]] {
        let out = cushim(args);
        let (_, stderr) = text(&out);
        assert!(out.status.success(), "{args:?}: {stderr}");
        assert!(!stderr.contains("no ABI versions"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_reader_that_goes_away_ends_the_output_quietly() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_cushim"))
        .args(["list", "--header"])
        .arg(fixture("aliases"))
        .current_dir(common::root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cushim runs");
    // Closing the read end before cushim writes: every write fails with EPIPE.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let (_, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn a_flag_that_does_not_apply_is_refused() {
    for args in [
        &["list", "--all"][..],
        &["doctor", "--all"],
        &["generate", "--all", "--cuda", "13.5"],
        &["list", "--merged"],
    ] {
        let out = cushim(args);
        let (_, stderr) = text(&out);
        assert!(!out.status.success(), "{args:?} is refused");
        assert!(stderr.contains("error"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_merged_module_without_rust_is_refused_and_writes_nothing() {
    let dir = scratch("merged-cpp-only");
    let out_dir = dir.join("out");
    let out = cushim(&[
        "generate",
        "--cuda",
        "13.4..13.5",
        "--merged",
        "--lang",
        "cpp",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("a merged module is Rust only"), "{stderr}");
    assert!(stderr.contains("hint:"), "{stderr}");
    assert!(!out_dir.exists());
}

#[test]
fn help_names_every_environment_variable() {
    let (stdout, _) = text(&cushim(&["--help"]));
    for var in [
        "CUSHIM_CACHE_DIR",
        "CUDA_PATH",
        "CUDA_HOME",
        "LIBCLANG_PATH",
        "CUSHIM_CUDA_LIBRARY",
        "CUSHIM_PER_THREAD_DEFAULT_STREAM",
    ] {
        assert!(stdout.contains(var), "--help names {var}");
    }
}

#[test]
fn errors_from_a_build_script_name_builder_methods() {
    let e = cushim::Builder::new()
        .header("headers/fixtures/nope.h", None)
        .out_dir(scratch("builder-hint"))
        .generate()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("header `headers/fixtures/nope.h` not found"),
        "{e}"
    );
    assert!(e.contains("`Builder::cuda_version`"), "{e}");
    assert!(!e.contains("--cuda"), "{e}");
}

/// A function name that is not an ASCII C identifier cannot name a shim: an
/// error at its line unless the filters leave it out.
#[test]
fn a_non_ascii_function_name_is_refused_unless_blocked() {
    let dir = scratch("non-ascii-name");
    let header = dir.join("api.h");
    std::fs::write(
        &header,
        "typedef enum { CUDA_SUCCESS = 0 } CUresult;\nCUresult cuInit(unsigned int flags);\nCUresult cu\u{c4}pfel(void);\n",
    )
    .unwrap();
    let out_dir = dir.join("out");
    let out = cushim(&[
        "generate",
        "--header",
        header.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("api.h:3"), "{stderr}");
    assert!(stderr.contains("is not an ASCII C identifier"), "{stderr}");
    assert!(files_under(&out_dir).is_empty());

    let out = cushim(&[
        "generate",
        "--header",
        header.to_str().unwrap(),
        "--block",
        "\u{c4}",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let (_, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("(1 functions)"), "{stderr}");
}

/// The parse includes a header by its path from a generated line, so a path
/// with a quote or a newline is refused rather than pasted.
#[test]
fn a_header_path_with_a_quote_is_refused() {
    let dir = scratch("quoted-path").join("a\"b");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(fixture("cudaapi"), dir.join("cudaapi.h")).unwrap();
    std::fs::create_dir_all(dir.join("common")).unwrap();
    std::fs::copy(
        root().join("headers/fixtures/common/base.h"),
        dir.join("common/base.h"),
    )
    .unwrap();
    let out_dir = scratch("quoted-path-out");
    let out = cushim(&[
        "generate",
        "--header",
        dir.join("cudaapi.h").to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("holds a quote or a control character"),
        "{stderr}"
    );
    assert!(files_under(&out_dir).is_empty());
}

/// With no cache directory configured there is no fallback to a shared
/// temporary directory.
#[test]
fn no_cache_directory_is_an_error_not_a_shared_temp_dir() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cushim"))
        .args(["fetch", "13.5"])
        .env_remove("HOME")
        .env_remove("XDG_CACHE_HOME")
        .env_remove("CUSHIM_CACHE_DIR")
        .output()
        .expect("cushim runs");
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("no header cache"), "{stderr}");
    assert!(stderr.contains("hint: set CUSHIM_CACHE_DIR"), "{stderr}");
}

/// A fetch killed while `pip` runs takes `pip` with it, and the next fetch
/// removes the staging directory it left. `python3` here is a stand-in for
/// a slow download: it records its pid and sleeps.
#[test]
fn a_killed_fetch_leaves_no_pip_and_its_staging_is_cleaned_next_time() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("killed-fetch");
    let (bin, cache, pidfile) = (dir.join("bin"), dir.join("cache"), dir.join("pip.pid"));
    fs::create_dir_all(&bin).unwrap();
    let python = bin.join("python3");
    fs::write(
        &python,
        format!(
            "#!/bin/sh\necho $$ > '{}'\nexec sleep 60\n",
            pidfile.display()
        ),
    )
    .unwrap();
    fs::set_permissions(&python, fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let fetch = || {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_cushim"));
        c.args(["fetch", "12.0"])
            .env("PATH", &path)
            .env("CUSHIM_CACHE_DIR", &cache)
            .stderr(std::process::Stdio::null());
        c
    };
    let mut child = fetch().spawn().expect("cushim runs");
    let mut pip = None;
    for _ in 0..200 {
        pip = fs::read_to_string(&pidfile)
            .ok()
            .and_then(|t| t.trim().parse::<u32>().ok());
        if pip.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let pip = pip.expect("the stand-in pip started");
    child.kill().unwrap();
    child.wait().unwrap();
    let proc_dir = std::path::PathBuf::from(format!("/proc/{pip}"));
    let mut gone = false;
    for _ in 0..200 {
        // A zombie has no command line left; a gone process has no directory.
        let running = fs::read(proc_dir.join("cmdline")).is_ok_and(|c| !c.is_empty());
        if !running {
            gone = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(gone, "pip ({pip}) outlived the killed fetch");
    let staged = |d: &std::path::Path| -> Vec<String> {
        fs::read_dir(d)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    };
    assert_eq!(staged(&cache).len(), 1, "the killed fetch left its staging");

    // The next fetch (whose pip fails at once) removes it, and its own.
    fs::write(&python, "#!/bin/sh\nexit 1\n").unwrap();
    let out = fetch().output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(staged(&cache), Vec::<String>::new());
}

/// Shell completions and the man page come from the same clap definition.
#[test]
fn completions_and_the_man_page_cover_every_subcommand() {
    let out = cushim(&["completions", "bash"]);
    let (script, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let dir = scratch("completions");
    let path = dir.join("cushim.bash");
    fs::write(&path, &script).unwrap();
    let syntax = std::process::Command::new("bash")
        .arg("-n")
        .arg(&path)
        .output()
        .expect("bash runs");
    assert!(syntax.status.success(), "{}", text(&syntax).1);
    let out = cushim(&["man"]);
    let (page, _) = text(&out);
    assert!(page.contains(".TH cushim 1"), "{page}");
    for sub in [
        "generate", "list", "fetch", "doctor", "check", "diff", "pinned",
    ] {
        assert!(script.contains(sub), "completions lack {sub}");
        assert!(page.contains(sub), "the man page lacks {sub}");
    }
    for flag in ["--cuda", "--allow", "--clang-arg"] {
        assert!(script.contains(flag), "completions lack {flag}");
    }
    let out = cushim(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2), "an unknown shell is refused");
}

/// A directory, a pipe or a language switch get their own message, not
/// "not found" or a bare libclang error code.
#[test]
fn a_header_that_is_not_a_file_and_a_language_switch_are_named() {
    let out = cushim(&["list", "--header", "headers/fixtures"]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("is not a regular file"), "{stderr}");
    let out = cushim(&[
        "list",
        "--header",
        "headers/fixtures/cudaapi.h",
        "--clang-arg=-x",
        "--clang-arg",
        "c++",
    ]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("could not read the input as C"), "{stderr}");
    assert!(stderr.contains("must not change the language"), "{stderr}");
}

/// A typedef header of another release is an error, not a list of warnings.
#[test]
fn a_typedef_header_from_another_release_is_refused() {
    let new = common::include_dir("13.5");
    let old = common::include_dir("12.0");
    let out = cushim(&[
        "list",
        "--header",
        new.join("cuda.h").to_str().unwrap(),
        "--typedefs",
        old.join("cudaTypedefs.h").to_str().unwrap(),
    ]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "comes from CUDA 12.0 (by the `cuda.h` beside it), but the header is CUDA 13.5"
        ),
        "{stderr}"
    );
}

/// Found by `cargo fuzz run header`: a name that bindgen cannot make a Rust
/// identifier of made bindgen panic. It is an error now, and no panic
/// message reaches the user.
#[test]
fn a_name_bindgen_cannot_take_is_an_error_not_a_panic() {
    let dir = scratch("bindgen-panic");
    let header = dir.join("odd.h");
    std::fs::write(&header, b"F\xdc\xbc0z;\xdc\xbc0z;z;").unwrap();
    let out_dir = dir.join("out");
    let out = cushim(&[
        "generate",
        "--header",
        header.to_str().unwrap(),
        "--lang",
        "rust",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("bindgen failed on"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(files_under(&out_dir).is_empty());
}

/// C's `f()` declares no prototype; libclang calls it variadic, but the
/// libraries' headers mean `f(void)`: a shim with no parameters, not an error.
#[test]
fn a_declaration_without_a_prototype_has_no_parameters() {
    let out = cushim(&["list", "--header", "headers/fixtures/params.h"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("cuParamNone"), "{stdout}");
    assert!(!stderr.contains("variadic"), "{stderr}");
}

/// Found by the bounded fuzz run: a header that is C but not C++ (its
/// `extern "C"` block broken under `#ifdef __cplusplus`) gave C++ stubs that
/// could not compile. C++ output now checks the header as C++ first.
#[test]
fn a_header_that_is_not_cpp_is_refused_for_cpp_output_only() {
    let dir = scratch("not-cpp");
    let header = dir.join("api.h");
    std::fs::write(
        &header,
        "typedef enum { CUDA_SUCCESS = 0 } CUresult;\nCUresult cuInit(unsigned int flags);\n#ifdef __cplusplus\n}\n#endif\n",
    )
    .unwrap();
    let out_dir = dir.join("out");
    let out = cushim(&[
        "generate",
        "--header",
        header.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("does not compile as C++"), "{stderr}");
    assert!(stderr.contains("api.h:4:1"), "{stderr}");
    assert!(files_under(&out_dir).is_empty());
    let out = cushim(&[
        "generate",
        "--header",
        header.to_str().unwrap(),
        "--lang",
        "rust",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out).1);
}

/// `fetch` run in someone else's directory: pip is run isolated, in a
/// private working directory, so neither a `pip.py` there nor one on
/// `PYTHONPATH` runs. The index is a closed port, so pip fails fast.
#[test]
fn a_fetch_runs_no_python_code_from_the_directory_it_runs_in() {
    let dir = scratch("planted-pip");
    let (work, cache, marker) = (dir.join("work"), dir.join("cache"), dir.join("pip-ran"));
    fs::create_dir_all(&work).unwrap();
    let planted = format!(
        "open({:?}, 'w').write('ran')\n",
        marker.display().to_string()
    );
    fs::write(work.join("pip.py"), &planted).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cushim"))
        .args(["fetch", "12.0"])
        .current_dir(&work)
        .env("CUSHIM_CACHE_DIR", &cache)
        .env("PIP_INDEX_URL", "http://127.0.0.1:9/simple")
        .env("PIP_RETRIES", "0")
        .env("PYTHONPATH", &work)
        .output()
        .expect("cushim runs");
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!marker.exists(), "the planted pip.py ran: {stderr}");
}

/// A full or closed stderr loses cushim's messages but never panics it
/// (exit 101): `doctor` without a driver still exits 1, and a generation 0.
#[test]
fn a_full_stderr_never_panics() {
    let full = || {
        fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    let out_dir = scratch("full-stderr");
    for (args, code) in [
        (vec!["doctor"], 1),
        (
            vec![
                "generate",
                "--cuda",
                "13.5",
                "--lib",
                "nvrtc",
                "--out",
                out_dir.to_str().unwrap(),
            ],
            0,
        ),
    ] {
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_cushim"))
            .args(&args)
            .env("CUSHIM_CUDA_LIBRARY", common::missing_library())
            .stdout(std::process::Stdio::null())
            .stderr(full())
            .status()
            .expect("cushim runs");
        assert_eq!(status.code(), Some(code), "{args:?}");
    }
}

/// `--docs` on a release whose headers are not cached needs pip, the
/// network and libclang: on a machine with neither python3 nor libclang,
/// the first error names both (and the network), before any fetch starts,
/// so that a build learns it all at once; nothing is fetched or written.
#[test]
fn a_fetch_that_cannot_run_names_everything_it_lacks_at_once() {
    let cache = scratch("lacking-cache");
    let out_dir = scratch("lacking-out");
    let started = std::time::Instant::now();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cushim"))
        .args([
            "generate", "--docs", "--cuda", "13.5", "--lib", "nvrtc", "--out",
        ])
        .arg(&out_dir)
        .env("CUSHIM_CACHE_DIR", &cache)
        .env("LIBCLANG_PATH", cache.join("no-libclang-here"))
        .env("PATH", "/nonexistent")
        .output()
        .expect("cushim runs");
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.matches("error:").count(), 1, "{stderr}");
    for needed in [
        "NVRTC's CUDA 13.5 headers are not in the header cache",
        "the network once",
        "lacks libclang (",
        "and Python 3 with pip (",
        "hint: install what it lacks",
    ] {
        assert!(stderr.contains(needed), "{needed}: {stderr}");
    }
    assert!(
        !stderr.contains("cushim: fetching"),
        "a fetch started: {stderr}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    assert!(files_under(&cache).is_empty());
    assert!(files_under(&out_dir).is_empty());
}

/// What a Windows compiler reads in a header reaches the C++ pair: a
/// function declared `__declspec(dllimport)` under `_WIN32` gets its
/// pointer `__imp_<symbol>` (and no other function does), and the macros
/// spelled with MSVC's `__pragma` are named where the pair's header reads
/// the header for GCC.
#[test]
fn a_windows_dllimport_and_msvc_layout_macros_reach_the_cpp_pair() {
    let dir = scratch("windows-view");
    let header = dir.join("api.h");
    std::fs::write(
        &header,
        "typedef enum { CUDA_SUCCESS = 0 } CUresult;\n\
         #ifdef _WIN32\n\
         #define API __declspec(dllimport)\n\
         #define START_PACKED __pragma(pack(push, 1))\n\
         #define END_PACKED __pragma(pack(pop))\n\
         #else\n\
         #define API\n\
         #define START_PACKED\n\
         #define END_PACKED\n\
         #endif\n\
         START_PACKED\n\
         typedef struct { char c; int i; } packed_t;\n\
         END_PACKED\n\
         API CUresult cuInit(unsigned int flags);\n\
         CUresult cuDriverGetVersion(int *version);\n",
    )
    .unwrap();
    let out_dir = dir.join("out");
    let out = cushim(&[
        "generate",
        "--header",
        header.to_str().unwrap(),
        "--lang",
        "cpp",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let (_, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let source = fs::read_to_string(out_dir.join("api_shim.cpp")).unwrap();
    assert!(source.contains("CUSHIM_ASM_IMPORT(cuInit)"), "{source}");
    assert!(!source.contains("CUSHIM_ASM_IMPORT(cuDriverGetVersion)"));
    let shim_header = fs::read_to_string(out_dir.join("api_shim.h")).unwrap();
    assert!(
        shim_header.contains("START_PACKED, END_PACKED."),
        "{shim_header}"
    );
    assert!(shim_header.contains("#include <api.h>"), "{shim_header}");
}
