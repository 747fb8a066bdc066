"""The lines of a First Schedule's table (:mod:`legal_rag.ingest.schedule_table`) grouped into :class:`ScheduleRow`.

Rows are not found line by line: in the CrPC's India Code print some cells sit lower than their row's first line
(BNS-era amendments, pp. 189-190: "Cognizable" one line above the offence of IPC 376(2); the number "376DB" a line
above its offence), rows on a page can follow each other with no extra space (p. 188), and one punishment runs on
into the next row's height with no gap (376DB into 376E, p. 190). So:

1. Each column is cut into *cells*. A line of a column starts a new cell after an empty line of that column (no
   text of it within 1.5 line pitches above) or a page end, never when it starts in lower case ("Non-" /
   "cognizable"); otherwise when it is or follows a "Ditto", when the line above ends a sentence (".", ":", ";",
   ":—"), when a row's column-4 cell starts on the same line, or after a wider gap than the page's line pitch
   (1.12 times). In column 4 (cognizable) only a classification word starts a cell ("Cognizable",
   "Non-cognizable", "According as ...", "Ditto": "... notified by the State / Government in this behalf" in IPC
   498A's column 4 continues it). In column 1 every line is a cell (a number).
2. Every column-4 cell is a row (every row of Part I says whether the offence is cognizable). A section number
   (column 1) belongs to the nearest such row within 1.5 line pitches; a number with none that near heads a row of
   its own with no classification, a *lead-in* ("264 Omission to apprehend ...:—", whose clauses (a), (b) follow as
   rows without numbers): its offence text is put before each of the rows that follow it without a number of
   their own, and the lead-in itself is dropped.
3. Every other cell belongs to the last row that starts no lower than 0.7 line pitch below the cell's first line.
   A cell above a page's first row continues the last row of the previous page.
4. A row with no number of its own repeats the section of the row above and is marked ``continued``; a number
   that is only a clause, "(b)" after "501(a)", is that clause of the section above.
5. Cell lines are joined (a hyphen at a line end joins "imprison-" + "ment" when the part before it is a word of 4
   or more letters and the next line starts in lower case; "non-" + "bailable", "one-" + "half" keep it), and
   "Ditto" takes the same column of the row above, after that row's own "Ditto" was resolved.

A line printed twice (the CrPC p. 189 has shadow copies of three rows' first lines, 8 pt above the real ones) is
read once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..types import Problem, ScheduleRow, StatuteRef
from .schedule_table import TableLine

_SECTION = re.compile(r"^(\d+)(?:-?([A-Z]{1,2}))?((?:\([0-9]{1,2}\)|\([a-z]{1,2}\))*)$")
_CLAUSE_ONLY = re.compile(r"^((?:\([0-9a-z]{1,3}\))+)$")
_ENDS_SENTENCE = re.compile(r"(?:[.;:]|:\s*[—–-]+)\W*$")
_DITTO = re.compile(r"^\W*d\s*i\s*t\s*t\s*o\W*$", re.I)
#: how a column-4 cell begins: "Cognizable", "Non-cognizable" ("N o n -cognizable"), "According as ...", "Ditto"
_CLASS_WORD = re.compile(r"^\W*(?:cognizable|n\s*o\s*n\b|n\s*o\s*n\s*-|according|d\s*i\s*t\s*t\s*o)", re.I)


@dataclass
class _Cell:
    col: int
    page: int
    top: float
    texts: list[str]


@dataclass
class _Row:
    page: int
    top: float
    number: _Cell | None = None
    columns: list[list[str]] = field(default_factory=lambda: [[] for _ in range(6)])


def _norm(text: str) -> str:
    return re.sub(r"\s+", "", text).lower()


def dedupe(lines: list[TableLine]) -> list[TableLine]:
    """Read a line printed twice once: when the next line on the same page, within 10 pt, repeats a line's text
    (spaces ignored), keep the later line's place and, per cell, the copy with fewer spaces ("Any Magistrate."
    rather than "A n y Mag i st ra te.")."""
    out: list[TableLine] = []
    skip = False
    for a, b in zip(lines, [*lines[1:], None]):
        if skip:
            skip = False
            continue
        if b is not None and a.page == b.page and 0 <= b.top - a.top < 10 and _norm(a.text) == _norm(b.text):
            cells = tuple(min((x, y), key=lambda t: t.count(" ")) for x, y in zip(a.cells, b.cells))
            out.append(TableLine(b.page, b.top, b.bottom, cells, b.columns))
            skip = True
            continue
        out.append(a)
    return out


def pitches(lines: list[TableLine]) -> dict[int, float]:
    """Per page: the median of the smaller half of the distances between consecutive lines' tops (the line
    pitch inside a cell; rows are further apart)."""
    out: dict[int, float] = {}
    for page in sorted({ln.page for ln in lines}):
        on = [ln for ln in lines if ln.page == page]
        gaps = sorted(b.top - a.top for a, b in zip(on, on[1:]))
        low = gaps[: max(1, len(gaps) // 2)]
        out[page] = low[len(low) // 2] if low else 10.0
    return out


def _starts_cell(col: int, text: str, before: str, gap: float, pitch: float, at_row: bool) -> bool:
    """Whether a non-empty line of column ``col`` (0-based) starts a new cell, the line above in that column
    holding ``before`` (rule 1 of the module docstring)."""
    if not before or col == 0 or _DITTO.match(text) or _DITTO.match(before):
        return True
    if text[:1].islower():  # a cell never starts in lower case: "Non-" / "cognizable", "Cognizable (but" / "only on"
        return False
    if col == 3:
        return bool(_CLASS_WORD.match(text))
    return at_row or bool(_ENDS_SENTENCE.search(before)) or gap > 1.12 * pitch


def column_cells(lines: list[TableLine], col: int, pitch: dict[int, float],
                 rows: frozenset[tuple[int, float]] = frozenset()) -> list[_Cell]:
    """The cells of column ``col`` (0-based) in printed order; ``rows`` holds the ``(page, top)`` of the lines
    where a row's column-4 cell starts (a cell of another column that has text on such a line starts there)."""
    cells: list[_Cell] = []
    last: TableLine | None = None  # the last line with text in this column
    for ln in lines:
        text = ln.cells[col]
        if not text:
            continue
        gap = ln.top - last.top if last is not None and last.page == ln.page else 0.0
        # the line above in this column: within 1.5 pitches (cells of other columns may be printed between its
        # lines, half a line down: IPC 376B, p.190); further up, the column was empty
        before = last.cells[col] if 0 < gap <= 1.5 * pitch[ln.page] else ""
        if cells and not _starts_cell(col, text, before, gap, pitch[ln.page], (ln.page, ln.top) in rows):
            cells[-1].texts.append(text)
        else:
            cells.append(_Cell(col, ln.page, ln.top, [text]))
        last = ln
    return cells


