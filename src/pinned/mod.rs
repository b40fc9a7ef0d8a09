//! The pinned releases as data the crate ships, in one of two forms:
//! - with the `emit` feature, each release's IR (`generated/cuda-<v>/ir.json`)
//!   and bindgen's Rust types (`generated/cuda-<v>/types.rs`), from which every
//!   option can be generated;
//! - without it, each release's output already rendered with default options
//!   (`generated/cuda-<v>/cuda.rs`, `cuda_shim.h`, `cuda_shim.cpp`, and
//!   `generated/merged/cuda.rs`): nothing to compile but the text.
//!
//! Either needs neither libclang, nor the headers, nor the network, and gives
//! the bytes a parse would give (`cushim check` keeps `generated/` fresh).
//!
//! The data holds facts, never the header's prose: docs are left out (a
//! generation with `docs` parses the headers), and each origin is the bare
//! file name. `cushim pinned` writes the data from the fetched headers;
//! `tests/pinned.rs` checks it against a fresh parse of every release.

/// Calls `$then!` with every pinned release, oldest first (a test checks the
/// list against `headers/pins.txt`).
macro_rules! pinned_releases {
    ($then:ident) => {
        $then!(
            "11.8" "12.0" "12.1" "12.2" "12.3" "12.4" "12.5" "12.6" "12.8" "12.9"
            "13.0" "13.1" "13.2" "13.3" "13.4" "13.5"
        )
    };
}

#[cfg(feature = "emit")]
mod ir_data;
#[cfg(feature = "emit")]
pub use ir_data::*;

#[cfg(not(feature = "emit"))]
mod rendered;
#[cfg(not(feature = "emit"))]
pub use rendered::*;

#[cfg(test)]
mod tests {
    macro_rules! as_list {
        ($($cuda:literal)*) => {
            &[$($cuda),*]
        };
    }

    /// Both forms of the shipped data are listed by `pinned_releases!`.
    #[test]
    fn the_crate_ships_every_pinned_release() {
        let shipped: &[&str] = pinned_releases!(as_list);
        let pinned: Vec<String> = crate::pins::all()
            .iter()
            .map(|p| p.cuda.to_string())
            .collect();
        assert_eq!(shipped, pinned);
    }
}
