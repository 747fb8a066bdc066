"""Text runs with positions -> lines of one page, read in a child process (pypdf only; runnable as a script).

This module imports nothing from the project so that :mod:`legal_rag.ingest.pdf` can run it as
``python layout.py FILE MAX_PAGES`` in a child process with a wall-clock timeout (a PDF that makes pypdf
loop cannot hang the batch: py-pdf/pypdf#1825, #582). The child prints one JSON object on stdout:

one JSON object per line on stdout: first ``{"pages": N, "error": null | [kind, message]}``, then per page
``{"page": n, "lines": [[text, x, y, size], ...], "apart": [[text, x, y, size, reason], ...], "error": null |
message}`` as soon as it is read, so the parent keeps every page read before a hang.

``apart`` is text that is not the court's, found by its drawing state and never merged into a line:
text drawn at an angle to the page's own text or skewed (stamps, watermarks), invisible text (render
mode 3 or 7, or a white fill), tiny text (under :data:`TINY_PT` points in page space) and text whose origin lies
off the page (outside CropBox / MediaBox). pypdf reports form XObject content in the form's own space, so the
child follows ``Do`` itself to place each run on the page (:class:`_Reader`).

Coordinates are in the page's text space as pypdf's ``visitor_text`` reports them (text matrix times
current transformation matrix); ``y`` is turned so that it grows DOWN the page, ``size`` is the effective
font size in the same units. Units differ from file to file (a Firefox/cairo Gazette print draws through
a scaled form XObject), so callers compare positions only within one page or one file.
"""

from __future__ import annotations

import json
import re
import sys

Line = tuple[str, float, float, float]  # text, x, y (down), size
#: text kept apart from the body: text, x, y (down), size (as in :data:`Line`), and the reason (see below)
Apart = tuple[str, float, float, float, str]

# Text that is not the court's, found by its drawing state; the reason of an Apart:
ANGLED = "angled"        # drawn at an angle to the page's text (stamps, "CERTIFIED COPY" watermarks) or skewed
INVISIBLE = "invisible"  # text render mode 3 (no fill, no stroke) or 7 (clip only)
WHITE = "white"          # filled in white (white on the white page)
TINY = "tiny"            # an effective size under TINY_PT points
OFF_PAGE = "off_page"    # its origin lies outside the page's CropBox / MediaBox
REASONS = (ANGLED, INVISIBLE, WHITE, TINY, OFF_PAGE)
TINY_PT = 2.0
ANGLE_TOL = 3.0  # degrees away from the page's own text direction
#: |cos| of the angle between the glyph axes (0: upright; synthetic italics lean 12-15 degrees, about 0.26)
SKEW_TOL = 0.42  # a lean of 25 degrees or more
_IDENTITY = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
_STATE_OPS = (b"Tr", b"g", b"rg", b"k", b"sc", b"scn", b"cs")
_HOOK: list = [None]  # the page being read: decides whether a state operator ends the current run


def _mult(m: list[float], n: list[float]) -> list[float]:
    """``m`` then ``n`` (row vectors, as PDF matrices compose)."""
    return [m[0] * n[0] + m[1] * n[2], m[0] * n[1] + m[1] * n[3], m[2] * n[0] + m[3] * n[2],
            m[2] * n[1] + m[3] * n[3], m[4] * n[0] + m[5] * n[2] + n[4], m[4] * n[1] + m[5] * n[3] + n[5]]


def _numbers(operands) -> list[float]:
    out = []
    for o in operands:
        try:
            out.append(float(o))
        except (TypeError, ValueError):
            pass
    return out


#: colour space families, and the colour a space starts with (PDF 32000-1, 8.6.8: black, or full tint)
_SPACES = {"/DeviceGray": "gray", "/CalGray": "gray", "/G": "gray", "/DeviceRGB": "rgb", "/CalRGB": "rgb",
           "/RGB": "rgb", "/DeviceCMYK": "cmyk", "/CMYK": "cmyk", "/Separation": "tint", "/DeviceN": "tint"}
_INITIAL = {"gray": [0.0], "rgb": [0.0, 0.0, 0.0], "cmyk": [0.0, 0.0, 0.0, 1.0], "tint": [1.0], "other": []}


