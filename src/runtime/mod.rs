//! The runtimes that generated code carries, as real source.
//!
//! - `cushim_loader.rs` is the Rust loader. It is compiled here as
//!   [`cushim_loader`], with the driver's settings below standing in for the
//!   constants a generated module defines, so that this crate lints it, unit-tests
//!   it and runs `cushim doctor` on it; the Rust emitter copies the same text.
//! - `cushim_api.rs` is the typed layer (`Api`, `Error`) and the introspection
//!   (`require`, `preload_all`, ...) of a generated module, and `shim_macro.rs`
//!   the `cushim_shim!` macro; the unit tests below compile both around a
//!   hand-written function.
//! - `cpp/cushim_runtime.{h,cpp}` is the C++ runtime without a template tag
//!   ([`cpp`]); the generator writes it beside the C++ pairs, which call into it.

// Generated modules carry this source into crates that lint with pedantic
// clippy and `missing_docs`; it is held to that bar here.
#[allow(dead_code)]
#[warn(missing_docs, clippy::pedantic)]
pub mod cushim_loader;

pub mod cpp;
#[cfg(test)]
mod tests;

use crate::library::DRIVER;

/// The Rust loader's text, as the emitter copies it.
#[cfg(feature = "emit")]
pub const RUST_LOADER: &str = include_str!("cushim_loader.rs");
/// The typed layer and introspection of a generated module.
#[cfg(feature = "emit")]
pub const RUST_API: &str = include_str!("cushim_api.rs");
/// The `cushim_shim!` macro's text.
#[cfg(feature = "emit")]
pub const RUST_SHIM_MACRO: &str = include_str!("shim_macro.rs");
/// The `Debug` helper of enums that print their constants' names.
#[cfg(feature = "emit")]
pub const RUST_ENUM_FMT: &str = include_str!("cushim_enum.rs");

pub use cushim_loader::{Codes, LibraryInfo, Resolve, StreamMode, VersionQuery};

use crate::library::{Search, VersionQuery as Query, FAMILY};

// The constants a generated module defines, here for the driver as the
// library description has it; `cushim doctor` checks a machine with them.
pub(crate) const CUSHIM_RESOLVE: Resolve = Resolve::ProcAddress;
pub(crate) const CUSHIM_DEFAULT_STREAM_MODE: StreamMode = StreamMode::Legacy;
pub(crate) const CUSHIM_CODES: Codes = Codes {
    library_not_found: DRIVER.codes.library_not_found.value,
    symbol_not_found: DRIVER.codes.symbol_not_found.value,
    stub_library: DRIVER.codes.stub_library.value,
    driver_too_old: DRIVER.codes.driver_too_old.value,
    not_initialized: DRIVER.codes.not_initialized.value,
    success: 0,
    invalid_value: DRIVER.codes.invalid_value.value,
};
/// The driver's `LibraryInfo`, made from its description as a generated
/// module's is (the driver's names carry no major).
pub(crate) static CUSHIM_LIBRARY: std::sync::LazyLock<LibraryInfo> =
    std::sync::LazyLock::new(|| library_info(&DRIVER, 0));

/// How the runtime asks a library's version, as the description says.
pub fn version_query(query: Query) -> VersionQuery {
    match query {
        Query::Number => VersionQuery::Number,
        Query::MajorMinor => VersionQuery::MajorMinor,
        Query::Text => VersionQuery::Text,
        Query::Property => VersionQuery::Property,
    }
}

/// What a generated module of `library` for headers of `major` tells its
/// loader, for `cushim doctor` to search as that module would. The names are
/// leaked: one value per library shown, once per process.
pub fn library_info(library: &crate::library::Library, major: u32) -> LibraryInfo {
    let here = |names: crate::library::Names| -> &'static [&'static str] {
        let names = if cfg!(windows) {
            names.windows
        } else {
            names.unix
        };
        let filled: Vec<&'static str> = crate::library::with_major(names, major)
            .into_iter()
            .map(|n| &*Box::leak(n.into_boxed_str()))
            .collect();
        Box::leak(filled.into_boxed_slice())
    };
    LibraryInfo {
        label: library.words.label,
        short: library.words.short,
        product: library.words.product,
        install: library.words.install,
        override_var: library.words.override_var,
        names: here(library.names_for(major)),
        version_function: library.version.name,
        version_query: version_query(library.version.query),
        stub_code: library
            .has_stub
            .then(|| library.codes.stub_library.value.cast_signed()),
        proc_address: library.proc_address,
        major: if library.binds_major() { major } else { 0 },
        wheel_dirs: match library.search {
            Search::System => None,
            Search::Toolkit { wheel_dirs } => Some(wheel_dirs),
        },
        preload: here(library.preload),
        family: if cfg!(windows) {
            FAMILY.windows
        } else {
            FAMILY.unix
        },
    }
}

/// The enum `Debug` helper, compiled as a generated module carries it.
#[cfg(test)]
#[warn(missing_docs, clippy::pedantic)]
mod cushim_enum {
    include!("cushim_enum.rs");

    struct Shown<'a>(u32, &'a [(u32, &'a str)], bool);

    impl ::core::fmt::Debug for Shown<'_> {
        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            cushim_fmt_enum(f, "flags_enum", self.0, self.1, self.2)
        }
    }

    const NAMES: &[(u32, &str)] = &[
        (0, "AUTO"),
        (1, "SPIN"),
        (2, "YIELD"),
        (7, "MASK"),
        (8, "MAP_HOST"),
    ];

    #[test]
    fn a_known_value_prints_its_first_name_and_an_unknown_one_its_type() {
        assert_eq!(format!("{:?}", Shown(7, NAMES, false)), "MASK");
        assert_eq!(format!("{:?}", Shown(0, NAMES, true)), "AUTO");
        assert_eq!(format!("{:?}", Shown(9, NAMES, false)), "flags_enum(9)");
        assert_eq!(
            format!("{:#?}", Shown(9, NAMES, false)),
            "flags_enum(\n    9,\n)"
        );
    }

    #[test]
    fn flags_print_the_constants_whose_bits_they_hold_and_the_rest() {
        assert_eq!(format!("{:?}", Shown(9, NAMES, true)), "SPIN | MAP_HOST");
        assert_eq!(
            format!("{:?}", Shown(11, NAMES, true)),
            "SPIN | YIELD | MAP_HOST"
        );
        assert_eq!(
            format!("{:?}", Shown(8 | 64, NAMES, true)),
            "MAP_HOST | flags_enum(64)"
        );
        assert_eq!(format!("{:?}", Shown(64, NAMES, true)), "flags_enum(64)");
    }
}
