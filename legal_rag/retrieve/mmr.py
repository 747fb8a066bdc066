"""Maximal marginal relevance (Carbonell & Goldstein, SIGIR 1998) over the fused list, to drop near-duplicates
(e.g. the same words re-enacted in two Acts, or the same paragraph quoted by several judgments).

Each step picks ``argmax  λ·sim(q, d) − (1 − λ)·max_{s ∈ selected} sim(d, s)`` with cosine similarities of the
stored passage vectors. Ties break by fused rank. Returned hits keep their stage and score; ranks renumbered.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..types import Hit


def mmr_order(query_vec: np.ndarray, vecs: np.ndarray, lambda_: float) -> list[int]:
    """Indices of ``vecs`` (rows unit length, shape (n, d)) in MMR order. Raises ValueError if λ not in [0, 1]."""
    if not 0.0 <= lambda_ <= 1.0:
        raise ValueError(f"mmr lambda must be in [0, 1], got {lambda_}")
    n = vecs.shape[0]
    rel = vecs @ query_vec
    sim = vecs @ vecs.T
    chosen: list[int] = []
    left = list(range(n))
    while left:
        red = sim[np.ix_(left, chosen)].max(axis=1) if chosen else np.zeros(len(left))
        val = lambda_ * rel[left] - (1 - lambda_) * red
        best = left[int(np.argmax(val))]  # argmax takes the first maximum: the better fused rank
        chosen.append(best)
        left.remove(best)
    return chosen


def _vectors(hits: Sequence[Hit], index) -> np.ndarray:
    """The stored vectors of ``hits``; a chunk kept out of the dense index (:func:`legal_rag.index.sparse_only`)
    has none stored and is embedded now, with the index's embedder, as its passage would have been."""
    from ..index import sparse_only
    from ..injection import index_text

    ids = [h.chunk.id for h in hits]
    stored = [i for i, h in enumerate(hits) if not sparse_only(h.chunk)]
    fresh = [i for i, h in enumerate(hits) if sparse_only(h.chunk)]
    dim = index.manifest.dim
    out = np.zeros((len(hits), dim), dtype=np.float32)
    if stored:
        out[stored] = index.store.vectors(index.manifest.embed_model, [ids[i] for i in stored])
    if fresh:
        out[fresh] = index.embedder.embed_passages([index_text(hits[i].chunk) for i in fresh])
    return out


def mmr(hits: Sequence[Hit], index, query: str, lambda_: float) -> list[Hit]:
    """Re-order ``hits`` by MMR using the index's stored vectors (a sparse-only chunk's embedded now) and the query
    vector."""
    if not hits:
        return []
    vecs = _vectors(hits, index)
    order = mmr_order(index.embed_query(query), vecs, lambda_)
    return [Hit(hits[i].chunk, hits[i].score, hits[i].stage, r + 1) for r, i in enumerate(order)]
