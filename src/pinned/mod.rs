//! The pinned releases as data the crate ships: for each library, one weave
//! (`src/weave.rs`) per file in `generated/data/`, each holding every pinned
//! release of that file:
//! - with the `emit` feature, the IR (`<stem>.ir.json.weave`) and bindgen's
//!   Rust types (`<stem>.types.rs.weave`), from which every option can be
//!   generated;
//! - without it, the output rendered with default options (`<stem>.rs.weave`,
//!   `<stem>_shim.h.weave`, `<stem>_shim.cpp.weave`): nothing to compile but
//!   the text; and the driver's merged module (`generated/merged/cuda.rs`).
//!
//! Either needs neither libclang, nor the headers, nor the network, and gives
//! the bytes a parse would give. `cushim pinned` writes the data: the IR of
//! the releases it is asked to re-parse from their fetched headers, then every
//! release's rendered output from the IR. `tests/pinned.rs` checks both.
//!
//! The data holds facts, never the header's prose: docs are left out (a
//! generation with `docs` parses the headers), and each origin is the bare
//! file name.

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

/// Calls `$then!` with the file stem of every library whose data the crate
/// ships (a test checks the list against the registry). Example: `"nvrtc"`.
macro_rules! shipped_libraries {
    ($then:ident) => {
        $then!("cuda" "nvrtc" "nvml" "nvjitlink" "cublas" "cublasLt" "cudart" "cufft" "curand" "cusparse" "cusolver" "cusolverMg" "cudnn" "nccl" "cutensor" "cupti" "nvtx" "cufile")
    };
}

/// The weave of `file` in `generated/data/`, as text: the crate ships it
/// as it is, so that a build compiles no decompressor and a regeneration's
/// diff is read line by line. Example: `"cuda.rs"`.
macro_rules! weave_of {
    ($stem:literal, $suffix:literal) => {
        include_str!(concat!("../../generated/data/", $stem, $suffix, ".weave"))
    };
}

/// The text of `cuda` in `weave`, one of `what`'s files: `None` when the
/// weave does not hold the release, `Err` when it says it does but cannot
/// give it back.
fn unweave(
    weave: &str,
    cuda: crate::version::CudaVersion,
    what: &str,
) -> Option<Result<String, crate::diag::Error>> {
    let release = cuda.to_string();
    let damaged = || {
        crate::diag::Error::new(format!(
            "the data cushim ships for {what} of CUDA {cuda} is damaged"
        ))
        .hint("reinstall cushim; in a checkout, rewrite the data with `cushim pinned`")
    };
    let Some(releases) = crate::weave::releases(weave) else {
        return Some(Err(damaged()));
    };
    if !releases.contains(&release.as_str()) {
        return None;
    }
    Some(crate::weave::text(weave, &release).ok_or_else(damaged))
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

    /// Every pinned release is listed by `pinned_releases!`.
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

#[cfg(test)]
mod registry_tests {
    macro_rules! stems {
        ($($stem:literal)*) => {
            &[$($stem),*]
        };
    }

    /// Every library of the registry has its data shipped, in its order.
    #[test]
    fn every_library_ships_its_data() {
        let shipped: &[&str] = shipped_libraries!(stems);
        let registry: Vec<&str> = crate::library::LIBRARIES.iter().map(|l| l.stem).collect();
        assert_eq!(shipped, registry);
    }

    /// Every weave holds each release that the library's pins hold.
    #[test]
    fn each_weave_holds_every_pinned_release_of_its_library() {
        macro_rules! weaves {
            ($($stem:literal)*) => {
                &[$(
                    ($stem, weave_of!($stem, ".ir.json")),
                    ($stem, weave_of!($stem, ".types.rs")),
                    ($stem, weave_of!($stem, ".rs")),
                    ($stem, weave_of!($stem, "_shim.h")),
                    ($stem, weave_of!($stem, "_shim.cpp")),
                )*]
            };
        }
        let all: &[(&str, &str)] = shipped_libraries!(weaves);
        for (stem, weave) in all {
            let library = crate::library::LIBRARIES
                .iter()
                .find(|l| l.stem == *stem)
                .unwrap();
            let pinned: Vec<String> = crate::pins::all_for(library)
                .iter()
                .map(|p| p.cuda.to_string())
                .collect();
            assert_eq!(crate::weave::releases(weave).unwrap(), pinned, "{stem}");
            for release in &pinned {
                assert!(
                    crate::weave::text(weave, release).is_some(),
                    "{stem} {release}"
                );
            }
        }
    }
}
