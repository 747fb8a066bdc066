"""Which judgments of the case base applied a section: the paragraphs that cite it, directly or through its
official counterpart, one entry per judgment, newest first. Pure; reads the case base
(:meth:`legal_rag.index.casebase.CaseBase.citing`) and the BPR&D correspondence tables (``concordance``).

``judgments_applying(ref, casebase, concordance, keep=None) -> AppliedList``:

* a paragraph applies ``ref`` when it names ``ref``'s section with a sub-section that agrees with ``ref``'s (one of
  the two paths a prefix of the other: "BNS 318" and "BNS 318(4)" apply BNS 318(4), "BNS 318(2)" does not); or
  names an official counterpart of ``ref`` the same way: its predecessors for a BNS / BNSS / BSA section, its
  successors for an IPC / CrPC / IEA one, as the table rows pair them (:meth:`legal_rag.law.Concordance.query`:
  IPC 420 for BNS 318(4), row ``BNS_to_IPC_clean.csv#453``); no other section ever stands in for it;
* a CrPC section is the Code of 1973's: a judgment decided before that Code came into force (1 April 1974, CrPC
  s.1(3); it repealed the Code of 1898, s.484) cites the 1898 Code, whose numbers are other provisions (its s.439 is
  revision, the 1973 Code's s.439 bail), so it never counts for a CrPC section, asked or counterpart
  (:func:`cites_code_of_1973`);
* each judgment is listed once, with the paragraph that applies it most plainly: a paragraph naming ``ref`` itself
  before one naming a counterpart, then the higher :func:`applying_score`, then the earlier paragraph;
* ``keep(judgment)``: the judgments asked for (a court, years); ``total`` counts every judgment citing it, so an
  answer can say how many the constraint left out;
* newest first by the judgment's ISO date (a year alone sorts as that year, after its dated judgments; no date
  last), then a judgment naming ``ref`` itself first, then build order.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ..types import NEW_ACTS, OLD_ACTS, Judgment, Paragraph, StatuteRef

if TYPE_CHECKING:
    from ..index.casebase import CaseBase
    from ..law import Concordance

Relation = Literal["direct", "predecessor", "successor"]

#: (pattern, weight): words by which a paragraph applies a section rather than only naming it; set by hand (not
#: fitted): a conviction, a charge or an offence "under" it, its ingredients or application, then what is decided
#: under it (bail, quashing, cognizance, sentence), then the FIR's registration (the least: a recital)
APPLYING: tuple[tuple[re.Pattern[str], float], ...] = tuple((re.compile(p, re.I), w) for p, w in (
    (r"\b(?:convicted|conviction|acquitted|acquittal|charged|charges?\s+(?:were\s+|was\s+)?framed|punishable\s+under|"
     r"offen[cs]es?\s+(?:punishable\s+)?under)\b", 1.0),
    (r"\b(?:attract(?:s|ed)?|made\s+out|ingredients?|applies|applicable|apply|application\s+of|invok(?:e|ed|ing)|"
     r"within\s+the\s+meaning\s+of|falls?\s+(?:within|under)|in\s+terms\s+of|mandate\s+of|scope\s+of)\b", 1.0),
    (r"\b(?:bail|quash\w*|cognizance|sentenced?|custody)\b", 0.5),
    (r"\b(?:registered|lodged|FIR|first\s+information\s+report)\b", 0.25),
))
#: a paragraph naming the sub-section asked (not only the section) gains this
EXACT_SUB = 0.5
#: the Code of Criminal Procedure, 1973 came into force on this day (s.1(3)), repealing the Code of 1898 (s.484)
CRPC_1973 = "1974-04-01"


@dataclass(frozen=True)
class Counterpart:
    """An official counterpart of the section asked: ``ref`` (IPC 420), ``of`` the side asked as the table row
    prints it (BNS 318(4)), ``relation`` (``predecessor`` of a new-code section, ``successor`` of an old-code one),
    ``row`` the row it came from (``"BNS_to_IPC_clean.csv#453"``)."""

    ref: StatuteRef
    of: StatuteRef
    relation: Literal["predecessor", "successor"]
    row: str


@dataclass(frozen=True)
class Applied:
    """One judgment that applied the section: ``judgment``, the ``paragraph`` (``para``: 0-based in the case)
    chosen, ``cited`` the reference as that paragraph names it, ``via`` the counterpart it names (``None`` when it
    names the section asked), ``score`` (:func:`applying_score`)."""

    judgment: Judgment
    para: int
    paragraph: Paragraph
    cited: StatuteRef
    via: Counterpart | None
    score: float

    @property
    def case(self) -> str:
        return self.judgment.case_id

    @property
    def relation(self) -> Relation:
        return "direct" if self.via is None else self.via.relation


@dataclass(frozen=True)
class AppliedList:
    """The answer for one section ``ref``: ``found`` (kept, newest first), ``total`` (every judgment citing it,
    kept or not), ``counterparts`` (what was searched besides ``ref``)."""

    ref: StatuteRef
    found: tuple[Applied, ...]
    total: int
    counterparts: tuple[Counterpart, ...]


def agrees(cited: StatuteRef, ref: StatuteRef) -> bool:
    """Same Act and section, and one sub-section path a prefix of the other.

    >>> agrees(StatuteRef("BNS", "318"), StatuteRef("BNS", "318", ("4",)))
    True
    >>> agrees(StatuteRef("BNS", "318", ("2",)), StatuteRef("BNS", "318", ("4",)))
    False"""
    n = min(len(cited.sub), len(ref.sub))
    return cited.act == ref.act and cited.section == ref.section and cited.sub[:n] == ref.sub[:n]


def counterparts_of(ref: StatuteRef, concordance: Concordance | None) -> tuple[Counterpart, ...]:
    """The official counterparts of ``ref`` by the table rows that pair them (module docstring), in table order,
    each once; ``()`` for a section the table marks New, one it is silent on, and an Act outside the tables."""
    if concordance is None or ref.act not in OLD_ACTS | NEW_ACTS:
        return ()
    found = concordance.query(ref)
    if found.status != "mapped":
        return ()
    old = ref.act in OLD_ACTS
    out: dict[tuple[StatuteRef, StatuteRef], Counterpart] = {}
    for p in found.pairs:
        mine, other = (p.old, p.new) if old else (p.new, p.old)
        if mine is not None and other is not None and (other, mine) not in out:
            out[(other, mine)] = Counterpart(other, mine, "successor" if old else "predecessor", p.row.source_row)
    return tuple(out.values())


def cites_code_of_1973(j: Judgment) -> bool:
    """Whether a CrPC section ``j`` names can be the 1973 Code's: decided on or after :data:`CRPC_1973` (a judgment
    whose date is only its year counts from 1974 on; one with no date counts)."""
    return not j.date or j.date >= CRPC_1973 or (len(j.date) == 4 and j.date >= CRPC_1973[:4])


def applying_score(text: str) -> float:
    """Sum of the weights of the :data:`APPLYING` cues ``text`` holds (each once)."""
    return sum(w for rx, w in APPLYING if rx.search(text))


def _date_key(j: Judgment) -> str:
    return j.date or ""


def judgments_applying(ref: StatuteRef, casebase: CaseBase, concordance: Concordance | None = None,
                       keep: Callable[[Judgment], bool] | None = None) -> AppliedList:
    """The judgments of ``casebase`` that applied ``ref`` (module docstring)."""
    cps = counterparts_of(ref, concordance)
    order = {c: i for i, c in enumerate(casebase.cases)}
    best: dict[str, tuple[tuple, Applied]] = {}
    for target, via in [(ref, None), *((c.ref, c) for c in cps)]:
        for sc in casebase.citing(target):
            named = [r for r in sc.cited if agrees(r, target)]
            if not named or (target.act == "CrPC" and not cites_code_of_1973(casebase.judgment(sc.case))):
                continue
            cited = max(named, key=lambda r: len(r.sub))
            p = casebase.paragraph(sc.case, sc.para)
            score = applying_score(p.text) + (EXACT_SUB if target.sub and cited.sub[:len(target.sub)] == target.sub
                                               else 0.0)
            key = (via is None, score, -sc.para)
            if sc.case not in best or key > best[sc.case][0]:
                best[sc.case] = (key, Applied(casebase.judgment(sc.case), sc.para, p, cited, via, score))
    every = [a for _, a in best.values()]
    kept = [a for a in every if keep is None or keep(a.judgment)]
    kept.sort(key=lambda a: (order[a.case]))
    kept.sort(key=lambda a: a.via is not None)
    kept.sort(key=lambda a: _date_key(a.judgment), reverse=True)
    return AppliedList(ref, tuple(kept), len(every), cps)


__all__ = ["APPLYING", "CRPC_1973", "Applied", "AppliedList", "Counterpart", "EXACT_SUB", "Relation", "agrees",
           "applying_score", "cites_code_of_1973", "counterparts_of", "judgments_applying"]
