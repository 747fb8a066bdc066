"""Hybrid search: section look-up ∥ dense (Chroma) ∥ sparse (bm25s) -> per-list hygiene -> RRF -> optional MMR ->
routing by the question analysis (:mod:`legal_rag.retrieve.route`: the Acts the question's kind and era call for
are searched first and lead the statute hits).

Names kept apart (DESIGN.md): ``candidates`` is the depth of each retriever's list, ``rrf_k`` the RRF constant,
``limit`` how many fused hits are returned (``Settings.rerank_candidates`` by default; the reranker and the
generator cut further to ``top_k``).
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal, Mapping, Sequence

from ..config import Settings
from ..injection import instruction_only
from ..types import Chunk, Hit
from .filters import Filters
from .fusion import cap_per_doc, dedupe, rrf
from . import route as _route
from .route import AHEAD, DEFAULT_ROUTE, RouteMode, analyse_question, route_filters
from .sectionrefs import analysis_refs, query_refs, section_refs

if TYPE_CHECKING:
    from ..law import QuestionAnalysis

Mode = Literal["hybrid", "dense", "sparse"]
#: chunks of one document (a section, a judgment) allowed in each retriever's list before fusion (BL-20)
MAX_PER_DOC = 3


def _hits(index, pairs: Sequence[tuple[str, float]], stage: str) -> list[Hit]:
    chunks = index.get([cid for cid, _ in pairs])
    return [Hit(chunks[cid], score, stage, i + 1) for i, (cid, score) in enumerate(pairs) if cid in chunks]


def dense_hits(query: str, index, candidates: int, filters: Filters | None = None,
               timings: dict | None = None, vector=None) -> list[Hit]:
    """Up to ``candidates`` hits by cosine similarity of MiniLM (or the configured model) vectors. ``vector``: the
    query's embedding when already made (a routed pass reuses it)."""
    t0 = time.perf_counter()
    vec = index.embed_query(query) if vector is None else vector
    t1 = time.perf_counter()
    pairs = index.dense_search(vec, candidates, filters)
    t2 = time.perf_counter()
    if timings is not None:
        timings["embed"] = timings.get("embed", 0.0) + t1 - t0
        timings["dense"] = timings.get("dense", 0.0) + t2 - t1
    return _hits(index, pairs, "dense")


def sparse_hits(query: str, index, candidates: int, filters: Filters | None = None,
                timings: dict | None = None) -> list[Hit]:
    """Up to ``candidates`` hits by BM25 over the legal tokenizer (positive scores only)."""
    t0 = time.perf_counter()
    pairs = index.sparse_search(query, candidates, filters)
    if timings is not None:
        timings["sparse"] = timings.get("sparse", 0.0) + time.perf_counter() - t0
    return _hits(index, pairs, "sparse")


def _prints_division(index, act: str, section: str, path: tuple[str, ...]):
    """A test ``chunk -> bool``: does the chunk print division ``path`` (``("4",)``, ``("2", "n")``) of the
    section? True when its marker is printed there or the chunk begins inside it
    (:func:`legal_rag.law.pinpoint.printed`), or when the chunk holds the division's opening words as the whole
    section prints them (:func:`legal_rag.law.align.division_text`; this also reads a clause list past an
    amended-out clause, IPC 376(2)'s "(i) * * *")."""
    from ..law import chunk_layout, division_text, printed
    from ..types import StatuteRef

    sections = index.sections() if hasattr(index, "sections") else {}
    sec = sections.get(StatuteRef(act, section)) if sections else None
    text = division_text(sec, path) if sec is not None else None
    probe = " ".join(text.split())[:60] if text else ""

    def prints(chunk: Chunk) -> bool:
        return printed(chunk_layout(chunk), path) is not None or bool(probe) and probe in " ".join(chunk.text.split())
    return prints


def lookup_hits(query: str, index, filters: Filters | None = None,
                refs: Sequence[tuple[str, str, tuple[str, ...]]] | None = None) -> list[Hit]:
    """Chunks of the sections the query names ("IPC 420", "s. 498-A", "BNS 318(4)"), found by metadata.

    For a sub-section or clause reference the chunks whose text prints that division come first (its marker is
    printed there or the chunk begins inside it: :func:`legal_rag.law.pinpoint.printed`, so "IPC 376(2)(n)" leads
    with the chunk printing clause (n), not the section's opening), then those that start the sub-section. A
    reference with no
    Act ("s. 498-A") is looked up in every Act that has such a section. Scores are 1.0 (an exact match).
    ``refs`` (``(act, section, sub)``, e.g. from :func:`legal_rag.retrieve.sectionrefs.analysis_refs`) are the
    sections looked up; without them, those ``query`` writes (:func:`legal_rag.retrieve.sectionrefs.query_refs`).
    """
    out: list[Chunk] = []
    for act, section, sub in (query_refs(query) if refs is None else refs):  # one entry per Act that has it
        chunks = index.by_ref(act, section)
        if sub:
            prints = _prints_division(index, act, section, tuple(sub[:2]))
            chunks = sorted(chunks, key=lambda c: (not prints(c), sub[0] not in dict(c.meta).get("subs", "").split(","),
                                                   c.part))
        out.extend(chunks)
    if filters is not None and not filters.is_empty():
        from ..index import chunk_metadata

        out = [c for c in out if filters.matches(chunk_metadata(c))]
    return dedupe([Hit(c, 1.0, "lookup", i + 1) for i, c in enumerate(out)])