def _unspace(text: str) -> str:
    """Letter-spaced words as words: "N o n -cognizable" -> "Non-cognizable", "D i t t o" -> "Ditto";
    "Non- cognizable" -> "Non-cognizable"."""
    text = re.sub(r"(?<![^\s(\[])((?:[A-Za-z] ){2,}[A-Za-z])(?=[\s\-.,;:)]|$)",
                  lambda m: m.group(1).replace(" ", ""), text)
    return re.sub(r"\b([Nn]on)\s*-\s*(?=[a-zA-Z])", r"\1-", text)


def _unmatched_brackets(text: str) -> str:
    """``text`` without the square brackets that have no partner in it: the India Code marks an amended entry
    "¹[Non-bailable" ... "Any Magistrate.]", and the mark may open in one cell and close in another; a bracket
    of the schedule's own text is matched in its cell ("[except as provided in section 122(2)]", BNS 118(2))."""
    opened: list[int] = []
    drop: set[int] = set()
    for i, ch in enumerate(text):
        if ch == "[":
            opened.append(i)
        elif ch == "]":
            if opened:
                opened.pop()
            else:
                drop.add(i)
    drop.update(opened)
    return " ".join("".join(ch for i, ch in enumerate(text) if i not in drop).split())


def join_lines(texts: list[str]) -> str:
    """A cell's lines as one string (rule 5 of the module docstring); letter-spaced words closed up, unmatched
    amendment brackets dropped."""
    out = ""
    for line in (t.strip() for t in texts if t.strip()):
        if not out:
            out = line
        elif re.search(r"[A-Za-z]{4,}-$", out) and line[:1].islower():
            out = out[:-1] + line
        elif out.endswith("-"):
            out += line
        else:
            out += " " + line
    return _unspace(_unmatched_brackets(out))


def yes_no(text: str, word: str) -> bool | None:
    """``word`` is "cognizable" or "bailable": True / False as the column says; None for "According as ...", an
    empty column, or one that says both or neither ("Non-cognizable" printed in the bailable column, CrPC s.222)."""
    s = re.sub(r"\s+", "", text.lower())
    if not s or s.startswith("accordingas"):
        return None
    negative = len(re.findall(f"non-?{word}", s))
    positive = len(re.findall(word, s)) - negative
    if positive and not negative:
        return True
    if negative and not positive:
        return False
    return None


def parse_number(cell: str, previous: StatuteRef | None, act: str) -> tuple[str, StatuteRef] | None:
    """``(as printed, ref)`` for a section-number cell ("318(4)", "58 (a)", "171-I", "[120B"), or None when it
    holds no section number. A bare clause "(b)" is that clause of ``previous``'s section."""
    printed = re.sub(r"\s+", "", cell.replace("[", "").replace("]", ""))
    m = _SECTION.match(printed)
    if m:
        subs = tuple(re.findall(r"\(([0-9a-z]+)\)", m.group(3)))
        return printed, StatuteRef(act, m.group(1) + (m.group(2) or ""), subs)
    c = _CLAUSE_ONLY.match(printed)
    if c and previous is not None:
        subs = previous.sub[:-1] + tuple(re.findall(r"\(([0-9a-z]+)\)", c.group(1)))
        return f"{previous.section}{''.join(f'({s})' for s in subs)}", StatuteRef(act, previous.section, subs)
    return None


