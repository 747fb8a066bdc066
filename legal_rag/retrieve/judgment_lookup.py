"""Judgments as whole units: the catalogue of indexed judgments with their citations, a judgment's
passages in order, and judgments ranked by their passages.

* :func:`case_records`: one :class:`~legal_rag.law.citation_lookup.CaseRecord` per indexed judgment (first chunk's
  title, court and date); its citations are the chunk metadata's ``citations`` ("; "-joined, canonical), the case
  base's :class:`~legal_rag.types.Judgment` citations (read from the judgment's header), and the citation its
  readable id encodes (``2024-INSC-479``), merged in that order without repeats.
* :func:`judgment_chunks`: every chunk of one judgment, in reading order (``part``).
* :func:`rank_cases` (used for holdings, :func:`rank_for_holding`): each retriever's list read as a ranking of
  judgments, fused by reciprocal rank at that level;
* :func:`rank_judgments`: hits grouped by judgment; a judgment's score is the sum of reciprocal ranks
  ``1 / (rrf_k + rank)`` of its best :data:`PER_CASE` hits (the RRF form of Cormack, Clarke & Buettcher 2009, so
  a judgment with several good passages beats one with a single look-alike sentence), best first; ties by the
  best rank.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..law import CaseRecord, case_id_citations
from ..types import Chunk, Hit, Judgment

#: hits of one judgment that count towards its score (more are kept in ``CaseRank.hits`` but do not add)
PER_CASE = 3


@dataclass(frozen=True)
class CaseRank:
    """One judgment among ranked hits: ``case`` id, ``score`` (sum of reciprocal ranks, module docstring), its
    ``hits`` best first."""

    case: str
    score: float
    hits: tuple[Hit, ...]


def judgments_of(chunks: Iterable[Chunk]) -> dict[str, tuple[Chunk, ...]]:
    """case id -> its judgment chunks in reading order (``part``, then span), for every judgment chunk."""
    out: dict[str, list[Chunk]] = {}
    for c in chunks:
        if c.kind == "judgment" and c.case:
            out.setdefault(c.case, []).append(c)
    return {k: tuple(sorted(v, key=lambda c: (c.part, c.span, c.id))) for k, v in sorted(out.items())}


def case_records(by_case: Mapping[str, Sequence[Chunk]],
                 judgments: Mapping[str, Judgment] | None = None) -> tuple[CaseRecord, ...]:
    """The catalogue (module docstring); ``judgments``: case id -> parsed judgment (the case base's), optional."""
    out = []
    for case, chunks in by_case.items():
        if not chunks:
            continue
        head = chunks[0]
        meta = dict(head.meta)
        cites = [c.strip() for c in meta.get("citations", "").split(";") if c.strip()]
        j = (judgments or {}).get(case)
        if j is not None:
            cites += j.citations
        cites += case_id_citations(case)
        out.append(CaseRecord(case, head.title, tuple(dict.fromkeys(cites)), meta.get("court", ""),
                              meta.get("date", "")))
    return tuple(out)


def judgment_hits(chunks: Sequence[Chunk], first: Sequence[Chunk] = ()) -> tuple[Hit, ...]:
    """``chunks`` of one judgment as look-up hits (stage ``lookup``, score 1.0), ``first`` leading in their order
    and the rest in reading order; ranks 1-based."""
    ids = {c.id for c in first}
    order = [*first, *(c for c in chunks if c.id not in ids)]
    return tuple(Hit(c, 1.0, "lookup", i + 1) for i, c in enumerate(order))


def rank_judgments(hits: Sequence[Hit], rrf_k: int = 60) -> tuple[CaseRank, ...]:
    """Judgment hits of ``hits`` (in their order; ``Hit.rank`` ignored, the position counts) grouped by case and
    ranked (module docstring). ``rank_judgments([A1, B1, A2]) -> (A: 1/61 + 1/63, B: 1/62)``."""
    per: dict[str, list[tuple[int, Hit]]] = {}
    for pos, h in enumerate(hits, 1):
        if h.chunk.kind == "judgment" and h.chunk.case:
            per.setdefault(h.chunk.case, []).append((pos, h))
    ranks = [CaseRank(case, sum(1.0 / (rrf_k + p) for p, _ in got[:PER_CASE]), tuple(h for _, h in got))
             for case, got in per.items()]
    best = {case: got[0][0] for case, got in per.items()}
    return tuple(sorted(ranks, key=lambda r: (-r.score, best[r.case])))


def rank_cases(lists: Sequence[Sequence[Hit]], rrf_k: int = 60) -> tuple[CaseRank, ...]:
    """Judgments ranked by reciprocal rank fusion at the level of judgments (Cormack et al. 2009): in each list
    (one retriever's hits, best first) a judgment's rank is the place of its first hit among the judgments of that
    list (1-based); its score is the sum over lists of ``1 / (rrf_k + rank)``. Best first; ties by the best
    place in any list, then case id. ``hits``: the judgment's hits from every list, by place, no chunk twice.

    Fusing judgments rather than passages matters: BM25 and the dense retriever may each put one judgment first
    through different passages, and passage-level fusion then ranks first a judgment both found lower down."""
    score: dict[str, float] = {}
    best: dict[str, int] = {}
    got: dict[str, list[tuple[int, Hit]]] = {}
    for hits in lists:
        order: list[str] = []
        for pos, h in enumerate(hits):
            case = h.chunk.case
            if h.chunk.kind != "judgment" or not case:
                continue
            if case not in order:
                order.append(case)
                score[case] = score.get(case, 0.0) + 1.0 / (rrf_k + len(order))
                best[case] = min(best.get(case, pos), pos)
            got.setdefault(case, []).append((pos, h))
    out = []
    for case in sorted(score, key=lambda c: (-score[c], best[c], c)):
        seen: set[str] = set()
        hs = []
        for _, h in sorted(got[case], key=lambda t: t[0]):
            if h.chunk.id not in seen:
                seen.add(h.chunk.id)
                hs.append(h)
        out.append(CaseRank(case, score[case], tuple(hs)))
    return tuple(out)


def rank_for_holding(question: str, index, settings, filters=None, analysis=None) -> tuple[CaseRank, ...]:
    """Judgments for "which judgment held X": the BM25 and dense lists of judgment passages
    (:func:`legal_rag.retrieve.search.search`, ``kind=judgment`` within ``filters``' court and years), fused at
    the level of judgments (:func:`rank_cases`)."""
    import dataclasses

    from .filters import Filters
    from .search import search

    only = (dataclasses.replace(filters, kind="judgment", act=(), code=None) if filters is not None
            else Filters(kind="judgment"))
    lists = [search(question, index, settings, mode=mode, filters=only, analysis=analysis)
             for mode in ("sparse", "dense")]
    return rank_cases(lists, settings.rrf_k)


__all__ = ["CaseRank", "PER_CASE", "case_records", "judgment_hits", "judgments_of", "rank_cases", "rank_for_holding",
           "rank_judgments"]
