//! Any bytes as a header: generation (Rust and C++, in memory) must return
//! files or an error, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let dir = std::env::temp_dir().join(format!("cushim-fuzz-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let header = dir.join("input.h");
    if std::fs::write(&header, data).is_err() {
        return;
    }
    let options = cushim::Options {
        source: cushim::Source::Files {
            header,
            typedefs: None,
        },
        ..cushim::Options::default()
    };
    let _ = cushim::generate(&options);
});
