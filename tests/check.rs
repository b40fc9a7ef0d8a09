//! `cushim check` over our own `generated/`, over an edited copy, and over a
//! downstream crate's vendored (renamed) copy.

use crate::common;

use std::fs;

use common::{cushim, root, scratch, text};

#[test]
fn the_committed_generated_tree_is_fresh() {
    // Every library's modules: all but the driver's regenerate from their
    // (cached) pinned headers.
    let out = cushim(&["check", "--dir", "generated"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    // 16 releases, each a Rust module and a C++ pair, and the merged module.
    assert!(stdout.contains("generated files are fresh"), "{stdout}");
}

#[test]
fn an_edited_copy_is_reported_stale_with_the_fix() {
    let dir = scratch("check-edited");
    let copy = dir.join("cuda-13.5");
    fs::create_dir_all(&copy).unwrap();
    for f in ["cuda.rs", "cuda_shim.h", "cuda_shim.cpp"] {
        fs::copy(root().join("generated/cuda-13.5").join(f), copy.join(f)).unwrap();
    }
    let rs = copy.join("cuda.rs");
    let edited = fs::read_to_string(&rs)
        .unwrap()
        .replacen("version 3020", "version 3021", 1);
    fs::write(&rs, edited).unwrap();
    let out = cushim(&["check", "--dir", dir.to_str().unwrap()]);
    let (stdout, _) = text(&out);
    assert_eq!(
        out.status.code(),
        Some(cushim::check::STALE_EXIT),
        "{stdout}"
    );
    assert!(
        stdout.contains("1 of 3 generated files are stale"),
        "{stdout}"
    );
    assert!(stdout.contains(&format!("  {}", rs.display())), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "cushim generate --cuda 13.5 --out {}",
            copy.display()
        )),
        "{stdout}"
    );
}

#[test]
fn a_vendored_renamed_copy_is_checked_too() {
    let dir = scratch("check-vendored");
    fs::create_dir_all(dir.join("src")).unwrap();
    fs::copy(
        root().join("generated/cuda-12.9/cuda.rs"),
        dir.join("src/driver.rs"),
    )
    .unwrap();
    fs::write(dir.join("src/main.rs"), "mod driver;\nfn main() {}\n").unwrap();
    let out = cushim(&["check", "--dir", dir.to_str().unwrap()]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("1 generated files are fresh"), "{stdout}");
}

#[test]
fn a_directory_without_generated_files_is_an_error() {
    let dir = scratch("check-empty");
    let out = cushim(&["check", "--dir", dir.to_str().unwrap()]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("no cushim-generated files"), "{stderr}");
}

