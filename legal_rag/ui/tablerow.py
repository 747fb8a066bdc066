"""One row of an official correspondence table, served as escaped text, and the links to it from a head line.

A head line (:class:`~legal_rag.types.HeadLine`) names the BPR&D table rows it rests on in ``sources``
(``"BPRD_correspondence_BNS_to_IPC_clean.csv#453"``, a merged continuation ``"...#125-126"``). In the chat each
answer's message ends with those rows as links ("Table rows: BPR&D table, row 453"), and ``GET /table-row/{name}/{row}``
(:func:`legal_rag.ui.app.create_server`) shows the row: the table's header and the row's cells, every cell
HTML-escaped (the tables are data, never markup).

Row numbers are the concordance readers' (:mod:`legal_rag.law.concordance_tables`): a CSV's record number with the
header as 1; a Markdown table's line number from 1.
"""

from __future__ import annotations

import csv
import io
import re
from html import escape
from pathlib import Path
from typing import Callable, Sequence
from urllib.parse import quote

from ..law import BNS_IPC_FILE, BSA_IEA_FILE, DERIVED_FILE, PAIRS_FILE
from ..types import HeadLine

#: the correspondence tables the concordance reads (``corpus_path/mappings``): the only files /table-row shows
TABLE_FILES = (BNS_IPC_FILE, BSA_IEA_FILE, PAIRS_FILE, DERIVED_FILE)

_ROW = re.compile(r"^(?P<first>\d{1,6})(?:-(?P<last>\d{1,6}))?$")
_SOURCE = re.compile(r"^(?P<name>[\w.\-]+\.(?:csv|md|json))#(?P<row>\d{1,6}(?:-\d{1,6})?)$")


def head_rows(head: Sequence[HeadLine]) -> tuple[tuple[str, str], ...]:
    """``(file name, row)`` of every table row the head lines cite, in order, each once; schedule pages and other
    sources are left out. ``"BPRD_...clean.csv#453"`` -> ``("BPRD_...clean.csv", "453")``."""
    out: dict[tuple[str, str], None] = {}
    for h in head:
        for s in h.sources:
            m = _SOURCE.match(s)
            if m:
                out[(m.group("name"), m.group("row"))] = None
    return tuple(out)


def row_label(name: str, row: str) -> str:
    """``"BPR&D table, row 453"`` (``"... (derived, not official)"`` for the project's DERIVED lists)."""
    label = f"BPR&D table, row {row}"
    return label + " (derived, not official)" if "DERIVED" in name else label


def row_url(name: str, row: str) -> str:
    """The URL of ``/table-row`` for one row (the file name percent-encoded)."""
    return f"/table-row/{quote(name, safe='')}/{quote(row, safe='')}"


def rows_markdown(head: Sequence[HeadLine], url_of: Callable[[str, str], str] = row_url) -> str:
    """The chat's line of links to the head's table rows, Markdown: ``"Table rows: [BPR&D table, row 453](/table-row/
    BPRD_correspondence_BNS_to_IPC_clean.csv/453)"``; "" when the head cites none. Labels are fixed words and
    digits, URLs percent-encoded, so nothing from a table reaches the Markdown."""
    links = [f"[{row_label(n, r).replace('&', '&amp;')}]({url_of(n, r)})" for n, r in head_rows(head)]
    return "Table rows: " + "; ".join(links) if links else ""


def table_file(name: str, corpus_path: Path) -> Path:
    """The path of correspondence table ``name`` (one of :data:`TABLE_FILES`) under ``corpus_path/mappings``.
    Raises ValueError for any other name, so no path from a caller reaches other files."""
    if name not in TABLE_FILES:
        raise ValueError(f"not a correspondence table: {name!r}")
    path = Path(corpus_path) / "mappings" / name
    if not path.is_file():
        raise ValueError(f"{name}: not in the corpus")
    return path


def read_row(path: Path, row: str) -> tuple[tuple[str, ...], tuple[tuple[int, tuple[str, ...]], ...]]:
    """(header cells, ((row number, cells), ...)) of rows ``row`` (``"453"`` or ``"125-126"``) of the table at
    ``path`` (a CSV or a Markdown table). Raises ValueError for a malformed row, a row the file does not have or
    another kind of file."""
    m = _ROW.match(row)
    if not m:
        raise ValueError(f"not a row number: {row!r}")
    first = int(m.group("first"))
    last = int(m.group("last") or first)
    if last < first or last - first > 20:
        raise ValueError(f"not a row range: {row!r}")
    if path.suffix == ".csv":
        recs = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"), newline="")))
        header, lines = tuple(recs[0]) if recs else (), recs
    elif path.suffix == ".md":
        lines = [tuple(c.strip() for c in ln.strip().strip("|").split("|")) for ln in
                 path.read_text(encoding="utf-8").splitlines()]
        header = ()
    else:
        raise ValueError(f"{path.name}: not a correspondence table this page can show")
    if first < (2 if path.suffix == ".csv" else 1) or last > len(lines):
        raise ValueError(f"{path.name} has no row {row}")
    return header, tuple((i, tuple(lines[i - 1])) for i in range(first, last + 1))


def row_page(name: str, row: str, corpus_path: Path) -> str:
    """The HTML page of one row of table ``name``: the row's label, the file name, the header and the cells, all
    escaped. Raises ValueError as :func:`table_file` and :func:`read_row`."""
    path = table_file(name, corpus_path)
    header, rows = read_row(path, row)
    head = "".join(f"<th>{escape(h)}</th>" for h in ("Row", *header)) if header else ""
    body = "".join("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in (i, *cells)) + "</tr>" for i, cells in rows)
    title = escape(row_label(path.name, row))
    return (f'<!doctype html><html><head><meta charset="utf-8"><title>{title}</title></head><body><h1>{title}</h1>'
            f"<p>{escape(path.name)}</p><table border=\"1\"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
            f"</body></html>")


__all__ = ["TABLE_FILES", "head_rows", "read_row", "row_label", "row_page", "row_url", "rows_markdown", "table_file"]
