"""``Index.dense_search`` answers every filtered search of a query vector from one unfiltered query of it: the
answer is the filtered query's, and a filter too narrow for the kept list is asked of the store itself."""

from __future__ import annotations

import numpy as np

from legal_rag.index import DENSE_POOL, Index
from legal_rag.retrieve.filters import Filters


class ExactDense:
    """Exact cosine search over a small matrix; records every query it is asked (``where`` included)."""

    def __init__(self, ids, vectors, metas):
        self.ids, self.vectors, self.metas = ids, vectors, metas
        self.asked: list[tuple[int, dict | None]] = []

    def count(self) -> int:
        return len(self.ids)

    def search(self, vector, candidates, where=None):
        self.asked.append((candidates, where))
        keep = [i for i, m in enumerate(self.metas) if where is None or _passes(m, where)]
        sims = self.vectors[keep] @ vector
        pairs = [(self.ids[i], float(s)) for i, s in zip(keep, sims)]
        return sorted(pairs, key=lambda p: (-p[1], p[0]))[:candidates]


def _passes(meta, where):
    conds = where.get("$and", [where])
    return all(meta.get(k) in v["$in"] if isinstance(v, dict) else meta.get(k) == v
               for c in conds for k, v in c.items())


def _index(n=1500, judgments_every=3, rare_every=500, seed=3):
    rng = np.random.default_rng(seed)
    vecs = rng.normal(size=(n, 16)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    ids = [f"c{i:05d}" for i in range(n)]
    metas = [{"kind": "judgment" if i % judgments_every == 0 else "statute",
              "act": "BNSS" if i % rare_every == 0 else "BNS"} for i in range(n)]
    dense = ExactDense(ids, vecs, metas)
    index = Index(root=None, manifest=None, store=None, dense=dense, sparse=None, embedder=None)
    index._meta = dict(zip(ids, metas))
    return index, dense, rng


def test_filtered_searches_read_the_one_pool_and_equal_the_filtered_query():
    index, dense, rng = _index()
    for _ in range(5):
        v = rng.normal(size=16).astype(np.float32)
        v /= np.linalg.norm(v)
        dense.asked.clear()
        for f, k in ((Filters(kind="statute"), 200), (Filters(kind="judgment"), 50), (None, 30), (Filters(), 10)):
            want = dense.search(v, k, where=f.where() if f else None)
            dense.asked.pop()
            assert index.dense_search(v, k, f) == want
        assert dense.asked == [(DENSE_POOL, None)]  # one store query for four searches


def test_a_filter_too_narrow_for_the_pool_asks_the_store():
    index, dense, rng = _index()
    v = rng.normal(size=16).astype(np.float32)
    v /= np.linalg.norm(v)
    rare = Filters(act=("BNSS",))  # 3 of 1,500 chunks pass
    got = index.dense_search(v, 3, rare)
    assert {c for c, _ in got} == {"c00000", "c00500", "c01000"}
    assert dense.asked[-1] == (3, {"act": {"$in": ["BNSS"]}})


def test_a_deeper_search_than_the_pool_queries_again():
    index, dense, rng = _index()
    v = rng.normal(size=16).astype(np.float32)
    assert len(index.dense_search(v, 50)) == 50
    assert len(index.dense_search(v, 900)) == 900
    assert [k for k, _ in dense.asked] == [DENSE_POOL, 900]