def group(lines: list[TableLine], source: str) -> tuple[list[_Row], list[Problem]]:
    """Rows of the schedule (rules 1-3 of the module docstring), in printed order."""
    lines = dedupe(lines)
    pitch = pitches(lines)
    problems: list[Problem] = []
    cognizable = column_cells(lines, 3, pitch)
    rows = [_Row(c.page, c.top) for c in cognizable]
    for r, c in zip(rows, cognizable):
        r.columns[3] = list(c.texts)
    by_page: dict[int, list[_Row]] = {}
    for r in rows:
        by_page.setdefault(r.page, []).append(r)
    for cell in column_cells(lines, 0, pitch):
        near = [r for r in by_page.get(cell.page, []) if abs(r.top - cell.top) <= 1.5 * pitch[cell.page]]
        best = min(near, key=lambda r: abs(r.top - cell.top), default=None)
        if best is None or best.number is not None:
            best = _Row(cell.page, cell.top)  # a lead-in (or a second number at one row: kept apart, reported)
            rows.append(best)
            by_page.setdefault(cell.page, []).append(best)
        best.number = cell
    rows.sort(key=lambda r: (r.page, r.top))
    for page in by_page:
        by_page[page].sort(key=lambda r: r.top)
    starts = frozenset((r.page, r.top) for r in rows)
    for col in (1, 2, 4, 5):
        for cell in column_cells(lines, col, pitch, starts):
            above = [r for r in by_page.get(cell.page, []) if r.top <= cell.top + 0.7 * pitch[cell.page]]
            if above:
                above[-1].columns[col] += cell.texts
                continue
            earlier = [r for r in rows if r.page < cell.page]
            if not earlier:
                problems.append(Problem(source, "schedule_orphan", f"column {col + 1} text before the first row: "
                                        f"{' '.join(cell.texts)!r}", cell.page))
                continue
            earlier[-1].columns[col] += cell.texts
            problems.append(Problem(source, "schedule_page_break", f"column {col + 1} text at the top of the page "
                                    f"continues the row above: {' '.join(cell.texts)!r}", cell.page, "info"))
    return rows, problems


def build(rows: list[_Row], schedule: str, act: str, source: str) -> tuple[list[ScheduleRow], list[Problem]]:
    """:class:`ScheduleRow` objects from grouped rows: numbers, lead-ins and "Ditto" (rules 2, 4 and 5)."""
    out: list[ScheduleRow] = []
    problems: list[Problem] = []
    ref: StatuteRef | None = None
    printed = ""
    lead = ""
    since_number = 0  # rows emitted since the last number
    for r in rows:
        cells = [join_lines(col) for col in r.columns]
        if r.number is not None:
            text = " ".join(r.number.texts)
            parsed = parse_number(text, ref, act)
            if parsed is None:
                problems.append(Problem(source, "schedule_section", f"first column {text!r} names no section", r.page))
                continue
            printed, ref = parsed
            lead, since_number = "", 0
        elif ref is None:
            problems.append(Problem(source, "schedule_orphan", f"a row before the first section: {cells[1]!r}", r.page))
            continue
        if not r.columns[3]:  # a lead-in: its text goes before the rows that follow it without a number
            lead = cells[1]
            if any(cells[2:]):
                problems.append(Problem(source, "schedule_lead_in", f"{printed}: a row without column 4 has text "
                                        f"in other columns: {cells[2:]!r}", r.page))
            continue
        if lead and r.number is None:
            cells[1] = f"{lead} {cells[1]}".strip()
        ditto = []
        for k in range(1, 6):
            if _DITTO.match(cells[k]):
                if not out:
                    problems.append(Problem(source, "schedule_ditto", f"{printed}: 'Ditto' in column {k + 1} with "
                                            "no row above", r.page))
                    continue
                above = out[-1]
                cells[k] = (above.offence, above.punishment, above.cognizable_text, above.bailable_text,
                            above.court)[k - 1]
                ditto.append(k + 1)
        out.append(ScheduleRow(schedule, act, printed, ref, cells[1], cells[2], yes_no(cells[3], "cognizable"),
                               yes_no(cells[4], "bailable"), cells[5], cells[3], cells[4], source, r.page,
                               len(out) + 1, r.number is None and since_number > 0, tuple(ditto)))
        since_number += 1
    return out, problems


__all__ = ["dedupe", "pitches", "column_cells", "join_lines", "yes_no", "parse_number", "group", "build"]
