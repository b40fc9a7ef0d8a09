//! The README's example crate, as a reader copies it: its `Cargo.toml`
//! dependencies, `build.rs` and `src/main.rs` blocks become a crate (with
//! cushim and cushim-runtime patched to this checkout), which must build
//! offline and run without a driver. An edit that breaks the example fails
//! here, so the README cannot go stale.

use crate::common;

use std::process::Command;

use common::{root, text};

/// The body of the README's fenced block of `lang` whose first line is
/// `first` (`// build.rs`), or of the first block of `lang` when `first` is
/// empty.
fn block(readme: &str, lang: &str, first: &str) -> String {
    let fence = format!("```{lang}\n");
    let mut rest = readme;
    while let Some(start) = rest.find(&fence) {
        let body = &rest[start + fence.len()..];
        let end = body.find("```\n").expect("every fence closes");
        let code = &body[..end];
        if first.is_empty() || code.starts_with(first) {
            return code.to_string();
        }
        rest = &body[end..];
    }
    panic!("the README has no ```{lang} block starting with {first:?}");
}

#[test]
fn the_readme_s_build_script_example_builds_offline_and_runs_without_a_driver() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let dir = common::scratch("readme-example");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let manifest = format!(
        "[package]\nname = \"readme-example\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n{}\n[patch.crates-io]\ncushim = {{ path = {:?} }}\ncushim-runtime = {{ path = {:?} }}\n\n[workspace]\n",
        block(&readme, "toml", "[dependencies]"),
        root().display().to_string(),
        root().join("cushim-runtime").display().to_string(),
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(dir.join("build.rs"), block(&readme, "rust", "// build.rs")).unwrap();
    std::fs::write(
        dir.join("src/main.rs"),
        block(&readme, "rust", "// src/main.rs"),
    )
    .unwrap();
    // This checkout's lock file pins the versions the example resolves to.
    std::fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["run", "--quiet", "--offline"])
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(common::nested_target())
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .env("CUSHIM_CUDA_LIBRARY", common::missing_library())
        .output()
        .expect("cargo runs");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("no CUDA here: "), "{stdout}");
    assert!(stdout.contains("cuDeviceGetCount -> "), "{stdout}");
}

/// The README's table of libraries names every library of the registry
/// (`cushim::library::LIBRARIES`) by its label and its `--lib` name, and no
/// other: a new library's description fails here until the README says what
/// it binds.
#[test]
fn the_readme_s_table_names_every_library_of_the_registry() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme
        .find("| library | `--lib` | binds | without the library |")
        .expect("the README's table of libraries");
    let rows: Vec<(String, String)> = readme[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (cells[1].to_string(), cells[2].trim_matches('`').to_string())
        })
        .collect();
    let registry: Vec<(String, String)> = cushim::library::LIBRARIES
        .iter()
        .map(|l| {
            let label = if l.name == cushim::library::DRIVER.name {
                "CUDA driver"
            } else {
                l.words.label
            };
            (label.to_string(), l.name.to_string())
        })
        .collect();
    assert_eq!(rows, registry, "the README's rows, against the registry");
}

/// The README's heading over the other libraries names each of them (by its
/// label or its `--lib` name): a new library fails here until it does.
#[test]
fn the_readme_s_heading_of_the_other_libraries_names_every_one() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let heading = readme
        .lines()
        .find(|l| l.starts_with("## Beyond the driver"))
        .expect("the README's heading over the other libraries");
    let words: Vec<&str> = heading
        .split(|c: char| c == ',' || c == ':' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    for library in cushim::library::LIBRARIES.iter().skip(1) {
        assert!(
            words.contains(&library.words.label) || words.contains(&library.name),
            "{heading:?} does not name {}",
            library.name
        );
    }
}

/// The cached include directory of a library's 13.5 headers.
fn include_13_5(name: &str) -> std::path::PathBuf {
    let library = cushim::library::by_name(name).unwrap();
    let pin = cushim::pins::find_for(library, "13.5".parse().unwrap()).unwrap();
    cushim::fetch::library_include_dir(library, &pin).unwrap()
}

/// The README's C snippet as a whole program: its `#include` lines on top,
/// the rest as the body of `main`.
fn c_program(readme: &str) -> String {
    let snippet = block(readme, "c", "");
    let (includes, body): (Vec<&str>, Vec<&str>) =
        snippet.lines().partition(|l| l.starts_with("#include"));
    format!(
        "#include <stdio.h>\n{}\nint main(void) {{\n{}\n    return 0;\n}}\n",
        includes.join("\n"),
        body.join("\n")
    )
}

/// Whether `readelf -d` of `program` records `libstdc++`.
fn needs_libstdcxx(program: &std::path::Path) -> bool {
    let dynamic = common::run_ok(Command::new("readelf").arg("-d").arg(program));
    dynamic.contains("libstdc++")
}

/// The README's plain-compiler commands for a C program, run as written
/// (the toolkit's include directory is the cached 13.5 headers' and the
/// paths are this checkout's) on the README's C snippet: the program links
/// with the C compiler, records no `libstdc++`, and without a driver prints
/// why.
#[test]
fn the_readme_s_c_commands_build_its_c_snippet_without_libstdcxx() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let dir = common::scratch("readme-c");
    std::fs::write(dir.join("my_program.c"), c_program(&readme)).unwrap();
    let commands = block(&readme, "sh", "g++ -std=c++17 -O2 -fno-exceptions")
        .replace(
            "/usr/local/cuda/include",
            &include_13_5("driver").display().to_string(),
        )
        .replace(
            "generated/cuda-13.5",
            &root().join("generated/cuda-13.5").display().to_string(),
        );
    common::run_ok(
        Command::new("sh")
            .arg("-c")
            .arg(format!("set -e\n{commands}"))
            .current_dir(&dir),
    );
    let program = dir.join("my_program");
    runs_without_libstdcxx_or_a_driver(&program);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The README's CMake snippet, configured and built as written (with this
