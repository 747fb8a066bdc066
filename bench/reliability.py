"""Bounded reliability checks of the running app's limits, uploads and isolation: loopback only, stops by itself.

    python bench/reliability.py --data-dir /tmp/lr_bench [--parts a,b,c,d] [--soak 50] [--json out.json]

Starts ``app.create_server`` under uvicorn on 127.0.0.1 and a free port in a child process, as ``bench/load.py``
does (the index under ``--data-dir`` must have been built by ``legal-rag index``; uploads are written under that
directory's ``uploads/`` and removed again), waits until it answers, then runs:

a. ``big``: a 10 MB body (``{"question": "aaa…"}``) to ``POST /api/ask``, sent with a Content-Length and again
   chunked (no length), and a 10 MB event body to ``POST /gradio_api/queue/join``, each from a raw socket (time to
   the first byte of the answer, body bytes sent before it) and once from httpx; the server's RSS (process and
   children) before, at its peak while the body is sent, and after.
b. ``soak``: one client uploads ``--soak`` small distinct two-page PDFs (made here with reportlab) through
   ``POST /api/uploads?wait=120``, then removes each; the server's open file descriptors, threads, child
   processes and RSS are sampled before, after upload 1, 10, 25 and the last, and after the removals.
c. ``bad``: a table of malformed requests (bad JSON, wrong types, unknown fields, oversized, NUL and control
   characters, impossible dates, bad filters, non-PDF uploads, path traversal under ``/source``, a client-named
   path in a Gradio upload event, …): each one's status against the expected one; no answer may be a 500 or name
   a path the client sent.
d. ``users``: user A uploads a PDF; user B's answers to three questions are byte-identical before and after; B
   cannot list, read, cancel or remove A's upload; A's own answer cites it.

Each simulated user is one ``httpx.Client`` (it keeps the ``lr_owner`` cookie the server sets). Every part is
bounded in count and time (``--deadline`` seconds for the whole run). Prints a summary and, with ``--json``,
writes every figure and, for any 500, the server's stderr. Exit status 1 on any 500 or failed expectation, 2
without an index. Nothing but 127.0.0.1 is ever contacted.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import HOST, free_port, has_index, rss_tree, server_args, start_server, wait_ready  # noqa: E402

MiB = 2**20
BIG_CHARS = 10_000_000


# ------------------------------------------------------------------------------------------------ server + probes

class Server:
    """The app under uvicorn in a child process (``bench.load.start_server``), its stderr kept line by line."""

    def __init__(self, data_dir: Path, ready_timeout: float):
        self.port = free_port()
        self.base = f"http://{HOST}:{self.port}"
        self.popen = start_server(data_dir, self.port)
        self.proc = psutil.Process(self.popen.pid)
        self.stderr: list[str] = []
        self.drain = threading.Thread(target=self.read_stderr, daemon=True)
        self.drain.start()
        t0 = time.perf_counter()
        wait_ready(self.base, self.popen, ready_timeout)
        self.ready_s = time.perf_counter() - t0

    def read_stderr(self) -> None:
        for line in self.popen.stderr:
            self.stderr.append(line.rstrip("\n"))

    def sample(self) -> dict:
        """Open file descriptors and threads of the server process, its child processes, RSS of all (MiB)."""
        kids = self.proc.children(recursive=True)
        return {"fds": self.proc.num_fds(), "threads": self.proc.num_threads(), "children": len(kids),
                "rss_mib": round(rss_tree(self.proc) / MiB, 1)}

    def alive(self) -> bool:
        return self.popen.poll() is None

    def stop(self) -> None:
        self.popen.terminate()
        try:
            self.popen.wait(30)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait(10)
        self.drain.join(5)


class PeakRss:
    """RSS of the server tree sampled every ``every`` seconds while in the ``with`` block: the peak, in MiB."""

    def __init__(self, proc: psutil.Process, every: float = 0.02):
        self.proc, self.every, self.peak = proc, every, 0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            self.peak = max(self.peak, rss_tree(self.proc))
            self.stop.wait(self.every)

    def __enter__(self) -> PeakRss:
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(5)

    @property
    def peak_mib(self) -> float:
        return round(self.peak / MiB, 1)


def raw_request(port: int, method: str, path: str, body: bytes = b"", headers: dict | None = None,
                chunked: bool = False, timeout: float = 60.0) -> dict:
    """Send one request from a raw socket, reading whatever the server answers while the body is still being sent
    (a server that answers from the headers alone is seen doing so). Returns the status (or None), the seconds to
    the answer's first byte, the body bytes sent by then and in all, and the send or receive error if any."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{port}", "Connection: close"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    if chunked:
        lines.append("Transfer-Encoding: chunked")
        step = 64 * 1024
        payload = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + step]), body[i:i + step])
                           for i in range(0, len(body), step)) + b"0\r\n\r\n"
    else:
        if not any(k.lower() == "content-length" for k in (headers or {})):
            lines.append(f"Content-Length: {len(body)}")
        payload = body
    head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
    out = memoryview(head + payload)
    sent, got = 0, b""
    first = sent_at_first = None
    send_error = recv_error = None
    t0 = time.perf_counter()
    sock = socket.create_connection((HOST, port), timeout=timeout)
    sock.setblocking(False)
    sel = selectors.DefaultSelector()
    sel.register(sock, selectors.EVENT_READ | selectors.EVENT_WRITE)
    writing = True
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            for _, mask in sel.select(0.5):
                if mask & selectors.EVENT_READ:
                    try:
                        data = sock.recv(256 * 1024)
                    except (ConnectionResetError, BrokenPipeError) as exc:
                        recv_error = type(exc).__name__
                        data = b""
                    except BlockingIOError:
                        continue
                    if not data:
                        raise StopIteration
                    if first is None:
                        first, sent_at_first = time.perf_counter() - t0, max(0, sent - len(head))
                    got += data
                    if response_complete(got):
                        raise StopIteration
                if writing and mask & selectors.EVENT_WRITE:
                    try:
                        sent += sock.send(out[sent:sent + 256 * 1024])
                    except (ConnectionResetError, BrokenPipeError) as exc:
                        send_error = type(exc).__name__
                    except BlockingIOError:
                        continue
                    if send_error or sent >= len(out):
                        writing = False
                        sel.modify(sock, selectors.EVENT_READ)
    except StopIteration:
        pass
    finally:
        sel.close()
        sock.close()
    status = None
    if got.startswith(b"HTTP/"):
        try:
            status = int(got.split(b" ", 2)[1])
        except (IndexError, ValueError):
            pass
    return {"status": status, "to_first_byte_s": round(first, 3) if first is not None else None,
            "body_sent_before_answer": sent_at_first, "body_sent": max(0, sent - len(head)),
            "body_size": len(payload), "send_error": send_error, "recv_error": recv_error,
            "answer": got.partition(b"\r\n\r\n")[2][:300].decode("utf-8", "replace"),
            "total_s": round(time.perf_counter() - t0, 3)}


