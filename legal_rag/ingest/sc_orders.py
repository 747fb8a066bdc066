"""The Supreme Court's "Orders of the Day" logs, split into one record per order.

Source: ``judgments/text/sc_daily_orders_caseciter/`` (SOURCES.md): the text (pypdf) of the Court's daily compiled
PDF of orders, one Markdown file per day (``SC_orders_of_the_day_2026-06-02.md``) or many in a tar archive
(``archive/2026-05-25.md``), read in place. A day's log:

* ``## Page N`` opens page N of the day's PDF (1-based);
* the first pages hold the table of contents: ``# Case Reference Page Len.`` then one row per listed matter,
  ``<n> <parties> <case reference> <first page> <pages>``; parties and reference are cut to fixed widths, and a cut
  reference may run into the page number (``CONMT.PET.(C) No. 331-332/125 4`` lists page 125): rows follow each
  other page after page, so each row's first page is the one after the row before (:func:`read_toc`);
* each listed matter's pages hold a signed order (``IN THE SUPREME COURT OF INDIA``, the case, the parties,
  ``O R D E R``, the judges' signatures, ``NEW DELHI; MAY 25, 2026``) and/or the record of proceedings (``ITEM
  NO.``, ``RECORD OF PROCEEDINGS``, the case, the parties, ``Date : 25-05-2026``, ``CORAM``, the counsel, ``O R D E
  R``, the court masters' signatures): :func:`segments` cuts them apart.

Each segment is one copy of an order. Its key is the case (:func:`~legal_rag.ingest.citations_meta.case_number_key`
of its first case number) and the date of the order (the record's ``Date :``, a signed order's ``NEW DELHI;``
line); the same key seen again (the record beside the signed order, the matter listed twice, the order printed
again in a later day's log) is a copy, counted and not kept (:func:`dedupe`). The copy kept is the signed order
where there is one (the Court's text of the order), else the first record. The counsel and the court masters'
signatures are left out of an order's text (:func:`order_lines`). Every record of this source is an order
(``Judgment.decision == "order"``), cited as one: :func:`order_citation`.
"""

from __future__ import annotations

import hashlib
import re
import tarfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from .citations_meta import case_number_key, find_case_numbers, parse_date

SC = "Supreme Court of India"
_PAGE = re.compile(r"^## Page (\d+)\s*$", re.M)
_TOC_HEAD = re.compile(r"^#\s*Case\s+Reference\s+Page\s+Len\.?\s*$", re.M)
_RECORD_START = re.compile(r"^\W{0,3}[a-z]?\s*ITEM\s+NOS?\.", re.I)
_SIGNED_START = re.compile(r"^\s*IN\s+THE\s+SUPREME\s+COURT\s+OF\s+INDIA\b", re.I)
_REPORTABLE = re.compile(r"^\s*(?:NON[-\s]?)?REPORTABLE\s*$", re.I)
_COUNSEL = re.compile(r"^\s*For\s+(?:the\s+)?(?:Petitioner|Appellant|Respondent|Applicant|Complainant|Caveator|Intervener|"
                      r"Party)\S*\s*(?:\(s\))?\s*(?::|$|\s+(?:Mr|Ms|Mrs|Dr)\.?\s)", re.I)
_UPON = re.compile(r"^\s*UPON\s+hearing", re.I)
_SIGNATURE = re.compile(r"COURT\s+MASTER|ASSISTANT\s+REGISTRAR|ASTT\.?\s+REGISTRAR|DEPUTY\s+REGISTRAR|BRANCH\s+OFFICER|"
                        r"\(\s*signed\s+order\s+is\s+placed|^\s*\([A-Z][A-Z .]+\)\s+\([A-Z][A-Z .]+\)\s*$", re.I)
_RECORD_DATE = re.compile(r"^\s*Date\s*:\s*(\d{1,2}\s*[-./]\s*\d{1,2}\s*[-./]\s*\d{4})", re.I | re.M)
_SIGNED_DATE = re.compile(r"NEW\s+DELHI\s*[;,.:]?\s*\n?\s*(.{6,30})", re.I)