def _white(space: str, fill: list[float]) -> bool:
    """A fill colour that paints white: gray 1, RGB 1 1 1, CMYK 0 0 0 0, or no ink at all in a Separation /
    DeviceN space (tint 0). Indexed, pattern and Lab colours are never taken for white."""
    if not fill:
        return False
    if space in ("gray", "rgb"):
        return all(v >= 0.98 for v in fill)
    if space in ("cmyk", "tint"):
        return all(v <= 0.02 for v in fill)
    return False


def _space_of(name, resources) -> str:  # pragma: no cover - runs in the child process
    """The family of colour space ``name`` (a device space, or a name in the resources' /ColorSpace)."""
    try:
        if name in _SPACES:
            return _SPACES[name]
        cs = resources["/ColorSpace"][name].get_object()  # type: ignore[index]
        if not isinstance(cs, list):
            return _SPACES.get(str(cs), "other")
        family = str(cs[0])
        if family == "/ICCBased":
            return {1: "gray", 3: "rgb", 4: "cmyk"}.get(int(cs[1].get_object().get("/N", 0)), "other")
        return _SPACES.get(family, "other")
    except Exception:  # an unknown name or a broken resource: not a colour we can call white
        return "other"


def _patch_extractor() -> None:  # pragma: no cover - runs in the child process
    """pypdf joins the text of consecutive show operators into one run and reports it once (``visitor_text``), so
    a run could hold visible and invisible text alike. Text state and colour operators are given a handler that
    ends the run when :data:`_HOOK` says the text's visibility changes, so each run has one drawing state."""
    from pypdf._text_extraction._text_extractor import TextExtraction

    if getattr(TextExtraction, "_legal_rag_state_ops", False):
        return
    original = TextExtraction.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        for op in _STATE_OPS:
            self.operation_handlers[op] = (lambda operands, _op=op, _self=self: _state_op(_self, _op, operands))

    def _state_op(extractor, op, operands) -> None:
        hook = _HOOK[0]
        if hook is not None and extractor.text and hook(op, operands):
            extractor._flush_text()

    TextExtraction.__init__ = init
    TextExtraction._legal_rag_state_ops = True


class _Reader:  # pragma: no cover - exercised through the child process
    """The drawing state pypdf does not keep (render mode, fill colour, the form XObjects entered) and every run of
    one page with it."""

    def __init__(self, page) -> None:
        self.page = page
        self.mode, self.space, self.fill = 0, "gray", [0.0]
        self.saved: list[tuple[int, str, list[float]]] = []
        # form XObjects: (matrix from form space to page space, resources); the page itself first
        self.forms: list[tuple[list[float], object]] = [(_IDENTITY, page.get("/Resources"))]
        self.entering: tuple[list[float], object] | None = None
        self.entered: list[bool] = []
        # text, cm, tm, font size, hidden reason, the run's matrix in page space (text matrix x CTM x forms)
        self.runs: list[tuple[str, list[float], list[float], float, str, list[float]]] = []

    def hidden(self, state: tuple[int, str, list[float]] | None = None) -> str:
        mode, space, fill = state or (self.mode, self.space, self.fill)
        if mode in (3, 7):
            return INVISIBLE
        if mode in (0, 2, 4, 6) and _white(space, fill):
            return WHITE
        return ""

    def _next(self, op: bytes, operands) -> tuple[int, str, list[float]]:
        """The (render mode, colour space, fill colour) after state operator ``op``."""
        mode, space, fill = self.mode, self.space, self.fill
        nums = _numbers(operands)
        if op == b"Tr" and nums:
            mode = int(nums[0])
        elif op == b"g" and nums:
            space, fill = "gray", nums
        elif op == b"rg" and nums:
            space, fill = "rgb", nums
        elif op == b"k" and nums:
            space, fill = "cmyk", nums
        elif op in (b"sc", b"scn"):
            fill = nums  # a pattern name alone leaves no number: never white
        elif op == b"cs" and operands:
            space = _space_of(operands[0], self.forms[-1][1])
            fill = list(_INITIAL[space])
        return mode, space, fill

    def changes(self, op: bytes, operands) -> bool:
        """Whether state operator ``op`` changes whether text is hidden (pypdf's run must end before it)."""
        return self.hidden(self._next(op, operands)) != self.hidden()

    def _enter(self) -> None:
        if self.entering is not None:
            self.forms.append(self.entering)
            self.saved.append((self.mode, self.space, self.fill))
            self.entered[-1] = True
            self.entering = None

    def before(self, op, operands, cm, tm) -> None:
        self._enter()  # the first operator inside a form XObject: its content is drawn through its matrix
        if op == b"Do" and operands:
            self.entered.append(False)
            try:
                xobj = self.forms[-1][1]["/XObject"][operands[0]].get_object()  # type: ignore[index]
                if xobj.get("/Subtype") == "/Form":
                    matrix = _numbers(xobj.get("/Matrix", _IDENTITY))
                    matrix = matrix if len(matrix) == 6 else _IDENTITY
                    self.entering = (_mult(_mult(matrix, [float(v) for v in cm]), self.forms[-1][0]),
                                     xobj.get("/Resources") or self.forms[-1][1])
            except Exception:  # an unknown name or a broken resource: drawn as the page draws it
                self.entering = None

    def after(self, op, operands, cm, tm) -> None:
        if op == b"q":
            self.saved.append((self.mode, self.space, self.fill))
        elif op == b"Q":
            if self.saved:
                self.mode, self.space, self.fill = self.saved.pop()
        elif op in _STATE_OPS:
            self.mode, self.space, self.fill = self._next(op, operands)
        elif op == b"Do":
            self.entering = None
            if self.entered and self.entered.pop():
                self.forms.pop()
                if self.saved:
                    self.mode, self.space, self.fill = self.saved.pop()

    def text(self, text, cm, tm, font_dict, font_size) -> None:
        if text:
            cm, tm = [float(v) for v in cm], [float(v) for v in tm]
            self.runs.append((text, cm, tm, float(font_size or 0.0), self.hidden(),
                              _mult(_mult(tm, cm), self.forms[-1][0])))


