"""The table geometry of a First Schedule ("Classification of offences"), read with pdfplumber.

:func:`table_lines` turns one page of Part I of the schedule into :class:`TableLine` objects: one per printed text
line, with the text of each of the six columns (section, offence, punishment, cognizable, bailable, court).
:mod:`legal_rag.ingest.schedules` groups the lines into rows.

Why not pdfplumber's table finder alone: neither schedule has vertical rules, so its ``lines`` strategy finds no
table on any page of either, and its ``text`` strategy cuts the justified offence and punishment columns into many
false columns. What the pages do have, and what this module reads (all positions from pdfplumber's characters,
rules and rectangles, in PDF points, ``top`` growing down the page):

* the column-number row "1 2 3 4 5 6" printed under the heading on every page of the table;
* the horizontal rule under that row and the rule that closes the table at the foot of the page;
* the column boundaries (:mod:`legal_rag.ingest.schedule_columns`): the joints of the rule under the numbers where
  it is drawn as one rectangle per column (the CrPC's India Code print; a block of rows printed with other column
  widths gets its own), else the gutters, the strips between the centres of two column numbers that the fewest
  characters cross (the BNSS Gazette print: there no character crosses them on all but a few pages, where at most
  4 of a page's characters do). The gutters are the word-position fallback the table finder needs here; the
  Gazette's column x positions change from page to page, so they are found per page.

With those boundaries as explicit vertical lines, and one explicit horizontal line between consecutive text
lines, pdfplumber's table finder assigns every character to its cell (``Table.extract``).

Superscript footnote numbers (a digit under 75 % of the size of the character after it: the India Code's
amendment notes, e.g. "¹[166A") are dropped together with the "[" they open. (The brackets of an amendment left
unmatched in a cell are dropped when its lines are joined, :func:`legal_rag.ingest.schedule_rows.join_lines`.)
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from ..errors import CorpusError
from .schedule_columns import gutters, joints, repair, rules, width

#: a Part I heading: "I.—OFFENCES UNDER THE BHARATIYA NYAYA SANHITA" / "I.–OFFENCES UNDER THE INDIAN PENAL CODE"
PART_ONE = re.compile(r"^\s*I\.\s*[—–-]+\s*OFFENCES UNDER THE ", re.M)
#: the Part II heading that ends Part I: "II.—CLASSIFICATION OF OFFENCES AGAINST OTHER LAWS"
PART_TWO = re.compile(r"^\s*II\.\s*[—–-]+\s*CLASSIFICATION OF OFFENCES AGAINST OTHER LAWS", re.M)
SCHEDULE_HEADING = re.compile(r"^\s*THE FIRST SCHEDULE\s*\n\s*CLASSIFICATION OF OFFENCES\s*$", re.M)

COLUMNS = 6


@dataclass(frozen=True)
class TableLine:
    """One printed line of the table: ``cells`` holds the six columns' text on that line ("" where empty);
    ``page`` is 1-based; ``top`` (the median top of its characters) and ``bottom`` are in PDF points from the top
    of the page; ``columns`` the seven
    x positions (left edge, five boundaries, right edge) its cells were cut at."""

    page: int
    top: float
    bottom: float
    cells: tuple[str, ...]
    columns: tuple[float, ...] = ()

    @property
    def text(self) -> str:
        return " ".join(c for c in self.cells if c)


@dataclass(frozen=True)
class PageTable:
    """What :func:`table_lines` read on one page: the lines, the column boundaries used (x in points, left edge,
    five inner boundaries, right edge), how they were found (``"rule joints"`` or ``"gutters"``), and whether the
    page ends Part I (the Part II heading is printed on it)."""

    page: int
    lines: tuple[TableLine, ...]
    columns: tuple[float, ...]
    method: str
    ends_part_one: bool


def _numeral_row(words: list[dict]) -> list[dict] | None:
    """The six column numbers "1".."6", left to right on one line (tops within 6 pt), or None."""
    cands = [w for w in words if w["text"] in {"1", "2", "3", "4", "5", "6"}]
    for one in (w for w in cands if w["text"] == "1"):
        row, x = [one], one["x1"]
        for label in "23456":
            nxt = [w for w in cands if w["text"] == label and w["x0"] > x and abs(w["top"] - one["top"]) < 6]
            if not nxt:
                break
            row.append(min(nxt, key=lambda w: w["x0"]))
            x = row[-1]["x1"]
        if len(row) == COLUMNS:
            return row
    return None


def _superscripts(chars: list[dict]) -> tuple[set[int], float]:
    """ids of footnote numbers -- a digit under 75 % of the size of a character printed right after it (within 4 pt,
    same line: "¹[166A", "²[Non-") -- and of the "[" that follows one; also the body size (the most common
    character size; the CrPC prints some pages at 11 pt and some rows of them at 7.9 pt, so size alone says
    nothing)."""
    sizes = Counter(round(c["size"], 1) for c in chars)
    body = sizes.most_common(1)[0][0] if sizes else 0.0
    drop: set[int] = set()
    largest = max((c["size"] for c in chars), default=0.0)
    for c in chars:
        if not c["text"].isdigit() or c["size"] >= 0.75 * largest:
            continue
        after = [d for d in chars if 0 <= d["x0"] - c["x1"] < 4 and abs(d["bottom"] - c["bottom"]) < d["size"]]
        if after and c["size"] < 0.75 * min(after, key=lambda d: d["x0"])["size"]:
            drop.add(id(c))
            nxt = min(after, key=lambda d: d["x0"])
            if nxt["text"] == "[":
                drop.add(id(nxt))
    return drop, body


def _line_bands(chars: list[dict], body: float) -> list[tuple[float, float, float]]:
    """``(top, bottom, line_top)`` of each text line: characters whose tops lie within half the body size of the
    line's first. ``top``/``bottom`` bound all its characters; ``line_top`` is the median character top (a larger
    section number at the start of a row does not move it)."""
    bands: list[list] = []
    for c in sorted(chars, key=lambda c: c["top"]):
        if bands and c["top"] - bands[-1][0] < 0.5 * body:
            bands[-1][1] = max(bands[-1][1], c["bottom"])
            bands[-1][2].append(c["top"])
        else:
            bands.append([c["top"], c["bottom"], [c["top"]]])
    return [(a, b, sorted(tops)[len(tops) // 2]) for a, b, tops in bands]


_CHAPTER = re.compile(r"^\s*CHAPTER\b")


def _in_band(items: list[dict], band: tuple) -> list[dict]:
    """The characters or words of ``items`` whose top lies in ``band`` (``(top, bottom, ...)``)."""
    return [o for o in items if band[0] - 0.5 <= o["top"] <= band[1]]


def _region(page, words: list[dict], numerals: list[dict]) -> tuple[float, float, bool, list]:
    """``(top, bottom, ends_part_one, rule under the numbers or None)`` of the table body on ``page``."""
    found = rules(page)
    head_bottom = max(n["bottom"] for n in numerals)
    under = next(((t, s) for t, s in found if head_bottom - 1 < t < head_bottom + 20), None)
    top = head_bottom + 0.5  # the first line may touch the rule under the numbers (BNSS p.158)
    body = [w for w in words if w["top"] > top]
    table_width = (max(w["x1"] for w in body) - min(w["x0"] for w in body)) if body else 0.0
    bottom, ends = page.height, False
    heading = page.search(PART_TWO.pattern.replace("^\\s*", ""), regex=True)
    if heading:
        bottom, ends = min(h["top"] for h in heading) - 1, True
    below = [t for t, s in found if t > top + 5 and (t, s) != under and width(s) > 0.5 * table_width]
    if below and below[0] < bottom:
        bottom = below[0]
    return top, bottom, ends, under


def _cells(page, columns: list[float], bands: list[tuple[float, float]]) -> list[tuple[str, ...]]:
    """pdfplumber's table finder with explicit lines: one row per band, one cell per column."""
    cuts = [bands[0][0] - 0.5] + [(a[1] + b[0]) / 2 for a, b in zip(bands, bands[1:])] + [bands[-1][1] + 0.5]
    crop = page.crop((columns[0], cuts[0], columns[-1], cuts[-1]), strict=False)
    found = crop.find_tables({"vertical_strategy": "explicit", "horizontal_strategy": "explicit",
                              "explicit_vertical_lines": list(columns), "explicit_horizontal_lines": cuts,
                              "snap_tolerance": 0.1, "join_tolerance": 0.1, "intersection_tolerance": 0.5})
    rows = max(found, key=lambda t: len(t.rows)).extract() if found else []
    out = []
    for row in rows:
        cells = [" ".join((c or "").split()) for c in row]
        for k in range(1, len(cells)):  # a lone full stop that ran past the gutter ("entitled" | ".", BNSS p.183)
            if cells[k] and cells[k - 1] and re.fullmatch(r"[.,;:]+", cells[k]):
                cells[k - 1], cells[k] = cells[k - 1] + cells[k], ""
        out.append(tuple(cells))
    return out


