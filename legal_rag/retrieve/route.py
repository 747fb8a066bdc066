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
:data:`AHEAD` fused hits of the routed pass before the unrouted fused list (then that list without them);
``"rrf"`` adds the routed dense and sparse lists to the reciprocal rank fusion (a boost); ``"off"``: no routing.
:data:`DEFAULT_ROUTE` was chosen on ``bench/devset.jsonl`` (45 questions, real test index; numbers in the commit
message and the issue 13 report).
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from ..ingest.citations_meta import find_citations
from ..law import Concordance
from ..law.question import QuestionAnalysis, analyse
from ..types import ACTS, NEW_ACTS, OLD_ACTS
from .filters import Filters

RouteMode = Literal["ahead", "rrf", "off"]
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


__all__ = ["AHEAD", "DEFAULT_ROUTE", "RouteMode", "analyse_question", "route_filters"]