def _place(cm: list[float], tm: list[float], font_size: float) -> list[float]:
    """``[x, y (down), size]`` of a run in the text space pypdf reports (see the module docstring)."""
    a, b, c, d, e, f = tm
    A, B, C, D, E, F = cm
    x = e * A + f * C + E
    y = e * B + f * D + F
    dd = c * B + d * D  # vertical scale of the glyphs in this space
    size = abs(font_size * dd) or abs(font_size)
    return [round(x, 2), round(-y if dd > 0 else y, 2), round(size, 2)]


def _lines_and_apart(runs, box, dominant=None) -> tuple[list[Line], list[Apart]]:
    """Assemble runs into body lines (one per ``\\n`` of pypdf's extraction) and text kept apart.

    ``runs`` are ``(text, cm, tm, size, hidden, page matrix)``; ``box`` is ``(left, bottom, right, top)`` of the
    page. A run is kept apart when hidden (render mode or white fill), under :data:`TINY_PT` points, drawn at an
    angle to the page's own text (the direction most characters take) or skewed, or placed off the page."""
    import math

    def angle(m):
        return math.degrees(math.atan2(m[1], m[0]))

    weight: dict[int, int] = {}
    for text, _, _, _, hidden, m in runs:
        if not hidden:
            weight[round(angle(m))] = weight.get(round(angle(m)), 0) + len(text.strip())
    if dominant is None:
        dominant = max(weight, key=lambda k: (weight[k], -abs(k))) if weight else 0

    def reason(text, size, hidden, m) -> str:
        if hidden:
            return hidden
        sx, sy = math.hypot(m[0], m[1]), math.hypot(m[2], m[3])
        if sx and sy and abs(m[0] * m[2] + m[1] * m[3]) / (sx * sy) > SKEW_TOL:
            return ANGLED
        turn = (angle(m) - dominant + 180.0) % 360.0 - 180.0
        if abs(turn) > ANGLE_TOL:
            return ANGLED
        if text.strip() and size * sy < TINY_PT:
            return TINY
        left, bottom, right, top = box
        if not (left - 1 <= m[4] <= right + 1 and bottom - 1 <= m[5] <= top + 1):
            return OFF_PAGE
        return ""

    lines: list[Line] = []
    apart: list[Apart] = []
    buf: list[str] = []
    pos: list[float] | None = None
    side: list[str] = []
    side_pos: list = []

    def flush() -> None:
        nonlocal buf, pos
        text = "".join(buf)
        if text.strip() and pos is not None:
            lines.append((text, pos[0], pos[1], pos[2]))
        buf, pos = [], None

    def flush_side() -> None:
        nonlocal side, side_pos
        text = "".join(side)
        if text.strip() and side_pos:
            apart.append((text, side_pos[0], side_pos[1], side_pos[2], side_pos[3]))
        side, side_pos = [], []

    for text, cm, tm, size, hidden, m in runs:
        why = reason(text, size, hidden, m)
        parts = text.split("\n")
        for i, part in enumerate(parts):
            if i:
                flush()
                flush_side()
            if not part:
                continue
            if why:
                if side_pos and side_pos[3] != why:
                    flush_side()
                if not side_pos and part.strip():
                    side_pos = _place(cm, tm, size) + [why]
                side.append(part)
                continue
            if side_pos:
                flush_side()
            if pos is None and part.strip():
                pos = _place(cm, tm, size)
            buf.append(part)
    flush()
    flush_side()
    return lines, apart