def response_complete(got: bytes) -> bool:
    head, sep, body = got.partition(b"\r\n\r\n")
    if not sep:
        return False
    for line in head.split(b"\r\n")[1:]:
        k, _, v = line.partition(b":")
        if k.strip().lower() == b"content-length":
            try:
                return len(body) >= int(v.strip())
            except ValueError:
                return False
    return False


# ------------------------------------------------------------------------------------------------ PDFs

COURTS = ["IN THE SUPREME COURT OF INDIA", "IN THE HIGH COURT OF DELHI AT NEW DELHI",
          "IN THE HIGH COURT OF JUDICATURE AT BOMBAY", "IN THE HIGH COURT OF KARNATAKA AT BENGALURU",
          "IN THE HIGH COURT OF MADRAS", "IN THE HIGH COURT OF PUNJAB AND HARYANA AT CHANDIGARH"]
NAMES = ["Ramesh Yadav", "Sunita Sharma", "Abdul Karim", "Lakshmi Narayanan", "Harpreet Singh", "Meena Kumari",
         "Joseph Mathew", "Pradeep Nair", "Farida Begum", "Vikram Chauhan", "Anita Das", "Gopal Reddy"]
STATES = ["Rajasthan", "Maharashtra", "Karnataka", "Tamil Nadu", "Punjab", "Bihar", "Kerala", "Gujarat"]
TOPICS = ["cheating", "criminal breach of trust", "theft", "dowry death", "cruelty by the husband",
          "criminal intimidation", "forgery", "house-trespass", "extortion", "grievous hurt"]


