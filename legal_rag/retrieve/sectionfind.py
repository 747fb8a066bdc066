"""Which sections apply to these facts: evidence from similar judgments fused with direct retrieval over statute text.

Two rankings of sections, each turned into ranks and fused by weighted reciprocal rank fusion (Cormack, Clarke &
Buettcher, SIGIR 2009: ``sum_l w_l / (rrf_k + rank_l)``) or by weighted max-normalised scores (``method``):

* **evidence** (:func:`legal_rag.retrieve.evidence.section_evidence`): the sections the most similar judgments of
  the case base cite, mapped to the era asked for by the official BPR&D table;
* **direct**: :func:`legal_rag.retrieve.search.search` over statute chunks, a section ranked by its best chunk
  (:func:`direct_sections`), with **old<->new bridging** (:func:`bridge`): a section's direct value
  ``1 / (rrf_k + rank)`` is shared, times ``bridge``, with its counterparts in the official table (split equally
  over a one-to-many row), so IPC 420's text lifts BNS 318 and BNS 318(4)'s text lifts IPC 420.

Weights are chosen on AILA 2019 training queries Q1 and Q3-Q10 only (Q2 copies test Q50; ``bench/results.md``,
"Section finding", names the grid and the figures), by the mean of Task 2 MAP and BNS-era MAP on those 9 queries;
ties go to the earlier defaults. The defaults, chosen on the case base that counts Constitution Articles: RRF with
``rrf_k=5``, evidence 1.0, direct (hybrid) 0.3, bridge 1.0 (bridging's tuning gain is one gold section of one query
moving up a rank, so it is small, not proven). Those queries are long fact statements; on short questions that
paraphrase a section's title the same weights do worse than direct retrieval alone (``bench/results.md``, the dev
set rows), so a caller with a short question should pass its own :class:`FusionWeights` until weights by question kind are chosen on short training questions
(the product chooses provisions with the section ranker, :mod:`legal_rag.rank`, whose case-base evidence is
:func:`legal_rag.retrieve.evidence.section_evidence` with its lift over the base rate).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Collection, Hashable, Literal, Mapping, Sequence, TypeVar

from ..config import Settings
from ..types import NEW_ACTS, OLD_ACTS, SectionSuggestion, StatuteRef
from .evidence import Era, EvidenceParams, SectionEvidence, section_evidence
from .filters import Filters

if TYPE_CHECKING:
    from ..law import Concordance

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class FusionWeights:
    """How the two rankings are fused (defaults chosen on AILA Q1, Q3-Q10; see module docstring).

    ``evidence``/``direct``: list weights; ``method``: ``"rrf"`` (ranks) or ``"score"`` (each list's scores divided
    by its maximum); ``rrf_k``: the RRF constant; ``bridge``: share of a section's direct value given to its
    counterparts; ``depth``: chunks each direct retriever returns; ``mode``: the direct retriever
    (``sparse``/``dense``/``hybrid``)."""

    evidence: float = 1.0
    direct: float = 0.3
    method: Literal["rrf", "score"] = "rrf"
    rrf_k: int = 5
    bridge: float = 1.0
    depth: int = 300
    mode: Literal["sparse", "dense", "hybrid"] = "hybrid"


def ranks(scores: Mapping[K, float]) -> dict[K, int]:
    """1-based ranks by score, best first; ties by key (``str``) so the order never depends on dict order."""
    order = sorted((k for k, v in scores.items() if v > 0), key=lambda k: (-scores[k], str(k)))
    return {k: i + 1 for i, k in enumerate(order)}


def fuse(evidence: Mapping[K, float], direct: Mapping[K, float], w: FusionWeights) -> list[tuple[K, float]]:
    """Fused ``[(key, score)]`` best first (ties by key). Only keys with a positive score in a list get its vote."""
    out: dict[K, float] = defaultdict(float)
    for scores, weight in ((evidence, w.evidence), (direct, w.direct)):
        if not weight:
            continue
        if w.method == "rrf":
            for k, r in ranks(scores).items():
                out[k] += weight / (w.rrf_k + r)
        else:
            top = max((v for v in scores.values() if v > 0), default=0.0)
            for k, v in scores.items():
                if v > 0:
                    out[k] += weight * v / top
    return sorted(out.items(), key=lambda kv: (-kv[1], str(kv[0])))


def direct_sections(question: str, index, settings: Settings, *, mode: str = "hybrid",
                    filters: Filters | Mapping[str, Any] | None = None, depth: int = 300, lookup: bool = True,
                    analysis=None) -> list[StatuteRef]:
    """Sections (section level) in order of their best chunk among ``depth`` retrieved statute chunks.
    ``analysis``: the question's (:func:`legal_rag.law.analyse`), read by the search instead of reading the question
    again; None reads it."""
    from .search import search

    hits = search(question, index, settings, mode=mode, filters=filters, candidates=depth, limit=depth,
                  lookup=lookup, max_per_doc=None, analysis=analysis)
    return list(dict.fromkeys(h.chunk.ref.base for h in hits if h.chunk.ref is not None))


def counterparts(ref: StatuteRef, concordance: Concordance | None) -> tuple[StatuteRef, ...]:
    """Section-level successors (old code) or predecessors (new code) of ``ref`` by the official table
    (:meth:`legal_rag.law.Concordance.counterparts` at ``level="section"``); ``()`` without a concordance."""
    return concordance.counterparts(ref, level="section") if concordance is not None else ()


def bridge(ranked: Sequence[StatuteRef], concordance, *, share: float, rrf_k: int = 60) -> dict[StatuteRef, float]:
    """Direct values ``1 / (rrf_k + rank)`` with each section's value also given, times ``share`` and split over
    the row's targets, to its counterparts (:func:`counterparts`)."""
    out: dict[StatuteRef, float] = defaultdict(float)
    for i, r in enumerate(ranked):
        v = 1.0 / (rrf_k + i + 1)
        out[r] += v
        if share and concordance is not None:
            cps = counterparts(r, concordance)
            for t in cps:
                out[t] += share * v / len(cps)
    return dict(out)


