//! A tiny HTTP server for the tests: serves one body, with byte ranges or
//! (as some hosts do) without, and counts the body bytes it sends.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// How the server answers a request.
#[derive(Clone, Debug)]
pub enum Host {
    /// The range asked for, with status 206.
    Ranges,
    /// The whole body with status 200, whatever the range (as some hosts do).
    Whole,
    /// A redirect to this address.
    Redirect(String),
    /// A package index: this HTML page (a project's simple page) for any
    /// path under `/simple/`, the body with ranges for any other path.
    Index(String),
}

/// A running server; it stops serving when dropped.
pub struct Server {
    /// Example: `http://127.0.0.1:4242/w.whl`.
    pub url: String,
    sent: Arc<AtomicU64>,
    pages: Arc<AtomicU64>,
    requests: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
}

impl Server {
    /// Serves `body` at `/w.whl`, as `host` says.
    pub fn start(body: Vec<u8>, host: Host) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/w.whl", listener.local_addr().unwrap());
        let sent = Arc::new(AtomicU64::new(0));
        let pages = Arc::new(AtomicU64::new(0));
        let requests = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (s, p, r, st) = (sent.clone(), pages.clone(), requests.clone(), stop.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if st.load(Ordering::SeqCst) {
                    return;
                }
                let Ok(stream) = stream else { continue };
                r.fetch_add(1, Ordering::SeqCst);
                let (n, page) = answer(stream, &body, &host);
                if page { &p } else { &s }.fetch_add(n, Ordering::SeqCst);
            }
        });
        Server {
            url,
            sent,
            pages,
            requests,
            stop,
        }
    }

    /// The server's root. Example: `http://127.0.0.1:4242`.
    pub fn root(&self) -> &str {
        self.url.trim_end_matches("/w.whl")
    }

    /// Body bytes of index pages sent so far ([`Host::Index`]).
    pub fn pages(&self) -> u64 {
        self.pages.load(Ordering::SeqCst)
    }

    /// Body bytes sent so far, index pages apart.
    pub fn sent(&self) -> u64 {
        self.sent.load(Ordering::SeqCst)
    }

    /// Requests answered so far.
    pub fn requests(&self) -> u64 {
        self.requests.load(Ordering::SeqCst)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so that it sees the flag.
        let address = self.url.trim_start_matches("http://");
        let address = address.split('/').next().unwrap_or("");
        let _ = TcpStream::connect(address);
    }
}

/// Answers one request; returns the body bytes sent, and whether they were
/// an index page's.
fn answer(mut stream: TcpStream, body: &[u8], host: &Host) -> (u64, bool) {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && head.len() < 16 << 10 {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return (0, false),
        }
    }
    let head = String::from_utf8_lossy(&head).to_string();
    if let Host::Redirect(to) = host {
        let out = format!(
            "HTTP/1.1 302 Found\r\nLocation: {to}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        );
        let _ = stream.write_all(out.as_bytes());
        return (0, false);
    }
    let path = head.split(' ').nth(1).unwrap_or("");
    if let (Host::Index(page), true) = (host, path.starts_with("/simple/")) {
        let out = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
            page.len()
        );
        if stream.write_all(out.as_bytes()).is_err() {
            return (0, true);
        }
        return (page.len() as u64, true);
    }
    let range = head
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("range")
                .then(|| value.trim().to_string())
        })
        .filter(|_| matches!(host, Host::Ranges | Host::Index(_)));
    let size = body.len() as u64;
    let span = range.and_then(|r| {
        let (a, b) = r.strip_prefix("bytes=")?.split_once('-')?;
        match (a.parse::<u64>().ok(), b.parse::<u64>().ok()) {
            (None, Some(n)) => Some((size.saturating_sub(n), size - 1)),
            (Some(a), Some(b)) => Some((a, b.min(size - 1))),
            (Some(a), None) => Some((a, size - 1)),
            (None, None) => None,
        }
    });
    let (status, first, last) = match span {
        Some((a, b)) if a <= b && b < size => ("206 Partial Content", a, b),
        _ => ("200 OK", 0, size - 1),
    };
    let part = &body[first as usize..=last as usize];
    let mut out = format!(
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n",
        part.len()
    );
    if status.starts_with("206") {
        out.push_str(&format!("Content-Range: bytes {first}-{last}/{size}\r\n"));
    }
    out.push_str("\r\n");
    if stream.write_all(out.as_bytes()).is_err() || stream.write_all(part).is_err() {
        return (0, false);
    }
    (part.len() as u64, false)
}
