"""The passages a statute question is answered from: hybrid retrieval with look-up and official successors, the
provisions the section ranker chooses leading a question that names none, then the reranker (DESIGN.md,
"Retrieval")."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from ..config import Settings
from ..resources import Resources
from ..types import Hit, SectionSuggestion

if TYPE_CHECKING:
    from ..law import QuestionAnalysis
    from ..rank import Ranking
    from ..retrieve import Filters

#: question kinds for which no provision is chosen: a precedent is found among judgments, a look-up is named
NOT_CHOSEN = frozenset({"precedent", "lookup"})
#: the ranker's candidates whose first chunks come before the fused hits (the lead among them)
RANKED = 3


def chooses_provision(analysis: QuestionAnalysis, filters: Filters | None = None, followup: bool = False) -> bool:
    """True for a question that names no section, case, citation or other Act's provision, asks no precedent, was
    not read as a follow-up (``followup``: :attr:`legal_rag.law.read.Question.followup`; one resolved names its
    provision, one not resolved has none of its own to choose), and whose filters leave statutes to search: the
    governing provision is chosen by the section ranker."""
    f = filters
    if followup or (f is not None and (f.kind == "judgment" or f.court or f.year_from or f.year_to)):
        return False
    return (analysis.kind not in NOT_CHOSEN and not analysis.refs and not analysis.cases and not analysis.citations
            and not analysis.other_refs)


def suggestions_of(ranking: Ranking, res: Resources, filters: Filters | None = None
                   ) -> tuple[SectionSuggestion, ...]:
    """The ranking's sections as suggestions, best first, each at its chosen limb (``cited_as``) with the judgments
    behind its case-base evidence and their titles, only those of the Acts ``filters`` name (all when none is
    named)."""
    conc = res.concordance
    acts = set(filters.act) if filters is not None and filters.act else None

    def titles(cases):
        return tuple(res.casebase.judgment(c).title for c in cases) if res.casebase is not None and cases else ()

    return tuple(SectionSuggestion(r.ref, r.p, len(r.cases), r.cases, r.top_cases, r.dense_rank,
                                   conc.counterparts(r.ref, level="section"), r.cited_as, titles(r.cases), r.p)
                 for r in ranking.sections if acts is None or r.ref.act in acts)


def statutes_only(filters: Filters | None) -> bool:
    """Whether ``filters`` keep judgments out ("Include judgments" off: ``kind == "statute"``)."""
    return filters is not None and filters.kind == "statute"


def section_ranker_for(res: Resources, filters: Filters | None = None):
    """The section ranker to choose with: the resources' own, or, when ``filters`` keep judgments out
    (:func:`statutes_only`), the same ranker without the case base, so that no suggestion rests on judgments
    (no case-base lift, no judgments named behind a suggestion)."""
    ranker = res.section_ranker
    return dataclasses.replace(ranker, casebase=None) if statutes_only(filters) else ranker


def find_passages(res: Resources, settings: Settings, query: str, analysis: QuestionAnalysis,
                  filters: Filters | None = None, dense_query: str | None = None, followup: bool = False
                  ) -> tuple[tuple[Hit, ...], tuple[SectionSuggestion, ...], Ranking | None]:
    """``(hits, suggestions, ranking)`` for ``query`` (in normal form) read as ``analysis``: fused dense and sparse
    hits (:func:`legal_rag.retrieve.search.search`; ``dense_query`` (HyDE) feeds the dense retriever only) with the
    official successors of old-code hits (:func:`legal_rag.retrieve.with_successors`); for a question that names no
    provision and was not read as a follow-up (``followup``; :func:`chooses_provision`) the section ranker's
    candidates (:class:`legal_rag.rank.SectionRanker`), whose first chunks at their chosen limbs (stage ``evidence``) lead the hits: the first candidate, and each next
    one close to it (the ranker's ``close`` share), each after its official predecessors' when the question's law is
    the old codes' (``analysis.era == "old"``: an offence before 1 July 2024); then the next candidates' first
    chunks, up to :data:`RANKED` ranked chunks in all. A question the ranker reads as outside the sources
    (``ranking.outside``) gets no hits and no suggestions. Then the statutes first for a question asking which
    provisions apply (:func:`legal_rag.retrieve.suggest.statutes_first`) and the reranker when one is set.
    ``suggestions`` is ``()`` and ``ranking`` None for any other question. Ranks are 1-based and consecutive."""
    from ..retrieve import with_successors
    from ..retrieve.search import search
    from ..retrieve.suggest import statutes_first, suggestion_hits

    index, conc = res.index, res.concordance
    ranking = section_ranker_for(res, filters).rank(query, kind=analysis.kind) \
        if chooses_provision(analysis, filters, followup) else None
    if ranking is not None and ranking.outside:
        return (), (), ranking
    hits = with_successors(analysis, search(query, index, settings, filters=filters, dense_query=dense_query,
                                            analysis=analysis),
                           index, conc, filters, derived=res.derived_division)
    suggestions = suggestions_of(ranking, res, filters) if ranking is not None else ()
    leads = lead_of(suggestions, ranking, res.section_ranker.ranker.close)
    if analysis.era == "old":
        leads = tuple(x for s in leads for x in (*predecessors_of(s, conc), s))
    lead = suggestion_hits(leads, index, filters, lead=len(leads)) if leads else []
    shown = {s.ref for s in leads}
    lead += suggestion_hits([s for s in suggestions if s.ref not in shown], index, filters,
                            lead=max(RANKED - len(lead), 0))
    seen = {h.chunk.id for h in lead}
    hits = tuple(dataclasses.replace(h, rank=i + 1) for i, h in enumerate(
        [*lead, *statutes_first([h for h in hits if h.chunk.id not in seen], analysis)]))
    if res.reranker.enabled:
        hits = res.reranker.rerank(query, hits, top_k=max(settings.top_k, len(hits)),
                                   rerank_candidates=settings.rerank_candidates)
    return tuple(hits), suggestions, ranking


def predecessors_of(s: SectionSuggestion, conc) -> tuple[SectionSuggestion, ...]:
    """For a question whose law is the old codes' (an offence before 1 July 2024): the official predecessors of the
    suggestion's limb (``cited_as``; the BPR&D table's rows, :meth:`legal_rag.law.Concordance.counterparts`) as
    suggestions with its score, which lead before it."""
    ref = s.cited_as or s.ref
    return tuple(dataclasses.replace(s, ref=p.base, cited_as=p, counterparts=(ref,))
                 for p in conc.counterparts(ref) if p.act != s.ref.act)


def lead_of(suggestions: tuple[SectionSuggestion, ...], ranking: Ranking | None, close: float
            ) -> tuple[SectionSuggestion, ...]:
    """The suggestions that lead the answer's head: the first and each next one close to it (as many as
    the ranker's ``close`` share of the first's ``p``, at most three)."""
    if ranking is None or not suggestions:
        return ()
    first = suggestions[0].p or 0.0
    return (suggestions[0], *(s for s in suggestions[1:3] if (s.p or 0.0) >= close * first))


__all__ = ["NOT_CHOSEN", "RANKED", "chooses_provision", "find_passages", "lead_of", "predecessors_of",
           "section_ranker_for", "statutes_only", "suggestions_of"]