/// A vendored file is untrusted: a provenance line that records clang
/// arguments (here the ones that make clang write a dependency file over
/// any path) is refused and nothing is run, unless `check` is given the same
/// arguments itself.
#[test]
fn recorded_clang_arguments_are_refused_and_never_run() {
    let dir = scratch("check-clang-args");
    let victim = dir.join("victim.txt");
    fs::write(&victim, "precious\n").unwrap();
    let original = fs::read_to_string(root().join("generated/cuda-13.5/cuda.rs")).unwrap();
    let crafted = original.replacen(
        "// Regenerate with: cushim generate --cuda 13.5\n",
        &format!(
            "// Regenerate with: cushim generate --cuda 13.5 --clang-arg -MD --clang-arg -MF --clang-arg {}\n",
            victim.display()
        ),
        1,
    );
    assert_ne!(crafted, original, "the provenance line was replaced");
    fs::write(dir.join("cuda.rs"), crafted).unwrap();
    let out = cushim(&["check", "--dir", dir.to_str().unwrap()]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("check does not run arguments read from a file"),
        "{stderr}"
    );
    assert!(stderr.contains("--clang-arg -MF"), "{stderr}");
    assert!(stderr.contains("cuda.rs"), "the file is named: {stderr}");
    assert!(stderr.contains("hint: if you trust them"), "{stderr}");
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");

    // Different trusted arguments do not unlock it either.
    let out = cushim(&[
        "check",
        "--dir",
        dir.to_str().unwrap(),
        "--clang-arg",
        "-DX",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");
}

/// A value with a newline would end the provenance comment and inject code:
/// it is refused before anything is written.
#[test]
fn a_control_character_in_a_recorded_value_is_refused() {
    let dir = scratch("check-injection");
    let out = cushim(&[
        "generate",
        "--cuda",
        "13.5",
        "--lang",
        "rust",
        "--allow",
        "cu|x\npub const INJECTED: u32 = 1; //",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("`--allow` holds a control character"),
        "{stderr}"
    );
    assert_eq!(common::files_under(&dir), Vec::<std::path::PathBuf>::new());
}

/// A quote in a recorded value round-trips: the file checks fresh.
#[test]
fn a_quote_in_a_recorded_value_round_trips_through_check() {
    let dir = scratch("check-quote");
    let out = cushim(&[
        "generate",
        "--cuda",
        "13.5",
        "--lang",
        "rust",
        "--allow",
        "cuInit|it's",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let (_, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let module = fs::read_to_string(dir.join("cuda.rs")).unwrap();
    assert!(
        module.contains(r"--allow 'cuInit|it'\''s'"),
        "{}",
        module.lines().take(4).collect::<Vec<_>>().join("\n")
    );
    let out = cushim(&["check", "--dir", dir.to_str().unwrap()]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("1 generated files are fresh"), "{stdout}");
}

/// Runs `cushim ARGS` in `cwd` with `env` added, killed after `seconds`;
/// `None` when it had to be killed (it hung).
fn cushim_within(
    seconds: u64,
    cwd: &std::path::Path,
    args: &[&str],
    env: &[(&str, &std::ffi::OsStr)],
) -> Option<std::process::Output> {
    use std::process::{Command, Stdio};
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cushim"));
    cmd.args(args)
        .current_dir(cwd)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("cushim runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    Some(child.wait_with_output().unwrap())
}

/// The committed 13.5 module with its provenance line replaced by `line`.
fn with_provenance(file: &str, line: &str) -> Vec<u8> {
    let original = fs::read_to_string(root().join("generated/cuda-13.5").join(file)).unwrap();
    let crafted = original.replacen(
        "// Regenerate with: cushim generate --cuda 13.5\n",
        &format!("// Regenerate with: {line}\n"),
        1,
    );
    assert!(crafted != original, "the provenance line was replaced");
    crafted.into_bytes()
}

/// A `pip.py` in the working directory that leaves `marker` if Python runs it.
fn plant_pip(dir: &std::path::Path, marker: &std::path::Path) {
    fs::write(
        dir.join("pip.py"),
        format!(
            "open({:?}, 'w').write('ran')\n",
            marker.display().to_string()
        ),
    )
    .unwrap();
}

/// A vendored file that records `--docs` needs the headers, so the network
/// and pip: `check` refuses it unless told `--docs` itself, and runs no
/// Python code from the directory it is run in either way.
#[test]
fn a_recorded_docs_flag_is_refused_and_a_planted_pip_never_runs() {
    let dir = scratch("check-docs");
    let tree = dir.join("tree");
    fs::create_dir_all(&tree).unwrap();
    fs::write(
        tree.join("cuda.rs"),
        with_provenance("cuda.rs", "cushim generate --cuda 13.5 --docs"),
    )
    .unwrap();
    let marker = dir.join("pip-ran");
    plant_pip(&tree, &marker);
    let cache = dir.join("cache");
    // Nowhere to fetch from: a trusted run fails fast, after pip started.
    let env: [(&str, &std::ffi::OsStr); 4] = [
        ("CUSHIM_CACHE_DIR", cache.as_os_str()),
        ("PIP_INDEX_URL", "http://127.0.0.1:9/simple".as_ref()),
        ("PIP_RETRIES", "0".as_ref()),
        ("PYTHONPATH", tree.as_os_str()),
    ];
    let out = cushim_within(120, &tree, &["check", "--dir", "."], &env).expect("check ends");
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stderr.contains("cuda.rs"), "the file is named: {stderr}");
    assert!(stderr.contains("--docs"), "{stderr}");
    assert!(
        stderr.contains("hint: if you trust it, pass the same to check: `cushim check --docs"),
        "{stderr}"
    );
    assert!(!marker.exists(), "a refused file ran pip: {stderr}");

    // Trusted, the headers are fetched: pip runs isolated, so the planted
    // pip.py (in the directory and on PYTHONPATH) does not.
    let out =
        cushim_within(300, &tree, &["check", "--dir", ".", "--docs"], &env).expect("check ends");
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(!marker.exists(), "the planted pip.py ran: {stderr}");
}

/// Every library's pinned releases regenerate from the data cushim ships:
/// an NVRTC module is checked with no fetch and no flag.
#[test]
fn a_library_module_is_checked_from_the_shipped_data() {
    let dir = scratch("check-lib");
    fs::copy(
        root().join("generated/cuda-13.5/nvrtc.rs"),
        dir.join("nvrtc.rs"),
    )
    .unwrap();
    // An empty header cache and no python3 on PATH: a fetch could not run.
    let cache = scratch("check-lib-cache");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cushim"))
        .args(["check", "--dir", dir.to_str().unwrap()])
        .env("CUSHIM_CACHE_DIR", &cache)
        .env("PATH", "/nonexistent")
        .output()
        .expect("cushim runs");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("1 generated files are fresh"), "{stdout}");
    assert_eq!(fs::read_dir(&cache).unwrap().count(), 0, "nothing fetched");
}

/// The fix line is rebuilt from the parsed options and quoted: a `$(...)`
/// in the recorded command (or in the directory's name) runs nothing when
/// the line is pasted into a shell.
#[test]
fn the_fix_line_is_rebuilt_and_quoted_never_the_recorded_text() {
    let dir = scratch("check-fix");
    let tree = dir.join("$(touch out-pwned)");
    fs::create_dir_all(&tree).unwrap();
    fs::write(
        tree.join("cuda.rs"),
        with_provenance(
            "cuda.rs",
            r#"cushim generate --cuda 13.5 --allow "cuInit|$(touch pwned)""#,
        ),
    )
    .unwrap();
    let out = cushim(&["check", "--dir", dir.to_str().unwrap()]);
    let (stdout, stderr) = text(&out);
    assert_eq!(
        out.status.code(),
        Some(cushim::check::STALE_EXIT),
        "{stdout}\n{stderr}"
    );
    let fix = stdout
        .lines()
        .skip_while(|l| *l != "fix with:")
        .nth(1)
        .unwrap_or_else(|| panic!("a fix line: {stdout}"))
        .trim()
        .to_string();
    assert!(fix.contains("--allow 'cuInit|$(touch pwned)'"), "{fix}");
    // Pasted into a shell (with `cushim` a no-op), it creates nothing.
    let shell = dir.join("shell");
    fs::create_dir_all(&shell).unwrap();
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("cushim() {{ :; }}\n{fix}"))
        .current_dir(&shell)
        .status()
        .unwrap();
    assert!(status.success(), "{fix}");
    assert_eq!(
        common::files_under(&shell),
        Vec::<std::path::PathBuf>::new(),
        "{fix}"
    );
}

/// A generated file with one byte that is not UTF-8 (and a backdoor after
/// it) is stale, never skipped; so is one whose provenance lines are not text.
#[test]
fn a_tampered_file_with_a_non_utf8_byte_is_stale() {
    let dir = scratch("check-non-utf8");
    let original = fs::read(root().join("generated/cuda-13.5/cuda_shim.cpp")).unwrap();
    let mut tampered = original.clone();
    tampered.extend_from_slice(b"// \xff\nint backdoor(void) { return 1; }\n");
    fs::write(dir.join("cuda_shim.cpp"), &tampered).unwrap();
    let out = cushim(&["check", "--dir", dir.to_str().unwrap()]);
    let (stdout, stderr) = text(&out);
    assert_eq!(
        out.status.code(),
        Some(cushim::check::STALE_EXIT),
        "{stdout}\n{stderr}"
    );
    assert!(
        stdout.contains("1 of 1 generated files are stale"),
        "{stdout}"
    );
    assert!(stdout.contains("cuda_shim.cpp"), "{stdout}");

    // A byte that is not UTF-8 in the recorded command: an error naming the
    // file and its line, not a skip.
    let mut head = original.clone();
    let at = head
        .windows(6)
        .position(|w| w == b"--cuda")
        .expect("a recorded --cuda");
    head.insert(at, 0xff);
    fs::write(dir.join("cuda_shim.cpp"), &head).unwrap();
    let out = cushim(&["check", "--dir", dir.to_str().unwrap()]);
    let (stdout, stderr) = text(&out);
    assert_ne!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stderr.contains("cuda_shim.cpp:3"), "{stderr}");
    assert!(stderr.contains("UTF-8"), "{stderr}");
}

/// A hostile tree: a FIFO, a link to `/dev/zero`, a link to a fresh file
/// elsewhere, a huge file and a huge recorded line. `check` reads regular
/// files only, follows no link, caps what it reads, and ends.
#[test]
fn a_hostile_tree_neither_hangs_nor_exhausts_check() {
    let dir = scratch("check-hostile");
    fs::copy(
        root().join("generated/cuda-13.5/cuda_shim.h"),
        dir.join("cuda_shim.h"),
    )
    .unwrap();
    let fifo = dir.join("fifo.rs");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.h")).unwrap();
    std::os::unix::fs::symlink(
        root().join("generated/cuda-13.5/cuda.rs"),
        dir.join("cuda.rs"),
    )
    .unwrap();
    std::os::unix::fs::symlink(&dir, dir.join("loop")).unwrap();
    // Limit the address space, so that reading /dev/zero whole fails fast
    // instead of filling the machine's memory.
    let limited = |args: &str| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 4000000; exec '{}' check --dir '{}' {args}",
                env!("CARGO_BIN_EXE_cushim"),
                dir.display()
            ))
            .current_dir(root())
            .output()
            .unwrap()
    };
    // From 20 s on, a writer ends each wait on the FIFO, should check open
    // it: a check that waits fails the timing below instead of hanging.
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let unblock = {
        let (fifo, done) = (fifo.clone(), done.clone());
        std::thread::spawn(move || {
            use std::os::unix::fs::OpenOptionsExt;
            use std::sync::atomic::Ordering;
            let start = std::time::Instant::now();
            while !done.load(Ordering::SeqCst) {
                if start.elapsed() > std::time::Duration::from_secs(20) {
                    // O_NONBLOCK (Linux): no wait when no one reads.
                    let _ = fs::OpenOptions::new()
                        .write(true)
                        .custom_flags(0o4000)
                        .open(&fifo);
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
        })
    };
    let started = std::time::Instant::now();
    let out = limited("");
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    let (stdout, stderr) = text(&out);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "check waited on the FIFO: {stdout}\n{stderr}"
    );
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("1 generated files are fresh"), "{stdout}");
    for skipped in ["fifo.rs", "zero.h", "cuda.rs", "loop"] {
        assert!(
            stderr.contains(&format!("{}`", dir.join(skipped).display())),
            "{skipped} is named as not checked: {stderr}"
        );
    }
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    unblock.join().unwrap();
    let _ = fs::remove_file(&fifo);

    // A file that says it is generated and is bigger than the cap.
    for name in ["zero.h", "cuda.rs", "loop"] {
        fs::remove_file(dir.join(name)).unwrap();
    }
    let big = dir.join("big.rs");
    let mut head = fs::read(root().join("generated/cuda-13.5/cuda.rs")).unwrap();
    head.truncate(4096);
    fs::write(&big, &head).unwrap();
    fs::OpenOptions::new()
        .write(true)
        .open(&big)
        .unwrap()
        .set_len(65 << 20)
        .unwrap();
    let out = limited("");
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stderr.contains("big.rs"), "{stderr}");
    assert!(stderr.contains("64 MiB"), "{stderr}");
    fs::remove_file(&big).unwrap();

    // A recorded line of a megabyte.
    let long = format!(
        "cushim generate --cuda 13.5 --allow '{}'",
        "a".repeat(1 << 20)
    );
    fs::write(dir.join("long.rs"), with_provenance("cuda.rs", &long)).unwrap();
    let out = limited("");
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stderr.contains("long.rs:3"), "{stderr}");
    assert!(stderr.contains("64 KiB"), "{stderr}");
}

