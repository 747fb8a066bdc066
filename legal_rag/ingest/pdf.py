"""PDF pages -> cleaned :class:`~legal_rag.types.Page` objects.

Public contract:

``extract_pages(path, *, timeout_s=120.0, max_pages=2000) -> PdfResult``
    Never raises for a bad file: an encrypted-with-password, truncated, non-PDF, hanging or oversized file
    gives a ``PdfResult`` with an ``error`` Problem naming the file (and page where known); pages read
    before a failure are kept. Pages are 1-based. pypdf runs in a child process
    (``python layout.py FILE MAX_PAGES``); ``timeout_s`` is the wall-clock limit for opening the file and
    for each page (pypdf infinite loops, py-pdf/pypdf#1825, #582, #2077, cannot be caught in-process).

``clean_text(source, number, raw) -> tuple[Page, tuple[Problem, ...]]``
    The page-stage cleaning shared with plain-text judgments (see :mod:`legal_rag.ingest.clean`).

Margin notes (the section titles of Gazette and Bill prints, printed beside the text and interleaved with it
by pypdf) are taken out of ``Page.text`` and kept in ``Page.margin`` with their vertical position;
``Page.line_y`` gives the position of every line of ``Page.text`` in the same units (growing down the page),
so :mod:`legal_rag.ingest.statutes` can pair a title with the section it stands beside.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from ..types import Page, Problem
from . import layout
from .clean import clean_lines, clean_margin, clean_text, repeated_lines, vocabulary

__all__ = ["PdfResult", "extract_pages", "clean_text"]


@dataclass(frozen=True)
class PdfResult:
    """The pages of one PDF and every problem found. ``page_count`` is the file's page count (0 if unread)."""

    source: str
    pages: tuple[Page, ...]
    problems: tuple[Problem, ...]
    page_count: int
    #: text that is not the court's, kept out of ``pages``: ``(page, reason, text)`` (reasons: ``layout.REASONS``)
    apart: tuple[tuple[int, str, str], ...] = ()

    @property
    def ok(self) -> bool:
        return not any(p.severity == "error" for p in self.problems)


def _child(path: Path, timeout_s: float, max_pages: int, source: str):
    """Run :mod:`layout` in a child; yield its JSON messages; a stall of ``timeout_s`` kills it."""
    cmd = [sys.executable, "-I", layout.__file__, str(path), str(max_pages)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
    q: queue.Queue = queue.Queue()

    def pump() -> None:
        for line in proc.stdout:  # type: ignore[union-attr]
            q.put(line)
        q.put(None)

    threading.Thread(target=pump, daemon=True).start()
    try:
        while True:
            try:
                line = q.get(timeout=timeout_s)
            except queue.Empty:
                yield {"timeout": True}
                return
            if line is None:
                break
            yield json.loads(line)
        rc = proc.wait(timeout=timeout_s)
        if rc != 0:
            err = (proc.stderr.read() if proc.stderr else "").strip().splitlines()  # type: ignore[union-attr]
            yield {"crash": f"exit status {rc}: {err[-1] if err else 'no message'}"}
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


#: Environment variable naming a directory for the raw-layout cache (used by the test session and ``load_corpus``).
CACHE_ENV = "LEGAL_RAG_PAGE_CACHE"


def _cache_key(path: Path, max_pages: int) -> str:
    """sha256 of the file bytes, the page limit and the layout code: a change to any re-extracts."""
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    h.update(f"|{max_pages}|".encode())
    h.update(Path(layout.__file__).read_bytes())
    return h.hexdigest()


def _cached_child(path: Path, timeout_s: float, max_pages: int, source: str, cache_dir: Path | None):
    """:func:`_child`'s messages, replayed from ``cache_dir`` when this exact file was read before.

    Only complete runs (no timeout, no crash) are stored; the file is written atomically."""
    if cache_dir is None:
        yield from _child(path, timeout_s, max_pages, source)
        return
    cache = Path(cache_dir) / f"{_cache_key(path, max_pages)}.json"
    if cache.is_file():
        try:
            msgs = json.loads(cache.read_text(encoding="utf-8"))
        except ValueError:
            msgs = None
        if msgs is not None:
            yield from msgs
            return
    msgs = []
    for msg in _child(path, timeout_s, max_pages, source):
        msgs.append(msg)
        yield msg
    if not any("timeout" in m or "crash" in m for m in msgs):
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(msgs), encoding="utf-8")
        os.replace(tmp, cache)


