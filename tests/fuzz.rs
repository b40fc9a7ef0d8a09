//! A bounded, deterministic fuzz run of the two untrusted front ends, in every
//! `cargo test`:
//! - 300 headers mutated from the fixtures (tokens inserted, bytes deleted,
//!   lines duplicated or swapped) go through `Builder`: never a panic; a
//!   rejected one writes nothing and says why; an accepted Rust module parses,
//!   and the first 8 accepted C++ pairs compile with g++;
//! - 3,000 random command lines go through the `generate` parser: never a
//!   panic, and every accepted one's recorded command reads back as the same
//!   options (what `cushim check` relies on).
//!
//! The seed is fixed, so a failure names an input that reproduces.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::{files_under, fixture, root, scratch, FIXTURES};

/// xorshift64*: small, deterministic, good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n.max(1) as u64).unwrap_or(0)
    }
}

const TOKENS: &[&str] = &[
    "*",
    "const ",
    ",",
    "(",
    ")",
    "int ",
    "void",
    "...",
    "_v2",
    "CUDAAPI ",
    "\u{e4}",
    ";",
    "\n",
    "unsigned ",
    "[3]",
    "_",
    "arg1",
    "typedef ",
    "struct S ",
    "enum { A = 1 } ",
    "#define cuInit cuInit_v2\n",
    "__attribute__((deprecated)) ",
    "CUresult ",
    "(*f)(int)",
    "cuX",
    "long long ",
    "/*",
    "\"",
    "\\",
    "#if 0\n",
    "#endif\n",
];

/// The char boundary at or before `i`.
fn boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i.min(s.len())
}

fn mutate(src: &str, rng: &mut Rng) -> String {
    let mut s = src.to_string();
    for _ in 0..=rng.below(3) {
        match rng.below(4) {
            0 => {
                let at = boundary(&s, rng.below(s.len() + 1));
                s.insert_str(at, TOKENS[rng.below(TOKENS.len())]);
            }
            1 => {
                let from = boundary(&s, rng.below(s.len() + 1));
                let to = boundary(&s, (from + 1 + rng.below(20)).min(s.len()));
                if from < to {
                    s.replace_range(from..to, "");
                }
            }
            2 => {
                let mut lines: Vec<&str> = s.lines().collect();
                if !lines.is_empty() {
                    let i = rng.below(lines.len());
                    lines.insert(i, lines[i]);
                }
                s = lines.join("\n");
            }
            _ => {
                let mut lines: Vec<&str> = s.lines().collect();
                if lines.len() > 1 {
                    let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
                    lines.swap(a, b);
                }
                s = lines.join("\n");
            }
        }
    }
    s
}

