"""Building, reopening and guarding the index (field cases BL-10, BL-11, BL-13, BL-14, BL-15, BL-16)."""

from __future__ import annotations

import multiprocessing as mp
from dataclasses import replace

import numpy as np
import pytest

import legal_rag.index as index_mod
from legal_rag.config import Settings
from legal_rag.errors import IndexLockedError, IndexMismatchError
from legal_rag.index import build_index, open_index, rebuild_index
from legal_rag.index.dense import DenseIndex
from legal_rag.index.manifest import current_build, writer_lock
from legal_rag.ingest.chunk import chunk_section
from legal_rag.types import Section, StatuteRef

TEXTS = {
    ("BNS", "318"): ("Cheating.", "(1) Whoever, by deceiving any person, fraudulently or dishonestly induces the person so "
                     "deceived to deliver any property is said to cheat. (4) Whoever cheats and thereby dishonestly "
                     "induces the person deceived to deliver any property shall be punished with imprisonment for a "
                     "term which may extend to seven years, and shall also be liable to fine."),
    ("BNS", "85"): ("Cruelty.", "Whoever, being the husband or the relative of the husband of a woman, subjects such "
                    "woman to cruelty shall be punished with imprisonment for a term which may extend to three years."),
    ("IPC", "420"): ("Cheating and dishonestly inducing delivery of property.", "Whoever cheats and thereby dishonestly "
                     "induces the person deceived to deliver any property to any person shall be punished."),
}


def sections(extra: dict | None = None):
    texts = {**TEXTS, **(extra or {})}
    return [Section(StatuteRef(a, s), t, body, f"{a}.pdf", (1, 1)) for (a, s), (t, body) in texts.items()]


def chunks_of(secs, emb):
    return [c for s in secs for c in chunk_section(s, emb)]


def test_build_open_and_search(settings, hash_embedder):
    chunks = chunks_of(sections(), hash_embedder)
    idx = build_index(chunks, settings, embedder=hash_embedder)
    assert idx.dense.count() == len(chunks) == len(idx.sparse) == idx.store.count()
    again = open_index(settings, embedder=hash_embedder)
    assert again.manifest.build_id == idx.manifest.build_id and again.manifest.dim == 384
    # the stored vector of a chunk is its own nearest neighbour (our vectors, cosine space)
    cid = chunks[0].id
    vec = again.store.vectors(hash_embedder.model_id, [cid])[0]
    assert again.dense.search(vec, 1)[0][0] == cid


def test_collection_config_is_cosine_with_explicit_hnsw(settings, hash_embedder):
    """BL-16 / BL-11: space and HNSW parameters are set at creation and read back."""
    idx = build_index(chunks_of(sections(), hash_embedder), settings, embedder=hash_embedder)
    hnsw = idx.dense.collection.configuration["hnsw"]
    assert hnsw["space"] == "cosine"
    assert (hnsw["ef_construction"], hnsw["ef_search"], hnsw["max_neighbors"]) == (
        settings.hnsw_ef_construction, settings.hnsw_ef_search, settings.hnsw_max_neighbors)
    assert idx.dense.collection.configuration.get("embedding_function") is None  # never Chroma's default EF
    other = Settings(data_dir=settings.data_dir, hnsw_ef_search=16)
    with pytest.raises(IndexMismatchError, match="ef_search"):
        open_index(other, embedder=hash_embedder)
    with pytest.raises(IndexMismatchError, match="HNSW"):
        DenseIndex.open(other, idx.root / "chroma", "chunks", hash_embedder.model_id, 384)


def test_reingest_corrected_text_upserts_without_duplicates(settings, hash_embedder):
    """BL-13: same ids through upsert; count unchanged; new text served; only the changed chunk is embedded."""
    build_index(chunks_of(sections(), hash_embedder), settings, embedder=hash_embedder)
    calls = hash_embedder.calls
    fixed = sections({("BNS", "85"): ("Cruelty.", TEXTS[("BNS", "85")][1].replace("three years", "three years, and fine"))})
    chunks = chunks_of(fixed, hash_embedder)
    stats: dict = {}
    idx = build_index(chunks, settings, embedder=hash_embedder, stats=stats)
    assert stats["embedded"] == 1 and hash_embedder.calls == calls + 1
    assert idx.dense.count() == len(chunks) == idx.store.count()
    (c85,) = idx.by_ref("BNS", "85")
    assert c85.text.endswith("and fine.") and c85.id in {c.id for c in chunks}
    assert "three years." not in " ".join(c.text for c in idx.store.all_chunks() if c.ref.section == "85")


