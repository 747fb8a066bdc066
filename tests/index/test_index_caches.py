"""The served index's in-memory caches (decoded chunks, allowed ids per filter, BM25 masks) give exactly what the
uncached paths give: same chunks, same ids, same BM25 ranking (issue 13: query latency)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from legal_rag.index.sparse import SparseIndex, legal_tokenize
from legal_rag.retrieve.filters import Filters


def _reference(index: SparseIndex, query_toks, candidates, allowed):
    """The ranking before the caches: full sort of every positive score, ties by id."""
    mask = None
    if allowed is not None:
        mask = np.array([1.0 if cid in allowed else 0.0 for cid in index.ids], dtype=np.float32)
    scores = np.asarray(index.bm25.get_scores(query_toks, weight_mask=mask), dtype=np.float64)
    pos = np.flatnonzero(scores > 0)
    order = sorted(pos.tolist(), key=lambda i: (-scores[i], index.ids[i]))[:candidates]
    return [(index.ids[i], float(scores[i])) for i in order]


def test_sparse_top_k_and_masks_equal_the_full_sort():
    rng = random.Random(7)
    words = ["theft", "murder", "cheating", "property", "dishonestly", "bail", "court", "section", "hurt", "wife"]
    # many exact duplicates, so ties at the cut are common
    passages = [" ".join(rng.choice(words) for _ in range(rng.randint(1, 4))) for _ in range(400)]
    ids = [f"c{i:04d}" for i in range(len(passages))]
    rng.shuffle(ids)
    sp = SparseIndex.build(ids, passages)
    allowed_sets = [None, frozenset(rng.sample(ids, 150)), frozenset(rng.sample(ids, 5)), frozenset()]
    checked = 0
    for q in ["theft property", "murder", "cheating dishonestly wife", "bail court section hurt"]:
        toks = [t for t in legal_tokenize(q)
                if t in sp.bm25.vocab_dict]
        for allowed in allowed_sets:
            for k in (1, 3, 10, 57, 1000):
                for _ in range(2):  # the second call reads the kept mask
                    got = sp.search(q, k, allowed=allowed)
                    assert got == _reference(sp, toks, k, allowed)
                    checked += 1
    assert checked == 4 * 4 * 5 * 2
    # a plain set (not frozen) is never kept, and gives the same result
    s = set(allowed_sets[1])
    assert sp.search("theft property", 20, allowed=s) == sp.search("theft property", 20, allowed=allowed_sets[1])


def test_kept_mask_is_read_only():
    sp = SparseIndex.build(["a", "b"], ["theft of property", "murder"])
    sp.search("theft", 5, allowed=frozenset({"a"}))
    assert len(sp._masks) == 1
    mask = sp._masks.get(frozenset({"a"}))
    with pytest.raises(ValueError):
        mask[0] = 0.0


@pytest.mark.slow
def test_real_index_caches_match_the_store(real_index):
    index = real_index
    every = index.store.all_chunks()
    ids = [c.id for c in every]
    sample = ids[::97] + ["no-such-chunk"]
    assert index.get(sample) == index.store.get(sample)
    assert "no-such-chunk" not in index.get(sample)
    for f in (Filters(kind="statute"), Filters(act=("BNS", "IPC")), Filters(kind="judgment"), Filters(code="old")):
        want = {c.id for c in every if f.matches(index.metadata()[c.id])}
        assert index.allowed_ids(f) == want
        assert index.allowed_ids(f) is index.allowed_ids(f)  # kept, not recomputed
    assert 0 < len(index.allowed_ids(Filters(kind="statute"))) < len(ids)
