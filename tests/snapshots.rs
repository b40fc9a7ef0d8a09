//! insta snapshots under `snapshots/`: the IR of every fixture header, and what
//! the emitters make of it, per fixture and per flag that changes the output.
//!
//! The runtimes are a crate (`cushim-runtime`) that Rust modules call into and
//! a C++ pair written beside the stubs, the same bytes in every output (the
//! unit tests of `runtime::cpp` check them against its source); the shim macro, which every Rust module copies, shows as
//! one marker line, so a runtime edit changes no snapshot, and a snapshot diff
//! is a change in per-header output.

use crate::common;

use common::{fixture, insta_settings, root, FIXTURES};

const RUST_SHIM_MACRO: &str = include_str!("../src/runtime/shim_macro.rs");

/// The C++ runtime's files as the generator writes them beside any pair:
/// the same bytes whatever the library and the flags (the unit tests of
/// `runtime::cpp` check that they are its parts, joined).
fn cpp_runtime() -> &'static [cushim::File] {
    static FILES: std::sync::OnceLock<Vec<cushim::File>> = std::sync::OnceLock::new();
    FILES.get_or_init(|| {
        let builder = cushim::Builder::new()
            .header(fixture(FIXTURES[0]), None)
            .languages(&[cushim::Language::Cpp]);
        let generated = cushim::generate(builder.options()).expect("a C++ pair");
        let files: Vec<cushim::File> = generated
            .files
            .into_iter()
            .filter(|f| f.name.starts_with("cushim_runtime."))
            .collect();
        assert_eq!(files.len(), 2, "the runtime's header and source");
        files
    })
}

/// Absolute paths differ per checkout; snapshots show them relative to the repo.
fn relative(text: &str) -> String {
    text.replace(&format!("{}/", root().display()), "")
}

/// `output` with the shim macro, which every Rust module copies verbatim,
/// replaced by a marker; it must be there exactly once in a Rust module, and
/// nowhere else.
fn elide_runtimes(name: &str, output: &str) -> String {
    let copy = RUST_SHIM_MACRO.trim_end();
    let found = output.matches(copy).count();
    let expected = usize::from(name.ends_with(".rs"));
    assert_eq!(found, expected, "{name}: the shim macro is copied verbatim");
    output.replace(copy, "// [src/runtime/shim_macro.rs, verbatim]")
}

