//! The ranged fetch against a local server: a wheel built here, a report
//! written here, no network.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use sha2::{Digest, Sha256};

use super::hashes::HeaderHashes;
use super::pip::{Located, Source};
use super::server::{Host, Server};
use super::*;
use crate::library::Library;
use crate::pins::{Pin, Wheel};

const HEADER: &[u8] =
    b"/* nvrtc.h of the test wheel */\nint nvrtcVersion(int *major, int *minor);\n";
const PATH: &str = "pkg/include/nvrtc.h";
const MIB: usize = 1 << 20;

fn sha(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Bytes that do not compress.
fn noise(n: usize, mut seed: u64) -> Vec<u8> {
    (0..n)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        })
        .collect()
}

/// A wheel shaped like NVIDIA's: a library, the header, a bigger library,
/// the dist-info. The header sits between 1 MiB and 3 MiB of library.
fn wheel_with(header: &[u8]) -> Vec<u8> {
    use zip::write::SimpleFileOptions;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let stored = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let deflated =
        SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    let entries: [(&str, Vec<u8>, SimpleFileOptions); 4] = [
        ("pkg/lib/libfirst.so.1", noise(MIB, 1), stored),
        // A header of noise is stored: deflating it would only take time.
        (
            PATH,
            header.to_vec(),
            if header.len() > MIB { stored } else { deflated },
        ),
        ("pkg/lib/libbig.so.1", noise(3 * MIB, 2), stored),
        (
            "pkg-1.0.dist-info/RECORD",
            b"pkg/include/nvrtc.h,,\n".to_vec(),
            deflated,
        ),
    ];
    for (name, bytes, options) in entries {
        zip.start_file(name, options).unwrap();
        zip.write_all(&bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

fn nvrtc() -> &'static Library {
    crate::library::by_name("nvrtc").unwrap()
}

/// The test wheel as a pin, with the wheel's sha256 `wheel_sha`.
fn pin(wheel_sha: &str) -> Pin {
    Pin {
        cuda: "13.5".parse().unwrap(),
        wheels: vec![Wheel {
            name: "nvidia-test".into(),
            version: "1.0".into(),
            sha256: wheel_sha.into(),
        }],
    }
}

fn table(header_sha: &str) -> HeaderHashes {
    HeaderHashes::parse(&format!("nvidia-test 1.0 {PATH} {header_sha}\n"), "t.txt").unwrap()
}

/// The local server as pip would describe it, and the whole wheel for a
/// download.
struct Local {
    url: String,
    /// The sha256 that the report gives.
    listed: Option<String>,
    /// What a whole download gets.
    whole: Vec<u8>,
    allow_http: bool,
    downloads: AtomicU32,
}

impl Local {
    fn new(server: &Server, listed: &[u8], whole: Vec<u8>) -> Local {
        Local {
            url: server.url.clone(),
            listed: Some(sha(listed)),
            whole,
            allow_http: true,
            downloads: AtomicU32::new(0),
        }
    }

    fn downloads(&self) -> u32 {
        self.downloads.load(Ordering::SeqCst)
    }
}

impl Source for Local {
    fn locate(&self, _: &Wheel, dir: &Path) -> Result<Located, String> {
        let hashes = match &self.listed {
            Some(s) => format!(r#","archive_info":{{"hashes":{{"sha256":"{s}"}}}}"#),
            None => String::new(),
        };
        let report = format!(
            r#"{{"version":"1","install":[{{"download_info":{{"url":"{}"{hashes}}}}}]}}"#,
            self.url
        );
        let path = dir.join("report.json");
        fs::write(&path, report).map_err(|e| e.to_string())?;
        Ok(Located {
            report: path,
            index_bytes: Some(0),
        })
    }

    fn download(&self, _: &Wheel, dir: &Path) -> Result<(Vec<u8>, PathBuf), Error> {
        self.downloads.fetch_add(1, Ordering::SeqCst);
        Ok((self.whole.clone(), dir.join("nvidia_test-1.0.whl")))
    }

    fn allow_http(&self) -> bool {
        self.allow_http
    }
}

/// A fresh private cache for one test.
fn fresh(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cushim-ranged-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    private_dir(&dir).unwrap();
    dir
}

fn fetch_with(
    cache: &Path,
    pin: &Pin,
    source: &Local,
    hashes: &HeaderHashes,
) -> Result<PathBuf, Error> {
    include_dir_from(cache, nvrtc(), pin, source, hashes)
}

fn nothing_cached(cache: &Path) {
    let left: Vec<_> = fs::read_dir(cache)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(
        left.is_empty(),
        "nothing is cached or left behind: {left:?}"
    );
}

#[test]
fn only_the_central_directory_and_the_header_move() {
    let wheel = wheel_with(HEADER);
    assert!(wheel.len() > 4 * MIB);
    let server = Server::start(wheel.clone(), Host::Ranges);
    let source = Local::new(&server, &wheel, wheel.clone());
    let cache = fresh("needed");
    let include = fetch_with(&cache, &pin(&sha(&wheel)), &source, &table(&sha(HEADER))).unwrap();
    assert_eq!(fs::read(include.join("nvrtc.h")).unwrap(), HEADER);
    assert_eq!(source.downloads(), 0, "no whole download");
    // The tail (central directory) and one read around the header: a few
    // dozen KB of 4 MiB; neither library moved.
    assert!(server.sent() < 40_000, "{} bytes moved", server.sent());
    assert!(server.requests() <= 2, "{} requests", server.requests());
    // The next use checks the cache and moves nothing.
    fetch_with(&cache, &pin(&sha(&wheel)), &source, &table(&sha(HEADER))).unwrap();
    assert!(server.requests() <= 2);
    let _ = fs::remove_dir_all(&cache);
}

#[test]
fn a_tampered_header_fails_its_pinned_sha256_and_nothing_is_cached() {
    let wheel = wheel_with(HEADER);
    let tampered =
        wheel_with(b"/* nvrtc.h */\nint nvrtcVersion(int *major, int *minor); /* changed */\n");
    // The index lists the pinned wheel; the file host serves another.
    let server = Server::start(tampered, Host::Ranges);
    let source = Local::new(&server, &wheel, wheel.clone());
    let cache = fresh("tampered");
    let e = fetch_with(&cache, &pin(&sha(&wheel)), &source, &table(&sha(HEADER)))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(&format!("`{PATH}` of nvidia-test==1.0 has sha256 ")),
        "{e}"
    );
    assert!(
        e.contains(&format!(
            "but headers/header-sha256.txt pins {}",
            sha(HEADER)
        )),
        "{e}"
    );
    assert!(e.contains("nothing was cached"), "{e}");
    assert_eq!(
        source.downloads(),
        0,
        "a failed check is no reason to try again"
    );
    nothing_cached(&cache);
    let _ = fs::remove_dir_all(&cache);
}

#[test]
fn a_host_that_refuses_ranges_gets_the_whole_wheel_checked() {
    let wheel = wheel_with(HEADER);
    let server = Server::start(wheel.clone(), Host::Whole);
    let source = Local::new(&server, &wheel, wheel.clone());
    let cache = fresh("no-ranges");
    let include = fetch_with(&cache, &pin(&sha(&wheel)), &source, &table(&sha(HEADER))).unwrap();
    assert_eq!(fs::read(include.join("nvrtc.h")).unwrap(), HEADER);
    assert_eq!(source.downloads(), 1);
    assert_eq!(server.requests(), 1, "the first ranged read found out");
    let _ = fs::remove_dir_all(&cache);

    // The whole wheel is checked against the wheel's pin.
    let other = wheel_with(b"/* another */\n");
    let source = Local::new(&server, &wheel, other.clone());
    let cache = fresh("no-ranges-bad");
    let e = fetch_with(&cache, &pin(&sha(&wheel)), &source, &table(&sha(HEADER)))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(&format!(
            "has sha256 {}, but headers/pins-nvrtc.txt pins",
            sha(&other)
        )),
        "{e}"
    );
    nothing_cached(&cache);
    let _ = fs::remove_dir_all(&cache);
}

#[test]
fn a_wheel_without_pinned_header_hashes_is_downloaded_whole() {
    let wheel = wheel_with(HEADER);
    let server = Server::start(wheel.clone(), Host::Ranges);
    let source = Local::new(&server, &wheel, wheel.clone());
    let cache = fresh("unpinned");
    let include = fetch_with(
        &cache,
        &pin(&sha(&wheel)),
        &source,
        &HeaderHashes::default(),
    )
    .unwrap();
    assert_eq!(fs::read(include.join("nvrtc.h")).unwrap(), HEADER);
    assert_eq!((source.downloads(), server.requests()), (1, 0));

    // Nor a wheel whose header entry the table does not name.
    let other = HeaderHashes::parse(
        &format!(
            "nvidia-test 1.0 elsewhere/include/nvrtc.h {}\n",
            sha(HEADER)
        ),
        "t.txt",
    )
    .unwrap();
    let _ = fs::remove_dir_all(&cache);
    private_dir(&cache).unwrap();
    fetch_with(&cache, &pin(&sha(&wheel)), &source, &other).unwrap();
    assert_eq!(source.downloads(), 2);
    let _ = fs::remove_dir_all(&cache);
}

#[test]
fn a_report_that_lists_another_wheel_is_refused() {
    let wheel = wheel_with(HEADER);
    let server = Server::start(wheel.clone(), Host::Ranges);
    let source = Local::new(&server, b"another wheel", wheel.clone());
    let cache = fresh("listed");
    let e = fetch_with(&cache, &pin(&sha(&wheel)), &source, &table(&sha(HEADER)))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(&format!("pip locates nvidia-test==1.0 as a wheel with sha256 {}, but headers/pins-nvrtc.txt pins {}", sha(b"another wheel"), sha(&wheel))),
        "{e}"
    );
    assert_eq!((source.downloads(), server.requests()), (0, 0));
    nothing_cached(&cache);

    // A report without a sha256 is no objection: each header is checked.
    let source = Local {
        listed: None,
        ..Local::new(&server, &wheel, wheel.clone())
    };
    fetch_with(&cache, &pin(&sha(&wheel)), &source, &table(&sha(HEADER))).unwrap();
    assert_eq!(source.downloads(), 0);
    let _ = fs::remove_dir_all(&cache);
}