fn g_plus_plus_syntax(dir: &Path, headers: &Path) {
    let cpp = files_under(dir)
        .into_iter()
        .find(|p| p.to_string_lossy().ends_with("_shim.cpp"))
        .expect("a C++ source");
    let out = Command::new("g++")
        .args(["-std=c++17", "-fsyntax-only", "-w"])
        .arg(format!("-I{}", headers.display()))
        .arg(format!("-I{}", dir.display()))
        .arg(&cpp)
        .output()
        .expect("g++ runs");
    assert!(
        out.status.success(),
        "accepted C++ output does not compile: {}\n{}",
        cpp.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn mutated_headers_never_panic_and_accepted_output_is_valid() {
    let dir = scratch("fuzz-headers");
    std::fs::create_dir_all(dir.join("common")).unwrap();
    std::fs::copy(
        root().join("headers/fixtures/common/base.h"),
        dir.join("common/base.h"),
    )
    .unwrap();
    let sources: Vec<String> = FIXTURES
        .iter()
        .map(|f| std::fs::read_to_string(fixture(f)).unwrap())
        .collect();
    let mut rng = Rng(0x00c0_ffee_d15e_a5e5);
    let (mut accepted, mut rejected, mut compiled) = (0, 0, 0);
    for i in 0..300 {
        let header = dir.join(format!("h{i}.h"));
        std::fs::write(&header, mutate(&sources[i % sources.len()], &mut rng)).unwrap();
        let out = dir.join(format!("out{i}"));
        let run = std::panic::catch_unwind(|| {
            cushim::Builder::new()
                .header(&header, None)
                .out_dir(&out)
                .generate()
        });
        let result = run.unwrap_or_else(|_| panic!("input {} panicked", header.display()));
        match result {
            Err(e) => {
                rejected += 1;
                assert!(
                    !e.to_string().trim().is_empty(),
                    "{}: an empty error",
                    header.display()
                );
                assert_eq!(
                    files_under(&out),
                    Vec::<std::path::PathBuf>::new(),
                    "{}: partial output",
                    header.display()
                );
            }
            Ok(_) => {
                accepted += 1;
                let rs = files_under(&out)
                    .into_iter()
                    .find(|p| p.extension().is_some_and(|e| e == "rs"))
                    .expect("a Rust module");
                let text = std::fs::read_to_string(&rs).unwrap();
                if let Err(e) = syn::parse_file(&text) {
                    panic!("{}: the Rust output does not parse: {e}", header.display());
                }
                // Generation checks that the header is also C++ (the stubs
                // include it), so every accepted pair must compile.
                if compiled < 8 {
                    g_plus_plus_syntax(&out, &dir);
                    compiled += 1;
                }
            }
        }
    }
    eprintln!("headers: {accepted} accepted, {rejected} rejected, {compiled} C++ pairs compiled");
    assert!(
        accepted >= 30 && rejected >= 30,
        "accepted {accepted}, rejected {rejected}: the mutations exercise too little"
    );
}

const WORDS: &[&str] = &[
    "--cuda",
    "13.5",
    "11.8..13.5",
    "13.9",
    "x",
    "--merged",
    "--all",
    "--cuda-path",
    "",
    "/opt/cuda",
    "--header",
    "api.h",
    "a b.h",
    "-p.h",
    "--header=-q.h",
    "--typedefs",
    "t.h",
    "--allow",
    "--block",
    "^cu(Init|Mem)",
    "it's",
    "a\nb",
    "(",
    "--clang-arg",
    "-MD",
    "-DX=\"1\"",
    "--lang",
    "rust",
    "cpp",
    "rust,cpp",
    "--resolve",
    "dlsym",
    "proc-address",
    "runtime-entry-point",
    "--stream",
    "per-thread",
    "legacy",
    "--prefix",
    "cushim_",
    "a b",
    "--docs",
    "--out",
    "/tmp/x",
    "-o",
    "--",
    "-",
    "\u{e4}",
    "$(id)",
    "`id`",
    ";",
];

#[test]
fn random_command_lines_never_panic_and_round_trip_through_provenance() {
    let mut rng = Rng(0x5eed_0000_0000_0001);
    let mut accepted = 0;
    for i in 0..3000 {
        let mut words = vec!["cushim".to_string(), "generate".to_string()];
        for _ in 0..rng.below(7) {
            words.push(WORDS[rng.below(WORDS.len())].to_string());
        }
        let parsed = std::panic::catch_unwind(|| cushim::options::parse_generate(&words))
            .unwrap_or_else(|_| panic!("command line {i} panicked: {words:?}"));
        let Ok(args) = parsed else { continue };
        let Ok(options) = args.options() else {
            continue;
        };
        if options.check_recordable().is_err() {
            continue;
        }
        accepted += 1;
        let recorded = options.command(None);
        let again = shell_words::split(&recorded)
            .ok()
            .and_then(|w| cushim::options::parse_generate(&w).ok())
            .and_then(|a| a.options().ok())
            .unwrap_or_else(|| panic!("{words:?}: the recorded `{recorded}` does not read back"));
        assert_eq!(again.command(None), recorded, "{words:?}");
    }
    eprintln!("command lines: {accepted} of 3000 accepted");
    assert!(accepted >= 300, "only {accepted} accepted command lines");
}
