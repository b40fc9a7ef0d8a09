//! `cushim diff` on real pairs of pinned releases, as snapshots.

use crate::common;

use common::{cushim, insta_settings, text};

fn diff(args: &[&str]) -> String {
    let mut all = vec!["diff"];
    all.extend_from_slice(args);
    let out = cushim(&all);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    stdout
}

#[test]
fn twelve_eight_to_twelve_nine() {
    let text = diff(&["12.8", "12.9"]);
    assert!(
        text.starts_with("CUDA 12.8 -> 12.9: 479 -> 484 functions"),
        "{text}"
    );
    insta_settings().bind(|| insta::assert_snapshot!("diff-12.8-12.9", text));
}

#[test]
fn twelve_nine_to_thirteen_in_every_format() {
    let text = diff(&["12.9", "13.0"]);
    assert!(
        text.contains("cuCtxCreate: cuCtxCreate_v2 (ABI 3.2) -> cuCtxCreate_v4 (ABI 12.5)"),
        "{text}"
    );
    insta_settings().bind(|| insta::assert_snapshot!("diff-12.9-13.0", text));
    insta_settings().bind(|| {
        insta::assert_snapshot!(
            "diff-12.9-13.0.md",
            diff(&["12.9", "13.0", "--format", "markdown"])
        )
    });
    let json = diff(&["12.9", "13.0", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    assert_eq!(value["functions"]["to"], 481);
    insta_settings().bind(|| insta::assert_snapshot!("diff-12.9-13.0.json", json));
}

#[test]
fn a_side_can_be_a_header_path() {
    let pin = cushim::pins::find("13.0".parse().unwrap()).unwrap();
    let include = cushim::fetch::include_dir(&pin).unwrap();
    // An include directory gives every header of the library: no change.
    let text = diff(&["13.0", include.to_str().unwrap()]);
    assert!(
        text.contains("added (0):") && text.contains("removed (0):"),
        "{text}"
    );
    // A header file is that header alone: the other headers' functions go.
    let text = diff(&["13.0", include.join("cuda.h").to_str().unwrap()]);
    assert!(
        text.contains("added (0):") && text.contains("removed (32):"),
        "{text}"
    );
    assert!(text.contains("- cuProfilerStart (ABI 4.0)"), "{text}");
}
