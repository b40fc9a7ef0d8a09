//! The C++ runtime's parts: joined, they are the files the generator writes.

use super::{header, header_parts, SOURCE, SOURCE_PARTS};

/// Every part of the header, then every part of the source: its name and
/// text.
fn parts() -> Vec<(&'static str, String)> {
    let header = header_parts().into_iter().map(|(n, t)| (n, t.into_owned()));
    let source = SOURCE_PARTS.iter().map(|(n, t)| (*n, (*t).to_string()));
    header.chain(source).collect()
}

#[test]
fn the_parts_joined_are_the_runtime() {
    let joined =
        |parts: &[(&str, String)]| parts.iter().map(|(_, t)| t.as_str()).collect::<String>();
    let parts = parts();
    let split = parts
        .iter()
        .position(|(n, _)| n.starts_with("source/"))
        .unwrap();
    assert_eq!(joined(&parts[..split]), header());
    assert_eq!(joined(&parts[split..]), SOURCE);
}

#[test]
fn every_part_is_whole_lines_and_short() {
    for (name, text) in parts() {
        assert!(text.ends_with('\n'), "{name} ends its last line");
        assert!(!text.starts_with('\n'), "{name} starts with its text");
        let lines = text.lines().count();
        assert!(lines <= 800, "{name} has {lines} lines, over 800");
    }
}

#[test]
fn an_arch_file_becomes_macros_of_c_strings_with_its_placeholders_as_arguments() {
    let arch = super::arch::Arch {
        name: "Test",
        file: "test.S",
        text: "# the file's comment\n#@ stub\n# One stub.\n.globl {EXPORT}\n{LANDING}\n\tjmp *{API}_slot_{SYMBOL}+{ANSWER}\n#@ binders\n{API}_bind:\n# not copied\n\tret\n#@ table\n.data\n{API}_slots:\n#@ table_end\n.text\n",
        condition: "defined(TEST)",
    };
    let section = super::arch::section(&arch);
    let macro_lines: Vec<&str> = section.lines().map(str::trim_end).collect();
    let expected = [
        "// Test (cushim's src/runtime/cpp/arch/test.S).",
        "#define CUSHIM_ASM_STUBS 1",
        "",
        "#define CUSHIM_ASM_LANDING \"\"",
        "",
        "// One stub.",
        "#define CUSHIM_FAST_STUB(ANSWER, RET, SYMBOL, EXPORT, INDEX, PARAMS, ARGS, ABSENT, CHECK)       \\",
        "    CUSHIM_SIGNATURE(RET, SYMBOL, PARAMS, CHECK)                                                \\",
        "    __asm__(\".globl \" CUSHIM_STR(EXPORT) \"\\n\"                                                   \\",
        "            CUSHIM_ASM_LANDING                                                                  \\",
        "            \"\\tjmp *\" CUSHIM_STR(CUSHIM_API) \"_slot_\" #SYMBOL \"+\" CUSHIM_STR(CUSHIM_ANSWER_##ANSWER) \"\\n\");",
        "",
        "#define CUSHIM_ASM_BINDERS                                                                      \\",
        "    __asm__(CUSHIM_STR(CUSHIM_API) \"_bind:\\n\"                                                   \\",
        "            \"\\tret\\n\");",
        "",
        "#define CUSHIM_ASM_TABLE                                                                        \\",
        "    \".data\\n\"                                                                                   \\",
        "    CUSHIM_STR(CUSHIM_API) \"_slots:\\n\"",
        "",
        "#define CUSHIM_ASM_TABLE_END                                                                    \\",
        "    \".text\\n\"",
    ];
    assert_eq!(macro_lines, expected);
}

#[test]
#[should_panic(expected = "`{EXPORT}` is not a placeholder of the binders block")]
fn a_placeholder_outside_its_block_is_refused() {
    let arch = super::arch::Arch {
        name: "Test",
        file: "test.S",
        text: "#@ stub\n\tret\n#@ binders\n\tjmp {EXPORT}\n#@ table\n#@ table_end\n",
        condition: "defined(TEST)",
    };
    super::arch::section(&arch);
}