/// A torn write (a killed `generate`, or two at once with different
/// options) leaves files of two commands where one command writes them
/// all: each file matches its own command, but the set is mixed, and stale.
/// Disjoint outputs of two commands in one directory are not a mix.
#[test]
fn a_mixed_set_is_reported_stale() {
    let dir = scratch("check-mixed");
    let (full, narrow, mixed) = (dir.join("full"), dir.join("narrow"), dir.join("mixed"));
    let generate = |out: &std::path::Path, extra: &[&str]| {
        let mut args = vec!["generate", "--cuda", "13.5", "--out", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        let out = cushim(&args);
        assert!(out.status.success(), "{}", text(&out).1);
    };
    generate(&full, &[]);
    generate(&narrow, &["--allow", "^cuInit$"]);
    fs::create_dir_all(&mixed).unwrap();
    fs::copy(full.join("cuda_shim.h"), mixed.join("cuda_shim.h")).unwrap();
    fs::copy(full.join("cuda_shim.cpp"), mixed.join("cuda_shim.cpp")).unwrap();
    fs::copy(narrow.join("cuda.rs"), mixed.join("cuda.rs")).unwrap();
    let out = cushim(&["check", "--dir", mixed.to_str().unwrap()]);
    let (stdout, stderr) = text(&out);
    assert_eq!(
        out.status.code(),
        Some(cushim::check::STALE_EXIT),
        "{stdout}\n{stderr}"
    );
    assert!(
        stdout.contains("3 of 3 generated files are stale"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "`{}` mixes the files of 2 commands",
            mixed.display()
        )),
        "{stdout}"
    );

    // `--lang rust` and `--lang cpp` into one directory write disjoint files.
    let split = dir.join("split");
    generate(&split, &["--lang", "cpp"]);
    generate(&split, &["--lang", "rust", "--allow", "^cuInit$"]);
    let out = cushim(&["check", "--dir", split.to_str().unwrap()]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("3 generated files are fresh"), "{stdout}");
}