def table_lines(page, number: int) -> PageTable | None:
    """Read the Part I table on one pdfplumber ``page`` (1-based ``number``); None when the page has no column
    number row (no table). The table runs from the number row down to the first of: the Part II heading, the next
    rule at least half the table wide, the foot of the page. Chapter headings inside the table ("CHAPTER
    VA.–CRIMINAL CONSPIRACY", CrPC) are left out. Where the boundaries come from a rule's joints, a *block* (a line
    whose section column has text, and the lines after it) whose words cross them gets its own
    (:func:`legal_rag.ingest.schedule_columns.repair`);
    boundaries from gutters are the page's own text's, and a word across one there is two cells' text run together
    ("grievousImprisonment", BNSS p.165), which pdfplumber splits by character position."""
    words = page.extract_words()
    numerals = _numeral_row(words)
    if numerals is None:
        return None
    top, bottom, ends, under = _region(page, words, numerals)
    chars = [c for c in page.chars if top < c["top"] and c["bottom"] <= bottom + 1 and c["text"].strip()]
    drop, body = _superscripts(chars)
    kept = [c for c in chars if id(c) not in drop]
    page = page.filter(lambda o: o.get("object_type") != "char" or id(o) not in drop)
    words = [w for w in page.extract_words() if top < w["top"] and w["bottom"] <= bottom + 1]
    bands = _line_bands(kept, body)
    heads: set[int] = set()
    for i, band in enumerate(bands):  # a chapter heading: "CHAPTER ..." and the upper-case line(s) after it
        text = " ".join(w["text"] for w in sorted(_in_band(words, band), key=lambda w: w["x0"]))
        if _CHAPTER.match(text) or (i - 1 in heads and text == text.upper() and not re.search(r"\d", text)):
            heads.add(i)
    bands = [b for i, b in enumerate(bands) if i not in heads]
    if not bands:
        return PageTable(number, (), (), "", ends)
    from_rule = joints(under[1]) if under else None
    inner, method = (from_rule, "rule joints") if from_rule else (gutters(kept, numerals), "gutters")
    left = min(min(c["x0"] for c in kept), numerals[0]["x0"]) - 1
    right = max(max(c["x1"] for c in kept), numerals[-1]["x1"]) + 1
    columns = [left, *inner, right]
    blocks: list[list[tuple[float, float]]] = []
    for band in bands:
        if not blocks or any(w["x1"] <= columns[1] for w in _in_band(words, band)):
            blocks.append([])
        blocks[-1].append(band)
    lines = []
    for block in blocks:
        span = (block[0][0], block[-1][1])
        cols = repair(columns, _in_band(words, span), _in_band(kept, span)) if from_rule else columns
        rows = _cells(page, cols, block)
        if len(rows) != len(block) or any(len(cells) != COLUMNS for cells in rows):
            raise CorpusError(f"p.{number}: the table finder gave {len(rows)} rows for {len(block)} printed lines")
        for band, cells in zip(block, rows):
            if any(cells):
                lines.append(TableLine(number, band[2], band[1], cells, tuple(round(x, 2) for x in cols)))
    return PageTable(number, tuple(lines), tuple(columns), method, ends)
