"""Chunks kept out of the dense index (legal_rag.index.SPARSE_ONLY: the bulk judgment sources, manifest
``dense = false``): never embedded, never in Chroma, found by BM25; the index stays consistent; unmarking a source
embeds its chunks and nothing else; MMR over a list holding one embeds it on the fly."""

from __future__ import annotations

from legal_rag.index import SPARSE_ONLY, build_index, mark_sparse_only, sparse_only
from legal_rag.index.check import check_index
from legal_rag.ingest.chunk import chunk_judgment
from legal_rag.retrieve.mmr import mmr
from legal_rag.types import Hit, Judgment, Paragraph

from test_build import chunks_of, sections

ORDER = Judgment("SC-ORDER-2026-05-19-SLP-1592-2026", "Rajesh v. State of Haryana", "Supreme Court of India",
                 "2026-05-19", "orders.tar.gz", decision="order")
PARAS = [Paragraph(ORDER.case_id, "7", "We quash FIR No. 816 of 2025 registered under Sections 318(4) and 61 of the "
                   "Bharatiya Nyaya Sanhita, 2023, the parties having settled the dispute.", "orders.tar.gz", (559, 559))]


def _chunks(emb):
    return chunks_of(sections(), emb) + list(chunk_judgment(PARAS, emb, judgment=ORDER))


def test_mark_sparse_only_marks_one_source_and_unmarks_the_rest(hash_embedder):
    chunks = _chunks(hash_embedder)
    marked = mark_sparse_only(chunks, {"orders.tar.gz"})
    assert [sparse_only(c) for c in marked] == [c.source == "orders.tar.gz" for c in chunks]
    assert [c.id for c in marked] == [c.id for c in chunks]  # the mark is meta: ids (and texts) do not change
    assert dict(marked[-1].meta)["decision"] == "order" and SPARSE_ONLY in marked[-1].meta
    assert not any(sparse_only(c) for c in mark_sparse_only(marked, set()))


def test_a_sparse_only_chunk_is_searched_by_bm25_and_never_embedded(settings, hash_embedder):
    chunks = mark_sparse_only(_chunks(hash_embedder), {"orders.tar.gz"})
    order = chunks[-1]
    stats: dict = {}
    idx = build_index(chunks, settings, embedder=hash_embedder, stats=stats)
    assert stats["embedded"] == len(chunks) - 1 == hash_embedder.calls and stats["sparse_only"] == 1
    assert idx.dense.count() == len(chunks) - 1 and len(idx.sparse) == idx.store.count() == len(chunks)
    assert order.id not in {cid for cid, _ in idx.dense_search(hash_embedder.embed_query("quash FIR"), 50)}
    assert idx.sparse_search("quash FIR 816 settled", 5)[0][0] == order.id
    report = check_index(settings, embedder=hash_embedder)
    assert report.ok, report.problems
    assert report.counts["dense"] == len(chunks) - 1 and report.counts["sparse"] == len(chunks)
    # unmarked later, the order's chunk alone is embedded; the statutes' vectors are the store's
    calls = hash_embedder.calls
    again: dict = {}
    idx2 = build_index(mark_sparse_only(chunks, set()), settings, embedder=hash_embedder, stats=again)
    assert again["embedded"] == 1 == hash_embedder.calls - calls and idx2.dense.count() == len(chunks)
    assert check_index(settings, embedder=hash_embedder).ok


def test_mmr_over_a_list_with_a_sparse_only_chunk(settings, hash_embedder):
    chunks = mark_sparse_only(_chunks(hash_embedder), {"orders.tar.gz"})
    idx = build_index(chunks, settings, embedder=hash_embedder)
    hits = [Hit(c, 1.0 / (i + 1), "rrf", i + 1) for i, c in enumerate(chunks)]
    out = mmr(hits, idx, "quash FIR", 0.5)
    assert sorted(h.chunk.id for h in out) == sorted(c.id for c in chunks) and [h.rank for h in out] == [1, 2, 3, 4]
