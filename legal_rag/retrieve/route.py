"""Routing by the question analysis: which Acts are searched first, and the one place the analysis is made with the
project's citation grammar.

``analyse_question(question, offence_date=None, proceeding_date=None, concordance=None) -> QuestionAnalysis`` is
:func:`legal_rag.law.question.analyse` with the reporter/neutral citation grammar of
:func:`legal_rag.ingest.citations_meta.find_citations` (``law`` sits below ``ingest`` and cannot import it).

``route_filters(analysis, filters) -> Filters | None``: the filter of the "search these Acts first" pass: the
analysis's ``acts_first`` within what the user's own filter allows; ``None`` (no routing) for a question with no
``acts_first`` (a precedent question), or when the user's filter leaves none of those Acts, or asks for judgments
only or for a court or year (which only judgments carry).

How the routed pass is merged (:func:`legal_rag.retrieve.search.search`, ``route=``): ``"ahead"`` puts the first
:data:`AHEAD` fused hits of the routed pass before the other statute hits of the unrouted fused list, in the places
statutes held there (:func:`statutes_ahead`: a judgment keeps its rank);
``"rrf"`` adds the routed dense and sparse lists to the reciprocal rank fusion (a boost); ``"off"``: no routing.
:data:`DEFAULT_ROUTE` and :data:`DEFAULT_ERA_ORDER` were chosen on ``bench/devset.jsonl`` (45 questions, the real
test index, hybrid, one run; recall@5 / nDCG@10 / MRR): no routing 0.911 / 0.901 / 0.906; ``"ahead"`` (10)
0.956 / 0.921 / 0.920; ``"rrf"`` 0.956 / 0.918 / 0.920; ahead 5: 0.944 / 0.920 / 0.920; ahead 50: 0.956 / 0.917 /
0.920. Era order of the ahead block (:func:`era_order`): none (BNS first on 29 of 45) as above; ``"pairs"``
0.956 / 0.925 / 0.913 (BNS first on 45 of 45, chosen); ``"alternate"`` 0.944 / 0.914 / 0.898 (MRR below no
routing); ``"partition"`` 0.833 / 0.813 / 0.896.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from ..ingest.citations_meta import find_citations
from ..law import Concordance, QuestionAnalysis, analyse
from ..types import ACTS, NEW_ACTS, OLD_ACTS, Hit
from .filters import Filters

RouteMode = Literal["ahead", "rrf", "off"]
EraOrder = Literal["pairs", "alternate", "partition", "none"]
#: how the routed block is ordered by era (measured with :data:`DEFAULT_ROUTE`)
DEFAULT_ERA_ORDER: EraOrder = "pairs"
#: how the routed pass is merged by default (measured, see the module docstring)
DEFAULT_ROUTE: RouteMode = "ahead"
#: hits of the routed pass placed before the unrouted list in ``"ahead"`` mode
AHEAD = 10


def analyse_question(question: str, offence_date: date | str | None = None,
                     proceeding_date: date | str | None = None,
                     concordance: Concordance | None = None) -> QuestionAnalysis:
    """The question analysis with case citations read ("(2019) 5 SCC 9999", "2024 INSC 479"); see
    :func:`legal_rag.law.question.analyse` for the fields and their rules."""
    return analyse(question, offence_date, proceeding_date, concordance=concordance, citation_finder=find_citations)


def era_order(hits: list[Hit], analysis: QuestionAnalysis | None, how: EraOrder = DEFAULT_ERA_ORDER,
              concordance: Concordance | None = None) -> list[Hit]:
    """The routed block with the era's Act leading (``acts_first[0]``: BNS with no date, IPC for an offence
    before 1 July 2024): ``"pairs"`` (the default) moves each hit of the other Act's counterpart section (by the
    official table, at section level: IPC 420 -> BNS 318) from later in the block to just before it, so the law of
    the era leads and its predecessor (or successor) stands beside it, and nothing else moves; ``"alternate"`` takes the lead Act's next hit, then the other's, and so on (each Act
    keeps its own order; hits of neither Act keep their place at the end); ``"partition"`` puts every lead-Act hit
    first; ``"none"`` leaves the fused order."""
    if how == "none" or analysis is None or not analysis.acts_first:
        return hits
    lead = analysis.acts_first[0]
    mine = [h for h in hits if h.chunk.ref is not None and h.chunk.ref.act == lead]
    other = [h for h in hits if h.chunk.ref is not None and h.chunk.ref.act != lead and
             h.chunk.ref.act in analysis.acts_first]
    rest = [h for h in hits if h not in mine and h not in other]
    if how == "partition":
        return mine + other + rest
    if how == "pairs":
        if concordance is None:
            return hits
        out: list[Hit] = []
        for h in hits:
            if h in out:
                continue
            ref = h.chunk.ref
            if ref is not None and ref.act != lead and ref.act in analysis.acts_first:
                mates = set(concordance.counterparts(ref.base, level="section"))
                out += [m for m in hits if m not in out and m.chunk.ref is not None and m.chunk.ref.base in mates]
            out.append(h)
        return out
    out: list[Hit] = []
    for i in range(max(len(mine), len(other))):
        out += mine[i:i + 1] + other[i:i + 1]
    return out + rest


def statutes_ahead(fused: list[Hit], first: list[Hit]) -> list[Hit]:
    """``fused`` with its statute places refilled: the routed ``first`` hits, then the other statute hits in fused
    order; every judgment or document hit keeps its place (routing orders the law, it never pushes a judgment out
    of the passages the generator reads). Statute hits left over go at the end; no chunk id twice.

    ``[IPC 1, J, BNS 2]`` with ``first=[BNS 2]`` -> ``[BNS 2, J, IPC 1]``."""
    ids = {h.chunk.id for h in first}
    queue = iter(first + [h for h in fused if h.chunk.ref is not None and h.chunk.id not in ids])
    out = [next(queue, None) if h.chunk.ref is not None else h for h in fused]
    return [h for h in out if h is not None] + list(queue)


def route_filters(analysis: QuestionAnalysis | None, filters: Filters | None = None) -> Filters | None:
    """The filter of the routed pass, or ``None`` when there is nothing to route (see the module docstring).

    ``route_filters(analyse("punishment for theft"), None) == Filters(act=("BNS", "IPC"))``;
    with ``Filters(code="old")`` -> ``Filters(act=("IPC",), code="old")``."""
    if analysis is None or not analysis.acts_first:
        return None
    acts = [a for a in analysis.acts_first if a in ACTS]
    f = filters or Filters()
    if f.kind == "judgment" or f.court is not None or f.year_from is not None or f.year_to is not None:
        return None
    if f.act:
        acts = [a for a in acts if a in f.act]
    if f.code:
        allowed = NEW_ACTS if f.code == "new" else OLD_ACTS
        acts = [a for a in acts if a in allowed]
    if not acts:
        return None
    return Filters(act=tuple(acts), code=f.code, kind=f.kind)


__all__ = ["AHEAD", "DEFAULT_ERA_ORDER", "DEFAULT_ROUTE", "EraOrder", "RouteMode", "analyse_question", "era_order",
           "route_filters", "statutes_ahead"]
