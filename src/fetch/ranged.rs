//! A wheel read through HTTP ranges: a `Read + Seek` file whose bytes come
//! on demand from a small Python reader (`ranged.py`, standard library
//! only, run with the same `python3` that runs pip), so that the `zip`
//! crate reads the central directory and the wanted entries and nothing
//! else moves. Every byte read stays in memory; nothing is read twice.
//!
//! Everything the reader is told is untrusted: the address comes from pip's
//! report, the bytes from the network. The reader allows only https (and
//! its redirects only to https), caps what one wheel may move, and ends
//! after a deadline; the headers it yields are checked against their pinned
//! sha256 before any is used.

use std::collections::BTreeMap;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

use tempfile::TempDir;

use super::python::{python3, Python};

const SCRIPT: &str = include_str!("ranged.py");

/// The most that the ranged reads of one wheel may move; past it the
/// fetch downloads the whole wheel instead.
pub(super) const MOVE_LIMIT: u64 = 32 << 20;
/// What the first read takes from the end of the wheel: the end of the
/// central directory, and all of it for a wheel of a few dozen files.
const TAIL: u64 = 16 << 10;
/// The fewest bytes a read asks for when the `zip` crate reads past what
/// is here.
const MIN_READ: u64 = 16 << 10;
/// Two wanted pieces closer than this are read as one: a few hundred KiB
/// cost less than another connection.
const GAP: u64 = 256 << 10;
/// The seconds that all reads of one wheel may take together.
const SECONDS: u64 = 120;
/// The longest answer line of the reader.
const LINE_LIMIT: u64 = 4096;

/// Why the ranged way stopped; the fetch then downloads the whole wheel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Refused(pub String);

/// One wheel, read through ranges.
pub(super) struct Ranged {
    child: Child,
    to: ChildStdin,
    from: BufReader<ChildStdout>,
    #[cfg(unix)]
    watchdog: Option<(std::sync::mpsc::Sender<()>, std::thread::JoinHandle<()>)>,
    size: u64,
    /// What was read, by offset; the pieces never overlap.
    pieces: BTreeMap<u64, Vec<u8>>,
    pos: u64,
    moved: u64,
    reads: u32,
    /// The first failure, in words; a read error of the `zip` crate hides it.
    failure: Option<String>,
    /// The reader's private working directory, removed with the reader.
    _work: TempDir,
}

/// What the start of a ranged read tells.
pub(super) struct Opened {
    /// The reader, before its first read ([`Ranged::start`]).
    pub reader: Ranged,
    /// The wheel's sha256 as pip's report gives it, when it gives one.
    pub sha256: Option<String>,
}