/// A `generate` killed between its renames in a directory that held none
/// of its files leaves part of a set, and the files it staged for the rest:
/// no other command's file is there, yet the set is torn, and stale. The
/// next write of those names removes the staged files with the set whole,
/// and a staged file whose target is in place (a write killed before its
/// first rename) leaves a whole set fresh. (Issue 20, item 8: before,
/// `check` called the part fresh.)
#[test]
fn a_write_cut_short_is_reported_stale_until_the_set_is_written_again() {
    let dir = scratch("check-cut-short");
    let out_dir = dir.join("out");
    let generate = |extra: &[&str]| {
        let mut args = vec![
            "generate",
            "--cuda",
            "13.5",
            "--out",
            out_dir.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let out = cushim(&args);
        assert!(out.status.success(), "{}", text(&out).1);
    };
    generate(&[]);
    // What SIGKILL after the first rename leaves: cuda.rs in place, the
    // others staged. pid_max is at most 2^22 on Linux: the writer is gone.
    for name in ["cuda_shim.h", "cuda_shim.cpp"] {
        let staged = out_dir.join(format!(".{name}.0123456789abcdef.99999999.tmp"));
        fs::rename(out_dir.join(name), &staged).unwrap();
    }
    let check = || {
        let out = cushim(&["check", "--dir", out_dir.to_str().unwrap()]);
        let (stdout, stderr) = text(&out);
        (out.status.code(), format!("{stdout}\n{stderr}"))
    };
    let (code, said) = check();
    assert_eq!(code, Some(cushim::check::STALE_EXIT), "{said}");
    assert!(said.contains("1 of 1 generated files are stale"), "{said}");
    assert!(
        said.contains(
            "lacks `cuda_shim.cpp`, which a `generate` (process 99999999, gone) staged as `.cuda_shim.cpp.0123456789abcdef.99999999.tmp` and never put in place"
        ) || said.contains(
            "lacks `cuda_shim.h`, which a `generate` (process 99999999, gone) staged as `.cuda_shim.h.0123456789abcdef.99999999.tmp` and never put in place"
        ),
        "{said}"
    );
    // A write of other names leaves the staged files: still stale.
    generate(&["--lib", "nvrtc", "--lang", "rust"]);
    let (code, said) = check();
    assert_eq!(code, Some(cushim::check::STALE_EXIT), "{said}");
    // The set written again: whole, and the staged files gone.
    generate(&[]);
    let (code, said) = check();
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("4 generated files are fresh"), "{said}");
    let left: Vec<_> = fs::read_dir(&out_dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // Killed before its first rename: the old set is whole.
    let staged = out_dir.join(".cuda_shim.h.0123456789abcdef.99999999.tmp");
    fs::write(&staged, "half").unwrap();
    let (code, said) = check();
    assert_eq!(code, Some(0), "{said}");
}

/// The C++ runtime beside a pair is part of its set: a copy of another
/// cushim's runtime (a regenerate after an upgrade cut short between the
/// pair and the runtime, or a vendored pair updated without its runtime) is
/// stale, though it records no command. (Issue 20, item 8: before, `check`
/// never read the runtime copies.)
#[test]
fn another_cushims_cpp_runtime_beside_a_pair_is_stale() {
    let dir = scratch("check-runtime");
    let out = cushim(&[
        "generate",
        "--cuda",
        "13.5",
        "--lang",
        "cpp",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out).1);
    let check = || {
        let out = cushim(&["check", "--dir", dir.to_str().unwrap()]);
        let (stdout, stderr) = text(&out);
        (out.status.code(), format!("{stdout}\n{stderr}"))
    };
    let (code, said) = check();
    assert_eq!(code, Some(0), "{said}");
    let runtime = dir.join("cushim_runtime.cpp");
    let mut older = fs::read(&runtime).unwrap();
    older.extend_from_slice(b"// an older cushim's runtime\n");
    fs::write(&runtime, older).unwrap();
    let (code, said) = check();
    assert_eq!(code, Some(cushim::check::STALE_EXIT), "{said}");
    assert!(said.contains("1 of 3 generated files are stale"), "{said}");
    assert!(
        said.contains(&format!(
            "`{}` is not the C++ runtime that `cushim generate --cuda 13.5 --lang cpp` writes beside its pair",
            runtime.display()
        )),
        "{said}"
    );
    // Without its runtime beside it (vendored elsewhere), a pair is fresh.
    fs::remove_file(&runtime).unwrap();
    let (code, said) = check();
    assert_eq!(code, Some(0), "{said}");
}
