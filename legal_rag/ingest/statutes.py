"""Pages of an Act -> :class:`~legal_rag.types.Section` objects; the Indian Evidence Act from structured JSON.

``parse_statute(act, pages, source) -> (sections, problems)`` handles the two print styles of the corpus:

* Gazette / Bill prints (BNS Act 45 of 2023, BNSS Act 46 of 2023, BSA Act 47 of 2023): ``"103. (1) ..."``
  with the section title as a margin note beside the first line (``Page.margin``, paired by position);
* Legislative Department prints (IPC 1860, CrPC 1973): ``"420. Cheating and dishonestly inducing ...—Whoever"``
  with the title inline up to ``.—``; footnote markers (``1[``, ``2***``) and the page's footnotes
  (``Page.footnotes``: "1. Subs. by Act 22 of 2018, s. 4 ...") go to ``Section.notes``, not the text;
  ``"13. [Definition of “Queen”.] Omitted by the A. O. 1950."`` gives status ``omitted`` and ``Rep. by``
  gives ``repealed`` (nothing is invented).

The "ARRANGEMENT OF SECTIONS/CLAUSES" table is skipped (the body starts at the enacting formula, "BE it
enacted" / "WHEREAS it is expedient"). The last section ends where the Act's print stops printing sections: a
Schedule, form or appendix heading (in the text or among the margin notes) or the signature that closes a Gazette
print (:mod:`legal_rag.ingest.schedule_text`); what follows is no section's text and comes back apart, as
:class:`~legal_rag.types.ScheduleText` units (:func:`parse_act`). A section starts at
a line ``N.`` whose number follows the last one in order (``120`` < ``120A`` < ``120B`` < ``121``), so a page
number, a list item or a footnote number never opens a section. Lines of CHAPTER headings and cross-headings
("Of mischief", "A.—Summons") are kept out of the text; ``Section.chapter`` holds "CHAPTER XVII — OF ...".
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..types import Page, Problem, ScheduleText, Section, StatuteRef
from .schedule_text import ends_sections, margin_start, schedule_units, set_apart_note, tail_lines

_BODY_START = re.compile(r"\b(BE it enacted|it is (hereby )?enacted|WHEREAS it is expedient)", re.I)
_START = re.compile(r"^(?:\d{1,2}\s?\[|\[)?(\d{1,5}(?:-?[A-Z]{1,3})?)(?:\s?\.|(?=\s+[“\"]))\s*(.*)$")
_CHAPTER = re.compile(r"^(?:\d{1,2}\s?\[)?CHAPTER\s+([IVXLC]+[A-Z]?)\b\.?\s*(.*)$")
_ACT_CITATION = re.compile(r"^(?:(?:Act\s+)?\d+\s+of\s+\d{4}\.?,?\s*)+$", re.I)
_MARKER = re.compile(r"(?<![\w(.,])(\d{1,2})(?=\[|\*)")
_OMITTED = re.compile(r"^\s*\[?([^\]]{0,300})\]\s*\.?\s*(Omitted|Rep\.|Repealed)", re.I)
_BARE_STATUS = re.compile(r"^\s*\[?\s*(Omitted|Repealed)\s*\.?\]?\s*\.?\s*$", re.I)
_BILL_TITLE = re.compile(r"^\s*(THE\s+[A-Z][A-Z ,'()-]*?\bBILL,\s*\d{4})\s*$")
#: first words of the note every section of a Bill print carries (``ingest.chunk`` marks its chunks ``print=bill``)
BILL_NOTE = "Text of the Bill"


def bill_title(pages: Sequence[Page]) -> str:
    """The title of a Bill print (``"THE BHARATIYA SAKSHYA BILL, 2023"``, a line of its first two pages), else
    ``""``: a Bill's clauses are not the enacted text, so whatever is cited from it must say so."""
    for page in [p for p in pages if not p.skipped][:2]:
        for line in page.text.splitlines():
            m = _BILL_TITLE.match(line)
            if m:
                return re.sub(r"\s+", " ", m.group(1))
    return ""