def test_batches_follow_client_max_batch_size(settings, hash_embedder, monkeypatch):
    """BL-10: upserts are split by the client's limit, whatever it is on this machine."""
    many = sections({("BNSS", str(n)): (f"S{n}", f"Provision number {n} about procedure.") for n in range(1, 24)})
    chunks = chunks_of(many, hash_embedder)
    real = DenseIndex.create

    def small_batches(*a, **kw):
        d = real(*a, **kw)
        monkeypatch.setattr(d.client, "get_max_batch_size", lambda: 7)
        return d

    monkeypatch.setattr(DenseIndex, "create", classmethod(lambda cls, *a, **kw: small_batches(*a, **kw)))
    stats: dict = {}
    idx = build_index(chunks, settings, embedder=hash_embedder, stats=stats)
    assert stats["dense_batches"] == -(-len(chunks) // 7) and idx.dense.count() == len(chunks)


class FailingEmbedder:
    def __init__(self, inner, fail_after: int):
        self.inner, self.fail_after, self.done = inner, fail_after, 0
        self.model_id, self.window = inner.model_id, inner.window

    dim = property(lambda self: self.inner.dim)

    def embed_passages(self, texts):
        if self.done >= self.fail_after:
            raise RuntimeError("embedder crashed")
        self.done += len(texts)
        return self.inner.embed_passages(texts)

    def embed_query(self, text):
        return self.inner.embed_query(text)


def test_interrupted_embedding_resumes_and_serves_previous_build(settings, hash_embedder, monkeypatch):
    """BL-10: paid embedding work survives a crash; readers keep the previous complete build."""
    first = build_index(chunks_of(sections(), hash_embedder), settings, embedder=hash_embedder)
    monkeypatch.setattr(index_mod, "EMBED_COMMIT", 5)
    more = sections({("BNSS", str(n)): (f"S{n}", f"Provision number {n} about procedure.") for n in range(1, 21)})
    chunks = chunks_of(more, hash_embedder)
    with pytest.raises(RuntimeError):
        build_index(chunks, settings, embedder=FailingEmbedder(hash_embedder, fail_after=10))
    served = open_index(settings, embedder=hash_embedder)
    assert served.manifest.build_id == first.manifest.build_id and served.dense.count() == first.dense.count()
    stats: dict = {}
    build_index(chunks, settings, embedder=hash_embedder, stats=stats)
    assert stats["embedded"] == 20 - 10  # the 10 embedded before the crash are not paid for again


def test_other_model_refuses_to_serve(settings, hash_embedder):
    """BL-14: same dimension, other model -> refused; other dimension -> refused at query time too."""
    from hash_embedder import HashEmbedder

    build_index(chunks_of(sections(), hash_embedder), settings, embedder=hash_embedder)
    same_dim = HashEmbedder(model_id="test:other-model@1", tokenizer_of=hash_embedder._tok)
    with pytest.raises(IndexMismatchError, match="other-model"):
        open_index(settings, embedder=same_dim)
    bdir = current_build(settings)
    with pytest.raises(IndexMismatchError, match="embedder"):
        DenseIndex.open(settings, bdir / "chroma", "chunks", same_dim.model_id, 384)
    idx = open_index(settings, embedder=hash_embedder)
    idx.embedder = HashEmbedder(model_id=hash_embedder.model_id, dim=768, tokenizer_of=hash_embedder._tok)
    with pytest.raises(IndexMismatchError, match="768"):
        idx.embed_query("cheating")


def test_mismatch_message_says_how_to_rebuild(settings, hash_embedder):
    build_index(chunks_of(sections(), hash_embedder), settings, embedder=hash_embedder)
    with pytest.raises(IndexMismatchError, match="rebuild"):
        open_index(Settings(data_dir=settings.data_dir, chunk_tokens=128), embedder=hash_embedder)


def test_rebuild_from_store_embeds_nothing(settings, hash_embedder):
    build_index(chunks_of(sections(), hash_embedder), settings, embedder=hash_embedder)
    calls = hash_embedder.calls
    new = Settings(data_dir=settings.data_dir, hnsw_ef_search=64)
    idx = rebuild_index(new, embedder=hash_embedder)
    assert hash_embedder.calls == calls and idx.manifest.hnsw["ef_search"] == 64


def _writer(data_dir: str, tag: int, q):
    import os
    os.environ["HF_HUB_OFFLINE"] = "1"
    from hash_embedder import HashEmbedder
    try:
        emb = HashEmbedder()
        secs = sections({("BNSS", str(100 + i)): (f"W{i}", f"Canary provision {i}.") for i in range(5)})
        chunks = [c for s in secs for c in chunk_section(s, emb)]
        build_index(chunks, Settings(data_dir=data_dir), embedder=emb, wait_s=120)
        q.put(("ok", tag))
    except Exception as exc:  # reported to the parent
        q.put((repr(exc), tag))


def test_two_writer_processes_serialise(settings, hash_embedder):
    """BL-15: two writers at once -> one waits for the lock; no corruption; count and canary query right."""
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    procs = [ctx.Process(target=_writer, args=(str(settings.data_dir), i, q)) for i in range(2)]
    for p in procs:
        p.start()
    results = sorted(q.get(timeout=240) for _ in procs)
    for p in procs:
        p.join(60)
    assert results == [("ok", 0), ("ok", 1)]
    idx = open_index(settings, embedder=hash_embedder)
    n = len(TEXTS) + 5
    assert idx.dense.count() == idx.store.count() == len(idx.sparse) == n
    (canary,) = idx.by_ref("BNSS", "103")
    vec = idx.store.vectors(hash_embedder.model_id, [canary.id])[0]
    assert idx.dense.search(vec, 1)[0][0] == canary.id


def test_lock_held_means_locked_error(settings, hash_embedder):
    with writer_lock(settings):
        with pytest.raises(IndexLockedError, match="being written"):
            build_index(chunks_of(sections(), hash_embedder), settings, embedder=hash_embedder, wait_s=0.2)


def test_locked_error_names_a_holder_that_took_the_lock_but_has_not_yet_written_its_pid(tmp_path, monkeypatch):
    """The holder writes its pid just after flock; a second writer that finds the lock in that gap still names it.
    The holder's write is planted at the second writer's first wait (no clock in the verdict)."""
    import fcntl

    import legal_rag.index.manifest as manifest

    lock = tmp_path / "index.lock"
    fh = open(lock, "a+")
    fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    waits = []

    def holder_writes_while_we_wait(seconds):
        waits.append(seconds)
        if len(waits) == 1:
            fh.write("pid 4242")
            fh.flush()

    monkeypatch.setattr(manifest.time, "sleep", holder_writes_while_we_wait)
    try:
        with pytest.raises(IndexLockedError, match="being written by pid 4242"):
            with manifest.file_lock(lock):
                pass
        assert waits  # the empty file was read again after a wait
    finally:
        fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
        fh.close()