def judgment_pdf(path: Path, i: int, title: str | None = None, topic: str | None = None) -> Path:
    """A two-page text PDF: court, case number, parties, date of judgment and numbered paragraphs, different
    for every ``i`` (so every file's sha256 differs)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    topic = topic or TOPICS[i % len(TOPICS)]
    title = title or f"{NAMES[i % len(NAMES)]} v. State of {STATES[(i // len(NAMES) + i) % len(STATES)]}"
    day = dt.date(2015, 1, 5) + dt.timedelta(days=53 * i)
    head = [COURTS[i % len(COURTS)], "CRIMINAL APPELLATE JURISDICTION",
            f"Criminal Appeal No. {101 + 7 * i} of {day.year}", title, f"Date of judgment: {day:%d %B %Y}",
            "JUDGMENT"]
    paras = []
    for n in range(1, 13):
        paras += [f"{n}. The appellant (upload {i}) was charged with {topic} and the trial court convicted him on",
                  f"the testimony of witness number {n + i}, whose account of the {topic} stayed consistent in",
                  f"cross-examination; the sum involved was Rs. {1000 * (i + 1) + 37 * n} and the seizure memo",
                  f"was proved by the investigating officer. In paragraph {n} we find no reason to interfere.", ""]
    lines = head + [""] + paras
    pages = [lines[: len(lines) // 2], lines[len(lines) // 2:]]
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setTitle(title)
    for page in pages:
        text = c.beginText(56, 800)
        text.setFont("Helvetica", 10)
        for line in page:
            text.textLine(line)
        c.drawText(text)
        c.showPage()
    c.save()
    return path


# ------------------------------------------------------------------------------------------------ parts

def part_big(srv: Server) -> dict:
    """(a) A 10 MB body to /api/ask (with a length, chunked, through httpx) and to /gradio_api/queue/join."""
    ask = json.dumps({"question": "a" * BIG_CHARS}).encode()
    join = json.dumps({"data": ["a" * BIG_CHARS], "fn_index": 0, "session_hash": "benchbig01"}).encode()
    cases = [("POST /api/ask, Content-Length", "/api/ask", ask, False),
             ("POST /api/ask, chunked (no length)", "/api/ask", ask, True),
             ("POST /gradio_api/queue/join, Content-Length", "/gradio_api/queue/join", join, False)]
    rows, failures = [], []
    for name, path, body, chunked in cases:
        before = srv.sample()["rss_mib"]
        with PeakRss(srv.proc) as peak:
            r = raw_request(srv.port, "POST", path, body, {"Content-Type": "application/json"}, chunked=chunked)
        time.sleep(1.0)
        after = srv.sample()["rss_mib"]
        rows.append({"case": name, "client": "raw socket", **r, "rss_before_mib": before,
                     "rss_peak_mib": peak.peak_mib, "rss_after_mib": after})
        if r["status"] != 413:
            failures.append(f"big: {name}: status {r['status']} (expected 413), {r['send_error'] or ''}")
    # the same body from an ordinary client library, which sends the whole body before it reads the answer
    before = srv.sample()["rss_mib"]
    with PeakRss(srv.proc) as peak:
        t0 = time.perf_counter()
        try:
            resp = httpx.post(f"{srv.base}/api/ask", content=ask, headers={"content-type": "application/json"},
                              timeout=60)
            status, err, answer = resp.status_code, None, resp.text[:300]
        except httpx.HTTPError as exc:
            status, err, answer = None, f"{type(exc).__name__}: {exc}", ""
        took = time.perf_counter() - t0
    time.sleep(1.0)
    rows.append({"case": "POST /api/ask, Content-Length", "client": "httpx", "status": status,
                 "to_first_byte_s": None, "total_s": round(took, 3), "send_error": err, "answer": answer,
                 "body_size": len(ask), "rss_before_mib": before, "rss_peak_mib": peak.peak_mib,
                 "rss_after_mib": srv.sample()["rss_mib"]})
    if status not in (413, None):
        failures.append(f"big: httpx: status {status} (expected 413)")
    return {"rows": rows, "failures": failures}


def part_soak(srv: Server, n: int, wait_s: float, tmp: Path, deadline: float) -> dict:
    """(b) ``n`` uploads by one client, then their removal, sampling the server's handles, threads and RSS."""
    marks = sorted({1, 10, 25, n} & set(range(1, n + 1)))
    points, failures, docs, times = [], [], [], []
    with httpx.Client(base_url=srv.base, timeout=wait_s + 60) as http:
        http.get("/api/uploads").raise_for_status()  # the owner cookie
        time.sleep(1.0)
        points.append({"after": "start (cookie set, no upload)", **srv.sample()})
        for i in range(1, n + 1):
            if time.monotonic() > deadline:
                failures.append(f"soak: stopped at upload {i} by the deadline")
                break
            pdf = judgment_pdf(tmp / f"soak_{i:03d}.pdf", i)
            t0 = time.perf_counter()
            with open(pdf, "rb") as fh:
                r = http.post("/api/uploads", params={"wait": wait_s},
                              files={"file": (pdf.name, fh, "application/pdf")})
            times.append(time.perf_counter() - t0)
            body = r.json() if r.headers.get("content-type", "").startswith("application/json") else {}
            if r.status_code != 200 or body.get("state") != "done":
                failures.append(f"soak: upload {i}: HTTP {r.status_code} state={body.get('state')} "
                                f"error={body.get('error')!r} {r.text[:200]}")
            else:
                docs.append(body["doc"]["doc_id"])
            if i in marks:
                points.append({"after": f"upload {i}", **srv.sample()})
        listed = http.get("/api/uploads").json().get("uploads", [])
        if len(listed) != len(docs):
            failures.append(f"soak: {len(listed)} uploads listed, {len(docs)} made")
        removed = 0
        for doc_id in docs:
            r = http.delete(f"/api/uploads/{doc_id}")
            removed += r.status_code == 200
            if r.status_code != 200:
                failures.append(f"soak: remove {doc_id}: HTTP {r.status_code} {r.text[:200]}")
        left = http.get("/api/uploads").json().get("uploads", [])
        if left:
            failures.append(f"soak: {len(left)} uploads left after removing all")
        points.append({"after": f"removal of {removed}", **srv.sample()})
        time.sleep(5.0)
        points.append({"after": "removal + 5 s", **srv.sample()})
    first = next((p for p in points if p["after"] == "upload 1"), points[0])
    last = points[-1]
    growth = {k: round(last[k] - first[k], 1) for k in ("fds", "threads", "children", "rss_mib")}
    # a leak of one handle or thread per upload would show as about n - 1 here
    flat = {"fds": growth["fds"] <= 5, "threads": growth["threads"] <= 3, "children": growth["children"] <= 1,
            "rss_mib": growth["rss_mib"] <= 150}
    for k, ok in flat.items():
        if not ok:
            failures.append(f"soak: {k} grew by {growth[k]} from upload 1 to the end")
    times.sort()
    return {"uploads": len(times), "done": len(docs), "removed": removed, "points": points,
            "growth_from_upload_1": growth, "flat": flat,
            "upload_s": {"p50": round(times[len(times) // 2], 2) if times else None,
                         "max": round(times[-1], 2) if times else None, "total": round(sum(times), 1)},
            "failures": failures}


def bad_cases(tmp: Path, q_max: int) -> list[dict]:
    """The bad inputs: kind, request (method, path, httpx keyword arguments) and the statuses that are right."""
    js = {"content-type": "application/json"}
    html_pdf = tmp / "page.pdf"
    html_pdf.write_bytes(b"<!DOCTYPE html><html><body><h1>Not a PDF</h1>" + b"<p>x</p>" * 200 + b"</body></html>")
    empty = tmp / "empty.pdf"
    empty.write_bytes(b"")
    text = tmp / "notes.txt"
    text.write_bytes(b"IPC 420 cheating notes\n" * 50)
    trunc = tmp / "cut.pdf"
    whole = judgment_pdf(tmp / "whole.pdf", 999).read_bytes()
    trunc.write_bytes(whole[: len(whole) * 6 // 10])
    fake_magic = tmp / "magic.pdf"
    fake_magic.write_bytes(b"%PDF-1.7\n" + os.urandom(4096))
    good = judgment_pdf(tmp / "good.pdf", 998)

    def up(path: Path, name: str | None = None, mime: str = "application/pdf") -> dict:
        return {"files": {"file": (name or path.name, path.read_bytes(), mime)}, "params": {"wait": 60}}

    ask = "/api/ask"
    deep = "[" * 100_000 + "]" * 100_000
    A, B = "accepted", "refused"  # what the client should see: an answer, or a 4xx naming the problem
    cases = [
        ("JSON: not JSON at all", "POST", ask, {"content": b"question=IPC 420", "headers": js}, {400}),
        ("JSON: cut off", "POST", ask, {"content": b'{"question": "IPC 4', "headers": js}, {400}),
        ("JSON: an array, not an object", "POST", ask, {"json": ["IPC 420"]}, {400}),
        ("JSON: 100,000 nested arrays", "POST", ask, {"content": f'{{"question": "x", "filters": {deep}}}'.encode(),
                                                     "headers": js}, {400}),
        ("JSON: an integer of 5,000 digits", "POST", ask,
         {"content": b'{"question": "x", "filters": {"year_from": ' + b"9" * 5000 + b"}}", "headers": js}, {400}),
        ("JSON: invalid UTF-8 bytes", "POST", ask, {"content": b'{"question": "\xff\xfe theft"}', "headers": js},
         {400}),
        ("JSON body sent as text/plain", "POST", ask,
         {"content": b'{"question": "IPC 420"}', "headers": {"content-type": "text/plain"}}, {400}),
        ("JSON body with no content type", "POST", ask, {"content": b'{"question": "IPC 420"}'}, {200, 400}),
        ("question missing", "POST", ask, {"json": {}}, {400}),
        ("question null", "POST", ask, {"json": {"question": None}}, {400}),
        ("question a number", "POST", ask, {"json": {"question": 420}}, {400}),
        ("question a list", "POST", ask, {"json": {"question": ["IPC", "420"]}}, {400}),
        ("unknown field", "POST", ask, {"json": {"question": "IPC 420", "temperature": 2}}, {400}),
        ("question empty", "POST", ask, {"json": {"question": ""}}, {400}),
        ("question only spaces and newlines", "POST", ask, {"json": {"question": " \n\t  "}}, {400}),
        ("question only NULs", "POST", ask, {"json": {"question": "\x00" * 64}}, {400}),
        ("question with NUL and control characters", "POST", ask,
         {"json": {"question": "punishment\x00 for \x1b[31mtheft\x07\x08 under IPC\x7f"}}, {200}),
        ("question with a lone surrogate (\\ud800)", "POST", ask,
         {"content": b'{"question": "theft \\ud800 IPC 379"}', "headers": js}, {200, 400}),
        ("question with bidi overrides and zero-width", "POST", ask,
         {"json": {"question": "\u202eIPC\u200b 420\u2066 punishment\u2069"}}, {200}),
        (f"question of {q_max + 1:,} characters", "POST", ask, {"json": {"question": "a" * (q_max + 1)}}, {413}),
        (f"question of {q_max:,} U+FDFA (NFKC: x18)", "POST", ask, {"json": {"question": "\ufdfa" * q_max}},
         {400, 413}),
        ("question of 1 MB (under the body limit)", "POST", ask, {"json": {"question": "b" * 1_000_000}}, {413}),
        ("previous_question over the limit", "POST", ask,
         {"json": {"question": "and the punishment?", "previous_question": "c" * (q_max + 1)}}, {413}),
        ("previous_question a number", "POST", ask, {"json": {"question": "IPC 420", "previous_question": 7}}, {400}),
        ("offence_date 2024-02-31", "POST", ask, {"json": {"question": "theft", "offence_date": "2024-02-31"}},
         {400}),
        ("offence_date 2023-13-01", "POST", ask, {"json": {"question": "theft", "offence_date": "2023-13-01"}},
         {400}),
        ("offence_date 'yesterday'", "POST", ask, {"json": {"question": "theft", "offence_date": "yesterday"}},
         {400}),
        ("offence_date a number", "POST", ask, {"json": {"question": "theft", "offence_date": 20240101}}, {400}),
        ("offence_date year 0000", "POST", ask, {"json": {"question": "theft", "offence_date": "0000-01-01"}},
         {400}),
        ("offence_date with NUL", "POST", ask, {"json": {"question": "theft", "offence_date": "2024-07-01\x00"}},
         {200, 400}),
        ("question with an impossible date in it", "POST", ask,
         {"json": {"question": "theft committed on 31 February 2024"}}, {200, 400}),
        ("filters a string", "POST", ask, {"json": {"question": "theft", "filters": "IPC"}}, {400}),
        ("filters unknown key", "POST", ask, {"json": {"question": "theft", "filters": {"colour": "red"}}}, {400}),
        ("filters unknown act", "POST", ask, {"json": {"question": "theft", "filters": {"act": "XYZ"}}}, {400}),
        ("filters act a number", "POST", ask, {"json": {"question": "theft", "filters": {"act": 5}}}, {400}),
        ("filters code 'middle'", "POST", ask, {"json": {"question": "theft", "filters": {"code": "middle"}}}, {400}),
        ("filters kind 'novel'", "POST", ask, {"json": {"question": "theft", "filters": {"kind": "novel"}}}, {400}),
        ("filters year_from 'abc'", "POST", ask, {"json": {"question": "theft", "filters": {"year_from": "abc"}}},
         {400}),
        ("filters year 1e308", "POST", ask, {"content": b'{"question": "theft", "filters": {"year": 1e999}}',
                                             "headers": js}, {400}),
        ("filters year_from > year_to", "POST", ask,
         {"json": {"question": "theft", "filters": {"year_from": 2020, "year_to": 2010}}}, {200, 400}),
        # the Gradio app mounted at / answers a method no API route takes: a 404, never the route's handler
        ("GET /api/ask", "GET", ask, {}, {404, 405}),
        ("PUT /api/ask", "PUT", ask, {"json": {"question": "theft"}}, {404, 405}),
        ("lookup: q missing", "GET", "/api/lookup", {}, {400}),
        (f"lookup: q of {q_max + 1:,} characters", "GET", "/api/lookup", {"params": {"q": "9" * (q_max + 1)}}, {413}),
        ("lookup: q only NULs", "GET", "/api/lookup", {"params": {"q": "\x00\x00"}}, {400}),
        ("lookup: no such section", "GET", "/api/lookup", {"params": {"q": "IPC 9999Z"}}, {200, 400}),
        ("upload: no file field", "POST", "/api/uploads", {"data": {"name": "x"}}, {400}),
        ("upload: 'file' a text field", "POST", "/api/uploads", {"data": {"file": "not a file"}}, {400}),
        ("upload: not multipart (JSON)", "POST", "/api/uploads", {"json": {"file": "x"}}, {400}),
        ("upload: two files", "POST", "/api/uploads",
         {"files": [("file", ("a.pdf", good.read_bytes(), "application/pdf")),
                    ("file", ("b.pdf", good.read_bytes(), "application/pdf"))]}, {400}),
        ("upload: a text file (.txt)", "POST", "/api/uploads", up(text, mime="text/plain"), {B}),
        ("upload: HTML renamed .pdf", "POST", "/api/uploads", up(html_pdf), {B}),
        ("upload: empty file", "POST", "/api/uploads", up(empty), {B}),
        ("upload: PDF cut at 60%", "POST", "/api/uploads", up(trunc), {B}),
        ("upload: %PDF- header then random bytes", "POST", "/api/uploads", up(fake_magic), {B}),
        ("upload: file name with traversal and NUL", "POST", "/api/uploads",
         up(good, name="../../../etc/cron.d/x\x00.pdf"), {A, B}),
        ("upload: file name of 300 bytes", "POST", "/api/uploads", up(good, name="n" * 296 + ".pdf"), {A, B}),
        ("upload: wait=abc", "POST", "/api/uploads", {**up(good), "params": {"wait": "abc"}}, {400}),
        ("upload: wait=nan", "POST", "/api/uploads", {**up(good), "params": {"wait": "nan"}}, {200, 202}),
        ("upload job: unknown id", "GET", "/api/uploads/jobs/nosuchjob", {}, {404}),
        ("upload job: cancel unknown id", "DELETE", "/api/uploads/jobs/nosuchjob", {}, {404}),
        ("upload: remove unknown doc", "DELETE", "/api/uploads/nosuchdoc", {}, {404}),
        ("upload: remove '..'", "DELETE", "/api/uploads/..%2F..%2Fstore.sqlite", {}, {404}),
        ("source: ..%2F..%2Fetc%2Fpasswd", "GET", "/source/..%2F..%2F..%2F..%2Fetc%2Fpasswd", {}, {404}),
        ("source: ../ in the path", "GET", "/source/../../../etc/passwd", {}, {404}),
        ("source: uploads/x/../../store.sqlite", "GET", "/source/uploads/x/..%2F..%2Fstore.sqlite", {}, {404}),
        ("source: absolute path", "GET", "/source/%2Fetc%2Fpasswd", {}, {404}),
        ("source: name of 300 bytes", "GET", "/source/" + "x" * 296 + ".pdf", {}, {404}),
        ("source: NUL in the name", "GET", "/source/a%00.pdf", {}, {404}),
        ("source: 'uploads' alone", "GET", "/source/uploads", {}, {404}),
        ("table-row: unknown table", "GET", "/table-row/..%2F..%2Fetc%2Fpasswd/1", {}, {404}),
        ("case: unknown case", "GET", "/case/..%2F..%2Fetc%2Fpasswd", {}, {404}),
        ("malformed owner cookie", "GET", "/api/uploads", {"headers": {"cookie": "lr_owner=../../etc/passwd"}},
         {200}),
    ]
    return [{"kind": k, "method": m, "path": p, "kwargs": kw, "expect": e} for k, m, p, kw, e in cases]


def part_bad(srv: Server, tmp: Path, q_max: int, deadline: float) -> dict:
    """(c) The bad-input table, plus a client-named path in Gradio's upload event and two raw-socket cases."""
    rows, failures = [], []
    secret = "/etc/hostname"
    with httpx.Client(base_url=srv.base, timeout=120) as http:
        http.get("/api/uploads")
        for case in bad_cases(tmp, q_max):
            if time.monotonic() > deadline:
                failures.append("bad: stopped by the deadline")
                break
            kw = dict(case["kwargs"])
            t0 = time.perf_counter()
            body: dict = {}
            try:
                r = http.request(case["method"], case["path"], **kw)
                status, text = r.status_code, r.text
                if r.headers.get("content-type", "").startswith("application/json"):
                    got = r.json()
                    body = got if isinstance(got, dict) else {}
            except (httpx.HTTPError, ValueError) as exc:
                status, text = None, f"{type(exc).__name__}: {exc}"
            row = {"kind": case["kind"], "request": f"{case['method']} {case['path'][:60]}", "status": status,
                   "s": round(time.perf_counter() - t0, 2), "answer": text[:160]}
            expect = case["expect"]
            if "accepted" in expect or "refused" in expect:  # an upload: the job's outcome is the answer
                state, error = body.get("state"), body.get("error") or ""
                row.update(state=state, answer=error[:160] or row["answer"])
                verdict = ("accepted" if status == 200 and state == "done" else
                           "refused" if (status is not None and 400 <= status < 500) or state == "failed" else None)
                ok = verdict in expect
                if state == "done":  # remove what was accepted, so nothing of the run is left behind
                    http.delete(f"/api/uploads/{body['doc']['doc_id']}")
                row["expect"] = " or ".join(sorted(expect))
            else:
                ok = status in expect
                row["expect"] = " or ".join(str(s) for s in sorted(expect))
            if status == 500:
                failures.append(f"bad: {case['kind']}: 500 {text[:200]}")
            elif not ok:
                failures.append(f"bad: {case['kind']}: status {status} / {row.get('state')}, expected "
                                f"{row['expect']}: {text[:160]}")
            row["ok"] = ok and status != 500
            rows.append(row)
        # a client-named path in Gradio's upload event: refused before Gradio reads it, and never echoed
        data = {"data": [[{"path": f"{secret}.pdf", "meta": {"_type": "gradio.FileData"}}]]}
        r = http.post("/gradio_api/call/upload", json=data)
        stream = r.text
        if r.status_code == 200:
            try:
                stream = http.get(f"/gradio_api/call/upload/{r.json()['event_id']}", timeout=60).text
            except (httpx.HTTPError, ValueError, KeyError) as exc:
                stream = f"{type(exc).__name__}: {exc}"
        echoed = secret in stream or "hostname" in stream
        rows.append({"kind": "Gradio upload event naming /etc/hostname.pdf", "request": "POST /gradio_api/call/upload",
                     "status": r.status_code, "expect": "400 or an error event; path not echoed",
                     "answer": stream[:160], "ok": r.status_code in (200, 400) and not echoed
                     and ("not a file uploaded" in stream or "error" in stream)})
        if not rows[-1]["ok"]:
            failures.append(f"bad: Gradio upload event: {r.status_code} echoed={echoed}: {stream[:200]}")
        r = http.post("/gradio_api/queue/join", json={**data, "fn_index": 0, "session_hash": "benchpath01"})
        echoed = secret in r.text or "hostname" in r.text
        rows.append({"kind": "Gradio queue/join naming /etc/hostname.pdf", "request": "POST /gradio_api/queue/join",
                     "status": r.status_code, "expect": "400; path not echoed", "answer": r.text[:160],
                     "ok": r.status_code == 400 and not echoed})
        if not rows[-1]["ok"]:
            failures.append(f"bad: queue/join: {r.status_code} echoed={echoed}: {r.text[:200]}")
        listed = http.get("/api/uploads").json().get("uploads", [])
        if listed:
            failures.append(f"bad: {len(listed)} uploads left after the bad inputs: {listed}")
    for kind, headers, body, expect in (
            ("Content-Length not a number", {"Content-Type": "application/json", "Content-Length": "abc"},
             b'{"question": "theft"}', {400}),
            ("Content-Length shorter than the body", {"Content-Type": "application/json", "Content-Length": "5"},
             b'{"question": "theft"}', {400}),
            ("upload of 21 MiB (limit 20 MiB)", {"Content-Type": "multipart/form-data; boundary=xyz"},
             b"--xyz\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.pdf\"\r\n\r\n%PDF-1.7\n"
             + b"0" * (21 * MiB) + b"\r\n--xyz--\r\n", {413})):
        path = "/api/uploads" if "upload" in kind else "/api/ask"
        r = raw_request(srv.port, "POST", path, body, headers)
        ok = r["status"] in expect
        rows.append({"kind": kind, "request": f"POST {path} (raw socket)", "status": r["status"],
                     "expect": " or ".join(map(str, sorted(expect))), "answer": r["answer"][:160],
                     "s": r["to_first_byte_s"], "ok": ok})
        if not ok:
            failures.append(f"bad: {kind}: status {r['status']}: {r['answer'][:160]}")
    return {"rows": rows, "count": len(rows), "five_hundreds": sum(r["status"] == 500 for r in rows),
            "failures": failures}


USER_QUESTIONS = ["What is the punishment for dowry death?", "What replaced section 420 IPC?",
                  "criminal breach of trust by an agent"]


def part_users(srv: Server, tmp: Path) -> dict:
    """(d) A uploads; B's answers are unchanged byte for byte; B cannot see or touch A's upload."""
    checks: list[tuple[str, bool, str]] = []
    with httpx.Client(base_url=srv.base, timeout=300) as a, httpx.Client(base_url=srv.base, timeout=300) as b:
        a.get("/api/uploads")
        b.get("/api/uploads")
        ca, cb = a.cookies.get("lr_owner"), b.cookies.get("lr_owner")
        checks.append(("each client holds its own owner cookie", bool(ca and cb and ca != cb), ""))

        def answers(client):
            return [client.post("/api/ask", json={"question": q}) for q in USER_QUESTIONS]

        before = answers(b)
        checks.append(("B's 3 answers before: 200", all(r.status_code == 200 for r in before),
                       str([r.status_code for r in before])))
        pdf = judgment_pdf(tmp / "sita_devi.pdf", 7, "Sita Devi v. State of Bihar", "dowry death")
        with open(pdf, "rb") as fh:
            r = a.post("/api/uploads", params={"wait": 120}, files={"file": (pdf.name, fh, "application/pdf")})
        up = r.json()
        done = r.status_code == 200 and up.get("state") == "done"
        checks.append(("A's upload is done", done, f"HTTP {r.status_code} {up.get('state')} {up.get('error')}"))
        if not done:
            return {"checks": [{"check": c, "ok": ok, "detail": d} for c, ok, d in checks],
                    "failures": [f"users: {c}: {d}" for c, ok, d in checks if not ok]}
        doc_id, source, job = up["doc"]["doc_id"], up["doc"]["source"], up["job"]
        after = answers(b)
        same = [x.content == y.content for x, y in zip(before, after)]
        checks.append(("B's 3 answers after: byte-identical", all(same),
                       f"{sum(same)}/3 identical; sizes {[len(x.content) for x in after]}"))
        checks.append(("A lists its upload", [d["doc_id"] for d in a.get("/api/uploads").json()["uploads"]]
                       == [doc_id], ""))
        checks.append(("B lists nothing", b.get("/api/uploads").json()["uploads"] == [], ""))
        got = a.get(f"/source/{source}")
        checks.append(("A downloads its upload: 200 PDF", got.status_code == 200 and got.content[:5] == b"%PDF-",
                       str(got.status_code)))
        for what, resp in (("B downloads it", b.get(f"/source/{source}")),
                           ("B reads A's job", b.get(f"/api/uploads/jobs/{job}")),
                           ("B cancels A's job", b.delete(f"/api/uploads/jobs/{job}")),
                           ("B removes it", b.delete(f"/api/uploads/{doc_id}"))):
            checks.append((f"{what}: 404", resp.status_code == 404, f"{resp.status_code} {resp.text[:120]}"))
        checks.append(("A still lists it after B's tries",
                       [d["doc_id"] for d in a.get("/api/uploads").json()["uploads"]] == [doc_id], ""))
        # a question on the upload's own facts (a question naming its title goes to the judgment catalogue, which
        # holds the corpus's judgments only)
        mine = a.post("/api/ask", json={"question": "Sita Devi dowry death appeal: why did the court not interfere?"})
        cited = [c for c in mine.json().get("citations", []) if str(c.get("source", "")).startswith("uploads/")] \
            if mine.status_code == 200 else []
        checks.append(("A's own answer cites its upload as an uploaded document", bool(cited) and all(
            c.get("kind") == "upload" for c in cited), f"{len(cited)} cited"))
        gone = a.delete(f"/api/uploads/{doc_id}")
        checks.append(("A removes it: 200", gone.status_code == 200, str(gone.status_code)))
        checks.append(("A's source is gone: 404", a.get(f"/source/{source}").status_code == 404, ""))
        again = answers(b)
        checks.append(("B's 3 answers after the removal: byte-identical",
                       all(x.content == y.content for x, y in zip(before, again)), ""))
    return {"checks": [{"check": c, "ok": ok, "detail": d} for c, ok, d in checks],
            "failures": [f"users: {c}: {d}" for c, ok, d in checks if not ok]}


# ------------------------------------------------------------------------------------------------ report

def print_summary(out: dict) -> None:
    print(f"server ready in {out['ready_s']} s; load average before {out['loadavg_before']}, after "
          f"{out['loadavg_after']}")
    if "big" in out:
        print("\n(a) 10 MB bodies")
        for r in out["big"]["rows"]:
            print(f"  {r['case']:<46} {r['client']:<10} -> {r['status']} first byte {r['to_first_byte_s']} s, "
                  f"total {r['total_s']} s, body sent {r.get('body_sent_before_answer')}/{r['body_size']:,}, "
                  f"RSS {r['rss_before_mib']} -> peak {r['rss_peak_mib']} -> {r['rss_after_mib']} MiB "
                  f"{r.get('send_error') or ''}")
    if "soak" in out:
        s = out["soak"]
        print(f"\n(b) soak: {s['uploads']} uploads ({s['done']} done, {s['removed']} removed), upload time "
              f"p50 {s['upload_s']['p50']} s, max {s['upload_s']['max']} s")
        for p in s["points"]:
            print(f"  {p['after']:<32} fds {p['fds']:>4}  threads {p['threads']:>3}  children {p['children']:>2}  "
                  f"RSS {p['rss_mib']:>7} MiB")
        print(f"  growth from upload 1: {s['growth_from_upload_1']}; flat: {s['flat']}")
    if "bad" in out:
        b = out["bad"]
        print(f"\n(c) bad inputs: {b['count']} kinds, {b['five_hundreds']} x 500")
        for r in b["rows"]:
            print(f"  {'ok ' if r['ok'] else 'BAD'} {r['status']!s:>4} {r.get('state') or '':<7} {r['kind']:<48} "
                  f"(expect {r['expect']}) {r['answer'][:70]!r}")
    if "users" in out:
        print("\n(d) two users")
        for c in out["users"]["checks"]:
            print(f"  {'ok ' if c['ok'] else 'BAD'} {c['check']} {c['detail']}")
    print(f"\nfailures: {len(out['failures'])}")
    for f in out["failures"]:
        print(f"  - {f}")


def main(argv: list[str] | None = None) -> int:
    ap = server_args(__doc__)
    ap.add_argument("--parts", default="a,b,c,d", help="which of a (big), b (soak), c (bad), d (users)")
    ap.add_argument("--soak", type=int, default=50, help="uploads in the soak (at most 200)")
    ap.add_argument("--wait", type=float, default=120.0, help="seconds each upload may take")
    ap.add_argument("--deadline", type=float, default=2400.0, help="seconds for the whole run (it stops by itself)")
    args = ap.parse_args(argv)
    if not has_index(args.data_dir):
        return 2
    parts = set(args.parts.split(","))
    deadline = time.monotonic() + args.deadline
    from legal_rag.config import load_settings

    os.environ["LEGAL_RAG_DATA_DIR"] = str(args.data_dir)
    q_max = load_settings().question_max_chars
    out: dict = {"host": HOST, "data_dir": str(args.data_dir), "loadavg_before": [round(x, 2) for x in os.getloadavg()],
                 "failures": []}
    srv = Server(args.data_dir, args.ready_timeout)
    out["ready_s"] = round(srv.ready_s, 1)
    try:
        with tempfile.TemporaryDirectory(prefix="lr_reliability_") as td:
            tmp = Path(td)
            httpx.post(f"{srv.base}/api/ask", json={"question": "What is the punishment for theft?"},
                       timeout=300).raise_for_status()  # warm-up: the models are loaded before anything is timed
            out["idle"] = srv.sample()
            steps = [("a", "big", lambda: part_big(srv)),
                     ("b", "soak", lambda: part_soak(srv, min(args.soak, 200), args.wait, tmp, deadline)),
                     ("c", "bad", lambda: part_bad(srv, tmp, q_max, deadline)),
                     ("d", "users", lambda: part_users(srv, tmp))]
            for key, name, run in steps:
                if key not in parts:
                    continue
                if time.monotonic() > deadline:
                    out["failures"].append(f"{name}: not run, the deadline had passed")
                    continue
                t0 = time.perf_counter()
                out[name] = run()
                out[name]["s"] = round(time.perf_counter() - t0, 1)
                out["failures"] += out[name]["failures"]
                if not srv.alive():
                    out["failures"].append(f"the server exited during {name}")
                    break
    finally:
        out["alive_at_end"] = srv.alive()
        srv.stop()
    out["loadavg_after"] = [round(x, 2) for x in os.getloadavg()]
    tracebacks = [i for i, line in enumerate(srv.stderr) if line.startswith("Traceback")]
    out["server_stderr_tracebacks"] = len(tracebacks)
    out["server_stderr_tail"] = srv.stderr[-200:]
    if tracebacks and not out["failures"]:
        out["failures"].append(f"the server logged {len(tracebacks)} traceback(s) (see server_stderr_tail)")
    print_summary(out)
    if tracebacks:
        print("\nserver stderr (tracebacks):")
        for i in tracebacks[:5]:
            print("\n".join("  " + line for line in srv.stderr[i:i + 40]))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1, default=str) + "\n")
    return 1 if out["failures"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
