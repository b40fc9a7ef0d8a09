//! The fields of a library's description in both runtimes: one table, in the
//! order of both structs (`cushim_runtime::LibraryInfo` in
//! `cushim-runtime/src/info.rs`, `cushim::LibraryInfo` in
//! `cpp/header/info.h`), and the one writer of each language's literal.
//!
//! Each emitter says what it prints for a field by matching on [`Field`]
//! with an arm for every variant (`clippy::wildcard_enum_match_arm` is denied
//! there), so a new field does not compile until each emitter prints it or
//! says that its language's struct lacks it; the writers lay the values out
//! in the table's order and check the second against the table. A unit test
//! below checks that both structs have the table's fields, in its order.
//!
//! Where the two runtimes hold one fact differently, one row carries both
//! spellings (`stub_code`, the Rust status, is C++'s `has_stub` flag) or a
//! row is of one language only (C++'s `built_for_major` and
//! `toolkit_search`, which Rust's `built_for` and `wheel_dirs` hold as
//! options; Rust's `resolve`, `default_stream` and `proc_address`, which
//! C++ keeps in `cushim::Driver`; C++'s plumbing to the pair's tables).

/// The table: each field's name in Rust, its name in C++ (`-` where the
/// language's struct lacks it) and what the C++ literal says of it, which
/// also documents the variant.
macro_rules! fields {
    ($($field:ident: $rust:tt, $cpp:tt, $comment:literal;)*) => {
        /// One field of a library's description, in either runtime or both.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) enum Field {
            $(#[doc = $comment] $field,)*
        }

        /// Every field, in the order of both structs.
        pub(crate) const LIBRARY_INFO: &[Row] = &[
            $(Row {
                field: Field::$field,
                rust: fields!(@name $rust),
                cpp: fields!(@name $cpp),
                comment: $comment,
            },)*
        ];
    };
    (@name -) => { None };
    (@name $name:ident) => { Some(stringify!($name)) };
}

fields! {
    Abi: -, abi, "the runtime's shape: a pair and a runtime of other shapes do not link";
    Label: label, label, "\"... library not found\"";
    ShortName: short_name, short_name, "\"... too old\"";
    Product: product, product, "what its versions are versions of: \"needs ... 12.5\"";
    Install: install, install, "how to get it";
    OverrideVar: override_var, override_var, "the variable that names it by absolute path";
    Names: names, names, "its file names, in order";
    VersionFunction: version_function, version_function, "the function that reports its version";
    VersionQuery: version_query, version_query, "how that function answers";
    Stub: stub_code, has_stub, "a link-time stub answers the version function with codes.stub_library";
    ProcAddress: proc_address, -, "its lookup by name and ABI version, v2 then v1";
    Major: major, major, "the header's major, which the library must report (0: any)";
    ToolkitSearch: -, toolkit_search, "searched in pip wheels, conda and toolkits";
    WheelDirs: wheel_dirs, wheel_dirs, "below site-packages";
    ToolkitSubdirs: toolkit_subdirs, toolkit_subdirs, "below a toolkit's root, after lib64 and lib";
    Preload: preload, preload, "loaded first from its directory";
    Required: required, required, "must be in its directory: loaded after it, before any call";
    BuiltFor: built_for, built_for, "the function that reports the CUDA release it was built for";
    BuiltForMajor: -, built_for_major, "the header's CUDA major, which built_for must report";
    Siblings: siblings, siblings, "opened by name later: loaded after it from its directory";
    Family: family, family, "the libraries installed beside it (same CUDA major)";
    Codes: codes, codes, "what a call that never reached it returns";
    Resolve: resolve, -, "how its functions are found (--resolve)";
    DefaultStream: default_stream, -, "the default-stream mode (--stream)";
    Driver: -, abi_lookup, "its lookup by ABI version and its default-stream modes, where it has them, else null";
    Functions: -, functions, "the function table";
    Count: -, count, "its rows";
    Aliases: -, aliases, "the other C names of its functions";
    Statuses: -, statuses, "its status constants' C names, for the functions that answer without it";
    StatusCount: -, status_count, "how many";
    State: -, state, "what the library became";
    States: -, states, "what each function became";
    Slots: -, slots, "the stubs' slots, or null";
    Thread: -, thread, "this thread's latest failure";
    Variables: -, variables, "the objects it exports, or null";
    VariableCount: -, variable_count, "how many";
}

/// One row of [`LIBRARY_INFO`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Row {
    pub field: Field,
    /// Its name in `cushim_runtime::LibraryInfo`, if that has it.
    pub rust: Option<&'static str>,
    /// Its name in `cushim::LibraryInfo`, if that has it.
    pub cpp: Option<&'static str>,
    /// What the C++ literal's comment says of it, after its name.
    pub comment: &'static str,
}