def _era_acts(era: Era) -> frozenset[str]:
    return NEW_ACTS if era == "new" else OLD_ACTS


def find_sections(question: str, index, casebase, settings: Settings, *, era: Era = "new",
                  filters: Filters | Mapping[str, Any] | None = None, concordance=None,
                  weights: FusionWeights | None = None, evidence_params: EvidenceParams | None = None,
                  exclude: Collection[str] = (), lookup: bool = True, limit: int | None = 20, analysis=None
                  ) -> tuple[SectionSuggestion, ...]:
    """Sections of ``era``'s codes (``"new"``: BNS/BNSS/BSA; ``"old"``: IPC/CrPC/IEA) for a fact-pattern question,
    best first, at most ``limit`` (None: all with any evidence or text match).

    ``index``: a product index (statute chunks keyed ``BNS 318`` etc.); the direct search reads its statute chunks
    of both eras (so the other era's text can bridge), then only ``era``'s sections (and, when ``filters`` names
    Acts or a code, only those) are returned. ``casebase``: a :class:`legal_rag.index.casebase.CaseBase` or None
    (direct retrieval only). ``concordance`` defaults to the corpus's official tables
    (:func:`legal_rag.law.load_concordance`). ``exclude``: case ids the evidence must not use. ``analysis``: the
    question's, passed to the direct search (:func:`direct_sections`)."""
    if concordance is None:
        from ..law import load_concordance

        concordance = load_concordance(settings.corpus_path)
    w = weights or FusionWeights()
    f = Filters.of(filters) or Filters()
    allowed = set(_era_acts(era))
    if f.act:
        allowed &= set(f.act)
    if f.code:
        allowed &= set(_era_acts(f.code))
    ev: tuple[SectionEvidence, ...] = ()
    if casebase is not None and w.evidence:
        ev = section_evidence(question, casebase, concordance=concordance, era=era, exclude=exclude,
                              params=evidence_params)
    ranked = direct_sections(question, index, settings, mode=w.mode, filters=Filters(kind="statute"),
                             depth=w.depth, lookup=lookup, analysis=analysis) if w.direct else []
    return rank_sections(ev, ranked, concordance, allowed=allowed, weights=w, limit=limit)


def rank_sections(evidence: Sequence[SectionEvidence], ranked: Sequence[StatuteRef], concordance, *,
                  allowed: Collection[str], weights: FusionWeights, limit: int | None = None
                  ) -> tuple[SectionSuggestion, ...]:
    """The fusion step of :func:`find_sections`, given its two inputs: ``evidence`` (already in the era) and the
    direct section ranking ``ranked`` (both eras); only sections of the ``allowed`` Acts are returned."""
    w = weights
    ev = tuple(e for e in evidence if e.ref.act in allowed)
    direct = {r: v for r, v in bridge(ranked, concordance, share=w.bridge, rrf_k=w.rrf_k).items()
              if r.act in allowed}
    d_rank = ranks(direct)
    by_ref = {e.ref: e for e in ev}
    top_n = len({c for e in evidence for c, _ in e.cases})
    out = []
    for r, s in fuse({e.ref: e.score for e in ev}, direct, w)[:limit]:
        e = by_ref.get(r)
        out.append(SectionSuggestion(r, s, e.n_cases if e else 0, tuple(c for c, _ in e.cases) if e else (), top_n,
                                     d_rank.get(r), counterparts(r, concordance)))
    return tuple(out)


__all__ = ["FusionWeights", "SectionSuggestion", "bridge", "counterparts", "direct_sections", "find_sections",
           "fuse", "rank_sections", "ranks"]