#[test]
fn only_https_is_read_outside_the_tests_and_redirects_stay_on_http_s() {
    let wheel = wheel_with(HEADER);
    let server = Server::start(wheel.clone(), Host::Ranges);
    let source = Local {
        allow_http: false,
        ..Local::new(&server, &wheel, wheel.clone())
    };
    let cache = fresh("https");
    fetch_with(&cache, &pin(&sha(&wheel)), &source, &table(&sha(HEADER))).unwrap();
    assert_eq!((source.downloads(), server.requests()), (1, 0));
    let _ = fs::remove_dir_all(&cache);

    // A redirect to a scheme that urllib would follow (ftp) or not (file)
    // stops the ranged reads; the fetch goes on with the whole wheel.
    for to in ["ftp://127.0.0.1:9/w.whl", "file:///etc/hostname"] {
        let redirect = Server::start(Vec::new(), Host::Redirect(to.into()));
        let source = Local::new(&redirect, &wheel, wheel.clone());
        let dir = fresh("redirect");
        let report = source.locate(&pin("").wheels[0], &dir).unwrap().report;
        let mut reader = super::ranged::Ranged::open(&report, true).unwrap().reader;
        let scheme = to.split(':').next().unwrap();
        let why = reader.start().unwrap_err();
        assert_eq!(
            why,
            format!("the wheel's host redirects to a {scheme} address, not https")
        );
        drop(reader);
        fetch_with(&dir, &pin(&sha(&wheel)), &source, &table(&sha(HEADER))).unwrap();
        assert_eq!(source.downloads(), 1);
        let _ = fs::remove_dir_all(&dir);
    }
}

