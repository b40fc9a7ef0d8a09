//! The module of `build.rs`, lazy or linked by the `linked` feature, as a
//! library that documents everything it exports (`tests/linked.rs` lints it
//! with pedantic clippy in both modes).
#![deny(missing_docs)]

/// The CUDA 13.5 driver API: loaded on first use, or linked (`linked`).
pub mod cuda {
    include!(concat!(env!("OUT_DIR"), "/cuda.rs"));
}
