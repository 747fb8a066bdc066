"""The passages a statute question is answered from: hybrid retrieval with look-up and official successors, the
sections suggested by precedents leading a fact pattern, then the reranker (DESIGN.md, "Retrieval")."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from ..config import Settings
from ..resources import Resources
from ..types import Hit, SectionSuggestion

if TYPE_CHECKING:
    from ..law import QuestionAnalysis
    from ..retrieve import Filters


def find_passages(res: Resources, settings: Settings, query: str, analysis: QuestionAnalysis,
                  filters: Filters | None = None, dense_query: str | None = None
                  ) -> tuple[tuple[Hit, ...], tuple[SectionSuggestion, ...]]:
    """``(hits, suggestions)`` for ``query`` (in normal form) read as ``analysis``: fused dense and sparse hits
    (:func:`legal_rag.retrieve.search.search`; ``dense_query`` (HyDE) feeds the dense retriever only) with the
    official successors of old-code hits (:func:`legal_rag.retrieve.with_successors`); for a fact pattern (an
    offence or punishment question that names no section, :func:`legal_rag.retrieve.suggest.is_fact_pattern`) the
    sections the most similar judgments cite, fused with the statute text (:func:`legal_rag.retrieve.suggest.
    suggest`), whose first chunks (stage ``evidence``) lead the hits (how many:
    :func:`legal_rag.retrieve.suggest.lead_for`); then the statutes the question's era calls for first
    (:func:`legal_rag.retrieve.suggest.statutes_first`) and the reranker when one is set. ``suggestions`` is ``()``
    for any other question. Ranks are 1-based and consecutive."""
    from ..retrieve import with_successors
    from ..retrieve.search import search
    from ..retrieve.suggest import lead_for, statutes_first, suggest, suggestion_hits

    index, conc = res.index, res.concordance
    hits = with_successors(analysis, search(query, index, settings, filters=filters, dense_query=dense_query,
                                            analysis=analysis),
                           index, conc, filters, derived=res.derived_division)
    suggestions = suggest(query, analysis, index, res.casebase, settings, concordance=conc, filters=filters)
    lead = suggestion_hits(suggestions, index, res.casebase, conc, filters,
                           lead=lead_for(suggestions, query)) if suggestions else []
    seen = {h.chunk.id for h in lead}
    hits = tuple(dataclasses.replace(h, rank=i + 1) for i, h in enumerate(
        [*lead, *statutes_first([h for h in hits if h.chunk.id not in seen], analysis)]))
    if res.reranker.enabled:
        hits = res.reranker.rerank(query, hits, top_k=max(settings.top_k, len(hits)),
                                   rerank_candidates=settings.rerank_candidates)
    return tuple(hits), suggestions


__all__ = ["find_passages"]
