"""What an Act's print carries after its last section: Schedules, their forms, an appendix, the signature.

``ends_sections(line) -> kind | None`` and ``margin_start(page) -> y | None`` tell the statute parser
(:mod:`legal_rag.ingest.statutes`) where the last section ends; ``tail_lines(pages, page, line, y)`` reads what
follows in order and ``schedule_units(act, lines, source)`` cuts it into :class:`~legal_rag.types.ScheduleText`
units, each cited as itself ("BNSS, First Schedule (Classification of offences), pp. 158-189"), never as the
last section.

The last section ends at the first line, once a section has begun, that is

* a Schedule heading printed alone on its line: "THE FIRST SCHEDULE", "THE SECOND SCHEDULE" (BNSS, Act 46 of
  2023; CrPC, Act 2 of 1974), "THE SCHEDULE" (BSA, Act 47 of 2023, the certificate of s.63(4)(c)), in the page's
  text or among its margin notes (the BNSS Gazette print sets "THE FIRST SCHEDULE" and "CLASSIFICATION OF
  OFFENCES" where :mod:`legal_rag.ingest.pdf` reads margin notes, ``Page.margin``: every line of the page below
  that note is the Schedule's);
* a form heading, "FORM No. 1", "1[FORM No. 47" (a Schedule of forms whose own heading was not read);
* "APPENDIX" (the CrPC print's extracts of the Code of Criminal Procedure (Amendment) Act, 2005);
* the signature that closes a Gazette print ("DIWAKAR SINGH, / Joint Secretary & Legislative Counsel to the Govt.
  of India."): the Legislative Counsel's words, not the Act's; the signatory's name line before it goes too, and
  the printer's imprint after it is dropped.

Units: one per Schedule or appendix, one per form in a Schedule of forms; the lines of a Schedule before its first
form (its heading, "(See section 522)") open the first form's text. A unit's ``title`` is the upper-case heading
printed under its heading line (a form's may run over three lines), ``see`` the "(See section ...)" line under it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Literal

from ..types import Page, ScheduleText

#: why the sections end at a line (:func:`ends_sections`)
EndKind = Literal["schedule", "form", "appendix", "signature"]

_MARK = r"^\s*(?:\d{1,2}\s?\[)?"  # a footnote marker glued before a heading: "1[FORM No. 47"
SCHEDULE_HEADING = re.compile(_MARK + r"(?:THE\s+)?(?:(FIRST|SECOND|THIRD|FOURTH|FIFTH|SIXTH)\s+)?SCHEDULE\s*$")
FORM_HEADING = re.compile(_MARK + r"FORM\s+N[Oo]\s*\.?\s*(\d{1,3}[A-Z]?)\s*\.?\s*$")
APPENDIX_HEADING = re.compile(_MARK + r"APPENDIX(?:\s+[IVX]+)?\s*\.?\s*$")
#: the Legislative Counsel's (or a Secretary's) signature line that closes a Gazette print
SIGNATURE = re.compile(r"^\s*(?:(?:Joint|Additional|Deputy)\s+)?Secretary\b.{0,80}\bto\s+the\s+"
                       r"(?:Govt\.?|Government)\s+of\s+India\.?\s*$", re.I)
#: the signatory's name above the signature ("DIWAKAR SINGH,", "DR. G. NARAYANA RAJU,")
SIGNATORY = re.compile(r"^\s*[A-Z][A-Z.' ]{2,60},\s*$")
_SEE = re.compile(_MARK + r"(?:\[\s*See\s+(.+)\]|\(\s*See\s+(.+)\))\s*\]?\s*$")
_PART = re.compile(r"^\s*PART\s+[A-Z0-9]{1,4}\b")
_INNER_MARK = re.compile(r"(?<![\w(.,])\d{1,2}\[([^\]]*)\]")


def ends_sections(line: str) -> EndKind | None:
    """Why the Act's sections end at ``line`` (see the module docstring), or None for a line that may be a section's.

    >>> ends_sections("THE FIRST SCHEDULE"), ends_sections("FORM No.1"), ends_sections("the Second Schedule, with")
    ('schedule', 'form', None)
    >>> ends_sections("Joint Secretary & Legislative Counsel to the Govt. of India.")
    'signature'
    """
    if SCHEDULE_HEADING.match(line):
        return "schedule"
    if FORM_HEADING.match(line):
        return "form"
    if APPENDIX_HEADING.match(line):
        return "appendix"
    if SIGNATURE.match(line):
        return "signature"
    return None


def margin_start(page: Page) -> float | None:
    """The position (``Page.margin`` units, growing down the page) of the first Schedule or appendix heading among
    ``page``'s margin notes, else None: the page's lines below it are no section's."""
    ys = [y for y, text in page.margin if ends_sections(text) in ("schedule", "appendix")]
    return min(ys) if ys else None


def _page_lines(page: Page, first: int = 0, y_from: float | None = None) -> list[tuple[int, str]]:
    """``(page number, line)`` of ``page`` in reading order: its text lines from index ``first`` with its margin notes
    put back by position (those at or below ``y_from`` when given), a note after the line it stands beside."""
    lines = page.text.split("\n")
    if not page.line_y:  # no positions: the text, then the notes
        return [(page.number, t) for t in lines[first:]] + [(page.number, t) for _, t in page.margin]
    ys = list(page.line_y[:len(lines)]) + [page.line_y[-1]] * (len(lines) - len(page.line_y))  # a trailing "\n"
    keyed = [(y, 0, i, t) for i, (t, y) in enumerate(zip(lines, ys)) if i >= first]
    keyed += [(y, 1, i, t) for i, (y, t) in enumerate(page.margin) if y_from is None or y >= y_from]
    return [(page.number, t) for *_, t in sorted(keyed)]


