//! The integration tests, as one test binary: each file of `tests/` is one
//! module (`cargo test scenarios::` runs one file's tests), so that the suite
//! links once and the harness runs every file's tests side by side.

mod common;

mod aarch64;
mod bindgen_switch;
mod check;
mod cli;
mod compiled;
mod cpp;
mod cross;
mod diff;
mod doctor;
mod entry_point;
mod enum_styles;
mod family;
mod family_windows;
mod fuzz;
mod layers;
mod libraries;
mod linked;
mod lint;
mod offline;
mod pinned;
mod readme;
mod real_headers;
mod real_wheels;
mod scenarios;
mod shared_types;
mod snapshots;
mod windows;
mod windows_search;