@dataclass
class _Open:
    number: str
    page: int
    y: float
    lines: list[str] = field(default_factory=list)
    last_page: int = 0
    chapter: str = ""
    foot: list[tuple[int, str]] = field(default_factory=list)  # (page, line) for footnote lookup
    line_pages: list[int] = field(default_factory=list)  # the page of each line of ``lines``


def _key(number: str) -> tuple[int, str]:
    m = re.match(r"(\d+)([A-Z]*)", number)
    return (int(m.group(1)), m.group(2)) if m else (0, "")


def _accept(number: str, last: tuple[int, str] | None) -> str | None:
    """``number`` if it may follow ``last`` (in order, at most 12 numbers on; the first section may have any
    number, for extracts), else None; a leading footnote digit glued to the number (``1138A`` for
    superscript 1 + 138A) is dropped when that makes it fit."""
    for cand in (number, number[1:], number[2:]):
        if not cand or not cand[0].isdigit() or cand[0] == "0":
            continue
        k = _key(cand)
        if last is None:
            if k[0] <= 12 or number == cand:
                return cand
        elif k > last and k[0] <= last[0] + 12:
            return cand
    return None


def _is_heading(line: str) -> bool:
    s = line.strip()
    if not s or len(s) > 80 or s[0] in "([“\"" or s[0].isdigit():
        return False
    if s.isupper() and len(s) > 3:
        return True
    return s[0].isupper() and not re.search(r"[.;:,—–\-)\]]$", s) and not re.match(
        r"^(Explanation|Illustration|Provided|Exception)", s)


@dataclass(frozen=True)
class StatutePrint:
    """One Act's print as parsed: its sections in printed order, the text printed after the last section
    (Schedules, forms, an appendix: :mod:`legal_rag.ingest.schedule_text`) and the problems found."""

    sections: tuple[Section, ...]
    schedules: tuple[ScheduleText, ...]
    problems: tuple[Problem, ...]


def parse_statute(act: str, pages: Sequence[Page], source: str) -> tuple[tuple[Section, ...], tuple[Problem, ...]]:
    """Split the pages of one Act into sections (see the module docstring for the rules): :func:`parse_act`'s
    sections and problems.

    ``pages`` are the :class:`Page` objects of one PDF in order (skipped pages are ignored). Returns the
    sections in printed order and the problems found (numbers out of order are reported, never invented).
    Each section's ``pages`` is ``(first, last)``, 1-based, where its text is printed.
    """
    parsed = parse_act(act, pages, source)
    return parsed.sections, parsed.problems


