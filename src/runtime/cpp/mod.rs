//! The C++ runtime, as real source: `cushim_runtime.h` and `cushim_runtime.cpp`
//! carry no template tag. The generator writes both, verbatim, beside every C++
//! pair (the same bytes whatever the library), and a program compiles the
//! source once whatever the number of pairs. The unit tests of the runtime
//! module compile it with g++ around a hand-written description.
//!
//! Each file is kept here in parts, one concern each, named after the Rust
//! runtime's module of the same concern, and joined in the order below,
//! bottom first: a part uses only what the parts before it define.
//!
//! The header (`header/`):
//! - `info`: the description a pair holds (`LibraryInfo`, `Codes`,
//!   `Function`, ...) and the state it points to (`Library`,
//!   `FunctionState`, `Thread`), named as the Rust runtime names them;
//! - `api`: the runtime's C entry points;
//! - `stub`: the C++ stubs' macros;
//! - `asm`: what the assembly stubs answer;
//! - the assembly stubs of every platform, from `arch/` ([`arch`]);
//! - `asm-table`: the slot table's rows, or the C++ stubs where no platform's
//!   assembly applies.
//!
//! The source (`source/`), all but `api` in one anonymous namespace:
//! - `error`: the includes, the shared types and the failure messages;
//! - `loader`: the platform's loader (open, find) and the override's lock;
//! - `version`: reading a library's version function;
//! - `file`: the checks of a candidate file before the loader sees it;
//! - `trust`: whether a Python environment above the program may supply it;
//! - `admit`: opening and checking one candidate (preload, admit, siblings);
//! - `candidates`: the places searched, in order;
//! - `search`: the override, then the search;
//! - `entry`: the driver through the CUDA runtime's entry point;
//! - `library`: one library's load state, opened once;
//! - `stream`: the default-stream mode;
//! - `function`: one function's binding, and the code of its failure;
//! - `api`: the C entry points.

/// The runtime header's file name, as pairs include it.
pub const HEADER_NAME: &str = "cushim_runtime.h";
/// The runtime source's file name.
pub const SOURCE_NAME: &str = "cushim_runtime.cpp";

mod arch;

/// The header's parts, bottom first: each part's name and text. The
/// assembly stubs of every platform ([`arch`]) come after `asm.h`.
pub(crate) fn header_parts() -> Vec<(&'static str, std::borrow::Cow<'static, str>)> {
    use std::borrow::Cow;
    let file = |name: &'static str, text: &'static str| (name, Cow::Borrowed(text));
    vec![
        file("header/info.h", include_str!("header/info.h")),
        file("header/api.h", include_str!("header/api.h")),
        file("header/stub.h", include_str!("header/stub.h")),
        file("header/asm.h", include_str!("header/asm.h")),
        ("arch", Cow::Owned(arch::sections())),
        file("header/asm-table.h", include_str!("header/asm-table.h")),
    ]
}

/// The runtime header's text: its parts, joined.
pub fn header() -> &'static str {
    static HEADER: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| header_parts().into_iter().map(|(_, text)| text).collect());
    &HEADER
}

/// Defines `$text`, the parts joined in order, and `$parts`, each part's
/// name and text, from one list of the parts' files.
macro_rules! parts {
    ($(#[$doc:meta])* $text:ident, $parts:ident, $dir:literal: $($name:literal),+ $(,)?) => {
        $(#[$doc])*
        pub const $text: &str = concat!($(include_str!(concat!($dir, "/", $name))),+);
        /// The parts, in order, bottom first: each file's name and text.
        #[cfg(test)]
        pub(crate) const $parts: &[(&str, &str)] =
            &[$((concat!($dir, "/", $name), include_str!(concat!($dir, "/", $name)))),+];
    };
}

parts!(
    /// The runtime source's text.
    SOURCE,
    SOURCE_PARTS,
    "source":
    "error.cpp",
    "loader.cpp",
    "version.cpp",
    "file.cpp",
    "trust.cpp",
    "admit.cpp",
    "candidates.cpp",
    "search.cpp",
    "entry.cpp",
    "library.cpp",
    "stream.cpp",
    "function.cpp",
    "api.cpp",
);

#[cfg(test)]
mod layers;
#[cfg(test)]
mod tests;
