//! The baseline for `cushim generate`: bindgen alone, parsing the same header
//! with its default settings and rendering Rust, nothing else.
//!
//! `cargo run --release --example bindgen_only -- <include dir>`

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: bindgen_only <include dir containing cuda.h>");
        std::process::exit(2);
    };
    let header = std::path::Path::new(&dir).join("cuda.h");
    match bindgen::Builder::default()
        .header(header.display().to_string())
        .clang_arg(format!("-I{dir}"))
        .generate()
    {
        Ok(b) => println!("{} bytes of Rust", b.to_string().len()),
        Err(e) => {
            eprintln!("bindgen failed: {e}");
            std::process::exit(1);
        }
    }
}