def parse_act(act: str, pages: Sequence[Page], source: str) -> StatutePrint:
    """:func:`parse_statute`, with the text printed after the last section as
    :class:`~legal_rag.types.ScheduleText` units (``schedules``; an ``info`` problem ``set_apart`` names them and
    their pages). The last section ends at the first Schedule, form or appendix heading, or at the closing
    signature (:func:`legal_rag.ingest.schedule_text.ends_sections`), which is no section's text.
    """
    problems: list[Problem] = []
    started = False
    last: tuple[int, str] | None = None
    chapter = ""
    want_chapter_title = False
    cur: _Open | None = None
    done: list[tuple[_Open, str]] = []  # (section, title from the margin)
    pending: list[str] = []  # heading lines seen since the last body line
    pending_at: list[int] = []  # the page of each line of ``pending``
    footnotes: dict[int, dict[str, str]] = {}

    def close() -> None:
        nonlocal cur
        if cur is not None:
            done.append((cur, ""))
            cur = None

    tail: list[tuple[int, str]] = []
    started = not any(_BODY_START.search(p.text) for p in pages if not p.skipped)  # an extract: all body
    for page in pages:
        if page.skipped:
            continue
        footnotes[page.number] = _footnote_entries(page.footnotes)
        lines = page.text.split("\n")
        ys = list(page.line_y) + [0.0] * (len(lines) - len(page.line_y))
        cut = margin_start(page) if started and last is not None else None
        end = None
        for i, (text, y) in enumerate(zip(lines, ys)):
            s = text.strip()
            if not s:
                continue
            if not started:
                if _BODY_START.search(s):
                    started = True
                continue
            if last is not None:
                end = "schedule" if cut is not None and y >= cut else ends_sections(s)
            if end is not None:  # the signatory's name above a signature is upper-case: held as a heading, dropped
                if end != "signature":
                    tail = tail_lines(pages, page.number, i, cut if cut is not None and y >= cut else y)
                break
            m = _CHAPTER.match(s)
            if m and s.upper() == s:
                chapter = f"CHAPTER {m.group(1)}" + (f" — {m.group(2).strip()}" if m.group(2).strip() else "")
                want_chapter_title = not m.group(2).strip()
                pending = [s]  # its footnote marker ("1[CHAPTER XXA") belongs to the next section's notes
                pending_at = [page.number]
                continue
            if want_chapter_title and s.upper() == s and not _START.match(s):
                chapter = f"{chapter} — {s}" if " — " not in chapter else f"{chapter} {s}"
                pending.append(s)
                pending_at.append(page.number)
                continue
            want_chapter_title = False
            m = _START.match(s)
            number = _accept(m.group(1).replace("-", ""), last) if m else None
            if number:
                close()
                printed = m.group(1)[len(m.group(1)) - len(number) - ("-" in m.group(1)):]  # type: ignore[union-attr]
                cur = _Open(number, page.number, y, [s[s.index(printed):] if printed in s else s], page.number,
                            chapter)
                cur.foot.extend((page.number, h) for h in pending + [s])
                cur.line_pages.append(page.number)
                last = _key(number)
                pending, pending_at = [], []
                continue
            if cur is None:
                continue
            if _is_heading(s):
                pending.append(s)
                pending_at.append(page.number)
                continue
            if pending:  # a heading-like line inside the section after all (e.g. a short last line)
                cur.lines.extend(h for h in pending if not h.isupper())
                cur.line_pages.extend(p for h, p in zip(pending, pending_at) if not h.isupper())
                pending, pending_at = [], []
            cur.lines.append(s)
            cur.line_pages.append(page.number)
            cur.last_page = page.number
            cur.foot.append((page.number, s))
        if end is not None:
            break
    last_number = cur.number if cur is not None else (done[-1][0].number if done else "")
    close()
    sections, problems_t = _finish(act, source, done, pages, footnotes, problems)
    units = schedule_units(act, tail, source)
    if units:
        problems_t += (Problem(source, "set_apart", set_apart_note(units, last_number), severity="info"),)
    return StatutePrint(sections, units, problems_t)


def _footnote_entries(block: str) -> dict[str, str]:
    entries: dict[str, str] = {}
    key = None
    for line in block.split("\n"):
        m = re.match(r"^\s*(\d{1,3})\.\s*(.*)$", line)
        if m:
            key = m.group(1)
            entries[key] = f"{key}. {m.group(2).strip()}"
        elif key and line.strip():
            entries[key] += " " + line.strip()
    return entries