impl Field {
    /// Its row of [`LIBRARY_INFO`].
    pub(crate) fn row(self) -> &'static Row {
        LIBRARY_INFO
            .iter()
            .find(|r| r.field == self)
            .expect("the table has a row for every field")
    }
}

/// What an emitter prints for each field of one literal.
pub(crate) trait Values {
    /// The value of `field` as an expression of the emitter's language,
    /// `None` where that language's struct lacks the field.
    fn value(&self, field: Field) -> Option<String>;

    /// A comment of its own above the field, if any.
    fn note(&self, _field: Field) -> Option<String> {
        None
    }
}

/// The value of every field of `language` (`rust` or `cpp` of each row),
/// with its row, in the table's order.
///
/// # Panics
/// `values` prints a field that the language's struct lacks, or none for a
/// field it has: the emitter disagrees with the table.
fn walk<'v>(
    values: &'v impl Values,
    language: &'static str,
    name: fn(&Row) -> Option<&'static str>,
) -> impl Iterator<Item = (&'static str, &'static Row, String)> + 'v {
    LIBRARY_INFO
        .iter()
        .filter_map(move |row| match (name(row), values.value(row.field)) {
            (Some(name), Some(value)) => Some((name, row, value)),
            (None, None) => None,
            (Some(name), None) => panic!("no {language} value for `{name}` ({:?})", row.field),
            (None, Some(_)) => panic!(
                "a {language} value for {:?}, which its struct lacks",
                row.field
            ),
        })
}

/// `note`'s lines as comments indented as a field is.
fn note_lines(note: Option<String>, out: &mut String) {
    for line in note.iter().flat_map(|n| n.lines()) {
        out.push_str(&format!("    // {line}\n"));
    }
}

/// The fields of a `cushim_runtime::LibraryInfo` literal, one `name: value,`
/// a line, without the braces.
pub(crate) fn rust_fields(values: &impl Values) -> String {
    let mut out = String::new();
    for (name, row, value) in walk(values, "Rust", |r| r.rust) {
        note_lines(values.note(row.field), &mut out);
        out.push_str(&format!("    {name}: {value},\n"));
    }
    out.pop();
    out
}

/// The `cushim::LibraryInfo` literal `name`: one `value,  // field: comment`
/// a line.
pub(crate) fn cpp_literal(name: &str, values: &impl Values) -> String {
    let mut out = format!("const cushim::LibraryInfo {name} = {{\n");
    for (field, row, value) in walk(values, "C++", |r| r.cpp) {
        note_lines(values.note(row.field), &mut out);
        out.push_str(&format!("    {value},  // {field}: {}\n", row.comment));
    }
    out.push_str("};");
    out
}

#[cfg(test)]
mod tests {
    use super::{Field, Values, LIBRARY_INFO};