#[test]
fn no_part_uses_what_a_later_part_introduces() {
    let parts = parts();
    let found = super::layers::forward_uses(&parts, |name| !name.starts_with("source/"));
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn every_part_defines_something_the_reader_finds() {
    // The reader of the layering test sees each part's definitions.
    for (name, text) in parts() {
        let facts = super::layers::facts(&text);
        assert!(
            !facts.defines.is_empty(),
            "{name} defines nothing that the layering test sees"
        );
    }
}

#[test]
fn the_layering_test_finds_a_use_of_a_later_part_and_a_forward_declaration() {
    let parts = |a: &str, b: &str| vec![("a", a.to_string()), ("b", b.to_string())];
    let layered = |p: &[(&str, String)]| super::layers::forward_uses(p, |_| false);
    assert!(layered(&parts(
        "int f() { return 1; }\n",
        "int g() { return f(); }\n"
    ))
    .is_empty());
    assert_eq!(
        layered(&parts(
            "int f() { return g(); }\n",
            "int g() { return 1; }\n"
        )),
        ["a uses `g`, which the later b introduces"]
    );
    assert_eq!(
        layered(&parts(
            "int g();\nint f() { return g(); }\n",
            "int g() { return 1; }\n"
        )),
        ["a uses `g`, which the later b introduces"]
    );
    // A type, an enumerator, a variable, a macro's condition; not a member.
    for later in [
        "struct T { int x; };\n",
        "enum E : int { x_one, T };\n",
        "constexpr int T = 1;\n",
        "#define T 1\n",
    ] {
        let uses = "#if T\n#endif\nint f(S s) { return T + s.T; }\n";
        assert_eq!(layered(&parts(uses, later)).len(), 1, "{later}");
        assert!(
            layered(&parts("int f(S s) { return s.T; }\n", later)).is_empty(),
            "{later}"
        );
    }
}

/// The ABI number and the shape it names: the declarations of the header's
/// `info.h` and `api.h`, comments and spacing aside, as an FNV-1a hash. A
/// change of shape must come with a new number (`CUSHIM_RUNTIME_ABI` in
/// `header/api.h` and `source/error.cpp`), so that a pair and a runtime of
/// other shapes never link; then this pair is written again.
const ABI_SHAPE: (u32, u64) = (10, 0x621b_5d32_2e07_ba4c);

/// A part's declarations: no comments, no blank lines, spacing folded, and
/// not the line that defines the ABI's number.
fn shape_text(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let code: Vec<&str> = code.split_whitespace().collect();
        if code.is_empty() || code.starts_with(&["#define", "CUSHIM_RUNTIME_ABI"]) {
            continue;
        }
        out.push_str(&code.join(" "));
        out.push('\n');
    }
    out
}

fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[test]
fn a_new_shape_has_a_new_abi_number() {
    let parts = header_parts();
    let text: String = ["header/info.h", "header/api.h"]
        .iter()
        .map(|name| {
            let (_, text) = parts.iter().find(|(n, _)| n == name).unwrap();
            shape_text(text)
        })
        .collect();
    let number = |text: &str, before: &str| -> u32 {
        let at = text.find(before).unwrap() + before.len();
        let digits: String = text[at..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().unwrap()
    };
    let (_, api) = parts.iter().find(|(n, _)| *n == "header/api.h").unwrap();
    let abi = number(api, "#define CUSHIM_RUNTIME_ABI cushim_runtime_abi_");
    assert_eq!(
        abi,
        number(SOURCE, "const int CUSHIM_RUNTIME_ABI = "),
        "the header and the source name one ABI"
    );
    let shape = fnv1a(&text);
    let (recorded, recorded_shape) = ABI_SHAPE;
    assert!(
        shape != recorded_shape || abi == recorded,
        "the ABI number changed to {abi} with the shape as it was: set ABI_SHAPE to ({abi}, {shape:#x})"
    );
    assert!(
        shape == recorded_shape || abi != recorded,
        "the runtime's shape changed (header/info.h or header/api.h) but CUSHIM_RUNTIME_ABI is still {abi}: raise it in header/api.h and source/error.cpp, then set ABI_SHAPE to ({}, {shape:#x})",
        abi + 1
    );
    assert_eq!(
        (abi, shape),
        ABI_SHAPE,
        "set ABI_SHAPE to ({abi}, {shape:#x})"
    );
}

#[test]
fn comments_and_spacing_are_no_change_of_shape() {
    let a =
        "struct A {\n    int x;  // the x\n};\n#define CUSHIM_RUNTIME_ABI cushim_runtime_abi_3\n";
    let b = "// A\nstruct A {\n  int   x;\n\n};\n#define CUSHIM_RUNTIME_ABI cushim_runtime_abi_4\n";
    assert_eq!(fnv1a(&shape_text(a)), fnv1a(&shape_text(b)));
    let c = "struct A {\n    long x;\n};\n";
    assert_ne!(fnv1a(&shape_text(a)), fnv1a(&shape_text(c)));
}
