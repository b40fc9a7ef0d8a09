//! The runtimes that generated code uses, and what this crate tells them.
//!
//! - The Rust runtime is the `cushim-runtime` crate (`cushim-runtime/` in this
//!   repository): every generated Rust module calls into it, so a program
//!   compiles it once however many modules it includes. `cushim doctor`
//!   searches with it, from the same description a generated module holds
//!   ([`library_info`]).
//! - `shim_macro.rs` is the `cushim_shim!` macro that each module carries;
//!   the unit tests below expand it over hand-written functions.
//! - `fields.rs` is the table of the description's fields in both runtimes,
//!   which both emitters' literals follow.
//! - `opaque.rs` writes the Rust runtime's opaque structs (`cushim_runtime::opaque`),
//!   which every module re-exports instead of declaring its own.
//! - `cpp/` is the C++ runtime, `cushim_runtime.{h,cpp}` without a template
//!   tag, kept in parts ([`cpp`]); the generator writes it beside the C++
//!   pairs, which call into it.

pub mod cpp;
#[cfg(any(test, feature = "emit"))]
pub(crate) mod fields;
#[cfg(feature = "emit")]
pub(crate) mod opaque;

#[cfg(test)]
mod tests;

#[cfg(test)]
use crate::library::DRIVER;

/// The `cushim_shim!` macro's text.
#[cfg(feature = "emit")]
pub const RUST_SHIM_MACRO: &str = include_str!("shim_macro.rs");

pub use cushim_runtime::StreamMode;
#[cfg(any(test, feature = "emit"))]
use cushim_runtime::{Codes, LibraryInfo, Resolve};

#[cfg(any(test, feature = "emit"))]
use crate::library::Search;

/// The driver's codes, as its description has them.
#[cfg(test)]
pub(crate) const CUSHIM_CODES: Codes = codes(&DRIVER);
/// The driver's `LibraryInfo`, made from its description as a generated
/// module's is (the driver's names carry no major).
#[cfg(test)]
pub(crate) static CUSHIM_LIBRARY: std::sync::LazyLock<&'static LibraryInfo> =
    std::sync::LazyLock::new(|| library_info(&DRIVER, 0, cfg!(windows)));

/// The codes a library's shims answer with, from its description (the
/// success value is 0 in every CUDA library).
#[cfg(any(test, feature = "emit"))]
pub const fn codes(library: &crate::library::Library) -> Codes {
    let c = &library.codes;
    Codes {
        library_not_found: c.library_not_found.value,
        symbol_not_found: c.symbol_not_found.value,
        stub_library: c.stub_library.value,
        too_old: c.too_old.value,
        not_initialized: c.not_initialized.value,
        success: 0,
        invalid_value: c.invalid_value.value,
    }
}

/// The one translation of a description into the runtime's own type: what a
/// generated module of `library` for headers of `major` (0 when its file
/// names carry none) tells its loader, on Windows or on another system. Each
/// emitter prints it as a literal (`emit::rust`, `emit::cpp`) and `cushim
/// doctor` searches with it, so all three say the same. Its `resolve` and
/// `default_stream` are the defaults; a module prints the ones asked for.
///
/// Interned: one value per library, major and system, for the process.
#[cfg(any(test, feature = "emit"))]
pub fn library_info(
    library: &crate::library::Library,
    major: u32,
    windows: bool,
) -> &'static LibraryInfo {
    type Key = (&'static str, u32, bool);
    static INTERNED: std::sync::Mutex<Vec<(Key, &'static LibraryInfo)>> =
        std::sync::Mutex::new(Vec::new());
    let key = (library.name, major, windows);
    let mut interned = INTERNED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, info)) = interned.iter().find(|(k, _)| *k == key) {
        return info;
    }
    let leak = |names: Vec<String>| -> &'static [&'static str] {
        let names: Vec<&'static str> = names
            .into_iter()
            .map(|n| &*Box::leak(n.into_boxed_str()))
            .collect();
        Box::leak(names.into_boxed_slice())
    };
    let system = |names: crate::library::Names| {
        let names = if windows { names.windows } else { names.unix };
        leak(crate::library::with_major(names, major))
    };
    let info: &'static LibraryInfo = Box::leak(Box::new(LibraryInfo {
        label: library.words.label,
        short_name: library.words.short,
        product: library.words.product,
        install: library.words.install,
        override_var: library.words.override_var,
        names: system(library.names_for(major)),
        version_function: library.version.name,
        version_query: library.version.query,
        stub_code: library
            .has_stub
            .then(|| library.codes.stub_library.value.cast_signed()),
        proc_address: library.proc_address,
        major: library.reported_major(major),
        wheel_dirs: match library.search {
            Search::System => None,
            Search::Toolkit { wheel_dirs, .. } => {
                Some(leak(crate::library::with_major(wheel_dirs, major)))
            }
        },
        toolkit_subdirs: match library.search {
            Search::System => &[],
            Search::Toolkit {
                toolkit_subdirs, ..
            } => toolkit_subdirs,
        },
        preload: system(library.preload_for(major)),
        required: system(library.requires),
        // Only for a known major: headers of an unknown release check nothing.
        built_for: library.built_for.filter(|_| major != 0).map(|f| (f, major)),
        siblings: system(library.siblings),
        // Only a library installed with a toolkit has a family whose
        // directories are searched.
        family: match library.search {
            Search::System => &[],
            Search::Toolkit { .. } => leak(crate::library::family(major, windows)),
        },
        codes: codes(library),
        resolve: Resolve::ProcAddress,
        default_stream: StreamMode::Legacy,
    }));
    interned.push((key, info));
    info
}

/// The CUDA runtime's description on Unix and on Windows, for a driver
/// module of headers of `major` whose functions the runtime hands out
/// (`--resolve runtime-entry-point`): the runtime of that major.
///
/// # Errors
/// The headers' release is unknown: the runtime's file names carry the major.
#[cfg(any(test, feature = "emit"))]
pub fn runtime_infos(
    major: u32,
) -> Result<
    (
        &'static cushim_runtime::LibraryInfo,
        &'static cushim_runtime::LibraryInfo,
    ),
    crate::diag::Error,
> {
    let cudart = &crate::library::CUDART;
    if major == 0 {
        return Err(crate::diag::Error::new(format!(
            "`--resolve runtime-entry-point` finds the {} by file names that carry the CUDA major, and the release of these headers is unknown",
            cudart.words.label
        ))
        .hint("generate from a pinned release (`--cuda <version>`) or headers that define `CUDA_VERSION`"));
    }
    Ok((
        library_info(cudart, major, false),
        library_info(cudart, major, true),
    ))
}
