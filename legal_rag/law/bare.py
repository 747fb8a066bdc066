"""A bare section number: a number written without its Act ("Is 323 bailable?", "section 302"), its readings and
their order.

``bare_numbers(analysis, schedule, exists=..., usage=...) -> tuple[BareNumber, ...]`` is pure: the sections that
exist and the case-base counts are passed in.

* **Readings.** A number names a section in every Act that prints a section of that number: the ``bare`` refs of
  :attr:`QuestionAnalysis.refs` (the citation grammar's readings, :func:`legal_rag.law.refs.find_refs` and
  :func:`~legal_rag.law.refs.parse_ref`, over the sections of the corpus; and a plain number of a classification
  question, :func:`legal_rag.law.classify.read_plain_number`). The rules of :data:`RULES` narrow them and order
  them, in the table's order.
* **Ambiguous.** A number with more than one reading left (IPC 323 and BNS 323 for "Is 323 bailable?") is
  ambiguous: the answer gives every reading, in order, each with its title and First Schedule classification
  (:func:`legal_rag.generate.head.compose_head`), and a notice that says so and how the readings were ordered
  (:meth:`BareNumber.notice`).
* **Order is data.** Readings are ordered by how many judgments of the case base cite the number in that sense
  (``usage``: :meth:`legal_rag.index.casebase.CaseBase.section_df`; an IPC cite counts for the IPC reading, a
  new-code cite for the new-code reading, never the successor's), most first. The tie rule ("tie" in
  :data:`RULES`) decides only between equal counts.
* **Disambiguated.** A number written with its Act ("IPC 307", "section 307 of the BNS") is no bare number. A date
  that governs a reading's code (the offence date for the IPC/BNS: BNS s.358, Constitution Art. 20(1); the
  proceeding date for the CrPC/BNSS and IEA/BSA: BNSS s.531(2), BSA s.170(2)) keeps only the reading of the code
  in force on it (rule "date").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from ..types import NEW_ACTS, OLD_ACTS, StatuteRef
from .classify import CLASSIFICATION_Q, Schedule, classify
from .supersede import CUTOFF

if TYPE_CHECKING:
    from .question import QuestionAnalysis

#: the rules that narrow and order a bare number's readings, by name, applied in this order
RULES: tuple[tuple[str, str], ...] = (
    ("exists", "a reading is a section its Act prints: a sub-section the section does not print is no reading"),
    ("schedule", "in a classification question (bailable, cognizable, triable), only the readings the First "
                 "Schedules list, when one does"),
    ("acts", "in any other question, only the readings in the Acts its kind searches first, when one is"),
    ("date", "a date that governs a reading's code (offence date: IPC/BNS; proceeding date: CrPC/BNSS, IEA/BSA) "
             "keeps only the reading of the code in force on it (BNS s.358, BNSS s.531(2), BSA s.170(2))"),
    ("cases", "the readings in order of how many judgments of the case base cite the number in that sense, most "
              "first"),
    ("tie", "equal counts: the code in force on the question's date first (with no date, the law in force today), "
            "then the Acts the question searches first"),
)
#: the words of each rule (:data:`RULES`)
RULE = dict(RULES)

#: the grammar's order of the Acts, the last key of the order (a stable order for readings otherwise equal)
_ACT_ORDER = ("IPC", "CrPC", "IEA", "BNS", "BNSS", "BSA")
_SUBSTANTIVE = frozenset({"IPC", "BNS"})


@dataclass(frozen=True)
class BareReading:
    """One reading of a bare number: ``ref`` the section, ``cites`` the number of judgments of the case base citing
    it (``None`` when no case base was counted)."""

    ref: StatuteRef
    cites: int | None = None

    def counted(self) -> str:
        """``"cited in 46 judgments of the case base"``; ``""`` when nothing was counted."""
        if self.cites is None:
            return ""
        return f"cited in {self.cites} judgment{'' if self.cites == 1 else 's'} of the case base"


@dataclass(frozen=True)
class BareNumber:
    """A number the question writes without its Act: ``token`` as written, ``span`` its ``[start, end)`` in the
    question, ``readings`` in the order the answer gives them (:data:`RULES`)."""

    token: str
    span: tuple[int, int]
    readings: tuple[BareReading, ...]

    @property
    def ambiguous(self) -> bool:
        """More than one reading is left after the rules that narrow them."""
        return len(self.readings) > 1

    @property
    def refs(self) -> tuple[StatuteRef, ...]:
        return tuple(r.ref for r in self.readings)

    @property
    def tied(self) -> bool:
        """Two readings have equal counts (the tie rule decided between them)."""
        counts = [r.cites or 0 for r in self.readings]
        return len(set(counts)) < len(counts)

    def position(self, ref: StatuteRef) -> int | None:
        """1-based place of ``ref`` among the readings; ``None`` when it is none of them."""
        return self.refs.index(ref) + 1 if ref in self.refs else None

    def notice(self, title_of: Callable[[StatuteRef], str] = lambda ref: "") -> str:
        """What the answer says of an ambiguous number, e.g. ``'"323" names a section in more than one code; both
        readings are given: IPC 323 (Punishment for voluntarily causing hurt; cited in 25 judgments of the case
        base), then BNS 323 (...; cited in 0 judgments of the case base). Ordered by how many judgments of the case
        base cite the number in each sense. Name the Act ("IPC 323") or give the date to read one.'``. ``title_of``
        gives a section's heading ("" when unknown)."""
        def one(r: BareReading) -> str:
            parts = [p for p in (title_of(r.ref).rstrip(". "), r.counted()) if p]
            return f"{r.ref}" + (f" ({'; '.join(parts)})" if parts else "")

        which = "both readings are" if len(self.readings) == 2 else f"all {len(self.readings)} readings are"
        text = (f'"{self.token}" names a section in more than one code; {which} given: '
                + ", then ".join(one(r) for r in self.readings) + ". ")
        if any(r.cites is None for r in self.readings):
            text += f"No case base was counted, so the tie rule orders them: {RULE['tie']}. "
        else:
            text += "Ordered by how many judgments of the case base cite the number in each sense"
            text += f" (equal counts: {RULE['tie']}). " if self.tied else ". "
        example = self.readings[0].ref
        return text + f'Name the Act ("{example}") or give the date to read one.'