impl Ranged {
    /// Starts the reader on the wheel that pip's `report` names; nothing
    /// is read yet. `allow_http` is for the tests' local server.
    pub fn open(report: &Path, allow_http: bool) -> Result<Opened, Refused> {
        // Sealed as `super::python` says: -I, a private working directory
        // beside the report, and a cleared environment.
        let beside = report
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let Python { mut command, work } =
            python3(beside).map_err(|e| Refused(format!("cannot prepare to run python3: {e}")))?;
        let mut child = command
            .args(["-c", SCRIPT])
            .arg(report)
            .arg(if allow_http { "1" } else { "0" })
            .arg(SECONDS.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Refused(format!("cannot run python3 for the ranged reads: {e}")))?;
        let (Some(to), Some(from)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Refused("python3 started without pipes".into()));
        };
        let mut reader = Ranged {
            #[cfg(unix)]
            watchdog: Some(watchdog(child.id())),
            child,
            to,
            from: BufReader::new(from),
            size: 0,
            pieces: BTreeMap::new(),
            pos: 0,
            moved: 0,
            reads: 0,
            failure: None,
            _work: work,
        };
        let first = reader.line().map_err(Refused)?;
        let sha256 = match first.split_once(' ') {
            Some(("wheel", "-")) => None,
            Some(("wheel", sha))
                if sha.len() == 64 && sha.bytes().all(|b| b.is_ascii_hexdigit()) =>
            {
                Some(sha.to_string())
            }
            Some(("unusable" | "fail" | "no-range", why)) => return Err(Refused(why.to_string())),
            _ => return Err(Refused(unexpected(&first))),
        };
        Ok(Opened { reader, sha256 })
    }

    /// The wheel's size, as the host says.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The bytes of the wheel that moved so far.
    pub fn moved(&self) -> u64 {
        self.moved
    }

    /// How many ranged reads there were.
    pub fn reads(&self) -> u32 {
        self.reads
    }

    /// The first failure of a read, in words.
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }

    /// Reads each of `ranges` that is not here yet, joining those closer
    /// than [`GAP`], so that reading them afterwards moves nothing.
    pub fn prefetch(&mut self, mut ranges: Vec<Range<u64>>) -> Result<(), String> {
        ranges.retain(|r| r.start < r.end);
        ranges.sort_by_key(|r| r.start);
        let mut joined: Vec<Range<u64>> = Vec::new();
        for r in ranges {
            let r = r.start.min(self.size)..r.end.min(self.size);
            match joined.last_mut() {
                Some(last) if r.start <= last.end.saturating_add(GAP) => {
                    last.end = last.end.max(r.end);
                }
                _ => joined.push(r),
            }
        }
        for r in joined {
            let mut at = r.start;
            while at < r.end {
                if let Some(end) = self.covered_until(at) {
                    at = end;
                    continue;
                }
                let stop = self.next_piece(at).unwrap_or(u64::MAX).min(r.end);
                self.get(at, stop - at)?;
                at = stop;
            }
        }
        Ok(())
    }

    /// Where the piece that holds `at` ends, if one does.
    fn covered_until(&self, at: u64) -> Option<u64> {
        let (start, bytes) = self.pieces.range(..=at).next_back()?;
        let end = start + bytes.len() as u64;
        (at < end).then_some(end)
    }

    /// The start of the first piece after `at`.
    fn next_piece(&self, at: u64) -> Option<u64> {
        self.pieces.range(at + 1..).next().map(|(s, _)| *s)
    }

    /// The first read: the wheel's last [`TAIL`] bytes, and its size.
    pub fn start(&mut self) -> Result<(), String> {
        self.ask(&format!("tail {TAIL}\n"))?;
        let (size, first, length) = self.answer()?;
        if length != TAIL.min(size) || first.checked_add(length) != Some(size) {
            return self.fail("the reader answered another range than the one asked for");
        }
        self.size = size;
        self.receive(first, length)
    }

    /// Reads `length` bytes at `start`.
    fn get(&mut self, start: u64, length: u64) -> Result<(), String> {
        if self.moved.saturating_add(length) > MOVE_LIMIT {
            return self.fail(&format!(
                "reading the headers would move more than {} MiB",
                MOVE_LIMIT >> 20
            ));
        }
        self.ask(&format!("get {start} {length}\n"))?;
        let (size, first, got) = self.answer()?;
        if size != self.size {
            return self.fail("the wheel changed size between two reads");
        }
        if first != start || got != length {
            return self.fail("the reader answered another range than the one asked for");
        }
        self.receive(first, length)
    }

    fn ask(&mut self, request: &str) -> Result<(), String> {
        if let Some(why) = &self.failure {
            return Err(why.clone());
        }
        if self
            .to
            .write_all(request.as_bytes())
            .and_then(|()| self.to.flush())
            .is_err()
        {
            return self.fail("the ranged reader stopped");
        }
        Ok(())
    }

    /// Reads an `ok <size> <first> <length>` line.
    fn answer(&mut self) -> Result<(u64, u64, u64), String> {
        let line = self.line()?;
        let words: Vec<&str> = line.split(' ').collect();
        match words.as_slice() {
            ["ok", size, first, length] => match (size.parse(), first.parse(), length.parse()) {
                (Ok(size), Ok(first), Ok(length)) if length <= MOVE_LIMIT => {
                    Ok((size, first, length))
                }
                _ => self.fail(&unexpected(&line)),
            },
            ["no-range" | "fail" | "unusable", ..] => {
                let why = line.split_once(' ').map_or("", |(_, w)| w).to_string();
                self.fail(&why)
            }
            _ => self.fail(&unexpected(&line)),
        }
    }

    /// Takes `length` bytes of the answer as the piece at `first`.
    fn receive(&mut self, first: u64, length: u64) -> Result<(), String> {
        let Ok(length_here) = usize::try_from(length) else {
            return self.fail("an answer too large for this machine");
        };
        let mut bytes = vec![0; length_here];
        if self.from.read_exact(&mut bytes).is_err() {
            return self.fail("the ranged reader stopped in the middle of an answer");
        }
        self.moved += length;
        self.reads += 1;
        self.pieces.insert(first, bytes);
        Ok(())
    }

    /// One answer line, without its newline.
    fn line(&mut self) -> Result<String, String> {
        let mut raw = Vec::new();
        let read = (&mut self.from)
            .take(LINE_LIMIT)
            .read_until(b'\n', &mut raw);
        match read {
            Ok(_) if raw.last() == Some(&b'\n') => {
                raw.pop();
                Ok(String::from_utf8_lossy(&raw).into_owned())
            }
            Ok(0) => self.fail("the ranged reader ended without an answer (python3 missing, killed, or out of time)"),
            _ => self.fail("the ranged reader's answer is cut short"),
        }
    }

    /// Records the first failure and returns it.
    fn fail<T>(&mut self, why: &str) -> Result<T, String> {
        let why = self.failure.get_or_insert_with(|| why.to_string()).clone();
        Err(why)
    }
}

