//! Maintainers: writes `headers/header-sha256.txt` to stdout, from whole
//! downloads of every pinned wheel (`scripts/pin-header-hashes.sh` runs
//! it), or measures a ranged read of any wheel for `BENCHMARKS.md`.
//!
//! ```text
//! cargo run --example pin_header_hashes > headers/header-sha256.txt
//! cargo run --example pin_header_hashes -- --add LIB[,LIB...] > new-table.txt
//! cargo run --example pin_header_hashes -- --measure NAME==VERSION HEADER... [--whole]
//! ```

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None => cushim::fetch::header_hash_table().map(|text| print!("{text}")),
        // A new library's lines, added to the table's own.
        Some("--add") if args.len() == 2 => adding(&args[1]).map(|text| print!("{text}")),
        Some("--measure") => measure(&args[1..]),
        Some(_) => {
            eprintln!(
                "usage: pin_header_hashes [--add LIB[,LIB...] | --measure NAME==VERSION HEADER... [--whole]]"
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn adding(names: &str) -> Result<String, cushim::Error> {
    let mut libraries = Vec::new();
    for name in names.split(',') {
        let library = cushim::library::by_name(name)
            .ok_or_else(|| cushim::Error::new(format!("no library is named `{name}`")))?;
        libraries.push(library);
    }
    cushim::fetch::header_hash_table_adding(&libraries)
}

fn measure(args: &[String]) -> Result<(), cushim::Error> {
    let whole = args.iter().any(|a| a == "--whole");
    let rest: Vec<String> = args.iter().filter(|a| *a != "--whole").cloned().collect();
    let Some((spec, headers)) = rest.split_first() else {
        return Err(cushim::Error::new(
            "--measure needs NAME==VERSION and headers",
        ));
    };
    let Some((name, version)) = spec.split_once("==") else {
        return Err(cushim::Error::new(format!("`{spec}` is not NAME==VERSION")));
    };
    let m = cushim::fetch::measure(name, version, headers, whole)?;
    println!(
        "{spec}: {} header(s) of {} asked, {} bytes moved in {} reads, whole wheel {} bytes",
        m.headers.len(),
        headers.len(),
        m.moved,
        m.reads,
        m.size
    );
    for (path, sha) in &m.headers {
        println!("  ranged {sha}  {path}");
    }
    if let Some(all) = &m.whole {
        for (path, sha) in all {
            println!("  whole  {sha}  {path}");
        }
        let same = *all == m.headers;
        println!(
            "  the ranged headers {} the whole wheel's",
            if same { "equal" } else { "DIFFER FROM" }
        );
        if !same {
            return Err(cushim::Error::new("the ranged and whole headers differ"));
        }
    }
    Ok(())
}
