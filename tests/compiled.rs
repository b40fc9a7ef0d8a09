//! Code that a compiler emits, linked with a pair instead of the library: a
//! library whose description names compiler headers
//! ([`cushim::library::CompilerHeaders`], cudart's for nvcc) gets the entry
//! points that compiled code calls by itself in its C++ pair. For each such
//! library, `tests/fake/<name>_compiled.cpp` stands in for the compiler's
//! output (registration from a static constructor, a launch's push and pop,
//! then the first runtime call), built with g++ against the committed pair
//! of the release its fake names; it runs
//! - without the library: it reaches `main`, and its first call answers the
//!   loader's code for a missing library (cudart's 303);
//! - with the fake library (`tests/fake/lib<name>.c`): every call reaches the
//!   fake with what the program sent, and what the fake answers comes back.

use std::path::Path;
use std::process::Command;

use crate::common::{self, root, run_ok, scratch, text};

/// Runs `program` with the library's override at `library`; asserts that it
/// succeeded. Returns stdout.
fn run(program: &Path, override_var: &str, library: &Path) -> String {
    let mut cmd = Command::new("timeout");
    cmd.arg("60").arg(program).env_remove("LD_LIBRARY_PATH");
    cmd.env(override_var, library);
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let (stdout, stderr) = text(&out);
    assert!(
        out.status.success(),
        "{program:?} failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    stdout
}

/// The lines of `text` that start with `prefix`, without it.
fn lines<'t>(text: &'t str, prefix: &str) -> Vec<&'t str> {
    text.lines()
        .filter_map(|l| l.strip_prefix(prefix))
        .collect()
}

#[test]
fn compiled_code_registers_through_the_pair_and_reaches_main_without_the_library() {
    let libraries: Vec<_> = crate::family::libraries()
        .into_iter()
        .filter(|(l, _)| l.parse.compiler.is_some())
        .collect();
    assert!(!libraries.is_empty(), "cudart names nvcc's headers");
    for (library, release) in libraries {
        let dir = scratch(&format!("compiled-{}", library.name));
        let committed = root().join("generated").join(format!("cuda-{release}"));
        for file in [
            format!("{}_shim.h", library.stem),
            format!("{}_shim.cpp", library.stem),
            "cushim_runtime.h".to_string(),
            "cushim_runtime.cpp".to_string(),
        ] {
            std::fs::copy(committed.join(&file), dir.join(&file)).unwrap();
        }
        let pin = cushim::pins::find_for(library, release.parse().unwrap()).unwrap();
        let include = cushim::fetch::library_include_dir(library, &pin).unwrap();
        let pair = common::compile(&dir, library.stem, &include, &[]);
        let program = dir.join("compiled");
        run_ok(
            Command::new("g++")
                .args(common::CXXFLAGS)
                .arg(format!("-I{}", include.display()))
                .arg(root().join(format!("tests/fake/{}_compiled.cpp", library.name)))
                .arg(&pair)
                .arg(common::runtime_object(&dir))
                .args(["-ldl", "-o"])
                .arg(&program),
        );
        let major: u32 = release.split('.').next().unwrap().parse().unwrap();
        let soname = cushim::library::with_major(library.names_for(major).unix, major).remove(0);
        let fake = dir.join(&soname);
        run_ok(
            Command::new("cc")
                .args(["-shared", "-fPIC", "-O1", "-Wall", "-Wextra", "-Werror"])
                .arg(format!("-Wl,-soname,{soname}"))
                .arg(format!("-DFAKE_VERSION={}", major * 1000))
                .arg("-o")
                .arg(&fake)
                .arg(root().join(format!("tests/fake/lib{}.c", library.name))),
        );
        let override_var = library.words.override_var;

        let absent = run(&program, override_var, &dir.join("missing").join(&soname));
        let code = library.codes.library_not_found.value;
        assert!(absent.contains("main reached\n"), "{absent}");
        assert!(
            absent.contains(&format!("first call: {code}\n")),
            "{absent}"
        );
        assert!(lines(&absent, "got: ").is_empty(), "{absent}");

        let present = run(&program, override_var, &fake);
        let (sent, got) = (lines(&present, "sent: "), lines(&present, "got: "));
        assert!(sent.len() >= 8, "{present}");
        assert_eq!(sent, got, "{present}");
        assert!(present.contains("first call: 0\n"), "{present}");
    }
}
