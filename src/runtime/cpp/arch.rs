//! The assembly stubs of the C++ runtime, one file per architecture and
//! object format under `arch/`, plain assembly with placeholders, and their
//! translation into the macros of `cushim_runtime.h`. Adding a platform is
//! adding its file and its row of [`ARCHES`].
//!
//! A file is a list of blocks, each from its `#@ <name>` line to the next,
//! each one macro of the header ([`BLOCKS`]): its lines become C string
//! literals, its placeholders the macro's arguments, the `#` lines right
//! after its `#@` line the macro's comment; other `#` lines, and blank ones,
//! are not copied.

/// One platform's assembly stubs.
pub(super) struct Arch {
    /// What the header calls it. Example: `x86-64 ELF`.
    pub name: &'static str,
    /// Its file under `arch/`. Example: `x86_64-elf.S`.
    pub file: &'static str,
    /// The file's text.
    pub text: &'static str,
    /// The C preprocessor's condition of a build for it (GCC or Clang).
    pub condition: &'static str,
}

/// One row of [`ARCHES`]: the name, the file, the condition.
macro_rules! arch {
    ($name:literal, $file:literal, $condition:literal) => {
        Arch {
            name: $name,
            file: $file,
            text: include_str!(concat!("arch/", $file)),
            condition: $condition,
        }
    };
}

/// Every platform with assembly stubs, in the order the header tests them.
const ARCHES: &[Arch] = &[
    arch!(
        "x86-64 ELF",
        "x86_64-elf.S",
        "defined(__x86_64__) && !defined(__ILP32__) && defined(__ELF__)"
    ),
    arch!(
        "aarch64 ELF",
        "aarch64-elf.S",
        "defined(__aarch64__) && !defined(__ILP32__) && defined(__ELF__)"
    ),
    arch!(
        "x86-64 COFF",
        "x86_64-coff.S",
        "defined(__x86_64__) && defined(_WIN32)"
    ),
];

/// What every platform's section needs of the build: GCC or Clang (their
/// `__asm__` at file scope), and stubs in assembly not turned off.
const GATE: &str = "(defined(__GNUC__) || defined(__clang__)) && !defined(CUSHIM_NO_ASM_STUBS)";

/// A placeholder of a file, and what it becomes in a string literal's place.
const PLACEHOLDERS: &[(&str, &str)] = &[
    ("{API}", "CUSHIM_STR(CUSHIM_API)"),
    ("{EXPORT}", "CUSHIM_STR(EXPORT)"),
    ("{SYMBOL}", "#SYMBOL"),
    ("{ANSWER}", "CUSHIM_STR(CUSHIM_ANSWER_##ANSWER)"),
];

/// The landing instruction's line, which becomes CUSHIM_ASM_LANDING.
const LANDING: &str = "{LANDING}";

/// A block of a file: its name, the lines of its macro that precede the
/// assembly, what the macro is, and the placeholders it may use.
pub(super) struct Block {
    /// Its name after `#@`.
    pub name: &'static str,
    /// The macro's first lines; empty for the landing, which is text.
    head: &'static [&'static str],
    /// Whether the macro is an `__asm__` statement; else it is the text (C
    /// string literals), for a pair's own `__asm__` to include.
    statement: bool,
    /// The placeholders it may use.
    placeholders: &'static [&'static str],
}

/// Every block a file has, in the header's order. The landing is optional
/// (none: CUSHIM_ASM_LANDING is empty) and its `#@` line carries the C
/// condition under which it is needed.
const BLOCKS: &[Block] = &[
    Block {
        name: "landing",
        head: &[],
        statement: false,
        placeholders: &[],
    },
    Block {
        name: "stub",
        head: &[
            "#define CUSHIM_FAST_STUB(ANSWER, RET, SYMBOL, EXPORT, INDEX, PARAMS, ARGS, ABSENT, CHECK)",
            "    CUSHIM_SIGNATURE(RET, SYMBOL, PARAMS, CHECK)",
        ],
        statement: true,
        placeholders: &["{API}", "{EXPORT}", "{SYMBOL}", "{ANSWER}", LANDING],
    },
    Block {
        name: "binders",
        head: &["#define CUSHIM_ASM_BINDERS"],
        statement: true,
        placeholders: &["{API}", LANDING],
    },
    // The slot table's start, up to its first row, and its end: the text
    // around the rows (CUSHIM_ASM_ROW) in the pair's `__asm__`.
    Block {
        name: "table",
        head: &["#define CUSHIM_ASM_TABLE"],
        statement: false,
        placeholders: &["{API}"],
    },
    Block {
        name: "table_end",
        head: &["#define CUSHIM_ASM_TABLE_END"],
        statement: false,
        placeholders: &[],
    },
];

/// The column of a macro's line-continuation backslashes, where its line is
/// shorter.
const BACKSLASH_COLUMN: usize = 97;

/// One block of a file, as read.
struct Read<'a> {
    name: &'a str,
    /// What follows the name on its `#@` line.
    argument: &'a str,
    comment: Vec<&'a str>,
    lines: Vec<&'a str>,
}

