//! The pinned releases as data the crate ships, in one of two forms:
//! - with the `emit` feature, each library's IR for each release
//!   (`generated/cuda-<v>/<stem>.ir.json`) and bindgen's Rust types
//!   (`generated/cuda-<v>/<stem>.types.rs`), from which every option can be
//!   generated, for every library;
//! - without it, each release's output already rendered with default options
//!   (`generated/cuda-<v>/cuda.rs`, `cuda_shim.h`, `cuda_shim.cpp`, and
//!   `generated/merged/cuda.rs`): nothing to compile but the text. This form
//!   holds the driver's output only.
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
#[allow(unused_macros)]
macro_rules! pinned_releases {
    ($then:ident) => {
        $then!(
            "11.8" "12.0" "12.1" "12.2" "12.3" "12.4" "12.5" "12.6" "12.8" "12.9"
            "13.0" "13.1" "13.2" "13.3" "13.4" "13.5"
        )
    };
}

/// Calls `$then!` with every library's shipped data: its file stem, then
/// each pinned release whose pins hold its headers (a test checks the list
/// against the pins).
#[cfg(feature = "emit")]
macro_rules! shipped_libraries {
    ($then:ident) => {
        $then!(
            "cuda": "11.8" "12.0" "12.1" "12.2" "12.3" "12.4" "12.5" "12.6" "12.8" "12.9"
                "13.0" "13.1" "13.2" "13.3" "13.4" "13.5";
            "nvrtc": "11.8" "12.0" "12.1" "12.2" "12.3" "12.4" "12.5" "12.6" "12.8" "12.9"
                "13.0" "13.1" "13.2" "13.3" "13.4" "13.5";
            "nvml": "11.8" "12.0" "12.1" "12.2" "12.3" "12.4" "12.5" "12.6" "12.8" "12.9"
                "13.0" "13.1" "13.2" "13.3" "13.4" "13.5";
            "nvjitlink": "12.0" "12.1" "12.2" "12.3" "12.4" "12.5" "12.6" "12.8" "12.9"
                "13.0" "13.1" "13.2" "13.3" "13.4" "13.5";
            "cublas": "11.8" "12.0" "12.1" "12.2" "12.3" "12.4" "12.5" "12.6" "12.8" "12.9"
                "13.0" "13.1" "13.2" "13.3" "13.4" "13.5";
            "cublasLt": "11.8" "12.0" "12.1" "12.2" "12.3" "12.4" "12.5" "12.6" "12.8" "12.9"
                "13.0" "13.1" "13.2" "13.3" "13.4" "13.5";
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