def extract_pages(path: Path, *, timeout_s: float = 120.0, max_pages: int = 2000,
                  cache_dir: Path | None = None) -> PdfResult:
    """Read a PDF's pages in a child process and clean them.

    Returns a :class:`PdfResult`; ``pages`` holds one :class:`Page` per page read (1-based, in order);
    pages with no text layer or only undecodable legacy-font Hindi have ``skipped=True``. Problems carry
    ``kind`` ``missing``, ``empty_file``, ``not_pdf``, ``encrypted``, ``unreadable``, ``too_many_pages``,
    ``timeout``, ``crash``, ``page_error`` (errors), and ``no_text_layer``, ``legacy_hindi``,
    ``bad_char`` (warnings).

    ``cache_dir`` (default: the directory in ``$LEGAL_RAG_PAGE_CACHE``, else none) keeps the child's raw
    layout per file content hash, so an unchanged file is not read by pypdf again.
    """
    path = Path(path)
    if cache_dir is None and os.environ.get(CACHE_ENV):
        cache_dir = Path(os.environ[CACHE_ENV])
    source = path.name
    problems: list[Problem] = []

    def fail(kind: str, message: str, page: int | None = None, count: int = 0) -> PdfResult:
        problems.append(Problem(source, kind, message, page, "error"))
        return PdfResult(source, (), tuple(problems), count)

    if not path.is_file():
        return fail("missing", f"no such file: {path}")
    size = path.stat().st_size
    if size == 0:
        return fail("empty_file", "the file is empty (0 bytes)")
    with path.open("rb") as fh:
        head = fh.read(1024)
    if b"%PDF-" not in head:
        what = "HTML" if b"<html" in head.lower() or b"<!doctype" in head.lower() else "not a PDF"
        return fail("not_pdf", f"{what}: no %PDF- header in the first 1024 bytes ({size} bytes)")

    count = 0
    raw: list[tuple[int, list[layout.Line], bool]] = []
    apart: list[tuple[int, str, str]] = []
    started = time.monotonic()
    for msg in _cached_child(path, timeout_s, max_pages, source, cache_dir):
        if "timeout" in msg:
            at = len(raw) + 1 if count else None
            problems.append(Problem(source, "timeout", f"pypdf made no progress for {timeout_s:g} s "
                                    f"(after {time.monotonic() - started:.0f} s); child killed, file quarantined",
                                    at, "error"))
            break
        if "crash" in msg:
            problems.append(Problem(source, "crash", f"pypdf child failed: {msg['crash']}", None, "error"))
            break
        if "page" in msg:
            if msg["error"]:
                problems.append(Problem(source, "page_error", f"pypdf failed on this page: {msg['error']}",
                                        msg["page"], "error"))
            raw.append((msg["page"], [tuple(ln) for ln in msg["lines"]], bool(msg["error"])))
            apart += [(msg["page"], a[4], a[0].strip()) for a in msg.get("apart", ()) if a[0].strip()]
            continue
        count = msg.get("pages", 0)
        if msg.get("error"):
            kind, message = msg["error"]
            return fail(kind, message, None, count)
    if count and len(raw) < count and not any(p.kind in {"timeout", "crash"} for p in problems):
        problems.append(Problem(source, "crash", f"only {len(raw)} of {count} pages came back", None, "error"))

    split = [(n, *layout.split_page(lines), failed) for n, lines, failed in raw]
    repeated = repeated_lines([[ln[0] for ln in body] for _, body, _, _ in split])
    size = layout._mode([(ln[3], len(ln[0])) for _, body, _, _ in split for ln in body])
    words = vocabulary([ln[0] for _, body, _, _ in split for ln in body])
    pages: list[Page] = []
    for n, body, margin, failed in split:
        page, probs = clean_lines(source, n, body, repeated=repeated, vocabulary=words, body_size=size)
        page = clean_margin(page, tuple(layout.margin_notes(margin)), words)
        if failed and not page.skipped:
            page = Page(source, n, page.text, skipped=True)
        pages.append(page)
        problems.extend(probs)
    skipped = [p.number for p in pages if p.skipped and not any(q.page == p.number and q.kind == "page_error"
                                                                for q in problems)]
    if skipped:
        problems.append(Problem(source, "skipped_pages", f"not indexed (see per-page problems): pages "
                                f"{_ranges(skipped)} of {count}", None, "warning"))
    problems += apart_problems(source, apart)
    return PdfResult(source, tuple(pages), tuple(problems), count, tuple(apart))


#: Problem kind and wording for each reason text is kept apart (``layout.REASONS``)
APART_KINDS = {
    layout.ANGLED: ("angled_text", "drawn at an angle to the page's text (a stamp or watermark)"),
    layout.INVISIBLE: ("hidden_text", "invisible (text render mode 3 or 7)"),
    layout.WHITE: ("hidden_text", "filled in white"),
    layout.TINY: ("tiny_text", f"smaller than {layout.TINY_PT:g} pt"),
    layout.OFF_PAGE: ("off_page_text", "placed outside the page (CropBox / MediaBox)"),
}


def apart_problems(source: str, apart: list[tuple[int, str, str]]) -> list[Problem]:
    """One ``warning`` per page and reason for text kept out of the body (never merged into a paragraph), with
    the number of pieces and the first of them quoted."""
    out: list[Problem] = []
    groups: dict[tuple[int, str], list[str]] = {}
    for page, reason, text in apart:
        groups.setdefault((page, reason), []).append(text)
    for (page, reason), texts in groups.items():
        kind, what = APART_KINDS.get(reason, (f"{reason}_text", reason))
        first = " ".join(texts[0].split())
        first = first if len(first) <= 80 else first[:77] + "…"
        out.append(Problem(source, kind, f"{len(texts)} piece{'s' if len(texts) != 1 else ''} of text {what} kept "
                           f"apart from the body, not indexed: “{first}”", page, "warning"))
    return out


def _ranges(numbers: list[int]) -> str:
    """``[1, 2, 3, 7]`` -> ``"1–3, 7"``."""
    out: list[str] = []
    start = prev = numbers[0]
    for n in numbers[1:] + [None]:  # type: ignore[list-item]
        if n is not None and n == prev + 1:
            prev = n
            continue
        out.append(f"{start}–{prev}" if prev != start else str(start))
        if n is not None:
            start = prev = n
    return ", ".join(out)