def page_lines(page) -> tuple[list[Line], list[Apart]]:  # pragma: no cover - exercised through the child process
    """The page's body lines in content-stream order, one per ``\\n`` of pypdf's own extraction, and the text kept
    apart from them (:data:`Apart`: angled, invisible, white, tiny or off-page text, by its drawing state).

    A line's position is that of its first non-blank run; the text is the concatenation of pypdf's runs,
    so it equals what ``page.extract_text()`` gives for that line when nothing on it is kept apart.
    """
    _patch_extractor()
    reader = _Reader(page)
    _HOOK[0] = reader.changes
    try:
        page.extract_text(visitor_text=reader.text, visitor_operand_before=reader.before,
                          visitor_operand_after=reader.after)
    finally:
        _HOOK[0] = None
    try:
        crop, media = page.cropbox, page.mediabox
        box = (max(float(crop.left), float(media.left)), max(float(crop.bottom), float(media.bottom)),
               min(float(crop.right), float(media.right)), min(float(crop.top), float(media.top)))
    except Exception:  # no usable box: nothing is off the page
        box = (-float("inf"), -float("inf"), float("inf"), float("inf"))
    return _lines_and_apart(reader.runs, box)


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
            lines, apart = page_lines(reader.pages[i])
            emit({"page": i + 1, "lines": lines, "apart": apart, "error": None})
        except Exception as exc:  # one bad page must not lose the others
            emit({"page": i + 1, "lines": [], "apart": [], "error": f"{type(exc).__name__}: {exc}"})


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


#: a judgment's paragraph number at a line's start (``12. ``, ``4.1 ``, ``31.2.2. ``) before a capital or an
#: opening quote or bracket; and a lettered or Roman label (``(iii) ``). :mod:`legal_rag.ingest.judgments` numbers
#: paragraphs by these; they live here because this module imports nothing from the project.
PARA_NUMBER = re.compile(r"^\s*(?P<top>\d{1,3})(?P<sub>(?:\s?\.\s?\d{1,2}){1,2})?(?P<dot>\s?\.)?\s+(?=[A-Z\"“‘'(\[])")
PARA_LABEL = re.compile(r"^\s*\((?P<lab>[ivxlc]{1,6}|[a-z]|\d{1,2})\)\s+(?=\S)")
_CAPITAL = re.compile(r"[A-Z\"“‘'(\[]")


def hanging_opener(line: Line, left: float, size: float) -> bool:
    """Whether ``line``, left of the body edge ``left``, opens a numbered paragraph set with a hanging indent
    (``2. This appeal is ...`` at the text's left, its next lines indented): at the body ``size`` (within 15%),
    at most 4 sizes left of the edge, and opening with a paragraph number (``25.``, ``4.1``, ``31.2.2.``,
    ``(xi)``) and a capital. A running head (``972 [2024] 3 S.C.R.``) or a margin note is not one."""
    if not (left - 4 * size <= line[1] and abs(line[3] - size) <= 0.15 * size):
        return False
    num = PARA_NUMBER.match(line[0])
    if num:
        return bool(num["dot"] or num["sub"])  # "972 [2024] 3 S.C.R." has neither
    lab = PARA_LABEL.match(line[0])
    return bool(lab and _CAPITAL.match(line[0], lab.end()))


def split_page(lines: list[Line]) -> tuple[list[Line], list[Line]]:
    """Split one page's lines into (body lines in reading order, margin lines in drawing order).

    * body size = the font size carrying most characters of lines of 30+ characters; body left edge = the
      smallest x at which two such lines start (continuation lines of the text block);
    * a margin line starts left of the body edge by more than half the body size (but for a numbered paragraph's
      first line at the body size set out by 4 body sizes at most, a hanging indent: ``25. In the result, ...``
      whose next lines start further right, :func:`hanging_opener`), or (40 characters at
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
        if (x < left - 0.5 * size and not hanging_opener(ln, left, size)) or (x > left + 28 * size and len(ln[0].strip()) <= 40):
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
