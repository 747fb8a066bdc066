"""The date of a judgment, ISO (``"2024-07-08"``), read from its header or its foot.

Where the courts print it, first found wins: a labelled line (``Judgment pronounced on:``, ``Judgment delivered
on:``, ``DATE OF JUDGMENT``, ``Date :``, ``Decided on:``); a short line that is a date and nothing else (``08 July
2024``, ``JANUARY 31, 2020``); the place and date that close a Supreme Court judgment (``NEW DELHI;`` /
``SEPTEMBER 14, 2021``), in the text or the margin; a date among the last lines. Dates are parsed by
:func:`legal_rag.ingest.citations_meta.parse_date`. Caller: :func:`legal_rag.ingest.judgment_header.read_header`.
"""

from __future__ import annotations

import re

from ..types import Page
from .citations_meta import parse_date


def read_date(head: list[str], pages: tuple[Page, ...]) -> str:
    """The ISO date of the judgment whose header reads ``head`` (non-blank lines) and whose pages are ``pages``
    (the last two read for the foot), or ``""``."""
    text = "\n".join(head)
    labelled = (r"Judgment\s+pronounced\s+on\s*:?\s*(.+)", r"Judgment\s+delivered\s+on\s*:?\s*(.+)",
                r"DATE\s+OF\s+JUDGMENT\s*:?\s*(.+)", r"^\s*Date\s*:\s*(.+)", r"Decided\s+on\s*:?\s*(.+)")
    for rx in labelled:
        m = re.search(rx, text, re.I | re.M)
        if m and parse_date(m.group(1)):
            return parse_date(m.group(1))
    for ln in head[:40]:
        s = ln.strip()
        if len(s) <= 32 and parse_date(s) and not re.search(r"\d+\s*/\s*\d{4}", s):
            return parse_date(s)
    # the place and date at the foot, in the text or (set at the page's left edge) among the margin notes
    tail = "\n".join([p.text for p in pages[-2:]] + [t for p in pages[-2:] for _, t in p.margin])
    m = None
    for m in re.finditer(r"New\s+Delhi\s*[;,.:]?\s*\n?\s*(.{6,30})", tail, re.I):
        pass
    if m and parse_date(m.group(1)):
        return parse_date(m.group(1))
    lines = [ln.strip() for ln in tail.splitlines() if ln.strip()]
    for s in reversed(lines[-6:]):
        if parse_date(s) and len(s) <= 40:
            return parse_date(s)
    return ""
