"""Checks of the parsed First Schedules (:mod:`legal_rag.ingest.schedules`) against the Acts and the official table.

Every row that can be checked is checked (``bench/schedule_agreement.py`` prints the figures and lists every failure):

* :func:`section_exists` -- the row's section is a section of its Act (BNS 1-358; the IPC's numbers and lettered
  sections from the project's section lists, :mod:`legal_rag.law.sections`);
* :func:`offence_agreement` -- the offence words against the section: the share of the row's content words
  (:func:`legal_rag.text.content_terms`) found in the section's heading and text, and the share found in the
  heading alone (the schedule's second column is "merely an indication of the substance of the section",
  Explanatory Note (1), so a paraphrase is expected; the check fails below half the words);
* :func:`punishment_agreement` -- the punishment column's terms (years, months, life, death, fine, rupee amounts:
  :func:`legal_rag.text.punishment_terms`) that the section's own text does not state;
* :func:`pair_rows` -- for each BNS row whose predecessor by the official BPR&D table has a row in the CrPC
  schedule, whether cognizable, bailable and court agree. A difference can be a change of the law; it is
  reported, never "fixed".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Mapping

from ..law import Concordance, Schedule, SectionSets, classify
from ..text import content_terms, punishment_terms
from ..types import ScheduleRow, Section, StatuteRef


def row_label(row: ScheduleRow) -> str:
    """``"BNS 318(4) (BNSS p.183, row 384)"``; ``+`` marks a row printed without a number of its own."""
    return f"{row.act} {row.section}{'+' if row.continued else ''} ({row.schedule} p.{row.page}, row {row.row})"


def section_exists(rows: Iterable[ScheduleRow], sets: SectionSets) -> list[ScheduleRow]:
    """The rows whose section is not a section of their Act."""
    return [r for r in rows if not sets.exists(r.ref.act, r.ref.section)]


@dataclass(frozen=True)
class OffenceCheck:
    """``coverage``: share of the offence's content words in the section's heading or text; ``heading``: share
    in the heading alone; ``missing``: the words in neither. ``None`` coverage: no offence words to check (a
    further case printed with an empty offence column), or no section text to check against."""

    row: ScheduleRow
    coverage: float | None
    heading: float | None
    missing: tuple[str, ...] = ()


def offence_agreement(row: ScheduleRow, section: Section | None) -> OffenceCheck:
    words = list(dict.fromkeys(content_terms(row.offence)))
    if not words or section is None:
        return OffenceCheck(row, None, None)
    heading = set(content_terms(section.title))
    body = heading | set(content_terms(section.text))
    missing = tuple(w for w in words if w not in body)
    return OffenceCheck(row, 1 - len(missing) / len(words), sum(w in heading for w in words) / len(words), missing)


def punishment_agreement(row: ScheduleRow, section: Section | None) -> tuple[frozenset[str], frozenset[str]]:
    """``(terms, missing)``: the punishment column's terms, and those the section's text does not state (empty
    ``terms``: nothing to check, "Same as for offence abetted"). ``missing`` is empty without a section text."""
    terms = punishment_terms(row.punishment)
    if section is None:
        return terms, frozenset()
    stated = punishment_terms(section.text)
    return terms, frozenset(t for t in terms if t not in stated)


def _court(text: str) -> str:
    return re.sub(r"[^a-z]", "", text.lower())


@dataclass(frozen=True)
class RowPair:
    """A BNS row and the CrPC-schedule row of its predecessor (by the official table's ``source_row``) whose
    offence words overlap it most; ``cognizable``/``bailable``/``court`` say whether the two agree."""

    bns: ScheduleRow
    ipc: ScheduleRow
    source_row: str
    cognizable: bool
    bailable: bool
    court: bool


def _terms(text: str) -> set[str]:
    return set(content_terms(text)) | set(re.findall(r"\d+", text))


def _overlap(a: str, b: str) -> float:
    """Jaccard overlap of the content words and numbers of ``a`` and ``b``."""
    x, y = _terms(a), _terms(b)
    return len(x & y) / len(x | y) if x | y else 0.0


def pair_rows(bns_rows: Iterable[ScheduleRow], schedule: Schedule, concordance: Concordance) -> list[RowPair]:
    """One :class:`RowPair` per BNS row whose predecessor(s) by the official table have CrPC-schedule rows; among
    those rows the one most like the BNS row: the overlap of the offence words, plus half the overlap of the
    offence and punishment words and numbers together (so "Second or subsequent conviction" finds the IPC row
    whose punishment says so), the first on a tie. Rows whose predecessor has no row (a new offence, an IPC
    section the CrPC schedule does not list) are left out."""
    out = []
    for row in bns_rows:
        corr = concordance.predecessors(row.ref)
        cands: dict[ScheduleRow, str] = {}
        for p in corr.pairs:
            if p.old is None or p.old.act != "IPC":
                continue
            for ipc in classify(p.old, schedule):
                cands.setdefault(ipc, p.row.source_row)
        if not cands:
            continue
        def likeness(r: ScheduleRow) -> tuple[float, int]:
            both = _overlap(f"{row.offence} {row.punishment}", f"{r.offence} {r.punishment}")
            return _overlap(row.offence, r.offence) + 0.5 * both, -r.row

        best = max(cands, key=likeness)
        out.append(RowPair(row, best, cands[best], row.cognizable == best.cognizable, row.bailable == best.bailable,
                           _court(row.court) == _court(best.court)))
    return out


def sections_by_ref(sections: Iterable[Section]) -> Mapping[StatuteRef, Section]:
    """``{StatuteRef(act, section): Section}`` (whole sections; the first of a repeated number)."""
    out: dict[StatuteRef, Section] = {}
    for s in sections:
        out.setdefault(s.ref.base, s)
    return out


__all__ = ["row_label", "section_exists", "OffenceCheck", "offence_agreement", "punishment_agreement", "RowPair",
           "pair_rows", "sections_by_ref"]