@dataclass(frozen=True)
class TocEntry:
    """A row of a day's table of contents: ``number`` (1-based), ``listing`` (parties and case reference as the
    row prints them, cut), ``first_page`` and ``pages`` (the matter's pages in the day's log)."""

    number: int
    listing: str
    first_page: int
    pages: int

    @property
    def last_page(self) -> int:
        return self.first_page + self.pages - 1


@dataclass(frozen=True)
class Segment:
    """One copy of an order in a day's log: ``kind`` ``"signed"`` (the signed order) or ``"record"`` (the record of
    proceedings), its ``lines`` as ``(page number, line)`` in order, the ``day`` (the log's name), ``item`` (the
    table-of-contents row it sits under) and that row's ``listing``."""

    day: str
    item: int
    kind: str
    lines: tuple[tuple[int, str], ...]
    listing: str = ""

    @property
    def pages(self) -> tuple[int, int]:
        return (self.lines[0][0], self.lines[-1][0]) if self.lines else (0, 0)

    @property
    def text(self) -> str:
        return "\n".join(t for _, t in self.lines)


@dataclass(frozen=True)
class OrderKey:
    """What makes two segments copies of one order: the case (``(kind, number, year)``) and the ISO date of the
    order (``""`` when none is printed). A segment that prints no case number (``case`` ``None``) is told apart by
    ``alone``: its listing in the table of contents (the same matter listed twice lists the same words), or, with no
    listing, its day, row and first page."""

    case: tuple[str, str, str] | None
    date: str
    alone: str = ""


@dataclass
class DayOrders:
    """What :func:`split_day` found in one day's log: ``toc`` rows and the ``segments`` under them."""

    day: str
    toc: tuple[TocEntry, ...] = ()
    segments: list[Segment] = field(default_factory=list)


