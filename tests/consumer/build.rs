//! Generates, the way a user's build script would: the default module from the
//! pinned CUDA 13.5 headers, two older releases and every fixture (to prove
//! they compile without warnings), and a list of calls to every 13.5 function.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn fail(e: cushim::Error) -> ! {
    eprintln!("{e}");
    std::process::exit(1)
}

fn main() {
    // Export the program's own symbols, so that its `cuInit` could interpose.
    println!("cargo:rustc-link-arg-bins=-rdynamic");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    cushim::Builder::new()
        .cuda_version("13.5")
        .generate()
        .unwrap_or_else(|e| fail(e));
    // The same release bound by exact exports only.
    cushim::Builder::new()
        .cuda_version("13.5")
        .resolve(cushim::Resolve::Dlsym)
        .languages(&[cushim::Language::Rust])
        .out_dir(out.join("dlsym"))
        .generate()
        .unwrap_or_else(|e| fail(e));
    // One module for every release, as users would vendor it.
    cushim::Builder::new()
        .cuda_range("11.8", "13.5")
        .out_dir(out.join("merged"))
        .generate()
        .unwrap_or_else(|e| fail(e));
    for v in ["11.8", "12.9"] {
        cushim::Builder::new()
            .cuda_version(v)
            .out_dir(out.join(format!("cuda-{v}")))
            .generate()
            .unwrap_or_else(|e| fail(e));
    }
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../headers/fixtures");
    for name in [
        "aliases",
        "cudaapi",
        "deprecated",
        "enums",
        "params",
        "per_thread",
        "pfn_table",
        "types",
    ] {
        cushim::Builder::new()
            .header(fixtures.join(format!("{name}.h")), None)
            .out_dir(out.join("fixtures"))
            .generate()
            .unwrap_or_else(|e| fail(e));
    }
    write_calls(&out);
}

/// `calls.rs`: every function of the 13.5 module, called through both layers
/// with zeroed arguments. Only run where no driver can be reached.
fn write_calls(out: &Path) {
    let options = cushim::Builder::new().cuda_version("13.5");
    let (api, _) = cushim::load(options.options()).unwrap_or_else(|e| fail(e));
    let mut typed = String::new();
    let mut drop_in = String::new();
    // Functions of another system (`cuWGLGetDevice` on Windows) are not here.
    for f in api.functions.iter().filter(|f| f.platform.is_none()) {
        let args = vec!["::std::mem::zeroed()"; f.params.len()].join(", ");
        let _ = writeln!(
            typed,
            "        ({:?}, cuda::Api::{}({args})),",
            f.symbol, f.symbol
        );
        let _ = writeln!(
            drop_in,
            "        ({:?}, cuda::{}({args})),",
            f.symbol, f.symbol
        );
    }
    let text = format!(
        "/// Every shim through the typed layer.\n#[allow(deprecated)]\npub fn typed() -> Vec<(&'static str, Result<(), cuda::Error>)> {{\n    unsafe {{ vec![\n{typed}    ] }}\n}}\n\n\
         /// Every shim through the drop-in layer.\n#[allow(deprecated)]\npub fn drop_in() -> Vec<(&'static str, cuda::CUresult)> {{\n    unsafe {{ vec![\n{drop_in}    ] }}\n}}\n"
    );
    std::fs::write(out.join("calls.rs"), text).expect("OUT_DIR is writable");
}
