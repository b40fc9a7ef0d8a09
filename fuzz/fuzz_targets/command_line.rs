//! Any words (NUL-separated) after `cushim generate`: parsing must not panic,
//! and an accepted command line's recorded command must read back as the
//! same options (what `cushim check` relies on).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut words = vec!["cushim".to_string(), "generate".to_string()];
    words.extend(text.split('\0').map(str::to_string));
    let Ok(args) = cushim::options::parse_generate(&words) else {
        return;
    };
    let Ok(options) = args.options() else { return };
    if options.check_recordable().is_err() {
        return;
    }
    let recorded = options.command(None);
    let words = shell_words::split(&recorded).expect("a recorded command splits");
    let again = cushim::options::parse_generate(&words)
        .ok()
        .and_then(|a| a.options().ok())
        .expect("a recorded command parses");
    assert_eq!(again.command(None), recorded);
});