def split_pages(text: str) -> dict[int, str]:
    """``{page number: text}`` of a day's log (``## Page N`` blocks; text before the first block is dropped)."""
    parts = _PAGE.split(text)
    return {int(parts[i]): parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def read_toc(pages: dict[int, str]) -> tuple[TocEntry, ...]:
    """The table of contents of a day's log (module docstring), read from its first pages up to the first listed
    matter's page. Rows are numbered 1, 2, ... without a gap; a row whose first page is not the page after the row
    before ends the table. ``()`` when the log has no ``# Case Reference Page Len.`` heading."""
    start = next((n for n in sorted(pages) if _TOC_HEAD.search(pages[n])), None)
    if start is None:
        return ()
    rows: list[TocEntry] = []
    expect, next_page = 1, None
    for n in sorted(p for p in pages if p >= start):
        if rows and n >= rows[0].first_page:
            break
        for line in pages[n].splitlines():
            line = line.strip()
            if not line.startswith(f"{expect} "):
                continue
            rest = line[len(str(expect)) + 1:]
            at = rf"(?P<page>{next_page})" if next_page is not None else r"(?P<page>\d+)"
            m = re.match(rf"(?P<listing>.*?)\s?{at} (?P<len>\d+)$", rest) if next_page is not None else \
                re.match(rf"(?P<listing>.*?) {at} (?P<len>\d+)$", rest)
            if not m:
                continue
            row = TocEntry(expect, m.group("listing").strip(), int(m.group("page")), int(m.group("len")))
            rows.append(row)
            expect, next_page = expect + 1, row.first_page + row.pages
    return tuple(rows)


def segments(day: str, item: int, lines: list[tuple[int, str]], listing: str = "") -> list[Segment]:
    """The copies of orders among one listed matter's ``lines`` (``(page, line)``): a segment opens at a record's
    ``ITEM NO.`` line or a signed order's ``IN THE SUPREME COURT OF INDIA`` (with a ``REPORTABLE`` line just above
    it); lines before the first opening belong to it (a page number, a stray letter). A matter with neither opening
    is one ``record`` segment."""
    starts: list[tuple[int, str]] = []
    for i, (_, text) in enumerate(lines):
        if _RECORD_START.match(text):
            starts.append((i, "record"))
        elif _SIGNED_START.match(text) and not (starts and starts[-1][1] == "signed" and i - starts[-1][0] <= 2):
            j = i - 1 if i and _REPORTABLE.match(lines[i - 1][1]) else i
            starts.append((j, "signed"))
    if not starts:
        return [Segment(day, item, "record", tuple(lines), listing)] if any(t.strip() for _, t in lines) else []
    starts[0] = (0, starts[0][1])
    out = []
    for k, (i, kind) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else len(lines)
        out.append(Segment(day, item, kind, tuple(lines[i:end]), listing))
    return out


def split_day(day: str, text: str) -> DayOrders:
    """One day's log (its name and Markdown text) -> its table of contents and every segment under each row, in
    order. A log without a table of contents gives no segments."""
    pages = split_pages(text)
    toc = read_toc(pages)
    found = DayOrders(day, toc)
    for row in toc:
        lines = [(n, ln) for n in range(row.first_page, row.last_page + 1) for ln in pages.get(n, "").splitlines()
                 if ln.strip()]
        found.segments.extend(segments(day, row.number, lines, row.listing))
    return found


def order_lines(seg: Segment) -> tuple[tuple[int, str], ...]:
    """``seg.lines`` less the counsel (in the head, from a ``For Petitioner(s) :`` line up to ``UPON hearing the
    counsel``, or to the order's heading) and the court masters' and registrars' signature lines."""
    out: list[tuple[int, str]] = []
    counsel, head = False, True
    for page, text in seg.lines:
        heading = bool(_UPON.match(text) or re.match(r"^\s*(?:O\s*R\s*D\s*E\s*R|ORDER)\s*$", text))
        if head and _COUNSEL.match(text):
            counsel = True
        elif counsel and heading:
            counsel = False
        head = head and not heading
        if counsel or _SIGNATURE.search(text):
            continue
        out.append((page, text))
    return tuple(out)


def before_registrar(seg: Segment) -> bool:
    """Whether ``seg`` is a record of proceedings before a Registrar (``REGISTRAR COURT``, ``BEFORE THE REGISTRAR``
    in its head): the listing and service of a matter, no order of a bench of the Court."""
    return bool(re.search(r"REGISTRAR\s+COURT|BEFORE\s+THE\s+(?:LD\.?\s+)?REGISTRAR", "\n".join(t for _, t in seg.lines[:8]),
                          re.I))


def order_date(seg: Segment) -> str:
    """The ISO date of the order: a record's ``Date : 25-05-2026``; a signed order's date after ``NEW DELHI;`` at
    its foot; ``""`` when neither is printed."""
    text = seg.text
    if seg.kind == "record":
        m = _RECORD_DATE.search(text)
        if m and parse_date(m.group(1)):
            return parse_date(m.group(1))
    found = ""
    for m in _SIGNED_DATE.finditer(text):
        found = parse_date(m.group(1)) or found
    if found:
        return found
    m = _RECORD_DATE.search(text)
    return parse_date(m.group(1)) if m else ""


def order_case_numbers(seg: Segment) -> tuple[str, ...]:
    """The case numbers of the order's head (its first 40 lines, before the order itself), as printed: the matter's
    first, then those heard with it."""
    head: list[str] = []
    skip = False
    for _, text in seg.lines[:40]:
        if re.match(r"^\s*(?:O\s*R\s*D\s*E\s*R|ORDER)\s*$|^\s*Date\s*:|^\s*CORAM", text, re.I):
            break
        if re.match(r"^\s*\[?\s*Arising\s+out\s+of\s+impugned", text, re.I):  # the High Court's case follows
            skip = True
        if not skip:
            head.append(text)
        if skip and "]" in text:
            skip = False
    return find_case_numbers("\n".join(head))


def order_key(seg: Segment) -> OrderKey:
    """The :class:`OrderKey` of a segment (module docstring)."""
    nums = order_case_numbers(seg)
    key = case_number_key(nums[0]) if nums else None
    date = order_date(seg)
    alone = ""
    if key is None:
        alone = re.sub(r"[^a-z0-9]+", " ", seg.listing.lower()).strip() or f"{seg.day}#{seg.item}:{seg.pages[0]}"
    return OrderKey(key, date, alone)


def _same_hearing(segs: list[Segment], keys: list[OrderKey]) -> dict[OrderKey, OrderKey]:
    """Keys that name one order, each mapped to the first of them seen: within one listed matter, a record and a
    signed order of the same date are the one hearing's order, however each prints the case (the signed order
    "Criminal Appeal No. 3003 of 2026 arising out of S.L.P. (Crl.) No. 10810 of 2026", its record the Diary
    number)."""
    parent: dict[OrderKey, OrderKey] = {}

    def root(k: OrderKey) -> OrderKey:
        while parent.get(k, k) != k:
            k = parent[k]
        return k

    by_item: dict[tuple[str, int], list[tuple[Segment, OrderKey]]] = {}
    for seg, key in zip(segs, keys):
        parent.setdefault(key, key)
        by_item.setdefault((seg.day, seg.item), []).append((seg, key))
    for pairs in by_item.values():
        for seg, key in pairs:
            if seg.kind != "signed" or not key.date:
                continue
            for other, okey in pairs:
                if other.kind == "record" and okey.date == key.date and root(okey) != root(key):
                    a, b = sorted((root(key), root(okey)), key=lambda k: keys.index(k))
                    parent[b] = a
    return {k: root(k) for k in parent}


def dedupe(segs: list[Segment]) -> tuple[list[tuple[Segment, OrderKey]], dict[OrderKey, int]]:
    """One segment per order, in the order first seen, and how many copies of each were dropped. Two segments are
    copies of one order when their :func:`order_key` agree, or when one listed matter holds a signed order and a
    record of the same date (:func:`_same_hearing`). The segment kept for an order is its first signed order, else
    its first record."""
    keys = [order_key(seg) for seg in segs]
    same = _same_hearing(segs, keys)
    kept: dict[OrderKey, Segment] = {}
    copies: dict[OrderKey, int] = {}
    for seg, own in zip(segs, keys):
        key = same[own]
        have = kept.get(key)
        if have is None:
            kept[key] = seg
            copies[key] = 0
            continue
        copies[key] += 1
        if have.kind != "signed" and seg.kind == "signed":
            kept[key] = seg
    return [(s, k) for k, s in kept.items()], copies


def read_logs(path: Path) -> Iterator[tuple[str, str]]:
    """``(day name, text)`` of each day's log at ``path``: a ``.md`` file is one log (its file name), a tar archive
    holds many (member names, in archive order), read in place."""
    path = Path(path)
    if path.suffix.lower() == ".md":
        yield path.name, path.read_text(encoding="utf-8", errors="replace")
        return
    with tarfile.open(path, "r:*") as tf:
        for m in tf:
            if m.isfile() and m.name.lower().endswith(".md"):
                yield m.name, tf.extractfile(m).read().decode("utf-8", errors="replace")  # type: ignore[union-attr]


#: short forms of the Supreme Court's case types, for an order's citation: first match wins
_SHORT_FORMS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(rx, re.I), short) for rx, short in (
    (r"(?:Petition\(s\)\s+for\s+)?Special\s+Leave\s+(?:to\s+Appeal|Petitions?\(?s?\)?)\s*\(\s*(?:Crl|Criminal)\.?\s*\)|"
     r"S\.?\s?L\.?\s?P\.?\s*\(\s*(?:Crl|Criminal)\.?\s*\)", "SLP (Crl.)"),
    (r"(?:Petition\(s\)\s+for\s+)?Special\s+Leave\s+(?:to\s+Appeal|Petitions?\(?s?\)?)\s*\(\s*(?:C|Civil)\.?\s*\)|"
     r"S\.?\s?L\.?\s?P\.?\s*\(\s*(?:C|Civil)\.?\s*\)", "SLP (C)"),
    (r"Criminal\s+Appeals?\(?s?\)?|Crl\.\s*A\.", "Crl.A."),
    (r"Civil\s+Appeals?\(?s?\)?|C\.\s*A\.", "C.A."),
    (r"Writ\s+Petitions?\(?s?\)?\s*\(\s*(?:Crl|Criminal)\.?\s*\)", "W.P. (Crl.)"),
    (r"Writ\s+Petitions?\(?s?\)?\s*\(\s*(?:C|Civil)\.?\s*\)", "W.P. (C)"),
    (r"Transfer\s+Petitions?\(?s?\)?\s*\(\s*(?:Crl|Criminal)\.?\s*\)", "T.P. (Crl.)"),
    (r"Transfer\s+Petitions?\(?s?\)?\s*\(\s*(?:C|Civil)\.?\s*\)", "T.P. (C)"),
    (r"Review\s+Petitions?\(?s?\)?\s*\(\s*(?:Crl|Criminal)\.?\s*\)", "R.P. (Crl.)"),
    (r"Review\s+Petitions?\(?s?\)?\s*\(\s*(?:C|Civil)\.?\s*\)", "R.P. (C)"),
))