def _margin_title(page: Page, y: float, used: set[tuple[int, float]]) -> str:
    """The margin note printed beside line ``y`` of ``page`` (within 1.5 line spacings), Act citations excluded."""
    gaps = sorted(b - a for a, b in zip(page.line_y, page.line_y[1:]) if b > a)
    spacing = gaps[len(gaps) // 2] if gaps else 12.0
    best = None
    for ny, text in page.margin:
        if (page.number, ny) in used or _ACT_CITATION.match(text):
            continue
        d = abs(ny - y)
        if d <= 1.5 * spacing and (best is None or d < best[0]):
            best = (d, ny, text)
    if best is None:
        return ""
    used.add((page.number, best[1]))
    title = best[2]
    for ny, text in sorted(page.margin):  # a note broken by a gap: "... possessed by" / "deceased person ..."
        if title.endswith(".") or ny <= best[1] or (page.number, ny) in used or _ACT_CITATION.match(text):
            continue
        title = f"{title} {text}"
        used.add((page.number, ny))
    return title


def _finish(act, source, done, pages, footnotes, problems):
    by_number = {p.number: p for p in pages}
    bill = bill_title(pages)
    if bill:
        problems.append(Problem(source, "bill_text", f"a Bill print ({bill}), not the enacted Act: every section is "
                                "cited as the Bill's text; the manifest should name the Gazette print"))
    used: set[tuple[int, float]] = set()
    out: list[Section] = []
    for sec, _ in done:
        text = "\n".join(sec.lines).strip()
        status = "in_force"
        body = re.sub(r"^\d+(-?[A-Z]+)?\s?\.?\s*", "", text, count=1)
        title = ""
        om = _OMITTED.match(body)
        if om or _BARE_STATUS.match(body):
            status = "repealed" if re.search(r"Rep\.|Repealed", body[:400]) else "omitted"
            title = om.group(1).strip() if om else ""
        page = by_number.get(sec.page)
        if not title and page is not None and page.margin:
            title = _margin_title(page, sec.y, used)
        if not title:
            m = re.match(r"^(.{2,400}?)\s*[.]?\s*[—–]{1,2}(?!\s*$)", body.replace("\n", " "), re.S)
            if m and "(" not in m.group(1)[:1]:
                title = m.group(1).strip()
        notes: list[str] = [f"{BILL_NOTE} ({bill}), not the enacted Act"] if bill else []
        for pno, line in sec.foot:
            for mk in _MARKER.findall(line):
                entry = footnotes.get(pno, {}).get(mk)
                if entry and entry not in notes:
                    notes.append(entry)
        text = _MARKER.sub("", text)
        out.append(Section(StatuteRef(act, sec.number), _tidy_title(title), text, source,
                           (sec.page, max(sec.page, sec.last_page)), sec.chapter, status, tuple(notes),
                           _page_starts(sec, text)))
    return tuple(out), tuple(problems)


def _page_starts(sec: _Open, text: str) -> tuple[tuple[int, int], ...]:
    """``Section.page_starts`` of ``sec`` whose finished text is ``text``: ``(offset, page)`` where each page's part
    of the text begins (footnote markers are dropped line by line, as from the whole text); ``()`` when the lines
    do not rebuild ``text`` exactly (nothing is guessed)."""
    lines = [_MARKER.sub("", line) for line in sec.lines]
    if len(sec.line_pages) != len(lines) or "\n".join(lines) != text:
        return ()
    out: list[tuple[int, int]] = []
    offset = 0
    for line, page in zip(lines, sec.line_pages):
        if not out or page != out[-1][1]:
            out.append((offset, page))
        offset += len(line) + 1
    return tuple(out)


def _tidy_title(title: str) -> str:
    return _MARKER.sub("", re.sub(r"\s+", " ", title)).strip()


def load_iea_json(path: Path) -> tuple[Section, ...]:
    """The Indian Evidence Act, 1872 from structured JSON (civictech-India ``iea.json``: a list of
    ``{chapter, section, section_title, section_desc}``); there is no official IEA PDF in the corpus.

    ``pages`` is ``(0, 0)`` (no printed page), ``source`` the file name; sections keep the file's order and
    letters upper-case ("65B"). Raises ``ValueError`` naming the file on malformed input.
    """
    path = Path(path)
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path.name}: cannot read structured IEA JSON: {exc}") from exc
    out: list[Section] = []
    seen: set[str] = set()
    for i, row in enumerate(rows):
        number = str(row.get("section", row.get("Section", ""))).strip().upper().replace(" ", "")
        if not number or number in seen:
            continue
        seen.add(number)
        desc = str(row.get("section_desc", "")).strip()
        status = "repealed" if re.match(r"^\[?\s*(Rep\.|Repealed)", desc) else (
            "omitted" if re.match(r"^\[?\s*Omitted", desc, re.I) else "in_force")
        out.append(Section(StatuteRef("IEA", number), str(row.get("section_title", "")).strip(), desc, path.name,
                           (0, 0), f"CHAPTER {row.get('chapter', '')}".strip(), status))
    if not out:
        raise ValueError(f"{path.name}: no sections found")
    return tuple(out)
