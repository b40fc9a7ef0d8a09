//! The search above the program on Windows (issue 36, item 4): a program in
//! a venv's `Scripts\` finds its wheel's DLL in `Lib\site-packages`, with no
//! variable set, in both runtimes (the C++ NVRTC pair built with mingw-w64,
//! `tests/windows-consumer` for x86_64-pc-windows-gnu, run under Wine), and
//! only while the venv passes the trust rule on owners and ACLs; a refusal
//! names the path at fault and why, in the same words in both.
//!
//! What Wine shows of the rule: Wine derives a file's security descriptor
//! from its Unix owner and mode. A file of the user running Wine is owned by
//! the Windows user (`S-1-5-21-0-0-0-1000`), any other uid's by `S-1-5-7`
//! (Anonymous Logon); the DACL allows SYSTEM and the owner everything and
//! Everyone (`S-1-1-0`) read and execute, or everything but `WRITE_DAC` and
//! `WRITE_OWNER` (`0x001301ff`) when others may write (`chmod o+w`). So an
//! others-writable directory and a foreign owner are shown, and tested here.
//! What Wine cannot show: the group's write bit (it maps to no ACE), an ACE
//! for any other SID, a deny ACE, an inherit-only ACE, a NULL DACL, an owner
//! that is SYSTEM, Administrators or TrustedInstaller, and a link out of the
//! environment: `SetNamedSecurityInfoW` (and `icacls`, which calls it)
//! succeeds but keeps only what fits the mode bits, and Wine stores no
//! security descriptor of its own for a file. Those parts of the rule are
//! checked on Windows itself only.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use common::{root, run_ok, scratch, wine_path, CXXFLAGS};

use cushim::library::{with_major, NVRTC};

/// The Rust program's target.
const TARGET: &str = "x86_64-pc-windows-gnu";
/// The major of the committed pairs the programs are built against.
const MAJOR: u32 = 13;
/// Where a 13.x wheel keeps its DLLs, below `site-packages`.
const WHEEL_BIN: &str = "Lib/site-packages/nvidia/cu13/bin/x86_64";
/// The step of the Rust runtime that finds a library above the program.
const ABOVE: &str = "pip wheel (above the executable)";

/// Builds the C++ program (`tests/cpp/family_windows.cpp` with the committed
/// 13.5 NVRTC pair) into `dir`; returns its path.
fn cpp_program(dir: &Path) -> PathBuf {
    let pin = cushim::pins::find_for(&NVRTC, "13.5".parse().unwrap()).unwrap();
    let include = cushim::fetch::library_include_dir(&NVRTC, &pin).unwrap();
    let generated = root().join("generated/cuda-13.5");
    let exe = dir.join("cpp.exe");
    run_ok(
        Command::new("x86_64-w64-mingw32-g++-posix")
            .args(CXXFLAGS)
            .arg(format!("-I{}", include.display()))
            .arg(format!("-I{}", generated.display()))
            .arg(root().join("tests/cpp/family_windows.cpp"))
            .arg(generated.join(format!("{}_shim.cpp", NVRTC.stem)))
            .arg(generated.join("cushim_runtime.cpp"))
            .args(["-static", "-o"])
            .arg(&exe),
    );
    exe
}

/// Builds NVRTC's fake as its Windows DLL into `dir`; returns its path.
fn fake_dll(dir: &Path) -> PathBuf {
    let dll = dir.join(&with_major(NVRTC.names_for(MAJOR).windows, MAJOR)[0]);
    run_ok(
        Command::new("x86_64-w64-mingw32-gcc")
            .args(["-shared", "-O1", "-Wall", "-Werror", "-DFAKE_MINOR=1", "-o"])
            .arg(&dll)
            .arg(root().join(format!("tests/fake/lib{}.c", NVRTC.name))),
    );
    dll
}

/// A venv at `venv` laid out as on Windows: `pyvenv.cfg`, the programs (and
/// the DLL that Wine lacks for Rust) in `Scripts`, the DLL in its wheel's
/// directory; none of it writable by group or others. Returns the DLL's path.
fn venv(venv: &Path, built: &Path, programs: &[&Path], dll: &Path) -> PathBuf {
    let scripts = venv.join("Scripts");
    let wheel = venv.join(WHEEL_BIN);
    std::fs::create_dir_all(&scripts).unwrap();
    std::fs::create_dir_all(&wheel).unwrap();
    std::fs::write(venv.join("pyvenv.cfg"), "home = C:\\Python313\n").unwrap();
    for file in programs
        .iter()
        .chain([&built.join("bcryptprimitives.dll").as_path()])
    {
        std::fs::copy(file, scripts.join(file.file_name().unwrap())).unwrap();
    }
    let placed = wheel.join(dll.file_name().unwrap());
    std::fs::copy(dll, &placed).unwrap();
    run_ok(Command::new("chmod").args(["-R", "u=rwx,go=rx"]).arg(venv));
    placed
}

