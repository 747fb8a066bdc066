"""The header of a judgment: layout, parties (title), court, date, citations and case numbers.

Layouts recognised (``Header.layout``), each as printed in the corpus (``judgments/pdf/index.csv``):

* ``scr_digital`` — Digital Supreme Court Reports (2023-): ``[2024] 7 S.C.R. 97 : 2024 INSC 479``, parties,
  ``(Criminal Appeal No. ...)``, ``08 July 2024``;
* ``scr`` — printed Supreme Court Reports: ``582 SUPREME COURT REPORTS [2020] 1 S.C.R.``, parties,
  ``JANUARY 31, 2020``;
* ``judis`` — old NIC JUDIS print: ``PETITIONER:`` / ``RESPONDENT:`` / ``DATE OF JUDGMENT31/07/1980`` / ``CITATION:``;
* ``sc`` — court-issued Supreme Court copies, orders and records of proceedings (date at the foot:
  ``NEW DELHI; SEPTEMBER 14, 2021`` or ``Date : 14-06-2024``; the neutral citation, ``2026 INSC 12``, in the
  first page's margin);
* ``dhc`` — Delhi High Court (``Judgment delivered on: 07.02.2025``);
* ``text`` — plain-text judgments whose first lines are title, court, date (the AILA 2019 case documents);
* ``indiankanoon`` — a text from Indian Kanoon: its head (court, ``<title> on <date>``, ``Equivalent citations``,
  ``Bench``) is read by :func:`legal_rag.ingest.indiankanoon.read_head`, case numbers and citations (a High Court's
  neutral citation, ``2023:AHC:190732``) from the court's text below it.

Every layout also gives the bench where printed (:func:`legal_rag.ingest.bench.read_bench`) and the decision's form
(:func:`legal_rag.ingest.judgment_body.decision_of`: an order or a judgment, as the text calls itself).

This module finds the layout and where each field stands in it; one module reads each field: the title
(:mod:`legal_rag.ingest.judgment_title`), the court (:mod:`legal_rag.ingest.judgment_court`), the date
(:mod:`legal_rag.ingest.judgment_date`), where the text proper opens and the decision's form
(:mod:`legal_rag.ingest.judgment_body`); citations and case numbers by :mod:`legal_rag.ingest.citations_meta`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..law import versus_in
from ..types import Decision, Page
from .bench import read_bench
from .citations_meta import find_case_numbers, find_citations
from .furniture import is_furniture
from .indiankanoon import read_head as read_ik_head
from .judgment_body import body_start, decision_of
from .judgment_court import HIGH_COURT_LINE, SUPREME_COURT_LINE, join_court_lines, read_court
from .judgment_date import read_date
from .judgment_title import mend_split_words, title_from_separator, title_inline


@dataclass(frozen=True)
class Header:
    """What the first pages say about a judgment. ``date`` is ISO or ``""``; ``body_start`` is ``(page, line)``
    (0-based line index into that page's text) of the first line of the judgment proper, or ``None``."""

    layout: str
    title: str
    court: str
    date: str
    citations: tuple[str, ...]
    case_numbers: tuple[str, ...]
    body_start: tuple[int, int] | None
    bench: tuple[str, ...] = ()
    decision: Decision = "judgment"


def detect_layout(pages: tuple[Page, ...]) -> str:
    """One of ``scr_digital``, ``scr``, ``judis``, ``dhc``, ``sc``, ``text``, ``indiankanoon`` (see the module
    docstring)."""
    first = pages[0].text if pages else ""
    if read_ik_head(first).lines:
        return "indiankanoon"
    head = "\n".join(first.splitlines()[:25])
    second = pages[1].text if len(pages) > 1 else ""
    if "JUDIS.NIC.IN" in head.upper() or ("PETITIONER:" in head and "DATE OF JUDGMENT" in head.upper()):
        return "judis"
    if re.search(r"S\.\s?C\.\s?R\.\s*\d+\s*:\s*\d{4}\s+INSC", head) or "Digital Supreme Court Reports" in second:
        return "scr_digital"
    third = pages[2].text if len(pages) > 2 else ""
    if re.search(r"SUPREME\s+COURT\s+REPORTS", first + second + third) or re.match(r"\s*\[\d{4}\]\s*\d+\s*S\.C\.R\.", head):
        return "scr"
    if re.search(r"HIGH\s+COURT\s+OF\s+DELHI", head, re.I):
        return "dhc"
    lines = [ln.strip() for ln in first.splitlines() if ln.strip()][:6]
    if lines and versus_in(lines[0]) and any(SUPREME_COURT_LINE.search(ln) or HIGH_COURT_LINE.search(ln)
                                             for ln in lines[1:5]):
        return "text"
    return "sc"


def _scr_from_running_heads(pages: tuple[Page, ...]) -> tuple[str, ...]:
    """``[2020] 11 S.C.R. 896`` from the running head ``898 SUPREME COURT REPORTS [2020] 11 S.C.R.`` on the
    third page (first page = printed page number minus the page's offset in the file)."""
    for i, p in enumerate(pages[:4]):
        m = re.search(r"^\s*(\d{1,4})\s*SUPREME\s+COURT\s+REPORTS\s+\[(\d{4})\]\s*(\d{1,2})\s*S\.\s?C\.\s?R\.", p.text, re.M)
        if m and int(m.group(1)) > i:
            return (f"[{m.group(2)}] {m.group(3)} S.C.R. {int(m.group(1)) - i}",)
    return ()


_NEUTRAL = re.compile(r"\d{4} INSC \d+|\d{4}:[A-Z-]+:\d+(?:-DB)?")


def _bench(head: list[str], pages: tuple[Page, ...]) -> tuple[str, ...]:
    tail = "\n".join(ln for p in pages[-2:] for ln in p.text.splitlines()[-40:])
    return read_bench("\n".join(head[:80]), tail)


def _read_indiankanoon(pages: tuple[Page, ...], start: tuple[int, int] | None) -> Header:
    """An Indian Kanoon text (module docstring): Indian Kanoon's head, then the court's own first lines for what the
    head lacks (a title Indian Kanoon cut, the court, the date) and for case numbers and neutral citations."""
    first = pages[0].text if pages else ""
    ik = read_ik_head(first)
    lines = [ln.rstrip() for ln in first.splitlines() if ln.strip()]
    body = join_court_lines([ln for ln in lines[ik.lines:] if not is_furniture(ln)])
    own = title_from_separator(body[:80])
    title = ik.title
    if own and (not title or title.endswith("...")) and (
            own.split(" v. ")[0].lower()[:12] == title.split(" v. ")[0].lower()[:12]):
        title = own  # Indian Kanoon cut the title; the court's cause title gives it whole
    court = ik.court or read_court("indiankanoon", body)
    date = ik.date or read_date(body[:60], pages)
    # the court's own neutral citation in its first lines (a reporter citation there is a case it cites)
    cites = ik.citations + tuple(c for c in find_citations("\n".join(body[:25]))
                                 if _NEUTRAL.fullmatch(c) and c not in ik.citations)
    return Header("indiankanoon", title, court, date, cites, find_case_numbers("\n".join(body[:60])), start,
                  ik.bench or _bench(body, pages), decision_of(pages, start))


def read_header(pages: tuple[Page, ...], hint: str | None = None) -> Header:
    """Read layout, title, court, date, citations, case numbers, bench and the decision's form from the first pages
    (see module docstring)."""
    layout = hint or detect_layout(pages)
    start = body_start(pages)
    if layout == "indiankanoon":
        return _read_indiankanoon(pages, start)
    head_pages = pages[: (start[0] + 1) if start else 2]
    head: list[str] = []
    for i, p in enumerate(head_pages):
        lines = p.text.splitlines()
        if start and i == start[0]:
            lines = lines[: start[1] + 1]
        head.extend(ln.rstrip() for ln in lines if ln.strip())
    head = join_court_lines(head)
    raw_first = join_court_lines([ln.rstrip() for ln in (pages[0].text.splitlines() if pages else []) if ln.strip()])
    first = [ln for ln in raw_first if not is_furniture(ln)]
    if layout == "text":
        title = title_inline(first)
    else:
        # a court copy may set the parties in the first page's left margin ("MD IMRAN" / "VERSUS" / "THE STATE")
        title = (title_from_separator(first[:60]) or title_from_separator(head[:120])
                 or title_from_separator([t for _, t in (pages[0].margin if pages else ())]) or title_inline(first))
    if layout != "text":
        title = mend_split_words(title, pages)
    if layout == "judis":
        block = re.search(r"CITATION:(.*?)(?:CITATOR INFO|ACT:|HEADNOTE:)", "\n".join(first), re.S)
        cites = find_citations(block.group(1)) if block else ()
    elif layout in {"scr", "scr_digital"}:
        cites = find_citations("\n".join(raw_first[:14])) or _scr_from_running_heads(pages)
    else:
        cites = find_citations("\n".join(first[:15]))
    cut = next((i for i, ln in enumerate(head) if re.match(r"\s*(Headnotes|HEADNOTE:|Case\s+Law\s+Cited)", ln)), len(head))
    case_numbers = find_case_numbers("\n".join(head[:cut][:80]))
    if not case_numbers:  # JUDIS and old prints name the case at "ORIGINAL/APPELLATE JURISDICTION: ..."
        for p in pages[:40]:
            m = re.search(r"JURISDICTION\s*:?\s*((?:.*\n){1,3})", p.text)
            if m and find_case_numbers(m.group(1)):
                case_numbers = find_case_numbers(m.group(1))
                break
    court = read_court(layout, first)
    # Court prints may set the court line and the case numbers ("* IN THE HIGH COURT OF DELHI", "+ ITA 202/2022")
    # in the left margin, which the page stage keeps apart from the body (Page.margin): read them there too.
    margin = [t for _, t in (pages[0].margin if pages else ())]
    # The Supreme Court's own copies print the neutral citation ("2026 INSC 12") in the first page's margin.
    cites += tuple(c for c in find_citations("\n".join(margin)) if " INSC " in c and c not in cites)
    if not court and margin:
        court = read_court(layout, margin)
    if not case_numbers and margin:
        case_numbers = find_case_numbers("\n".join(margin))
    return Header(layout, title, court, read_date(head[:cut] if layout != "text" else first[:6], pages),
                  cites, case_numbers, start, _bench(head, pages), decision_of(pages, start))
