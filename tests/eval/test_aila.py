"""AILA 2019 smoke: data loads as the README describes, and BM25 over the 197 statutes beats a random ranking
on the 40 test queries (the full tables, dense and hybrid, come from bench/run.py)."""

from __future__ import annotations

import random

import pytest

from legal_rag.config import Settings
from legal_rag.eval.aila import (TEST_QUERIES, doc_ranking, load_qrels, load_queries, load_statutes, score)
from legal_rag.index.sparse import SparseIndex
from legal_rag.ingest.chunk import chunk_section
from legal_rag.types import passage_text

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def aila():
    root = Settings().corpus_path
    return load_queries(root), load_qrels(root, "task2"), load_statutes(root)


def test_data_shapes(aila):
    queries, qrels, statutes = aila
    assert len(queries) == 50 and set(TEST_QUERIES) <= set(queries)
    assert len(statutes) == 197 and statutes[19].ref.section == "S20"
    assert "dishonestly induces" in statutes[19].text
    assert sum(v for d in qrels.values() for v in d.values()) == 221


def test_bm25_task2_beats_random(aila, minilm):
    queries, qrels, statutes = aila
    chunks = [c for s in statutes for c in chunk_section(s, minilm)]
    sp = SparseIndex.build([c.id for c in chunks], [passage_text(c) for c in chunks])
    by_id = {c.id: c for c in chunks}
    runs = {q: doc_ranking([by_id[cid] for cid, _ in sp.search(queries[q], len(chunks))]) for q in TEST_QUERIES}
    bm25 = score("task2", "sparse", runs, qrels)
    docs = [s.ref.section for s in statutes]
    rnd = random.Random(0)
    base = [score("task2", "random", {q: rnd.sample(docs, len(docs)) for q in TEST_QUERIES}, qrels).metrics["map"]
            for _ in range(20)]
    assert bm25.queries == 40
    assert bm25.metrics["map"] > 1.5 * sum(base) / len(base)  # mean random MAP over 20 shuffles