/// Runs each program of the venv at `venv` under Wine with no variable
/// that the search reads; returns the C++ and the Rust program's output.
fn run(dir: &Path, venv: &Path) -> [String; 2] {
    let scripts = venv.join("Scripts");
    // The C++ program ends well whatever it found; the Rust one fails its
    // checks of the driver (no planted DLL here) and is read all the same.
    let cpp = run_ok(common::wine(dir, &scripts.join("cpp.exe")).current_dir(dir));
    let rust = common::wine(dir, &scripts.join("program.exe"))
        .current_dir(dir)
        .output()
        .unwrap();
    let rust = common::text(&rust).0;
    [cpp.replace('\r', ""), rust.replace('\r', "")]
}

/// Issue 36, item 4: a program in `venv\Scripts` finds its wheel's DLL in
/// `venv\Lib\site-packages`, with no variable set; with `venv\Lib` writable
/// by others, or the DLL of another owner, the DLL is not used and the
/// message names the path and why, in both runtimes.
#[test]
fn a_program_in_a_venvs_scripts_finds_its_wheel_only_while_nobody_else_can_write_the_venv() {
    if !common::windows_tools(TARGET) {
        return;
    }
    let start = Instant::now();
    let dir = scratch("windows-search");
    // Its wine prefix weighs 0.7 GB.
    let _removed = common::RemovedAfter(dir.clone());
    let built = dir.join("built");
    std::fs::create_dir_all(&built).unwrap();
    let (cpp, rust, dll) = std::thread::scope(|s| {
        let rust = s.spawn(|| {
            let exe = built.join("program.exe");
            std::fs::copy(common::windows_consumer(), &exe).unwrap();
            common::wine_bcryptprimitives(&built);
            exe
        });
        let dll = s.spawn(|| fake_dll(&built));
        s.spawn(|| common::wine_prefix(&dir));
        let cpp = cpp_program(&built);
        (cpp, rust.join().unwrap(), dll.join().unwrap())
    });
    let programs = [cpp.as_path(), rust.as_path()];
    let cases = ["sealed", "open", "foreign"].map(|case| {
        let env = dir.join(case);
        let placed = venv(&env, &built, &programs, &dll);
        (env, placed)
    });
    // `open`: its `Lib` is writable by others (Everyone, to Wine).
    let lib = cases[1].0.join("Lib");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&lib, std::fs::Permissions::from_mode(0o757)).unwrap();
    }
    // `foreign`: the DLL belongs to another uid (Anonymous Logon, to Wine);
    // only root can give it away.
    let foreign = std::os::unix::fs::chown(&cases[2].1, Some(4321), None).is_ok();
    if !foreign {
        eprintln!("windows_search: not root: the case of a DLL of another owner is left out");
    }
    let built_in = start.elapsed();

    let outputs: Vec<[String; 2]> = std::thread::scope(|s| {
        let runs: Vec<_> = cases
            .iter()
            .take(if foreign { 3 } else { 2 })
            .map(|(env, _)| s.spawn(|| run(&dir, env)))
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    let [cpp, rust] = &outputs[0];
    let found = wine_path(&cases[0].1);
    assert!(
        cpp.contains("nvrtcVersion -> 0, 13.1") && cpp.contains(&format!("path={found}\n")),
        "C++: want {found}:\n{cpp}"
    );
    assert!(
        rust.contains(&format!(
            "nvrtc: path={found} version=13.1 (found by {ABOVE})"
        )),
        "Rust: want {found}:\n{rust}"
    );
    // The step is one of the search's on Windows, as `cushim doctor` lists them.
    assert!(
        rust.contains(&format!(
            "nvrtc steps: override, loaded, pip wheel (VIRTUAL_ENV), pip wheel (CONDA_PREFIX), {ABOVE}, conda, system loader, CUDA_HOME, CUDA_PATH\n"
        )),
        "{rust}"
    );
    let rule = ", but a Python environment above the program is searched only if this user, SYSTEM, Administrators or TrustedInstaller alone can write it, its marker and every directory down to the library and to the program (remove the others' write access, or name the environment with VIRTUAL_ENV or CONDA_PREFIX))";
    let mut refusals = vec![(
        1,
        format!(
            "`{}` (not used: `{}` is writable by Everyone (S-1-1-0) (access mask 0x001301ff){rule}",
            wine_path(&cases[1].1),
            wine_path(&lib)
        ),
    )];
    if foreign {
        let dll = wine_path(&cases[2].1);
        refusals.push((
            2,
            format!(
                "`{dll}` (not used: `{dll}` is owned by S-1-5-7, neither this process's user (S-1-5-21-"
            ),
        ));
    }
    for (case, want) in refusals {
        for (language, out) in ["C++", "Rust"].iter().zip(&outputs[case]) {
            assert!(
                out.contains(&want) && out.contains("library not found"),
                "{language}, {}: want {want}:\n{out}",
                cases[case].0.display()
            );
            if case == 2 {
                assert!(
                    out.contains(&format!(
                        "), SYSTEM, Administrators nor TrustedInstaller{rule}"
                    )),
                    "{language}:\n{out}"
                );
            }
        }
    }
    eprintln!(
        "windows_search: built in {built_in:?}, ran by {:?}",
        start.elapsed()
    );
}
