"""The CSV export, written to open cleanly in a spreadsheet (Excel, LibreOffice Calc), not only in a CSV parser.

A CSV that is correct by RFC 4180 can still be harmful or garbled once a spreadsheet guesses what each cell is
(field cases BL-55, BL-56):

* **Formula injection** (OWASP "CSV Injection", CWE-1236). Quoted passages come from documents the system does
  not control (judgments quoting phone and chat evidence, user uploads): a cell beginning with ``=``, ``+``,
  ``-``, ``@``, TAB or CR is read as a formula. Such a cell gets a leading ``'`` (:func:`neutralise`), and every
  field is quoted, as OWASP advises; the spreadsheet then shows text.
* **Encoding.** The file starts with a UTF-8 byte-order mark, so Excel reads curly quotes, ₹ and Devanagari as
  UTF-8 instead of the ANSI code page (“ would become â€œ).
* **Guessed numbers and dates.** Excel turns ``6-8`` into 8 June, ``(1)`` into -1 and ``4.10`` into 4.1. So no
  text column holds a bare number-like label: pages are two integer columns (``first_page``, ``last_page``; empty
  for a plain-text judgment, which has no pages) plus
  the text ``"p. 87"`` / ``"pp. 86-87"``; paragraphs are ``"para 12"`` / ``"paras 12-14"``; any other text cell
  that a spreadsheet would read as a number or date is kept text by the same leading ``'``.
* The ``role`` column says whether a citation is the answer or a related provision (``"related (not the
  answer)"``), so related provisions do not read as answers in a spreadsheet.
* The ``weight`` column (RAG-Sequence attribution) is left out when no citation has a weight (attribution off).
* The ``kind`` column says what a court's decision was issued as: ``"judgment"``, or ``"order"`` for an order
  (:data:`~legal_rag.export.records.DECISION_TYPES`), never calling an order a judgment; else the record's kind
  (``"statute"``, ``"document"``, ``"upload"``).

Columns are :data:`CSV_COLUMNS` (``weight`` only when some record has one); lists are joined with ``" | "``.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Iterable, Protocol

from .records import CitationRecord


class _Doc(Protocol):
    """What the CSV needs of an :class:`~legal_rag.export.formats.ExportDoc` (not imported: formats imports us)."""

    records: tuple[CitationRecord, ...]

BOM = "\ufeff"
#: OWASP "CSV Injection": a cell starting with one of these is taken as a formula by Excel / LibreOffice / Sheets
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
CSV_COLUMNS = ("marker", "kind", "citation", "act", "act_title", "section", "title", "court", "date", "reporters",
               "paras", "case_numbers", "source", "first_page", "last_page", "pages", "printed_pages", "quote", "sentences", "support", "role", "weight",
               "now", "now_note", "source_row", "chunk_id")
#: the ``role`` column: whether the cited provision answers the question or stands under "Related provisions"
#: (:attr:`~legal_rag.export.records.CitationRecord.related`)
ROLE = {False: "answer", True: "related (not the answer)"}
#: columns whose value is meant as a number or a date (the spreadsheet may type them; the value stays the same)
TYPED_COLUMNS = frozenset({"marker", "first_page", "last_page", "weight", "section", "date"})
# what a spreadsheet reads as a number, a negative number in accounting brackets, a fraction, a time or a date:
# "12", "4.10", "(1)", "1/2", "6-8", "12:30", "1,000", "5%", "2020-11-27" -- and nothing that holds a letter
_NUMBER_LIKE = re.compile(r"\s*\(?\s*[-+]?[\d.,/:\s-]*\d[\d.,/:\s-]*\)?\s*%?\s*")


def neutralise(value: str) -> str:
    """``value`` with a leading ``'`` when a spreadsheet would read it as a formula (OWASP: ``= + - @``, TAB, CR)."""
    return "'" + value if value.startswith(FORMULA_START) else value


def text_cell(value: str) -> str:
    """A cell meant as text: neutralised (:func:`neutralise`), and a number- or date-like value (``"(1)"``,
    ``"6-8"``, ``"4.10"``) prefixed with ``'`` so that no spreadsheet turns it into -1, a date or 4.1."""
    value = neutralise(value)
    return "'" + value if _NUMBER_LIKE.fullmatch(value) else value


def paras_label(paras: str) -> str:
    """``"12" -> "para 12"``, ``"12-14" -> "paras 12-14"``, ``"" -> ""``."""
    return f"{'paras' if '-' in paras else 'para'} {paras}" if paras else ""


def _value(r: CitationRecord, col: str) -> str:
    if col == "first_page":
        return str(r.pages[0]) if r.paged else ""
    if col == "last_page":
        return str(r.pages[1]) if r.paged else ""
    if col == "printed_pages":
        return r.pinpoint
    if col == "pages":
        return r.where
    if col == "paras":
        return paras_label(r.paras)
    if col == "role":
        return ROLE[r.related]
    if col == "kind" and r.kind == "judgment":
        return r.decision_type.csv
    v = getattr(r, col)
    if isinstance(v, tuple):
        return " | ".join(v)
    return "" if v is None else str(v)


def cell(r: CitationRecord, col: str) -> str:
    """The CSV cell of ``r`` in column ``col``: typed columns neutralised only, text columns kept text."""
    v = _value(r, col)
    return neutralise(v) if col in TYPED_COLUMNS else text_cell(v)


def columns(records: Iterable[CitationRecord]) -> tuple[str, ...]:
    """:data:`CSV_COLUMNS`, without ``weight`` when no record has a weight (attribution off)."""
    return CSV_COLUMNS if any(r.weight is not None for r in records) else tuple(
        c for c in CSV_COLUMNS if c != "weight")


def to_csv(doc: _Doc) -> str:
    """One row per citation record: a UTF-8 BOM, a header row, every field quoted (``\\r\\n`` line ends)."""
    cols = columns(doc.records)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n", quoting=csv.QUOTE_ALL)
    w.writerow(cols)
    for r in doc.records:
        w.writerow([cell(r, c) for c in cols])
    return BOM + buf.getvalue()


__all__ = ["BOM", "CSV_COLUMNS", "FORMULA_START", "ROLE", "cell", "columns", "neutralise", "paras_label", "text_cell",
           "to_csv"]
