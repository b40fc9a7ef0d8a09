//! insta snapshots of the IR and of the Rust output, one pair per fixture
//! header, stored under `snapshots/`.

mod common;

use common::{fixture, insta_settings, root, FIXTURES};

/// Absolute paths differ per checkout; snapshots show them relative to the repo.
fn relative(text: &str) -> String {
    text.replace(&format!("{}/", root().display()), "")
}

fn options(name: &str) -> cushim::Options {
    cushim::Builder::new()
        .header(fixture(name), None)
        .options()
        .clone()
}

#[test]
fn ir_of_every_fixture() {
    for name in FIXTURES {
        let (api, _) = cushim::load(&options(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
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

#[test]
fn rust_output_of_every_fixture() {
    for name in FIXTURES {
        let rust_only = cushim::Builder::new()
            .header(fixture(name), None)
            .languages(&[cushim::Language::Rust]);
        let generated =
            cushim::generate(rust_only.options()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(generated.files.len(), 1);
        let file = &generated.files[0];
        assert_eq!(file.name, format!("{name}.rs"));
        insta_settings().bind(|| insta::assert_snapshot!(format!("rust-{name}"), file.contents));
    }
}
