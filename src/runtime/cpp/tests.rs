//! The C++ runtime's parts: joined, they are the files the generator writes.

use super::{HEADER, HEADER_PARTS, SOURCE, SOURCE_PARTS};

/// The parts' texts, in order, joined.
fn joined(parts: &[(&str, &str)]) -> String {
    parts.iter().map(|(_, text)| *text).collect()
}

#[test]
fn the_parts_joined_are_the_runtime() {
    assert_eq!(joined(HEADER_PARTS), HEADER);
    assert_eq!(joined(SOURCE_PARTS), SOURCE);
}

#[test]
fn every_part_is_whole_lines_and_short() {
    for (name, text) in HEADER_PARTS.iter().chain(SOURCE_PARTS) {
        assert!(text.ends_with('\n'), "{name} ends its last line");
        assert!(!text.starts_with('\n'), "{name} starts with its text");
        let lines = text.lines().count();
        assert!(lines <= 800, "{name} has {lines} lines, over 800");
    }
}
