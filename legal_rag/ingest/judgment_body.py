"""Where a judgment's text proper opens, and the decision's form (an order or a judgment) as the text calls itself.

The text proper opens at the heading the court prints under the header: ``JUDGMENT`` / ``J U D G M E N T``,
``ORDER`` / ``O R D E R``, ``Judgment / Order of the Supreme Court`` (Digital SCR), ``The Judgment was delivered
by ...`` (printed SCR). An order with no heading calls itself so at its foot (``Order Date :- 4.10.2023``, the
Allahabad High Court's orders). Caller: :func:`legal_rag.ingest.judgment_header.read_header`.
"""

from __future__ import annotations

import re

from ..types import Decision, Page

_BODY = re.compile(
    r"^\s*(?:J\s*U\s*D\s*G\s*M\s*E\s*N\s*T|JUDGMENT|O\s*R\s*D\s*E\s*R|ORDER|Judgment\s*/\s*Order\s+of\s+the\s+Supreme\s+Court|"
    r"The\s+Judgment\s+(?:of\s+the\s+Court\s+)?was\s+delivered\s+by\b.*)\s*$",
    re.I,
)
#: a line ending so wraps onto the next: a heading word on that next line is no heading
_WRAPPED = re.compile(r"(?:IMPUGNED|\bOF\s+THE|\bTHE|\bFINAL)\s*$", re.I)


def body_start(pages: tuple[Page, ...], max_pages: int = 12) -> tuple[int, int] | None:
    """``(page index, line index)`` of the line that opens the judgment proper (``JUDGMENT``, ``ORDER``,
    ``The Judgment was delivered by``), searched in the first ``max_pages`` pages; ``None`` if absent. A word that
    only ends a wrapped line above it is no heading (a record of proceedings lists "EXEMPTION FROM FILING C/C OF
    THE IMPUGNED" / "JUDGMENT")."""
    for pi, p in enumerate(pages[:max_pages]):
        prev = ""
        for li, ln in enumerate(p.text.splitlines()):
            if _BODY.match(ln) and not _WRAPPED.search(prev):
                return pi, li
            prev = ln
    return None


#: how a decision calls itself (:func:`decision_of`), first match wins: the heading that opens the text proper, else a
#: line of its foot ("Order Date :- 4.10.2023", the Allahabad High Court's orders)
_ORDER_HEAD = re.compile(r"^\s*(?:O\s*R\s*D\s*E\s*R|ORDER)\b", re.I)
_JUDGMENT_HEAD = re.compile(r"^\s*(?:J\s*U\s*D\s*G\s*M\s*E\s*N\s*T|JUDGMENT|Judgment\s*/\s*Order|The\s+Judgment)", re.I)
_ORDER_FOOT = re.compile(r"^\s*Order\s+Date\s*:", re.I | re.M)


def decision_of(pages: tuple[Page, ...], start: tuple[int, int] | None) -> Decision:
    """``"order"`` when the heading that opens the text proper (``start``, :func:`body_start`) reads ``ORDER`` /
    ``O R D E R``, or, with no heading, a line of the last page opens ``Order Date :``; else ``"judgment"``."""
    if start is not None:
        line = pages[start[0]].text.splitlines()[start[1]]
        if _ORDER_HEAD.match(line):
            return "order"
        if _JUDGMENT_HEAD.match(line):
            return "judgment"
    return "order" if pages and _ORDER_FOOT.search(pages[-1].text) else "judgment"