#[test]
fn the_reader_joins_near_pieces_and_reads_nothing_twice() {
    let wheel = wheel_with(HEADER);
    let server = Server::start(wheel.clone(), Host::Ranges);
    let source = Local::new(&server, &wheel, wheel.clone());
    let dir = fresh("pieces");
    let report = source.locate(&pin("").wheels[0], &dir).unwrap().report;
    let mut reader = super::ranged::Ranged::open(&report, true).unwrap().reader;
    reader.start().unwrap();
    let size = wheel.len() as u64;
    assert_eq!(reader.size(), size);
    let tail = reader.moved();
    // Two pieces 100 KB apart are one read; a piece already here is not read.
    reader
        .prefetch(vec![1000..2000, 102_000..103_000, size - 10..size])
        .unwrap();
    assert_eq!(reader.moved() - tail, 102_000);
    assert_eq!(reader.reads(), 2);
    let mut all = Vec::new();
    std::io::Seek::seek(&mut reader, std::io::SeekFrom::Start(0)).unwrap();
    std::io::Read::read_to_end(&mut reader, &mut all).unwrap();
    assert_eq!(all, wheel, "what the reader gives is the wheel");
    assert_eq!(reader.moved(), size, "and no byte moved twice");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_fetch_says_which_way_it_went_and_what_moved() {
    let moved = |way, bytes, located, size| Moved {
        way,
        bytes,
        located,
        size,
        reads: 1,
    };
    let nvrtc_pin = pin("");
    assert_eq!(
        summary(nvrtc(), &nvrtc_pin, &["nvrtc.h"], &[moved(Way::Ranged, 38_400, 10_000, 58_185_930)]),
        "fetched nvrtc.h of CUDA 13.5 (nvrtc): 1 header, 38 KB moved (ranged, 10 KB of it to locate them; the whole wheel is 58.2 MB)"
    );
    let headers = DRIVER.header_files();
    assert_eq!(
        summary(&DRIVER, &nvrtc_pin, &headers, &[moved(Way::Ranged, 900_000, 3_000, 3_000_000), moved(Way::Whole, 20_000, 0, 20_000)]),
        "fetched cuda.h, cudaTypedefs.h and 8 more of CUDA 13.5: 10 headers, 920 KB moved (ranged for 1 of 2 wheels, 3 KB of it to locate them; the whole wheels are 3.0 MB)"
    );
    assert_eq!(
        summary(
            &DRIVER,
            &nvrtc_pin,
            &headers[..2],
            &[moved(Way::Whole, 812, 0, 812)]
        ),
        "fetched cuda.h and cudaTypedefs.h of CUDA 13.5: 2 headers, 812 B moved (whole wheel)"
    );
}

#[test]
fn the_shipped_table_pins_every_header_of_every_pinned_release() {
    let table = HeaderHashes::shipped().unwrap();
    for library in crate::library::LIBRARIES {
        for pin in crate::pins::all_for(library) {
            let mut wanted = library.header_files();
            for wheel in &pin.wheels {
                let names: Vec<String> = table.of(wheel).iter().map(|f| f.path.clone()).collect();
                for (header, _) in super::wheel::choose(&names, &wanted, &super::wheel::none) {
                    wanted.retain(|h| *h != header);
                }
            }
            assert!(
                wanted.is_empty(),
                "{} {}: no pinned sha256 for {wanted:?}",
                library.name,
                pin.cuda
            );
        }
    }
}

#[test]
fn a_header_past_the_caps_moves_nothing_and_fails_clearly() {
    // 33 MiB that do not compress: more than a ranged fetch may move, and
    // more than either way takes as one header.
    let huge = noise(33 * MIB, 3);
    let wheel = wheel_with(&huge);
    let wheel_sha = sha(&wheel);
    let server = Server::start(wheel.clone(), Host::Ranges);
    let source = Local {
        listed: Some(wheel_sha.clone()),
        ..Local::new(&server, b"", wheel)
    };
    let cache = fresh("caps");
    // No header is read, so the table's sha256 does not matter.
    let e = fetch_with(&cache, &pin(&wheel_sha), &source, &table(&sha(HEADER)))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(&format!("`{PATH}` is larger than 32 MiB")),
        "{e}"
    );
    assert_eq!(source.downloads(), 1, "the ranged way gave up first");
    assert!(
        server.sent() <= 16 << 10,
        "only the tail moved: {}",
        server.sent()
    );
    nothing_cached(&cache);
    let _ = fs::remove_dir_all(&cache);
}

