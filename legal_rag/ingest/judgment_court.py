"""The court a judgment's header names, as this project writes it: ``"Supreme Court of India"``, ``"High Court of
Delhi"``, ``"High Court of Judicature at Allahabad"``.

Read from the court line the court prints at the head of its judgment ("IN THE HIGH COURT OF DELHI AT NEW DELHI",
"IN THE SUPREME COURT OF INDIA"), a line that may wrap before its seat ("...HIGH COURT OF JUDICATURE AT" /
"ALLAHABAD"); the Supreme Court Reports and JUDIS prints are the Supreme Court's by their layout. Callers:
:mod:`legal_rag.ingest.judgment_header` (the court, the layout) and :mod:`legal_rag.ingest.judgment_title` (a court
line is no part of the cause title).
"""

from __future__ import annotations

import re

from ..law import ROLE_RE as _ROLE, versus_in

SC = "Supreme Court of India"

#: a line naming a High Court ("HIGH COURT OF DELHI AT NEW DELHI", "High Court of Judicature at Allahabad,")
HIGH_COURT_LINE = re.compile(r"HIGH\s+COURT\s+OF\s+([A-Z][A-Za-z ]+?)(?:\s+AT\s|\s*$|,)", re.I)
#: a line naming the Supreme Court or its reports, letter-spaced or not ("S U P R E M E  C O U R T", "2024 INSC 479")
SUPREME_COURT_LINE = re.compile(r"S\s?U\s?P\s?R\s?E\s?M\s?E\s+C\s?O\s?U\s?R\s?T\s+(?:O\s?F\s+I\s?N\s?D\s?I\s?A|REPORTS)|"
                                r"SUPREME\s+COURT|\bINSC\b|S\.C\.R\.", re.I)
_HC_NAME = re.compile(r"HIGH\s+COURT\s+OF\s+(?:(?P<jud>JUDICATURE\s+(?:AT|FOR)\s+[A-Z][A-Za-z ]*?)|(?P<state>[A-Z][A-Za-z ]*?))"
                      r"\s*(?:,|\bAT\b|\bBENCH\b|\.?$)", re.I)
_HC_WRAPPED = re.compile(r"HIGH\s+COURT\s+OF\s*$", re.I)  # "IN THE HIGH COURT OF" / "PUNJAB AND HARYANA ..."
_CONNECTIVE = {"at", "for", "and", "of"}


def read_court(layout: str, lines: list[str]) -> str:
    """The court of a judgment in ``layout`` (:func:`legal_rag.ingest.judgment_header.detect_layout`) whose header
    reads ``lines``: the Supreme Court for a law report or JUDIS print, else the first court line of the first 30
    (a High Court named before the Supreme Court on one line is the judgment's court); ``""`` if none."""
    if layout in {"scr_digital", "scr", "judis"}:
        return SC
    for i, ln in enumerate(lines[:30]):
        m_hc, m_sc = HIGH_COURT_LINE.search(ln) or _HC_WRAPPED.search(ln), SUPREME_COURT_LINE.search(ln)
        if m_hc and (not m_sc or m_hc.start() < m_sc.start()):
            return _high_court(ln, lines[i + 1] if i + 1 < len(lines) else "")
        if m_sc:
            return SC
    return ""


def _seat_continues(line: str, nxt: str) -> bool:
    """Whether ``nxt`` is the rest of the court's name that ``line`` wraps ("...JUDICATURE AT" / "ALLAHABAD";
    "...HIGH COURT OF" / "PUNJAB AND HARYANA AT CHANDIGARH"): a short place name, never the parties."""
    if not (HIGH_COURT_LINE.search(line) or _HC_WRAPPED.search(line)):
        return False
    dangling = re.search(r"\b(OF|AT|FOR|JUDICATURE)\s*$", line.strip(), re.I)
    seat = nxt.strip()
    return bool(dangling and re.fullmatch(r"[A-Za-z][A-Za-z .,&-]{1,60}", seat) and not _ROLE.search(seat)
                and not versus_in(seat) and len(seat.split()) <= (6 if dangling.group(1).upper() == "OF" else 3)
                and (seat.isupper() or not line.strip().isupper()))


def join_court_lines(lines: list[str]) -> list[str]:
    """``lines`` with a wrapped court line and its seat joined into one line, so the seat stays with the court
    and never opens the cause title."""
    out: list[str] = []
    for ln in lines:
        if out and _seat_continues(out[-1], ln):
            out[-1] = f"{out[-1].rstrip()} {ln.strip()}"
        else:
            out.append(ln)
    return out


def _high_court(line: str, nxt: str) -> str:
    """``"IN THE HIGH COURT OF JUDICATURE AT" + "ALLAHABAD" -> "High Court of Judicature at Allahabad"`` (a court
    line that wraps keeps its seat: the next line is joined when this one ends at "OF", "AT", "FOR" or
    "JUDICATURE"); ``"HIGH COURT OF DELHI AT NEW DELHI" -> "High Court of Delhi"`` (a State's court: the seat is
    left out, as the corpus names it)."""
    text = line[re.search(r"HIGH\s+COURT", line, re.I).start():].strip()  # type: ignore[union-attr]
    if _seat_continues(text, nxt):
        text = f"{text} {nxt.strip()}"
    m = _HC_NAME.match(text)
    if not m or not (m.group("jud") or m.group("state")).strip():
        return ""
    words = (m.group("jud") or m.group("state")).split()
    return "High Court of " + " ".join(w.lower() if i and w.lower() in _CONNECTIVE else w.capitalize()
                                       for i, w in enumerate(words))