def tail_lines(pages: Sequence[Page], page: int, line: int, y_from: float | None) -> list[tuple[int, str]]:
    """``(page number, line)`` from line ``line`` (0-based, of ``Page.text``) of page ``page`` to the end of
    ``pages``, in reading order (:func:`_page_lines`); on page ``page`` only the margin notes at or below ``y_from``.
    Skipped pages are left out."""
    out: list[tuple[int, str]] = []
    for p in pages:
        if p.skipped or p.number < page:
            continue
        out += _page_lines(p, line, y_from) if p.number == page else _page_lines(p)
    return out


def _upper(line: str) -> bool:
    letters = re.sub(r"[^A-Za-z]", "", line)
    return len(letters) >= 3 and letters.isupper()


def _sentence(words: Iterable[str]) -> str:
    text = re.sub(r"\s+", " ", " ".join(words)).replace("[", "").replace("]", "").strip()
    return text[:1].upper() + text[1:].lower()


def _part_name(heading: str) -> str:
    """``"THE FIRST SCHEDULE"`` -> ``"First Schedule"``; ``"THE SCHEDULE"`` -> ``"Schedule"``; ``"APPENDIX"``."""
    m = SCHEDULE_HEADING.match(heading)
    if m:
        return f"{m.group(1).capitalize()} Schedule" if m.group(1) else "Schedule"
    return "Appendix"


def _unit(act: str, part: str, form: str, lines: list[tuple[int, str]], source: str) -> ScheduleText:
    """One unit of ``lines``: its title and ``see`` read under its last heading line (the form's, else the part's)."""
    texts = [t for _, t in lines]
    head = max((i for i, t in enumerate(texts) if ends_sections(t) in ("schedule", "form", "appendix")), default=-1)
    title: list[str] = []
    see = ""
    for t in texts[head + 1:head + 6]:
        m = _SEE.match(t)
        if m:
            see = see or _INNER_MARK.sub(r"\1", m.group(1) or m.group(2)).strip()
            if title:
                break
            continue
        if _upper(t) and not _PART.match(t) and not ends_sections(t) and len(title) < (3 if form else 1):
            title.append(re.sub(_MARK, "", t))
            continue
        break
    pages = [p for p, _ in lines]
    return ScheduleText(act, part, _sentence(title), "\n".join(texts), source, (min(pages), max(pages)), form, see)


def schedule_units(act: str, lines: Iterable[tuple[int, str]], source: str) -> tuple[ScheduleText, ...]:
    """The :class:`~legal_rag.types.ScheduleText` units of ``lines`` (``(page, text)`` in reading order, from where
    the sections end: :func:`tail_lines`), cut at Schedule, appendix and form headings and ending at the signature
    (see the module docstring). Blank lines are dropped.

    >>> [u.citation for u in schedule_units("BSA", [(46, "THE SCHEDULE"), (46, "[See section 63(4)(c)]"),
    ...     (46, "CERTIFICATE"), (46, "PART A"), (47, "I state that ..."), (47, "DIWAKAR SINGH,"),
    ...     (47, "Joint Secretary & Legislative Counsel to the Govt. of India."), (47, "AND PUBLISHED BY ...")], "bsa.pdf")]
    ['BSA, Schedule (Certificate), pp. 46-47']
    """
    units: list[ScheduleText] = []
    part, form = "", ""
    cur: list[tuple[int, str]] = []

    def flush() -> None:
        if cur:
            units.append(_unit(act, part, form, list(cur), source))
            cur.clear()

    for page, text in lines:
        s = text.strip()
        if not s:
            continue
        kind = ends_sections(s)
        if kind == "signature":
            if cur and SIGNATORY.match(cur[-1][1]):
                cur.pop()
            break
        if kind in ("schedule", "appendix"):
            flush()
            part, form = _part_name(s), ""
        elif kind == "form":
            number = FORM_HEADING.match(s).group(1)  # type: ignore[union-attr]
            preamble = bool(cur) and not form and all(ends_sections(t) or _SEE.match(t) or _upper(t) for _, t in cur)
            if not preamble:  # the Schedule's own heading lines open its first form
                flush()
            form = number
        cur.append((page, s))
    flush()
    return tuple(units)


def set_apart_note(units: Sequence[ScheduleText], after: str) -> str:
    """What an ingest report says of ``units`` set apart after section ``after``: ``"after section 531: BNSS, First
    Schedule (Classification of offences), pp. 158-189; BNSS, Second Schedule, 58 forms, pp. 190-249"``."""
    groups: dict[str, list[ScheduleText]] = {}
    for u in units:
        groups.setdefault(f"{u.act}, {u.part}" if u.part else u.act, []).append(u)
    parts = []
    for name, us in groups.items():
        a, b = min(u.pages[0] for u in us), max(u.pages[1] for u in us)
        where = f"p. {a}" if a == b else f"pp. {a}-{b}"
        forms = sum(bool(u.form) for u in us)
        parts.append(f"{us[0].label}, {where}" if len(us) == 1 else f"{name}, {forms} forms, {where}")
    return f"after section {after}: " + "; ".join(parts)


__all__ = ["EndKind", "ends_sections", "margin_start", "tail_lines", "schedule_units", "set_apart_note"]
