//! A weave: every pinned release's version of one text file in one file, each
//! distinct line stored once with the set of releases that hold it (as SCCS
//! stored a file's history). Consecutive releases of a CUDA library differ
//! in a few lines, so the weave of sixteen releases is about the size of one.
//! This is how the crate ships its data for every pinned release.
//!
//! The format, all text:
//!
//! ```text
//! cushim weave 1
//! releases 12.9 13.0 13.5
//! 7 2
//! a line that all three releases hold
//! another one
//! 1 1
//! a line that 12.9 alone holds
//! ```
//!
//! After the two header lines come blocks: the releases that hold the block as
//! a hexadecimal bit set (bit `i` for the `i`-th release listed) and the
//! number of lines, then those lines. A release's text is its blocks' lines in
//! order. Reading needs nothing but the standard library; writing (`cushim
//! pinned`) diffs each release against the one before with `similar`.

/// The first line of every weave.
const MAGIC: &str = "cushim weave 1\n";

/// The releases that `weave` holds, in its order. Example: `["12.9", "13.0"]`.
pub fn releases(weave: &str) -> Option<Vec<&str>> {
    let rest = weave.strip_prefix(MAGIC)?;
    let line = rest.split('\n').next()?;
    Some(line.strip_prefix("releases ")?.split(' ').collect())
}

/// The text of `release` (as the header lists it, e.g. `13.5`), or `None`
/// when the weave does not hold it or is damaged.
pub fn text(weave: &str, release: &str) -> Option<String> {
    let index = releases(weave)?.iter().position(|r| *r == release)?;
    let bit = 1u64.checked_shl(u32::try_from(index).ok()?)?;
    let mut lines = weave.split_inclusive('\n').skip(2);
    let mut out = String::new();
    while let Some(block) = lines.next() {
        let (mask, count) = block.strip_suffix('\n')?.split_once(' ')?;
        let mask = u64::from_str_radix(mask, 16).ok()?;
        let count: usize = count.parse().ok()?;
        for _ in 0..count {
            let line = lines.next()?;
            if mask & bit != 0 {
                out.push_str(line);
            }
        }
    }
    Some(out)
}

/// Weaves `texts`, `(release, text)` oldest first; every text is empty or
/// ends with a newline.
#[cfg(feature = "cli")]
pub fn weave(texts: &[(String, String)]) -> Result<String, crate::diag::Error> {
    use crate::diag::Error;
    if texts.len() > 64 {
        return Err(Error::new(format!(
            "a weave holds at most 64 releases, not {}",
            texts.len()
        )));
    }
    // Each line once, with the releases (bits) that hold it.
    let mut woven: Vec<(&str, u64)> = Vec::new();
    for (i, (release, text)) in texts.iter().enumerate() {
        if release.contains([' ', '\n']) || !(text.is_empty() || text.ends_with('\n')) {
            return Err(Error::new(format!(
                "cannot weave release `{release}`: a release is one word, and its text ends with a newline"
            )));
        }
        let bit = 1u64 << i;
        let new: Vec<&str> = text.split_inclusive('\n').collect();
        // Where the previous release's lines sit in the weave.
        let previous: Vec<usize> = (0..woven.len())
            .filter(|&at| i > 0 && woven[at].1 & (bit >> 1) != 0)
            .collect();
        let old: Vec<&str> = previous.iter().map(|&at| woven[at].0).collect();
        let mut kept = vec![false; woven.len()];
        // Lines new in this release, by the weave position they go before.
        let mut inserted: Vec<Vec<&str>> = vec![Vec::new(); woven.len() + 1];
        // The previous release's lines consumed so far: an insertion goes
        // before the next of them. (An `Insert`'s own `old_index` can point
        // before an equal run that precedes it.)
        let mut cursor = 0;
        for op in similar::capture_diff_slices(similar::Algorithm::Myers, &old, &new) {
            let added = match op {
                similar::DiffOp::Equal { old_index, len, .. } => {
                    for k in old_index..old_index + len {
                        kept[previous[k]] = true;
                    }
                    cursor = old_index + len;
                    continue;
                }
                similar::DiffOp::Delete {
                    old_index, old_len, ..
                } => {
                    cursor = old_index + old_len;
                    continue;
                }
                similar::DiffOp::Insert {
                    new_index, new_len, ..
                } => new_index..new_index + new_len,
                similar::DiffOp::Replace {
                    old_index,
                    old_len,
                    new_index,
                    new_len,
                } => {
                    cursor = old_index + old_len;
                    new_index..new_index + new_len
                }
            };
            let at = previous.get(cursor).copied().unwrap_or(woven.len());
            inserted[at].extend(&new[added]);
        }
        let mut next = Vec::with_capacity(woven.len() + new.len());
        for (at, (line, mask)) in woven.into_iter().enumerate() {
            next.extend(inserted[at].iter().map(|l| (*l, bit)));
            next.push((line, if kept[at] { mask | bit } else { mask }));
        }
        next.extend(inserted.last().into_iter().flatten().map(|l| (*l, bit)));
        woven = next;
    }
    let names: Vec<&str> = texts.iter().map(|(r, _)| r.as_str()).collect();
    let mut out = format!("{MAGIC}releases {}\n", names.join(" "));
    let mut start = 0;
    while start < woven.len() {
        let mask = woven[start].1;
        let end = woven[start..]
            .iter()
            .position(|(_, m)| *m != mask)
            .map_or(woven.len(), |n| start + n);
        out.push_str(&format!("{mask:x} {}\n", end - start));
        for (line, _) in &woven[start..end] {
            out.push_str(line);
        }
        start = end;
    }
    // What was woven must come back out, byte for byte.
    for (release, text) in texts {
        if self::text(&out, release).as_deref() != Some(text.as_str()) {
            return Err(Error::new(format!(
                "the weave does not give back release {release}'s text"
            )));
        }
    }
    Ok(out)
}

