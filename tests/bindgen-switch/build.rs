//! bindgen's bindings of the pinned 13.5 `cuda.h` with rustified enums,
//! functions included (made by the test, as a bindgen user's build script
//! makes them, and passed as a file); cushim's
//! module of the same release with the matching options; and the 13.5 and
//! merged modules in every other enum style.

use std::path::PathBuf;

fn fail(e: impl std::fmt::Display) -> ! {
    eprintln!("{e}");
    std::process::exit(1)
}

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    for var in ["CUSHIM_SWITCH_BINDGEN", "CUSHIM_SWITCH_FAKE_DIR"] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    let bindgen = std::env::var("CUSHIM_SWITCH_BINDGEN").unwrap_or_else(|_| {
        fail("set CUSHIM_SWITCH_BINDGEN to bindgen's bindings of the CUDA 13.5 cuda.h")
    });
    let fake = std::env::var("CUSHIM_SWITCH_FAKE_DIR")
        .unwrap_or_else(|_| fail("set CUSHIM_SWITCH_FAKE_DIR to the fake driver's directory"));

    // What a bindgen user's build script writes (the test runs bindgen with
    // the same builder, so that this crate does not build bindgen again).
    println!("cargo:rerun-if-changed={bindgen}");
    std::fs::copy(&bindgen, out.join("bindgen.rs")).unwrap_or_else(|e| fail(e));
    // Linked the way bindgen's users link: -lcuda, here the fake driver.
    println!("cargo:rustc-link-search=native={fake}");
    println!("cargo:rustc-link-arg-bin=with_bindgen=-lcuda");

    // The switch: the same enum style from cushim, and no `#[deprecated]`.
    let rust = [cushim::Language::Rust];
    cushim::Builder::new()
        .cuda_version("13.5")
        .languages(&rust)
        .default_enum_style(cushim::EnumStyle::Rust)
        .deprecated_attributes(false)
        .out_dir(out.join("cushim"))
        .generate()
        .unwrap_or_else(|e| fail(e));

    // Every style of a pinned release (without the prefix where a style has
    // one), and of the merged module in the two styles whose status type is
    // no newtype.
    let mut builds = Vec::new();
    for style in cushim::EnumStyle::PRECEDENCE {
        builds.push((style, true, false));
    }
    for style in [cushim::EnumStyle::Consts, cushim::EnumStyle::NewTypeGlobal] {
        builds.push((style, false, false));
    }
    for style in [cushim::EnumStyle::Consts, cushim::EnumStyle::Rust] {
        builds.push((style, true, true));
    }
    for (style, prepend, merged) in builds {
        let builder = if merged {
            cushim::Builder::new().cuda_range("11.8", "13.5")
        } else {
            cushim::Builder::new().cuda_version("13.5")
        };
        let dir = format!(
            "{}{}{}",
            style.name(),
            if prepend { "" } else { "-bare" },
            if merged { "-merged" } else { "" }
        );
        builder
            .languages(&rust)
            .default_enum_style(style)
            .prepend_enum_name(prepend)
            .out_dir(out.join("styles").join(dir))
            .generate()
            .unwrap_or_else(|e| fail(e));
    }
}