def search(query: str, index, settings: Settings, *, mode: Mode = "hybrid",
           filters: Filters | Mapping[str, Any] | None = None, candidates: int | None = None,
           limit: int | None = None, max_per_doc: int | None = MAX_PER_DOC, lookup: bool = True,
           mmr_lambda: float | None = None, timings: dict | None = None, dense_query: str | None = None,
           analysis: QuestionAnalysis | None = None, route: RouteMode = DEFAULT_ROUTE) -> tuple[Hit, ...]:
    """Ranked hits for ``query``.

    ``mode`` picks dense, sparse or both fused by RRF (``settings.rrf_k``). Section look-up hits (stage
    ``lookup``) come first when ``lookup`` is true, then the retrieved hits without them; ``Hit.rank`` is the
    1-based position in the returned tuple. ``max_per_doc`` caps each retriever's list per document before
    fusion (None: no cap). ``mmr_lambda`` (0..1) re-orders the fused list by maximal marginal relevance.
    ``timings`` (if given) receives seconds per stage: embed, dense, sparse, fuse. ``dense_query`` (HyDE: the
    question with a hypothetical passage) replaces ``query`` for the dense retriever only; BM25 and section
    look-up always read the question itself, so a section number the hypothetical passage invents is never
    looked up. A chunk holding nothing but
    instructions addressed to a model (:func:`legal_rag.injection.instruction_only`) never takes a place.

    Routing: ``analysis`` is the question analysis (:func:`legal_rag.retrieve.route.analyse_question`;
    made here from ``query`` when not given). Its ``acts_first`` are searched first
    (``route``: ``"ahead"`` puts the routed pass's first :data:`~legal_rag.retrieve.route.AHEAD` hits before the
    other statute hits, in the statutes' own places: a judgment keeps its rank; ``"rrf"`` fuses the routed lists
    with the others) and its references (idioms resolved by the official table, corrected premises first, bare
    tokens in every Act that has them: :func:`~legal_rag.retrieve.sectionrefs.analysis_refs`) are the section
    look-up. An analysis made here for an unrouted search (``route="off"``), or without the correspondence tables
    (no corpus folder: read with the packaged section lists and no table, never failing), looks up only the sections
    the question writes (:func:`~legal_rag.retrieve.sectionrefs.section_refs`) and routes nothing.
    """
    f = Filters.of(filters)
    cand = candidates or settings.candidates
    whole = analysis is not None or route != "off"  # the analysis's whole look-up, and routing unless "off"
    if analysis is None:
        from ..errors import CorpusError
        from ..law import Concordance, default_section_sets, load_concordance

        try:
            conc = load_concordance(settings.corpus_path)
        except CorpusError:  # no correspondence tables to read idioms with: search unrouted, never fail
            conc, whole = Concordance((), default_section_sets()), False
        analysis = analyse_question(query, concordance=conc)
    routed = route_filters(analysis, f) if route != "off" and whole else None
    t_embed = time.perf_counter()
    vec = index.embed_query(dense_query or query) if mode in ("hybrid", "dense") else None
    if timings is not None and vec is not None:
        timings["embed"] = timings.get("embed", 0.0) + time.perf_counter() - t_embed

    def fused_lists(flt: Filters | None) -> list[list[Hit]]:
        out: list[list[Hit]] = []
        if mode in ("hybrid", "dense"):
            out.append(dense_hits(dense_query or query, index, cand, flt, timings, vector=vec))
        if mode in ("hybrid", "sparse"):
            out.append(sparse_hits(query, index, cand, flt, timings))
        out = [dedupe(h) for h in out]
        return [cap_per_doc(h, max_per_doc) for h in out] if max_per_doc else out

    def fuse(ls: list[list[Hit]]) -> list[Hit]:
        return rrf(ls, settings.rrf_k) if len(ls) > 1 else [h for h in ls[0] if h.score > 0]

    lists = fused_lists(f)
    t0 = time.perf_counter()
    if routed is not None and route == "rrf":
        fused = rrf(lists + fused_lists(routed), settings.rrf_k)
    else:
        fused = fuse(lists)
    if mmr_lambda is not None and fused:
        from .mmr import mmr

        fused = mmr(fused, index, query, mmr_lambda)
    if routed is not None and route == "ahead":
        from ..law import load_concordance

        first = _route.era_order(fuse(fused_lists(routed))[:AHEAD], analysis, _route.DEFAULT_ERA_ORDER,
                                 load_concordance(settings.corpus_path))
        fused = _route.statutes_ahead(fused, first)
    refs = analysis_refs(analysis) if whole else section_refs(analysis)
    head = lookup_hits(query, index, f, refs=refs) if lookup else []
    seen = {h.chunk.id for h in head}
    merged = head + [h for h in fused if h.chunk.id not in seen and not instruction_only(h.chunk)]
    n = limit or settings.rerank_candidates
    out = tuple(replace(h, rank=i + 1) for i, h in enumerate(merged[:n]))
    if timings is not None:
        timings["fuse"] = timings.get("fuse", 0.0) + time.perf_counter() - t0
    return out


def retrieve(query: str, index, settings: Settings, filters: Filters | Mapping[str, Any] | None = None,
             dense_query: str | None = None) -> tuple[Hit, ...]:
    """The front door: hybrid search with section look-up, up to ``settings.rerank_candidates`` hits."""
    return search(query, index, settings, filters=filters, dense_query=dense_query)