#[test]
fn ir_of_every_fixture() {
    for name in FIXTURES {
        let options = cushim::Builder::new().header(fixture(name), None);
        let (api, _) = cushim::load(options.options()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut text = cushim::ir::table(&api);
        text.push_str("\ndiagnostics:\n");
        for d in &api.diagnostics {
            text.push_str(&format!("{d}\n"));
        }
        text.push_str("\nfunctions:\n");
        text.push_str(&format!("{:#?}\n", api.functions));
        insta_settings().bind(|| insta::assert_snapshot!(format!("ir-{name}"), relative(&text)));
    }
}

/// Snapshots every file `builder` generates as `<prefix>-<file name>`.
fn snapshot_outputs(prefix: &str, builder: cushim::Builder) {
    let generated = cushim::generate(builder.options()).unwrap_or_else(|e| panic!("{prefix}: {e}"));
    for file in &generated.files {
        // The C++ runtime is the same bytes whatever the library.
        if let Some(runtime) = cpp_runtime().iter().find(|f| f.name == file.name) {
            assert_eq!(file.contents, runtime.contents, "{prefix}: {}", file.name);
            continue;
        }
        let text = elide_runtimes(&file.name, &file.contents);
        let stem = file.name.split('.').next().unwrap_or_default();
        let kind = if file.name.ends_with(".rs") {
            "rust"
        } else {
            "cpp"
        };
        let ext = file.name.rsplit('.').next().unwrap_or_default();
        let snapshot = match prefix {
            "" => format!("{kind}-{stem}.{ext}"),
            p => format!("{kind}-{stem}-{p}.{ext}"),
        };
        insta_settings().bind(|| insta::assert_snapshot!(snapshot, text));
    }
}

#[test]
fn outputs_of_every_fixture() {
    for name in FIXTURES {
        snapshot_outputs("", cushim::Builder::new().header(fixture(name), None));
    }
}

/// One fixture per flag that changes the output, against the plain snapshot of that fixture.
#[test]
fn outputs_of_every_flag_that_changes_them() {
    let with = |name: &str| cushim::Builder::new().header(fixture(name), None);
    snapshot_outputs(
        "stream-per-thread",
        with("per_thread").stream(cushim::StreamMode::PerThread),
    );
    snapshot_outputs(
        "resolve-dlsym",
        with("per_thread").resolve(cushim::Resolve::Dlsym),
    );
    snapshot_outputs(
        "prefix",
        with("aliases")
            .cpp_prefix("cushim_")
            .languages(&[cushim::Language::Cpp]),
    );
    snapshot_outputs("docs", with("deprecated").docs(true));
    snapshot_outputs("link-linked", with("per_thread").link(cushim::Link::Linked));
    snapshot_outputs(
        "link-feature",
        with("per_thread")
            .link(cushim::Link::Feature("linked".into()))
            .languages(&[cushim::Language::Rust]),
    );
    let rust = |name: &str| with(name).languages(&[cushim::Language::Rust]);
    snapshot_outputs(
        "no-deprecated-attributes",
        rust("deprecated").deprecated_attributes(false),
    );
    snapshot_outputs("no-shared-types", rust("types").shared_types(false));
    for style in cushim::EnumStyle::PRECEDENCE {
        snapshot_outputs(
            &format!("enum-{}", style.name().replace('_', "-")),
            rust("enums").default_enum_style(style),
        );
    }
    snapshot_outputs(
        "enum-rules",
        rust("enums")
            .default_enum_style(cushim::EnumStyle::Consts)
            .prepend_enum_name(false)
            .rustified_enum("cudaError_enum")
            .bitfield_enum("CUcarveout_enum|CUmode")
            .newtype_global_enum("CUfixture.*"),
    );
}

/// Every library of the registry, from its newest pinned release's shipped
/// data, narrowed to its version function: its IR row and its C++ pair (the
/// Rust module's types are the whole library's, which `tests/pinned.rs`
/// checks). A new library gets its snapshots by being in the registry.
#[test]
fn every_library_s_own_output() {
    for library in cushim::library::LIBRARIES {
        let version = library.version.name.to_string_lossy();
        let builder = || {
            cushim::Builder::new()
                .library(library.name)
                .cuda_version("13.5")
                .allowlist(format!("^{version}$"))
        };
        let (api, _) = cushim::load(builder().options()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(api.functions.len(), 1, "{}", library.name);
        let table = cushim::ir::table(&api);
        insta_settings().bind(|| {
            insta::assert_snapshot!(format!("ir-library-{}", library.name), table);
        });
        snapshot_outputs(
            &format!("library-{}", library.name),
            builder().languages(&[cushim::Language::Cpp]),
        );
    }
}

/// `--resolve runtime-entry-point`, which needs a release (the CUDA runtime's
/// file names carry its major), on the 13.0 driver narrowed to its version
/// function: the C++ pair, and the Rust module's two descriptions (its types
/// are the whole header's, which `tests/pinned.rs` checks).
#[test]
fn outputs_of_the_runtime_entry_point_mode() {
    let builder = || {
        cushim::Builder::new()
            .cuda_version("13.0")
            .allowlist("^cuDriverGetVersion$")
            .resolve(cushim::Resolve::RuntimeEntryPoint)
    };
    snapshot_outputs(
        "resolve-runtime-entry-point",
        builder().languages(&[cushim::Language::Cpp]),
    );
    let generated = cushim::generate(builder().languages(&[cushim::Language::Rust]).options())
        .unwrap_or_else(|e| panic!("{e}"));
    let module = &generated.files[0].contents;
    let start = module.find("/// How the loader finds the library").unwrap();
    let end = module
        .find("#[rustfmt::skip]\nimpl cushim_runtime::Module")
        .unwrap();
    insta_settings().bind(|| {
        insta::assert_snapshot!(
            "rust-cuda-resolve-runtime-entry-point-descriptions.rs",
            &module[start..end]
        );
    });
}

/// Every library of the registry has a fixture header of its own shape
/// (`headers/fixtures/library/<name>.h`, written for cushim), parsed with its
/// settings: the IR shows its C names, exports, ABI versions and per-thread
/// twins, with no fetched header. A new library without a fixture fails here.
#[test]
fn every_library_s_fixture_parses_with_its_settings() {
    for library in cushim::library::LIBRARIES {
        let header = root().join(format!("headers/fixtures/library/{}.h", library.name));
        assert!(
            header.is_file(),
            "{} has no fixture: {}",
            library.name,
            header.display()
        );
        let options = cushim::Builder::new()
            .library(library.name)
            .header(&header, None);
        let (api, _) =
            cushim::load(options.options()).unwrap_or_else(|e| panic!("{}: {e}", library.name));
        let mut text = cushim::ir::table(&api);
        text.push_str("\ndiagnostics:\n");
        for d in &api.diagnostics {
            text.push_str(&format!("{d}\n"));
        }
        text.push_str("\nfunctions:\n");
        for f in &api.functions {
            text.push_str(&format!(
                "{} -> {} (aliases {:?}, ABI {:?}, per-thread {:?})\n",
                f.name,
                f.symbol,
                f.aliases,
                f.version.map(|v| v.number()),
                f.per_thread.as_ref().map(|p| p.symbol.as_str()),
            ));
        }
        if !api.variables.is_empty() {
            text.push_str("\nobjects:\n");
            for v in &api.variables {
                text.push_str(&format!("{}: {}\n", v.name, v.ty));
            }
        }
        insta_settings().bind(|| {
            insta::assert_snapshot!(
                format!("ir-fixture-library-{}", library.name),
                relative(&text)
            );
        });
    }
}