#[cfg(all(test, feature = "cli"))]
mod tests {
    use super::*;

    fn texts(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(r, t)| ((*r).to_string(), (*t).to_string()))
            .collect()
    }

    #[test]
    fn every_release_comes_back_and_shared_lines_are_stored_once() {
        let list = texts(&[
            ("11.8", "a\nb\nc\nd\n"),
            ("12.0", "a\nc\nd\ne\n"),
            ("12.9", "a\nb\nc\nd\ne\nf\n"),
            ("13.0", ""),
            ("13.5", "x\ne\n"),
        ]);
        let woven = weave(&list).unwrap();
        for (release, text) in &list {
            assert_eq!(super::text(&woven, release).as_deref(), Some(text.as_str()));
        }
        assert_eq!(
            releases(&woven).unwrap(),
            ["11.8", "12.0", "12.9", "13.0", "13.5"]
        );
        assert_eq!(woven.matches("a\n").count(), 1, "{woven}");
        // Gone in 13.0, back in 13.5: stored again.
        assert_eq!(woven.matches("e\n").count(), 2, "{woven}");
        assert_eq!(super::text(&woven, "10.0"), None);
    }

    #[test]
    fn a_line_that_looks_like_a_block_header_is_data() {
        let list = texts(&[("1", "1 1\nff 3\n"), ("2", "ff 3\n")]);
        let woven = weave(&list).unwrap();
        assert_eq!(text(&woven, "1").unwrap(), "1 1\nff 3\n");
        assert_eq!(text(&woven, "2").unwrap(), "ff 3\n");
    }

    #[test]
    fn a_damaged_weave_reads_as_none_not_a_panic() {
        let woven = weave(&texts(&[("1", "a\nb\n")])).unwrap();
        for cut in 0..woven.len() {
            // Every prefix either reads or is refused.
            let _ = text(&woven[..cut], "1");
        }
        assert_eq!(text("cushim weave 1\nreleases 1\nzz 1\na\n", "1"), None);
        assert_eq!(text("cushim weave 1\nreleases 1\n1 5\na\n", "1"), None);
        assert_eq!(text("not a weave", "1"), None);
    }

    #[test]
    fn a_text_without_its_last_newline_is_refused() {
        assert!(weave(&texts(&[("1", "a")])).is_err());
        assert!(weave(&texts(&[("1 2", "a\n")])).is_err());
    }
}