fn unexpected(line: &str) -> String {
    let shown: String = line.chars().take(80).collect();
    format!("the ranged reader answered `{}`", shown.escape_debug())
}

impl Read for Ranged {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() || self.pos >= self.size {
            return Ok(0);
        }
        if self.covered_until(self.pos).is_none() {
            let want = (buf.len() as u64).max(MIN_READ);
            let end = self
                .next_piece(self.pos)
                .unwrap_or(u64::MAX)
                .min(self.size)
                .min(self.pos.saturating_add(want));
            self.get(self.pos, end - self.pos)
                .map_err(io::Error::other)?;
        }
        let here = self
            .pieces
            .range(..=self.pos)
            .next_back()
            .and_then(|(start, bytes)| bytes.get(usize::try_from(self.pos - start).ok()?..))
            .filter(|rest| !rest.is_empty());
        let Some(rest) = here else {
            return Err(io::Error::other("a ranged read left a hole"));
        };
        let n = buf.len().min(rest.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.pos += n as u64;
        Ok(n)
    }
}

impl Seek for Ranged {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let pos = match to {
            SeekFrom::Start(p) => Some(p),
            SeekFrom::End(d) => self.size.checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        let pos = pos.ok_or_else(|| io::Error::other("a seek before the start of the wheel"))?;
        self.pos = pos;
        Ok(pos)
    }
}

impl Drop for Ranged {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Some((stop, thread)) = self.watchdog.take() {
            drop(stop);
            let _ = thread.join();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Kills the reader if it outlives its deadline (a name lookup, for one,
/// is not bound by its socket timeout). Dropping the sender ends the
/// watch; the reader is reaped only after that, so its pid cannot have
/// been reused when the kill comes.
#[cfg(unix)]
fn watchdog(pid: u32) -> (std::sync::mpsc::Sender<()>, std::thread::JoinHandle<()>) {
    let (stop, stopped) = std::sync::mpsc::channel::<()>();
    let thread = std::thread::spawn(move || {
        let limit = std::time::Duration::from_secs(SECONDS + 15);
        if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(limit) {
            if let Ok(pid) = libc::pid_t::try_from(pid) {
                // SAFETY: kill has no memory preconditions; the pid is our
                // unreaped child's (see above).
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
        }
    });
    (stop, thread)
}