/// A wheel that pip can install: the test wheel's header and a library,
/// with the dist-info pip reads.
fn installable_wheel() -> Vec<u8> {
    use zip::write::SimpleFileOptions;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let stored = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let info = "nvidia_test-1.0.dist-info";
    let entries: [(String, Vec<u8>); 5] = [
        ("pkg/lib/libbig.so.1".into(), noise(2 * MIB, 3)),
        (PATH.into(), HEADER.to_vec()),
        (
            format!("{info}/METADATA"),
            b"Metadata-Version: 2.1\nName: nvidia-test\nVersion: 1.0\n".to_vec(),
        ),
        (
            format!("{info}/WHEEL"),
            b"Wheel-Version: 1.0\nGenerator: cushim-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
                .to_vec(),
        ),
        (format!("{info}/RECORD"), Vec::new()),
    ];
    for (name, bytes) in entries {
        zip.start_file(name, stored).unwrap();
        zip.write_all(&bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// pip locates a pinned wheel by asking the index it is configured with,
/// never by downloading the wheel: against a local index, locating moves
/// the project's page and not one byte of the wheel, and says how many
/// bytes the index sent. (pip's `install --dry-run --report`, which
/// located wheels before, downloaded the whole wheel first.)
#[test]
fn pip_locates_a_wheel_through_its_index_without_downloading_it() {
    let wheel = installable_wheel();
    let file = "nvidia_test-1.0-py3-none-any.whl";
    let page = format!(
        "<!DOCTYPE html>\n<html><body><a href=\"/files/{file}#sha256={}\">{file}</a></body></html>\n",
        sha(&wheel)
    );
    let server = Server::start(wheel.clone(), Host::Index(page.clone()));
    let root = server.root().to_string();
    let dir = fresh("index");
    let cache = dir.join("pip-cache");
    let pip = super::pip::Pip::with_env(&[
        ("PIP_CONFIG_FILE", "/dev/null"),
        ("PIP_INDEX_URL", &format!("{root}/simple/")),
        ("PIP_EXTRA_INDEX_URL", ""),
        ("PIP_FIND_LINKS", ""),
        ("PIP_TRUSTED_HOST", root.trim_start_matches("http://")),
        ("PIP_CACHE_DIR", cache.to_str().unwrap()),
    ]);
    let located = pip.locate(&pin(&sha(&wheel)).wheels[0], &dir).unwrap();
    assert_eq!(
        server.sent(),
        0,
        "not one byte of the {}-byte wheel moves",
        wheel.len()
    );
    assert_eq!(
        server.pages(),
        page.len() as u64,
        "the project's page moved"
    );
    assert_eq!(located.index_bytes, Some(server.pages()));
    let report = fs::read_to_string(&located.report).unwrap();
    assert!(
        report.contains(&format!("\"{root}/files/{file}\"")),
        "{report}"
    );
    assert!(report.contains(&sha(&wheel)), "{report}");
    // A version the index does not list is an error that names it.
    let missing = Wheel {
        version: "2.0".into(),
        ..pin("").wheels[0].clone()
    };
    let e = pip.locate(&missing, &dir).unwrap_err();
    assert!(e.contains("nvidia-test==2.0"), "{e}");
    assert_eq!(server.sent(), 0);
    let _ = fs::remove_dir_all(&dir);
}