def short_case_number(printed: str) -> str:
    """A Supreme Court case number in its short form: ``"Petition(s) for Special Leave to Appeal (Crl.) No(s).
    1592/2026" -> "SLP (Crl.) No. 1592/2026"``, ``"CRIMINAL APPEAL NO. 1534 OF 2024" -> "Crl.A. No. 1534/2024"``;
    a Diary number stays one (``"SLP (C) Diary No. 6468/2026"``); a form not in the table is returned as printed
    (whitespace collapsed)."""
    printed = re.sub(r"\s+", " ", printed).strip()
    num = re.search(r"(?P<diary>Diary\s+)?No(?:s|\(s\))?\.?\s*(?P<n>\d{1,6}(?:\s*[-–]\s*\d{1,6})?)\s*(?:of\s+|/)\s*"
                    r"(?P<y>\d{4})", printed, re.I)
    if not num:
        return printed
    for rx, short in _SHORT_FORMS:
        if rx.search(printed[:num.start()] or printed):
            diary = "Diary " if num.group("diary") else ""
            return f"{short} {diary}No. {re.sub(r'[ –]+', '', num.group('n')).replace('–', '-')}/{num.group('y')}"
    return printed


def order_citation(court: str, date: str, case_number: str) -> str:
    """How an order is cited: ``"Order of the Supreme Court dated 19.05.2026 in SLP (Crl.) No. 1592/2026"``
    (``date`` ISO; the court's name without "of India"; the case number in its short form). Parts not known are left
    out: ``"Order of the Supreme Court"``."""
    name = re.sub(r"\s+of\s+India$", "", court or SC)
    out = f"Order of the {name}"
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", date or ""):
        y, m, d = date.split("-")
        out += f" dated {d}.{m}.{y}"
    return out + (f" in {short_case_number(case_number)}" if case_number else "")


def order_case_id(key: OrderKey) -> str:
    """A readable, deterministic case id for an order: ``SC-ORDER-2026-05-19-SLP-1592-2026`` (date, case kind,
    number, year); ``SC-ORDER-2026-05-19-<sha8>`` (sha256 of ``key.alone``) for an order that prints no case
    number."""
    if key.case is None:
        digest = hashlib.sha256(key.alone.encode()).hexdigest()[:8]
        return f"SC-ORDER-{key.date or 'undated'}-{digest}"
    kind, num, year = key.case
    parts = [key.date or "undated", re.sub(r"[^A-Za-z0-9]+", "-", kind).upper(), num, year]
    return "SC-ORDER-" + "-".join(p for p in parts if p)


__all__ = ["DayOrders", "OrderKey", "Segment", "TocEntry", "before_registrar", "dedupe", "order_case_id", "order_case_numbers",
           "order_citation", "order_date", "order_key", "order_lines", "read_logs", "read_toc", "segments",
           "short_case_number", "split_day", "split_pages"]
