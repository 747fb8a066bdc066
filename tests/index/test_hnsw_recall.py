"""HNSW recall@10 against exact (numpy) search at the configured ef_search stays >= 0.98 (BL-11; DESIGN.md)."""

from __future__ import annotations

import numpy as np

from legal_rag.config import Settings
from legal_rag.index.dense import DenseIndex


def realistic_vectors(n: int, dim: int = 384, topics: int = 60, seed: int = 0) -> np.ndarray:
    """Unit vectors shaped like sentence embeddings of a legal corpus: clustered by topic (sections of one
    chapter, paragraphs of one judgment) with a shared offset (all-positive mean, as MiniLM vectors have)."""
    rng = np.random.default_rng(seed)
    common = rng.standard_normal(dim)
    centers = rng.standard_normal((topics, dim)) + 0.8 * common
    v = centers[rng.integers(0, topics, n)] + 0.9 * rng.standard_normal((n, dim))
    return (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)


def test_recall_at_10_against_exact_search(tmp_path):
    s = Settings(data_dir=tmp_path)
    vecs = realistic_vectors(3000)
    ids = [f"C{i}" for i in range(len(vecs))]
    d = DenseIndex.create(s, tmp_path / "chroma", "recall", "test:model@1", vecs.shape[1])
    d.upsert(ids, vecs, [{"kind": "statute"}] * len(ids))
    rng = np.random.default_rng(1)
    queries = realistic_vectors(100, seed=2) * 0.5 + vecs[rng.integers(0, len(vecs), 100)] * 0.5
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    found = 0
    for q in queries:
        exact = {ids[i] for i in np.argsort(-(vecs @ q), kind="stable")[:10]}
        found += len(exact & {cid for cid, _ in d.search(q, 10)})
    assert found / (10 * len(queries)) >= 0.98
