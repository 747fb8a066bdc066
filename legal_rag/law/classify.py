"""Offence classification: which First Schedule rows classify a section (cognizable? bailable? which court?).

The rows come from Part I of the First Schedule of the BNSS (offences of the BNS) and of the CrPC (offences of the
IPC), parsed by :mod:`legal_rag.ingest.schedules` (``load_schedules(settings)``); this module only looks them up.

    sched = load_schedules(settings)
    classify(StatuteRef("BNS", "318", ("4",)), sched)  -> (ScheduleRow(section="318(4)", cognizable=True, ...),)
    classify("BNS 318", sched)     -> the rows of 318(1), 318(2), 318(3), 318(4): a whole section has all its rows
    classify("IPC 420", sched)     -> (ScheduleRow(schedule="CrPC", section="420", ...),)
    classify("BNS 64(1)(a)", sched) -> the row of 64(1): where the schedule stops at a sub-section, that row
    classify("IPC 121", sched)     -> one row; a row printed without a number of its own ("If the offence be not
                                      committed") comes with the section above it

A query matches a row when the row's sub-section path and the query's agree as far as both go (the rule of the
concordance: :func:`legal_rag.law.concordance`). :func:`counterpart_rows` gives the rows of a query's counterparts
by the official BPR&D table: the successor's for an old-code query (IPC 420 -> BNS 318(4)), the predecessor's for a
new-code one.

:func:`read_plain_number` reads a plain number in a classification question ("Which court tries 103?") as the
sections of that number the First Schedules list (BNS 103; IPC 323 and BNS 323): one reading is stated by the head
as assumed, several are ordered and given each (:mod:`legal_rag.law.bare`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..errors import RefError
from ..types import ScheduleRow, StatuteRef
from .refs import parse_ref

if TYPE_CHECKING:
    from .concordance import Concordance
    from .question import QuestionAnalysis

#: a question about the First Schedule's columns ("is 316(2) bailable?", "which court tries 103?")
CLASSIFICATION_Q = re.compile(r"\b(?:bailable|non-bailable|cognizable|cognisable|non-cognizable|triable|tried|tries|"
                              r"try|which court|what court)\b", re.I)
#: a plain number of one to three digits standing alone: not part of a date ("10/05/2024", "2024"), an amount
#: ("Rs 500", "5 lakh"), a term ("7 years") or a longer token ("103A" is a bare token the question analysis reads)
PLAIN_NUMBER = re.compile(r"(?<![\w./(\u20b9$-])(?<!rs\.\s)(?<!rs\s)(?P<n>[0-9]{1,3})(?![\w(/.%-]|[.,]\d|\s*(?:years?|"
                          r"months?|days?|hours?|lakhs?|crores?|rupees|rs\b|%|per\s?cent))", re.I)

#: the Act whose offences each procedure code's First Schedule classifies (the Part I headings: "Offences under
#: the Bharatiya Nyaya Sanhita", "Offences under the Indian Penal Code")
CLASSIFIED_ACTS = ("BNS", "IPC")


@dataclass(frozen=True)
class Schedule:
    """The rows of the First Schedules, in printed order, indexed by ``(act, section)``."""

    rows: tuple[ScheduleRow, ...]
    _by_section: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        for r in self.rows:
            self._by_section.setdefault((r.ref.act, r.ref.section), []).append(r)

    def __len__(self) -> int:
        return len(self.rows)

    def acts(self) -> tuple[str, ...]:
        """The Acts whose offences these rows classify, e.g. ``("BNS", "IPC")``."""
        return tuple(dict.fromkeys(r.act for r in self.rows))

    def section_rows(self, act: str, section: str) -> tuple[ScheduleRow, ...]:
        """Every row of one section (all its sub-sections), in printed order."""
        return tuple(self._by_section.get((act, section), ()))


def _matches(query: StatuteRef, row: StatuteRef) -> bool:
    n = min(len(query.sub), len(row.sub))
    return query.sub[:n] == row.sub[:n]


def classify(ref: StatuteRef | str, schedule: Schedule) -> tuple[ScheduleRow, ...]:
    """The schedule rows for ``ref`` (a StatuteRef, or text that names one section: "BNS 318(4)", "s. 420 IPC").

    Sub-section precise where the schedule is: "BNS 318(4)" gives only the row of 318(4); "BNS 318" every row of
    318; "BNS 64(1)(a)" the row of 64(1). ``()`` for a section the schedules do not list (an Act other than the
    BNS and the IPC, a definition, a section that is no offence). Raises RefError when the text names no single
    section (``parse_ref``).
    """
    if isinstance(ref, str):
        found = parse_ref(ref)
        if found.status != "ok" or found.ref is None:
            raise RefError(f"{ref!r}: {found.note or found.status}")
        ref = found.ref
    return tuple(r for r in schedule.section_rows(ref.act, ref.section) if _matches(ref, r.ref))


def counterpart_rows(targets: tuple[StatuteRef, ...], schedule: Schedule) -> tuple[ScheduleRow, ...]:
    """The rows of each of ``targets`` (a query's counterparts by the official table: ``Correspondence.targets``),
    in the targets' order, each row once."""
    return tuple(dict.fromkeys(r for t in targets for r in classify(t, schedule)))


def describe(row: ScheduleRow) -> str:
    """One line a lawyer reads: ``"BNS 318(4): cognizable; non-bailable; triable by Magistrate of the first
    class; punishment: Imprisonment for 7 years and fine. (BNSS First Schedule, p. 181)"``."""
    def yes_no(value: bool | None, word: str, text: str) -> str:
        if value is None:
            return text.rstrip(".") or f"{word}: not stated"
        return word if value else f"non-{word}"

    label = f"{row.act} {row.section}" + (" (further case)" if row.continued else "")
    return (f"{label}: {yes_no(row.cognizable, 'cognizable', row.cognizable_text)}; "
            f"{yes_no(row.bailable, 'bailable', row.bailable_text)}; triable by {row.court.rstrip('.')}; "
            f"punishment: {row.punishment} ({row.schedule} First Schedule, p. {row.page})")




def read_plain_number(analysis: "QuestionAnalysis", schedule: Schedule,
                      concordance: "Concordance | None" = None) -> "QuestionAnalysis":
    """``analysis`` with the sections a plain number names, for a classification question
    (:data:`CLASSIFICATION_Q`) that names no section ("Which court tries 103?"): one ``bare``
    :class:`~legal_rag.law.question.QuestionRef` per code whose First Schedule lists a section of that number (BNS
    103 alone; IPC 323 and BNS 323 both), the code of the question's substantive era first (BNS today, IPC for an
    offence before 1 July 2024), each with its official successors / predecessors by ``concordance``. Which
    readings the answer gives, and in which order, is :func:`legal_rag.law.bare.bare_numbers`'s. ``analysis``
    unchanged when the question names a section, is no classification question, holds no plain number or more than
    one, or when neither schedule lists the number. Source of the rows: the First Schedule of the BNSS (BNS
    offences) and of the CrPC (IPC offences)."""
    if analysis.refs or not CLASSIFICATION_Q.search(analysis.question):
        return analysis
    numbers = [m for m in PLAIN_NUMBER.finditer(analysis.question)
               if not any(d.span[0] <= m.start() < d.span[1] for d in analysis.dates)]
    if len(numbers) != 1:
        return analysis
    m = numbers[0]
    order = ("IPC", "BNS") if analysis.substantive_era == "old" else ("BNS", "IPC")
    refs = [StatuteRef(act, m.group("n")) for act in order if schedule.section_rows(act, m.group("n"))]
    if not refs:
        return analysis
    from .question import QuestionRef

    def read(ref: StatuteRef) -> "QuestionRef":
        succ = pred = ()
        if concordance is not None:
            succ, pred = (concordance.counterparts(ref), ()) if ref.act == "IPC" else ((), concordance.counterparts(ref))
        return QuestionRef(ref, m.group("n"), (m.start("n"), m.end("n")), "bare", succ, pred)

    return replace(analysis, refs=tuple(read(r) for r in refs))


__all__ = ["CLASSIFICATION_Q", "CLASSIFIED_ACTS", "PLAIN_NUMBER", "Schedule", "classify", "counterpart_rows", "describe",
           "read_plain_number"]