def _date_of(act: str, analysis: "QuestionAnalysis") -> date | None:
    """The date that governs ``act``'s sections: the offence date for the substantive codes, else the proceeding
    date."""
    return analysis.offence_date if act in _SUBSTANTIVE else analysis.proceeding_date


def _in_force(ref: StatuteRef, analysis: "QuestionAnalysis") -> bool:
    """Whether ``ref``'s code is in force on the date that governs it (True with no such date)."""
    when = _date_of(ref.act, analysis)
    if when is None:
        return True
    return ref.act in (OLD_ACTS if when < CUTOFF else NEW_ACTS)


def _narrow(refs: Sequence[StatuteRef], analysis: "QuestionAnalysis", schedule: Schedule,
            exists: Callable[[StatuteRef], bool]) -> list[StatuteRef]:
    """The readings left by the rules "exists", "schedule" / "acts" and "date" of :data:`RULES`; a rule that would
    leave none leaves them as they are."""
    out = [r for r in refs if exists(r)]
    if CLASSIFICATION_Q.search(analysis.question):
        out = [r for r in out if classify(r, schedule)] or out
    else:
        out = [r for r in out if r.act in analysis.acts_first] or out
    return [r for r in out if _in_force(r, analysis)] or out


def _order_key(ref: StatuteRef, cites: int | None, analysis: "QuestionAnalysis") -> tuple:
    """Rule "cases", then rule "tie" of :data:`RULES`."""
    when = _date_of(ref.act, analysis)
    in_force = NEW_ACTS if when is None or when >= CUTOFF else OLD_ACTS
    first = analysis.acts_first
    return (-(cites or 0), ref.act not in in_force, first.index(ref.act) if ref.act in first else len(first),
            _ACT_ORDER.index(ref.act) if ref.act in _ACT_ORDER else len(_ACT_ORDER))


def order_readings(refs: Sequence[StatuteRef], analysis: "QuestionAnalysis",
                   usage: Callable[[StatuteRef], int] | None = None) -> tuple[BareReading, ...]:
    """``refs`` as :class:`BareReading`, ordered by rules "cases" and "tie" of :data:`RULES`; ``usage(ref)`` is the
    number of judgments of the case base citing ``ref``'s section (``None``: no case base, the tie rule alone)."""
    readings = [BareReading(r, usage(r) if usage is not None else None) for r in refs]
    return tuple(sorted(readings, key=lambda x: _order_key(x.ref, x.cites, analysis)))


def bare_numbers(analysis: "QuestionAnalysis", schedule: Schedule, *,
                 exists: Callable[[StatuteRef], bool] = lambda ref: True,
                 usage: Callable[[StatuteRef], int] | None = None) -> tuple[BareNumber, ...]:
    """Each number ``analysis`` reads without its Act (its ``bare`` refs, grouped by the text they were read from),
    with its readings narrowed and ordered by :data:`RULES`, in the order written. ``exists(ref)`` is False for a
    provision its Act does not print (:func:`legal_rag.law.lookup.missing_division`); ``usage(ref)`` counts the
    judgments of the case base citing ``ref``'s section (:meth:`legal_rag.index.casebase.CaseBase.section_df`).
    A number none of whose readings exists is left out."""
    groups: dict[tuple[int, int], list] = {}
    for r in analysis.refs:
        if r.how == "bare":
            groups.setdefault(r.span, []).append(r)
    out = []
    for span, refs in sorted(groups.items()):
        readings = _narrow([r.ref for r in refs], analysis, schedule, exists)
        if readings:
            out.append(BareNumber(refs[0].text, span, order_readings(readings, analysis, usage)))
    return tuple(out)


__all__ = ["RULE", "RULES", "BareNumber", "BareReading", "bare_numbers", "order_readings"]
