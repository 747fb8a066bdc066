"""Text runs with positions -> lines of one page, read in a child process (pypdf only; runnable as a script).

This module imports nothing from the project so that :mod:`legal_rag.ingest.pdf` can run it as
``python layout.py FILE MAX_PAGES`` in a child process with a wall-clock timeout (a PDF that makes pypdf
loop cannot hang the batch: py-pdf/pypdf#1825, #582). The child prints one JSON object on stdout:

one JSON object per line on stdout: first ``{"pages": N, "error": null | [kind, message]}``, then per page
``{"page": n, "lines": [[text, x, y, size], ...], "error": null | message}`` as soon as it is read, so the
parent keeps every page read before a hang.

Coordinates are in the page's text space as pypdf's ``visitor_text`` reports them (text matrix times
current transformation matrix); ``y`` is turned so that it grows DOWN the page, ``size`` is the effective
font size in the same units. Units differ from file to file (a Firefox/cairo Gazette print draws through
a scaled form XObject), so callers compare positions only within one page or one file.
"""

from __future__ import annotations

import json
import sys

Line = tuple[str, float, float, float]  # text, x, y (down), size


def page_lines(page) -> list[Line]:  # pragma: no cover - exercised through the child process
    """The page's lines in content-stream order, one per ``\\n`` of pypdf's own extraction.

    A line's position is that of its first non-blank run; the text is the concatenation of pypdf's runs,
    so it equals what ``page.extract_text()`` gives for that line.
    """
    lines: list[Line] = []
    buf: list[str] = []
    pos: list[float] | None = None

    def flush() -> None:
        nonlocal buf, pos
        text = "".join(buf)
        if text.strip() and pos is not None:
            lines.append((text, pos[0], pos[1], pos[2]))
        buf, pos = [], None

    def visit(text, cm, tm, font_dict, font_size) -> None:
        nonlocal pos
        if not text:
            return
        parts = text.split("\n")
        for i, part in enumerate(parts):
            if i:
                flush()
            if part:
                if pos is None and part.strip():
                    a, b, c, d, e, f = tm
                    A, B, C, D, E, F = cm
                    x = e * A + f * C + E
                    y = e * B + f * D + F
                    dd = c * B + d * D  # vertical scale of the glyphs in this space
                    size = abs(float(font_size) * dd) or abs(float(font_size))
                    pos = [round(x, 2), round(-y if dd > 0 else y, 2), round(size, 2)]
                buf.append(part)

    page.extract_text(visitor_text=visit)
    flush()
    return lines


def _cache_fonts() -> None:  # pragma: no cover - runs in the child process
    """Parse each font (and its ToUnicode CMap) once per file instead of once per page.

    pypdf 7.1 rebuilds the Font of a shared font object on every page; on the Legislative Department
    CrPC print (one 65,536-entry bfrange per font) that is 2/3 of the extraction time. Fonts are keyed
    by their indirect reference, so only shared objects are reused.
    """
    from pypdf.generic._font import Font

    if getattr(Font, "_legal_rag_cached", False):
        return
    original = Font.from_font_resource.__func__
    cache: dict = {}

    def cached(cls, pdf_font_dict):
        ref = getattr(pdf_font_dict, "indirect_reference", None)
        if ref is None:
            return original(cls, pdf_font_dict)
        key = (ref.idnum, ref.generation)
        if key not in cache:
            cache[key] = original(cls, pdf_font_dict)
        return cache[key]

    Font.from_font_resource = classmethod(cached)
    Font._legal_rag_cached = True


def read(path: str, max_pages: int, emit) -> None:  # pragma: no cover - runs in the child process
    """Read ``path`` and call ``emit(obj)`` once for the header, then once per page (in order)."""
    from pypdf import PdfReader
    from pypdf.errors import FileNotDecryptedError

    _cache_fonts()
    try:
        reader = PdfReader(path, strict=False)
        if reader.is_encrypted:
            try:
                ok = reader.decrypt("")
            except Exception as exc:  # missing AES provider, broken encryption dictionary
                emit({"error": ["encrypted", f"cannot decrypt: {type(exc).__name__}: {exc}"]})
                return
            if not ok:
                emit({"error": ["encrypted", "password required (the empty user password does not open it)"]})
                return
        n = len(reader.pages)
    except FileNotDecryptedError as exc:
        emit({"error": ["encrypted", f"password required ({exc})"]})
        return
    except Exception as exc:  # PdfReadError, ValueError, KeyError, RecursionError ... on broken files
        kind = "unreadable"
        emit({"error": [kind, f"not a readable PDF ({type(exc).__name__}: {exc})"]})
        return
    if n > max_pages:
        emit({"pages": n, "error": ["too_many_pages", f"{n} pages, more than max_pages={max_pages}"]})
        return
    emit({"pages": n, "error": None})
    for i in range(n):
        try:
            emit({"page": i + 1, "lines": page_lines(reader.pages[i]), "error": None})
        except Exception as exc:  # one bad page must not lose the others
            emit({"page": i + 1, "lines": [], "error": f"{type(exc).__name__}: {exc}"})