    /// The text of `file` from `start` (a line of its own) to the next
    /// line that starts with `}`.
    fn body<'a>(file: &'a str, start: &str) -> &'a str {
        let from = file
            .find(&format!("\n{start}\n"))
            .unwrap_or_else(|| panic!("no `{start}`"))
            + start.len()
            + 2;
        let len = file[from..].find("\n}").expect("the struct's end");
        &file[from..from + len]
    }

    /// The field names of a Rust struct's body, in order: `pub name:`.
    fn rust_names(body: &str) -> Vec<String> {
        body.lines()
            .filter_map(|l| l.trim().strip_prefix("pub ")?.split_once(':'))
            .map(|(name, _)| name.to_string())
            .collect()
    }

    /// The member names of a C++ struct's body, in order: each declaration
    /// up to `;`, comments removed; a function pointer's name is in `(*...)`.
    fn cpp_names(body: &str) -> Vec<String> {
        let code: String = body
            .lines()
            .map(|l| l.split("//").next().unwrap_or_default())
            .collect::<Vec<_>>()
            .join(" ");
        code.split(';')
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .map(|decl| {
                let decl = decl.split('=').next().unwrap_or_default();
                let decl = match decl.split_once("(*") {
                    Some((_, rest)) => rest.split(')').next().unwrap_or_default(),
                    None => decl.split('[').next().unwrap_or_default(),
                };
                decl.trim_end()
                    .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or_default()
                    .to_string()
            })
            .collect()
    }

    fn table(name: fn(&super::Row) -> Option<&'static str>) -> Vec<String> {
        LIBRARY_INFO
            .iter()
            .filter_map(name)
            .map(str::to_string)
            .collect()
    }

    fn rust_struct() -> String {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/cushim-runtime/src/info.rs");
        std::fs::read_to_string(path).unwrap()
    }

    fn cpp_struct() -> String {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/runtime/cpp/header/info.h");
        std::fs::read_to_string(path).unwrap()
    }

    #[test]
    fn the_rust_struct_has_the_tables_fields_in_its_order() {
        let names = rust_names(body(&rust_struct(), "pub struct LibraryInfo {"));
        assert_eq!(names, table(|r| r.rust));
    }

    #[test]
    fn the_cpp_struct_has_the_tables_fields_in_its_order() {
        let names = cpp_names(body(&cpp_struct(), "struct LibraryInfo {"));
        assert_eq!(names, table(|r| r.cpp));
    }

    /// `Codes`, which each emitter writes by position (the C++ aggregate)
    /// or by name (Rust) in one order: the two structs agree on it.
    #[test]
    fn both_codes_structs_have_one_field_order() {
        let rust = rust_names(body(&rust_struct(), "pub struct Codes {"));
        let cpp = cpp_names(body(&cpp_struct(), "struct Codes {"));
        assert_eq!(rust, cpp);
        assert_eq!(
            rust,
            [
                "library_not_found",
                "symbol_not_found",
                "stub_library",
                "too_old",
                "not_initialized",
                "success",
                "invalid_value"
            ],
            "the emitters' code lists (`emit::rust`, `emit::cpp::code_list`) follow this order"
        );
    }

    #[test]
    fn a_field_added_to_one_struct_only_is_seen() {
        let rust = rust_struct().replacen(
            "    pub label: &'static str,\n",
            "    pub label: &'static str,\n    pub extra: u32,\n",
            1,
        );
        let names = rust_names(body(&rust, "pub struct LibraryInfo {"));
        assert_ne!(names, table(|r| r.rust));
        assert!(names.contains(&"extra".to_string()));
        let cpp = cpp_struct().replacen(
            "    const char *label;",
            "    void (*extra)(int);\n    const char *label;",
            1,
        );
        let names = cpp_names(body(&cpp, "struct LibraryInfo {"));
        assert_ne!(names, table(|r| r.cpp));
        assert!(names.contains(&"extra".to_string()));
    }

    #[test]
    fn the_declarations_are_read_by_their_names() {
        let names = cpp_names(
            "    const int *abi;  // a; b\n    char sites[8][4096];\n    Thread *(*thread)();\n    const LibraryInfo *runtime = nullptr;",
        );
        assert_eq!(names, ["abi", "sites", "thread", "runtime"]);
    }

    #[test]
    fn each_field_is_in_the_table_once_and_in_a_language() {
        for (at, row) in LIBRARY_INFO.iter().enumerate() {
            assert!(row.rust.is_some() || row.cpp.is_some(), "{:?}", row.field);
            assert!(
                LIBRARY_INFO[..at].iter().all(|r| r.field != row.field),
                "{:?} twice",
                row.field
            );
        }
    }

    /// Every field named after itself, in either language.
    struct Echo(fn(&super::Row) -> Option<&'static str>);

    impl Values for Echo {
        fn value(&self, field: Field) -> Option<String> {
            let row = LIBRARY_INFO.iter().find(|r| r.field == field).unwrap();
            (self.0)(row).map(|n| format!("<{n}>"))
        }
        fn note(&self, field: Field) -> Option<String> {
            (field == Field::Codes).then(|| "one\ntwo".to_string())
        }
    }

    #[test]
    fn the_writers_lay_the_values_out_in_the_tables_order() {
        let rust = super::rust_fields(&Echo(|r| r.rust));
        let lines: Vec<&str> = rust.lines().collect();
        assert_eq!(lines[0], "    label: <label>,");
        assert_eq!(lines[1], "    short_name: <short_name>,");
        let codes = lines
            .iter()
            .position(|l| l.starts_with("    codes:"))
            .unwrap();
        assert_eq!(lines[codes - 2..codes], ["    // one", "    // two"]);
        assert_eq!(
            *lines.last().unwrap(),
            "    default_stream: <default_stream>,"
        );
        let cpp = super::cpp_literal("x", &Echo(|r| r.cpp));
        let lines: Vec<&str> = cpp.lines().collect();
        assert_eq!(lines[0], "const cushim::LibraryInfo x = {");
        assert_eq!(
            lines[1],
            "    <abi>,  // abi: the runtime's shape: a pair and a runtime of other shapes do not link"
        );
        assert_eq!(*lines.last().unwrap(), "};");
    }

    #[test]
    #[should_panic(expected = "no C++ value for `abi`")]
    fn a_field_an_emitter_does_not_print_is_refused() {
        super::cpp_literal("x", &Echo(|r| r.rust));
    }
}
