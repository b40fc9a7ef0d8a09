# cushim's byte-range reader (driven by src/fetch/ranged.rs): reads parts of
# one wheel over HTTP ranges, with Python's standard library only, so that a
# fetch moves the headers it needs and not the libraries around them.
#
# Arguments: the JSON report of `pip install --dry-run --report`, "1" when
# plain http is allowed (the tests' local server; "0" otherwise), and the
# number of seconds all reads may take together.
#
# The first answer is "wheel <sha256>" ("-" when the report gives none) or
# "unusable <why>". Then each line on stdin asks for a range, "tail <n>" (the
# last n bytes) or "get <start> <length>", and each answer is
# "ok <size of the wheel> <start> <length>" followed by exactly <length>
# bytes, or "no-range <why>" (the host does not serve ranges) or
# "fail <why>". After any answer but "ok" the reader exits.

import http.client
import json
import re
import ssl
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

REPORT_LIMIT = 16 << 20
LINE_LIMIT = 256
PIECE = 1 << 16
SOCKET_SECONDS = 30.0


class Stop(Exception):
    def __init__(self, kind, why):
        super().__init__(why)
        self.kind = kind
        self.why = why


def answer(line):
    flat = " ".join(str(line).split())
    sys.stdout.buffer.write(flat.encode("utf-8", "replace") + b"\n")
    sys.stdout.buffer.flush()


def field(value, key):
    return value.get(key) if isinstance(value, dict) else None


def wheel_of(report_path):
    """The wheel address and sha256 that pip's report names."""
    try:
        with open(report_path, "rb") as f:
            raw = f.read(REPORT_LIMIT + 1)
    except OSError as e:
        raise Stop("unusable", f"cannot read pip's report: {e.strerror}")
    if len(raw) > REPORT_LIMIT:
        raise Stop("unusable", "pip's report is larger than 16 MiB")
    try:
        report = json.loads(raw)
    except (ValueError, RecursionError):
        raise Stop("unusable", "pip's report is not JSON")
    install = field(report, "install")
    if not isinstance(install, list) or len(install) != 1:
        raise Stop("unusable", "pip's report does not name exactly one wheel")
    info = field(install[0], "download_info")
    url = field(info, "url")
    if not isinstance(url, str) or not url:
        raise Stop("unusable", "pip's report gives no address for the wheel")
    sha256 = field(field(field(info, "archive_info"), "hashes"), "sha256")
    if not isinstance(sha256, str) or not re.fullmatch("[0-9a-f]{64}", sha256):
        sha256 = "-"
    return url, sha256


class Redirects(urllib.request.HTTPRedirectHandler):
    """Follows at most 5 redirects, and only to the allowed schemes."""

    max_redirections = 5

    def __init__(self, schemes):
        super().__init__()
        self.schemes = schemes

    def check(self, req, headers):
        target = headers.get("location") or headers.get("uri") or ""
        scheme = urllib.parse.urlsplit(urllib.parse.urljoin(req.full_url, target)).scheme.lower()
        if scheme not in self.schemes:
            raise Stop("fail", f"the wheel's host redirects to a {scheme} address, not https")

    def http_error_302(self, req, fp, code, msg, headers):
        self.check(req, headers)
        return super().http_error_302(req, fp, code, msg, headers)

    http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302


def left(deadline):
    seconds = deadline - time.monotonic()
    if seconds <= 0:
        raise Stop("fail", "the ranged reads took too long")
    return seconds


def read_range(opener, url, spec, deadline):
    """One ranged GET: (first byte, size of the file, body)."""
    request = urllib.request.Request(
        url,
        headers={"Range": spec, "Accept-Encoding": "identity", "User-Agent": "cushim"},
    )
    try:
        response = opener.open(request, timeout=min(SOCKET_SECONDS, left(deadline)))
    except urllib.error.HTTPError as e:
        if e.code == 416:
            raise Stop("no-range", "the host refuses the range asked for (HTTP 416)")
        raise Stop("fail", f"the wheel's host answers HTTP {e.code}")
    except (urllib.error.URLError, OSError, http.client.HTTPException, ValueError) as e:
        raise Stop("fail", f"cannot reach the wheel's host: {e}")
    with response:
        if response.status != 206:
            raise Stop("no-range", f"the host answers a ranged read with HTTP {response.status}")
        encoding = response.headers.get("Content-Encoding", "identity").strip().lower()
        if encoding not in ("", "identity"):
            raise Stop("no-range", f"the host sends the range encoded ({encoding})")
        found = re.fullmatch(
            r"bytes (\d{1,15})-(\d{1,15})/(\d{1,15})",
            response.headers.get("Content-Range", "").strip(),
        )
        if not found:
            raise Stop("no-range", "the host's ranged answer has no usable Content-Range")
        first, last, size = (int(g) for g in found.groups())
        if last < first or last >= size:
            raise Stop("fail", "the host's Content-Range is inconsistent")
        want = last - first + 1
        pieces, got = [], 0
        while got < want:
            left(deadline)
            piece = response.read(min(PIECE, want - got))
            if not piece:
                raise Stop("fail", "the host's answer ended early")
            pieces.append(piece)
            got += len(piece)
        if response.read(1):
            raise Stop("fail", "the host sent more than its Content-Range says")
        return first, size, b"".join(pieces)


def serve(url, schemes, deadline):
    # One TLS context for every read: the certificate store is loaded once
    # per wheel, not once per range.
    tls = urllib.request.HTTPSHandler(context=ssl.create_default_context())
    opener = urllib.request.build_opener(Redirects(schemes), tls)
    out = sys.stdout.buffer
    size = None
    while True:
        line = sys.stdin.buffer.readline(LINE_LIMIT + 1)
        if not line:
            return
        words = line.decode("ascii", "replace").split()
        if len(words) == 2 and words[0] == "tail" and words[1].isdigit():
            count = int(words[1])
            if count < 1:
                raise Stop("fail", "a request for no bytes")
            first, total, body = read_range(opener, url, f"bytes=-{count}", deadline)
            if len(body) != min(count, total) or first + len(body) != total:
                raise Stop("fail", "the host answers another range than the one asked for")
        elif len(words) == 3 and words[0] == "get" and words[1].isdigit() and words[2].isdigit():
            start, count = int(words[1]), int(words[2])
            if count < 1:
                raise Stop("fail", "a request for no bytes")
            spec = f"bytes={start}-{start + count - 1}"
            first, total, body = read_range(opener, url, spec, deadline)
            if first != start or len(body) != count:
                raise Stop("fail", "the host answers another range than the one asked for")
        else:
            raise Stop("fail", "a request this reader does not know")
        if size is not None and total != size:
            raise Stop("fail", "the wheel changed size between two reads")
        size = total
        out.write(f"ok {total} {first} {len(body)}\n".encode("ascii"))
        out.write(body)
        out.flush()


def main():
    try:
        report, allow_http, seconds = sys.argv[1], sys.argv[2] == "1", float(sys.argv[3])
        deadline = time.monotonic() + seconds
        schemes = ("https", "http") if allow_http else ("https",)
        url, sha256 = wheel_of(report)
        scheme = urllib.parse.urlsplit(url).scheme.lower()
        if scheme not in schemes:
            raise Stop("unusable", f"pip's report gives a {scheme or 'relative'} address, not https")
        answer(f"wheel {sha256}")
        serve(url, schemes, deadline)
    except Stop as stop:
        answer(f"{stop.kind} {stop.why}")
    except BrokenPipeError:
        pass
    except Exception as e:  # anything else ends the reads with its reason
        answer(f"fail {type(e).__name__}: {e}")


main()
