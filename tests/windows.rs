//! The Rust loader on Windows (RELIABILITY row 21): `tests/windows-consumer`
//! (the committed 13.5 module) cross-compiled for x86_64-pc-windows-gnu and
//! run under Wine with a planted nvcuda.dll in the executable's directory and
//! in the working directory. It must report "library not found", never load
//! the plant, and a control load through the default search must load it.

use crate::common;

use std::process::Command;

use common::{root, run_ok, scratch};

const TARGET: &str = "x86_64-pc-windows-gnu";

#[test]
fn the_rust_loader_on_windows_never_loads_a_planted_dll() {
    if !(common::have("x86_64-w64-mingw32-gcc")
        && common::have("wine")
        && common::have_rust_target(TARGET))
    {
        assert!(
            std::env::var_os("CUSHIM_SKIP_WINDOWS").is_some(),
            "install g++-mingw-w64-x86-64, wine64 and the {TARGET} Rust target (as .ci/run does), or set CUSHIM_SKIP_WINDOWS=1"
        );
        return;
    }
    let dir = scratch("rust-windows");
    // Its wine prefix weighs 0.7 GB.
    let _removed = common::RemovedAfter(dir.clone());
    let exe = dir.join("program.exe");
    std::fs::copy(common::windows_consumer(), &exe).unwrap();
    // Wine 8 lacks the DLL that Rust's standard library takes its random numbers from.
    common::wine_bcryptprimitives(&dir);
    // The fake NVRTC as a pip wheel's DLL, reporting 13.1.
    let wheel = dir.join("venv/Lib/site-packages/nvidia/cu13/bin/x86_64");
    std::fs::create_dir_all(&wheel).unwrap();
    run_ok(
        Command::new("x86_64-w64-mingw32-gcc")
            .args(["-shared", "-O1", "-Wall", "-Werror", "-DFAKE_MINOR=1", "-o"])
            .arg(wheel.join("nvrtc64_130_0.dll"))
            .arg(root().join("tests/fake/libnvrtc.c")),
    );
    let venv = common::wine_path(&dir.join("venv"));
    let out = common::run_beside_planted_dlls(&dir, &exe, &[("VIRTUAL_ENV", venv.clone())]);
    assert!(
        out.contains(&format!(
            "nvrtc: path={venv}\\Lib\\site-packages\\nvidia\\cu13\\bin\\x86_64\\nvrtc64_130_0.dll version=13.1"
        )),
        "{out}"
    );
    assert!(
        out.contains("CUDA driver library not found; tried `nvcuda.dll`"),
        "{out}"
    );
    assert!(
        out.contains("cuGetErrorName -> Some(\"CUDA_ERROR_NO_DEVICE\")"),
        "{out}"
    );
    assert!(
        out.contains("control: the default search loads the planted DLL"),
        "{out}"
    );
    assert!(out.contains("cuWGLGetDevice: Some(2020)"), "{out}");
    let nvtx = &cushim::library::NVTX;
    assert!(nvtx.names_for(13).windows.is_empty());
    assert!(
        out.contains(&format!(
            "nvtx: {} has no library for Windows; set {} to the absolute path of one to use it",
            nvtx.words.label, nvtx.words.override_var
        )),
        "{out}"
    );
    assert!(out.contains("ok: windows"), "{out}");
    // A wheel's DLL built for another machine, or truncated, is skipped and
    // named with what is wrong (issue 20, item 6), not just "error 193".
    let good = std::fs::read(wheel.join("nvrtc64_130_0.dll")).unwrap();
    let pe = u32::from_le_bytes(good[0x3c..0x40].try_into().unwrap()) as usize;
    let mut x86 = good.clone();
    x86[pe + 4..pe + 6].copy_from_slice(&0x14c_u16.to_le_bytes());
    let cases: [(&str, Vec<u8>, &str); 2] = [
        (
            "x86",
            x86,
            "(a DLL for machine 0x14c (x86), but this program is for 0x8664 (x86-64))",
        ),
        (
            "truncated",
            good[..good.len() / 2].to_vec(),
            "(truncated: a section ends at byte ",
        ),
    ];
    for (case, bytes, why) in cases {
        let venv = dir.join(case);
        let wheel = venv.join("Lib/site-packages/nvidia/cu13/bin/x86_64");
        std::fs::create_dir_all(&wheel).unwrap();
        std::fs::write(wheel.join("nvrtc64_130_0.dll"), bytes).unwrap();
        let venv = common::wine_path(&venv);
        let out = common::wine(&dir, &exe)
            .current_dir(dir.join("cwd"))
            .env("VIRTUAL_ENV", &venv)
            .output()
            .unwrap();
        let (stdout, stderr) = common::text(&out);
        let dll =
            format!("{venv}\\Lib\\site-packages\\nvidia\\cu13\\bin\\x86_64\\nvrtc64_130_0.dll");
        assert!(
            stdout.contains(&format!("`{dll}` {why}")),
            "{case}:\n{stdout}\n{stderr}"
        );
    }
}