/// The blocks of `arch`'s file, in its order.
fn blocks(arch: &Arch) -> Vec<Read<'_>> {
    let mut blocks: Vec<Read> = Vec::new();
    for line in arch.text.lines() {
        if let Some(head) = line.strip_prefix("#@") {
            let head = head.trim();
            let (name, argument) = head.split_once(' ').unwrap_or((head, ""));
            blocks.push(Read {
                name,
                argument: argument.trim(),
                comment: Vec::new(),
                lines: Vec::new(),
            });
            continue;
        }
        let Some(block) = blocks.last_mut() else {
            continue; // the file's own comment
        };
        if let Some(comment) = line.strip_prefix('#') {
            if block.lines.is_empty() {
                block
                    .comment
                    .push(comment.strip_prefix(' ').unwrap_or(comment));
            }
        } else if !line.trim().is_empty() {
            block.lines.push(line.trim_end());
        }
    }
    blocks
}

/// `text` as the inside of a C string literal.
fn escape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

/// One line of assembly as C: string literals, and in the placeholders'
/// places what they become. An indented line (an instruction) starts with
/// a tab, an unindented one (a directive, a label) as it is.
fn literal(arch: &Arch, block: &Block, line: &str) -> String {
    if line.trim() == LANDING && block.placeholders.contains(&LANDING) {
        return "CUSHIM_ASM_LANDING".to_string();
    }
    let trimmed = line.trim_start();
    let mut rest = if trimmed.len() == line.len() {
        format!("{trimmed}\n")
    } else {
        format!("\t{trimmed}\n")
    };
    let mut pieces: Vec<String> = Vec::new();
    while let Some(at) = rest.find('{') {
        let end = rest[at..].find('}').map_or(rest.len(), |e| at + e + 1);
        let placeholder = &rest[at..end];
        let Some((_, macro_text)) = PLACEHOLDERS
            .iter()
            .find(|(p, _)| *p == placeholder && block.placeholders.contains(p))
        else {
            panic!(
                "arch/{}: `{placeholder}` is not a placeholder of the {} block",
                arch.file, block.name
            );
        };
        if at > 0 {
            pieces.push(format!("\"{}\"", escape(&rest[..at])));
        }
        pieces.push((*macro_text).to_string());
        rest = rest[end..].to_string();
    }
    if !rest.is_empty() {
        pieces.push(format!("\"{}\"", escape(&rest)));
    }
    pieces.join(" ")
}

/// `lines` as one macro's lines, each but the last ended by a backslash.
fn continued(lines: &[String]) -> String {
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        if i + 1 == lines.len() {
            out.push_str(line);
        } else {
            let width = BACKSLASH_COLUMN - 2;
            out.push_str(&format!("{line:<width$} \\"));
        }
        out.push('\n');
    }
    out
}

/// `comment` as C++ comment lines.
fn commented(comment: &[&str]) -> String {
    comment
        .iter()
        .map(|c| format!("//{}{c}\n", if c.is_empty() { "" } else { " " }))
        .collect()
}

/// `arch`'s section of the header: its macros, under CUSHIM_ASM_STUBS.
pub(super) fn section(arch: &Arch) -> String {
    let read = blocks(arch);
    for block in &read {
        assert!(
            BLOCKS.iter().any(|b| b.name == block.name),
            "arch/{}: no block is named `{}`",
            arch.file,
            block.name
        );
    }
    let mut out = format!(
        "// {} (cushim's src/runtime/cpp/arch/{}).\n#define CUSHIM_ASM_STUBS 1\n\n",
        arch.name, arch.file
    );
    for block in BLOCKS {
        let mut found = read.iter().filter(|r| r.name == block.name);
        let (Some(read), None) = (found.next(), found.next()) else {
            if block.head.is_empty() {
                out.push_str("#define CUSHIM_ASM_LANDING \"\"\n\n");
                continue;
            }
            panic!("arch/{}: one `#@ {}` block", arch.file, block.name);
        };
        out.push_str(&commented(&read.comment));
        if block.head.is_empty() {
            // The landing: the instruction, where its condition holds.
            let text: String = read.lines.iter().map(|l| literal(arch, block, l)).collect();
            out.push_str(&format!(
                "#if {}\n#define CUSHIM_ASM_LANDING {text}\n#else\n#define CUSHIM_ASM_LANDING \"\"\n#endif\n\n",
                read.argument
            ));
            continue;
        }
        let mut lines: Vec<String> = block.head.iter().map(|h| (*h).to_string()).collect();
        let last = read.lines.len().saturating_sub(1);
        for (i, line) in read.lines.iter().enumerate() {
            let text = literal(arch, block, line);
            if !block.statement {
                lines.push(format!("    {text}"));
                continue;
            }
            lines.push(match (i == 0, i == last) {
                (true, true) => format!("    __asm__({text});"),
                (true, false) => format!("    __asm__({text}"),
                (false, false) => format!("            {text}"),
                (false, true) => format!("            {text});"),
            });
        }
        out.push_str(&continued(&lines));
        out.push('\n');
    }
    // The blank line after the last macro ends the section.
    out.pop();
    out
}

/// Every platform's section, each under its condition, all under [`GATE`].
pub(super) fn sections() -> String {
    let mut out = format!("#if {GATE}\n");
    for (i, arch) in ARCHES.iter().enumerate() {
        let directive = if i == 0 { "#if" } else { "#elif" };
        out.push_str(&format!("{directive} {}\n", arch.condition));
        out.push_str(&section(arch));
    }
    out.push_str("#endif\n#endif\n\n");
    out
}