def _emit(obj: dict) -> None:  # pragma: no cover - runs in the child process
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":  # pragma: no cover
    sys.setrecursionlimit(5000)
    read(sys.argv[1], int(sys.argv[2]), _emit)


# ---------------------------------------------------------------------------------------------------------
# Parent side: which lines are body, which are margin notes, and in what order the body is read.


def _mode(values: list[tuple[float, int]]) -> float:
    """The value with the largest total weight (ties: the smaller value)."""
    weight: dict[float, int] = {}
    for v, w in values:
        weight[v] = weight.get(v, 0) + w
    return min(weight, key=lambda v: (-weight[v], v)) if weight else 0.0


def split_page(lines: list[Line]) -> tuple[list[Line], list[Line]]:
    """Split one page's lines into (body lines in reading order, margin lines in drawing order).

    * body size = the font size carrying most characters of lines of 30+ characters; body left edge = the
      smallest x at which two such lines start (continuation lines of the text block);
    * a margin line starts left of the body edge by more than half the body size, or (40 characters at
      most) more than 28 body sizes right of it (Gazette and Bill prints: section titles as margin notes in the outer margin, Act
      citations such as "21 of 2000." in the inner one, line numbers 5, 10, ... in Bills);
    * two columns (field case BL-01): when 25% or more of the body lines (3 or more, each of 30+
      characters) start at one x that lies 12+ body sizes right of the edge, the page is read left column top to bottom, then right
      column, whatever the order of the content stream;
    * within a column lines are ordered top to bottom (stable for lines on one baseline).
    """
    if not lines:
        return [], []
    long_lines = [ln for ln in lines if len(ln[0].strip()) >= 30]
    ref = long_lines or lines
    size = _mode([(ln[3], len(ln[0])) for ln in ref]) or 10.0
    xs = sorted(round(ln[1], 1) for ln in ref if abs(ln[3] - size) <= 0.15 * size)
    left = xs[0] if xs else min(ln[1] for ln in ref)
    for i in range(len(xs) - 1):
        if xs[i + 1] - xs[i] <= 1.5:
            left = xs[i]
            break
    body: list[Line] = []
    margin: list[Line] = []
    for ln in lines:
        x = ln[1]
        if x < left - 0.5 * size or (x > left + 28 * size and len(ln[0].strip()) <= 40):
            margin.append(ln)
        else:
            body.append(ln)
    # two columns?
    counts: dict[int, int] = {}
    for ln in body:
        if ln[1] > left + 12 * size and len(ln[0].strip()) >= 30:
            key = round(ln[1] / (0.5 * size))
            counts[key] = counts.get(key, 0) + 1
    split = None
    if counts:
        key, n = max(counts.items(), key=lambda kv: (kv[1], -kv[0]))
        if n >= 3 and n >= 0.25 * len(body):
            split = key * 0.5 * size - 0.5 * size
    tol = 0.4 * size

    def down(ln: Line) -> int:
        return round(ln[2] / tol)

    if split is None:
        ordered = sorted(body, key=down)
    else:
        ordered = sorted((ln for ln in body if ln[1] < split), key=down)
        ordered += sorted((ln for ln in body if ln[1] >= split), key=down)
    return ordered, margin


def margin_notes(margin: list[Line]) -> list[tuple[float, str]]:
    """Group margin lines into notes: consecutive lines on one side, each within 1.6 sizes of the last.

    A line ending in "." followed by one starting in upper case also starts a new note (two titles of
    sections printed on consecutive lines). Returns ``(y of the first line, text)`` pairs; a line ending in
    a hyphen joins the next with U+00AD in its place (resolved by :func:`clean.clean_margin`). Pure numbers (Bill line numbers 5, 10, ...) are dropped.
    """
    notes: list[tuple[float, str]] = []
    cur: list[Line] = []

    def close() -> None:
        if cur:
            text = ""
            for ln in cur:
                t = ln[0].strip()
                # a break after "house-" is marked U+00AD; clean.clean_margin decides soft or hard hyphen
                text = text[:-1] + "\u00ad" + t if text.endswith("-") and text[-2:-1].isalpha() else (
                    text + " " + t).strip()
            notes.append((cur[0][2], text))
            cur.clear()

    for ln in sorted(margin, key=lambda m: (round(m[1] / 50), m[2])):
        t = ln[0].strip()
        if not t or t.isdigit():
            continue
        ends = cur and cur[-1][0].rstrip().endswith(".") and t[:1].isupper()  # "...offence." / "Mischief."
        if cur and (ends or abs(ln[1] - cur[-1][1]) > 2 * ln[3] or not 0 <= ln[2] - cur[-1][2] <= 1.6 * ln[3]):
            close()
        cur.append(ln)
    close()
    return sorted(notes)