/// checkout's paths, and the cached 13.5 headers, with cushim's stand-in for
/// `<nv/target>`, where it names a toolkit's include directory), on the
/// README's C snippet: the C program links with `-Wl,--no-as-needed` and
/// still records no `libstdc++`.
#[test]
fn the_readme_s_cmake_snippet_builds_a_c_program_without_libstdcxx() {
    if !common::have_cmake() {
        return;
    }
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let dir = common::scratch("readme-cmake");
    let includes: Vec<String> = ["driver", "nvrtc", "cublas"]
        .into_iter()
        .map(include_13_5)
        .chain([root().join("headers/foreign")])
        .map(|d| format!("\"{}\"", d.display()))
        .collect();
    let project = block(&readme, "cmake", "")
        .replace(
            "path/to/generated/cuda-13.5",
            &root().join("generated/cuda-13.5").display().to_string(),
        )
        .replace("path/to/cushim", &root().display().to_string())
        .replace("/usr/local/cuda/include", &includes.join(" "));
    std::fs::write(
        dir.join("CMakeLists.txt"),
        format!(
            "cmake_minimum_required(VERSION 3.16)\n{project}\ntarget_link_options(my_program PRIVATE \"-Wl,--no-as-needed\")\n"
        ),
    )
    .unwrap();
    std::fs::write(dir.join("my_program.c"), c_program(&readme)).unwrap();
    let build = dir.join("build");
    common::run_ok(
        Command::new("cmake")
            .arg("-S")
            .arg(&dir)
            .arg("-B")
            .arg(&build),
    );
    common::run_ok(
        Command::new("cmake")
            .arg("--build")
            .arg(&build)
            .args(["--parallel", "2"]),
    );
    let program = build.join("my_program");
    runs_without_libstdcxx_or_a_driver(&program);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The README says `cmake/cushim.cmake` is shipped in the crate too: the
/// packaged file list holds it, with the data a build without features reads.
#[test]
fn the_packaged_crate_ships_cmake_and_the_shipped_data() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["package", "--list", "--offline", "--allow-dirty"])
        .arg("--manifest-path")
        .arg(root().join("Cargo.toml"))
        .output()
        .expect("cargo runs");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let files: Vec<&str> = stdout.lines().collect();
    for shipped in [
        "cmake/cushim.cmake",
        "README.md",
        "generated/merged/cuda.rs",
    ] {
        assert!(
            files.contains(&shipped),
            "{shipped} is not packaged: {stdout}"
        );
    }
    assert!(
        files
            .iter()
            .any(|f| f.starts_with("generated/data/") && f.ends_with(".weave")),
        "{stdout}"
    );
}

/// The README's C program, built: it records no `libstdc++`, and without a
/// driver it runs and says why, as the README's snippet does.
fn runs_without_libstdcxx_or_a_driver(program: &std::path::Path) {
    assert!(!needs_libstdcxx(program));
    let out = Command::new(program)
        .env("CUSHIM_CUDA_LIBRARY", common::missing_library())
        .output()
        .expect("the program runs");
    let (_, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("no CUDA: "), "{stderr}");
}

/// What the README's table of headers says a library binds: each header it
/// lists (with its PFN table, and "where a release has it" for an optional
/// one), then the patterns of those found by name, less their exceptions.
fn headers_cell(library: &cushim::library::Library) -> String {
    let mut parts: Vec<String> = library
        .headers
        .iter()
        .map(|h| {
            let mut text = format!("`{}`", h.name);
            if let Some(t) = h.typedefs {
                text.push_str(&format!(" (`{t}`)"));
            }
            if h.optional {
                text.push_str(" where a release has it");
            }
            text
        })
        .collect();
    let globbed = library.parse.globbed;
    if !globbed.patterns.is_empty() {
        let patterns: Vec<String> = globbed.patterns.iter().map(|p| format!("`{p}`")).collect();
        let mut text = format!("every {} of its wheel", patterns.join(", "));
        if !globbed.except.is_empty() {
            let except: Vec<String> = globbed
                .except
                .iter()
                .map(|(h, why)| format!("`{h}` ({why})"))
                .collect();
            text.push_str(&format!(" but {}", except.join(", ")));
        }
        parts.push(text);
    }
    parts.join(", ")
}

/// The README's table of the headers each library binds is the registry's
/// (`headers` and the patterns of `parse.globbed`), row for row: a header
/// added to a description fails here until the README lists it.
#[test]
fn the_readme_s_table_of_headers_is_the_registry_s() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme
        .find("| `--lib` | headers (and the files of their own wheels that they include) |")
        .expect("the README's table of headers");
    let rows: Vec<String> = readme[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(str::to_string)
        .collect();
    let registry: Vec<String> = cushim::library::LIBRARIES
        .iter()
        .map(|l| format!("| `{}` | {} |", l.name, headers_cell(l)))
        .collect();
    assert_eq!(
        rows,
        registry,
        "the README's rows, against the registry:\n{}",
        registry.join("\n")
    );
}
