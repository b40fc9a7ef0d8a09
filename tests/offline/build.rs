//! Every library of cushim's registry (`cushim::library::LIBRARIES`) from
//! the data cushim ships, with no optional feature: the driver's 13.5 and
//! merged modules, and each library at a release of its own (the i-th
//! library at its i-th pinned release, counting around), so that the
//! libraries together ask for releases `generated/` commits and releases it
//! does not. With the `emit` feature, instead, an option beyond the defaults
//! for each library (an allow list of its version function), which the
//! emitters serve from the shipped IR.
//!
//! Writes `OUT_DIR/modules.rs`: one module a library, and `MODULES`, which
//! `src/main.rs` calls; and `OUT_DIR/modules.txt`, a line a library (its
//! name, release and the stem of its files), which `tests/offline.rs` reads.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use cushim::library::{Library, LIBRARIES};
use cushim::version::CudaVersion;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let emit = std::env::var_os("CARGO_FEATURE_EMIT").is_some();
    // The defaults without the feature; with it only the allow lists, new
    // beside the defaults that the build without it made already.
    let (dir, releases) = if emit {
        ("allowed", LIBRARIES.iter().map(|l| allowed_release(l)).collect())
    } else {
        ("every", default_releases())
    };
    let mut builds = if emit { Vec::new() } else { driver(&out) };
    for (library, cuda) in LIBRARIES.iter().zip(&releases) {
        let mut builder = cushim::Builder::new()
            .library(library.name)
            .cuda_version(&cuda.to_string())
            .out_dir(out.join(dir));
        if emit {
            let version = library.version.name.to_str().expect("a C name");
            builder = builder
                .allowlist(format!("^{version}$"))
                .languages(&[cushim::Language::Rust]);
        }
        builds.push(builder);
    }
    for builder in builds {
        if let Err(e) = builder.generate() {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
    write_modules(&out, dir, &releases);
}

/// The driver's 13.5 module in `out`, and the merged 11.8..13.5 module.
fn driver(out: &Path) -> Vec<cushim::Builder> {
    vec![
        cushim::Builder::new().cuda_version("13.5"),
        cushim::Builder::new()
            .cuda_range("11.8", "13.5")
            .languages(&[cushim::Language::Rust])
            .out_dir(out.join("merged")),
    ]
}

/// The i-th library's i-th pinned release, counting around.
fn default_releases() -> Vec<CudaVersion> {
    LIBRARIES
        .iter()
        .enumerate()
        .map(|(i, library)| {
            let pins = cushim::pins::all_for(library);
            pins[i % pins.len()].cuda
        })
        .collect()
}

/// 12.4, or the library's first release where it has none before.
fn allowed_release(library: &Library) -> CudaVersion {
    let at: CudaVersion = "12.4".parse().expect("a release");
    let pins = cushim::pins::all_for(library);
    pins.iter()
        .map(|p| p.cuda)
        .find(|c| *c >= at)
        .expect("a release from 12.4 on")
}

/// `modules.rs` and `modules.txt` for the modules written into `out/dir`.
fn write_modules(out: &Path, dir: &str, releases: &[CudaVersion]) {
    let mut rust = String::from(
        "// Written by build.rs: one module a library of cushim's registry.\n\n",
    );
    let mut table = String::from(
        "/// Each library's name and release, what its module's `preload_all`\n/// answers, and how many functions the module has.\n",
    );
    table.push_str("pub const MODULES: &[(&str, &str, fn() -> String, fn() -> usize)] = &[\n");
    let mut list = String::new();
    for (library, cuda) in LIBRARIES.iter().zip(releases) {
        let (name, stem) = (library.name, library.stem);
        writeln!(
            rust,
            "#[allow(dead_code, non_snake_case, non_camel_case_types)]\npub mod {name} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/{dir}/{stem}.rs\"));\n}}"
        )
        .unwrap();
        writeln!(
            table,
            "    (\"{name}\", \"{cuda}\", || format!(\"{{:?}}\", {name}::preload_all()), || {name}::FUNCTIONS.len()),"
        )
        .unwrap();
        writeln!(list, "{name} {cuda} {stem}").unwrap();
    }
    table.push_str("];\n");
    rust.push('\n');
    rust.push_str(&table);
    std::fs::write(out.join("modules.rs"), rust).expect("OUT_DIR is writable");
    std::fs::write(out.join("modules.txt"), list).expect("OUT_DIR is writable");
}
