"""The index: SQLite chunk store (source of truth) -> Chroma (dense) + bm25s (sparse), under a manifest.

Front doors: :func:`build_index` (one writer, incremental embedding, atomic switch) and :func:`open_index`
(checks the manifest against the settings). :func:`rebuild_index` rebuilds dense and sparse from the store
without embedding anything again. Every chunk is in the store and in bm25s; a chunk marked :data:`SPARSE_ONLY`
(the bulk judgment sources, :func:`mark_sparse_only`) is neither embedded nor in Chroma.
"""

from __future__ import annotations

import dataclasses
import hashlib
import shutil
import threading
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from ..config import Settings
from ..errors import IndexMismatchError
from ..injection import index_text
from ..kept import Kept
from ..types import Chunk, Section, StatuteRef
from .dense import DenseIndex, hnsw_config
from .embed import Embedder
from .faults import checkpoint
from .manifest import (FORMAT_VERSION, REBUILD_HINT, HeldLock, Manifest, current_build, data_paths, new_build_id,
                       switch_current, writer_lock)
from .sparse import SparseIndex, legal_tokenize
from .store import ChunkStore, content_hash

__all__ = ["Index", "build_index", "open_index", "rebuild_index", "Embedder", "ChunkStore", "DenseIndex",
           "SparseIndex", "Manifest", "legal_tokenize", "chunk_metadata", "SPARSE_ONLY", "sparse_only",
           "mark_sparse_only"]

EMBED_COMMIT = 256  # passages embedded per store commit (an interrupted run keeps what it paid for)
#: how deep the one unfiltered dense query of a query vector reaches (:meth:`Index.dense_search` reads every
#: filtered search of that vector from it while enough of it passes the filter)
DENSE_POOL = 600
#: query vectors whose pools are kept
POOLS_KEPT = 64
#: sections whose chunks :meth:`Index.by_ref` keeps
SECTIONS_KEPT = 512


@dataclass
class Index:
    """A served build: its directory, manifest, chunk snapshot, dense and sparse indexes, and the embedder."""

    root: Path
    manifest: Manifest
    store: ChunkStore
    dense: DenseIndex
    sparse: SparseIndex
    embedder: Embedder
    _meta: dict | None = field(default=None, repr=False)
    _chunks: dict[str, Chunk] | None = field(default=None, repr=False)
    _allowed: Kept = field(default_factory=lambda: Kept(64), repr=False)
    _sections: dict[StatuteRef, Section] | None = field(default=None, repr=False)
    _qcache: Kept = field(default_factory=lambda: Kept(64), repr=False)
    _pools: Kept = field(default_factory=lambda: Kept(POOLS_KEPT), repr=False)
    _dense_n: int | None = field(default=None, repr=False)
    _by_ref: Kept = field(default_factory=lambda: Kept(SECTIONS_KEPT), repr=False)
    _qlock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def chunks(self) -> dict[str, Chunk]:
        """chunk id -> :class:`Chunk` for every chunk of this build, decoded once and kept (a served build's
        snapshot never changes: a rebuild is a new build, opened as a new :class:`Index`); the default corpus has
        8,920 chunks, decoded once on the first query."""
        if self._chunks is None:
            with self._qlock:
                if self._chunks is None:
                    self._chunks = {c.id: c for c in self.store.all_chunks()}
        return self._chunks

    def metadata(self) -> dict[str, dict]:
        """chunk id -> :func:`chunk_metadata` for every chunk (cached; used by metadata filters)."""
        if self._meta is None:
            self._meta = {cid: chunk_metadata(c) for cid, c in self.chunks().items()}
        return self._meta

    def allowed_ids(self, filters) -> frozenset[str]:
        """Ids of the chunks a metadata filter (a frozen, hashable
        :class:`legal_rag.retrieve.filters.Filters`) keeps; computed once per filter value and kept (at most 64
        values), so BM25's candidate restriction is a set look-up rather than a scan of every chunk's metadata."""
        got = self._allowed.get(filters)
        if got is None:
            got = frozenset(cid for cid, m in self.metadata().items() if filters.matches(m))
            self._allowed.put(filters, got)
        return got

    @property
    def id(self) -> str:
        return self.manifest.build_id

    def get(self, ids: Sequence[str]) -> dict[str, Chunk]:
        """id -> :class:`Chunk` for the ``ids`` this build holds (an unknown id is left out), from :meth:`chunks`."""
        every = self.chunks()
        return {cid: every[cid] for cid in ids if cid in every}

    def by_ref(self, act: str, section: str) -> list[Chunk]:
        """Chunks of one section in part order (:meth:`ChunkStore.by_ref`), a new list each call; the last
        :data:`SECTIONS_KEPT` sections asked for are kept (a served build's snapshot never changes)."""
        got = self._by_ref.get((act, section))
        if got is None:
            got = self._by_ref.put((act, section), tuple(self.store.by_ref(act, section)))
        return list(got)

    def dense_search(self, vector: np.ndarray, candidates: int, filters=None) -> list[tuple[str, float]]:
        """Up to ``candidates`` ``(chunk id, cosine)`` pairs nearest ``vector`` among the chunks ``filters`` (a
        :class:`legal_rag.retrieve.filters.Filters` or None) keeps, best first (ties by id).

        Each vector is searched once without a filter, :data:`DENSE_POOL` deep (or ``candidates`` when deeper;
        the last :data:`POOLS_KEPT` vectors' lists are kept), and every search of it is read from that list: the
        first ``candidates`` of its pairs that ``filters`` keeps (:meth:`allowed_ids`). Only when fewer than
        ``candidates`` of a partial list pass is the store queried with the filter's ``where`` clause. The
        ``candidates`` best among the kept chunks are the first kept ones of the whole ranking, so the answer is
        the filtered query's (up to the approximate search's own misses)."""
        key = np.asarray(vector, dtype=np.float32).tobytes()
        pool = self._pools.get(key)
        total = self._dense_count()
        if pool is None or len(pool) < min(candidates, total):
            pool = self._pools.put(key, self.dense.search(vector, max(DENSE_POOL, candidates)))
        if filters is None or filters.is_empty():
            return pool[:candidates]
        allowed = self.allowed_ids(filters)
        got = [p for p in pool if p[0] in allowed][:candidates]
        if len(got) >= candidates or len(pool) >= total:
            return got
        return self.dense.search(vector, candidates, where=filters.where())

    def _dense_count(self) -> int:
        """Vectors in the dense store (read once: a served build never changes)."""
        if self._dense_n is None:
            self._dense_n = self.dense.count()
        return self._dense_n

    def sparse_search(self, query: str, candidates: int, filters=None) -> list[tuple[str, float]]:
        """Up to ``candidates`` ``(chunk id, BM25 score)`` pairs for ``query`` among the chunks ``filters``
        keeps, best first, positive scores only."""
        allowed = self.allowed_ids(filters) if filters is not None and not filters.is_empty() else None
        return self.sparse.search(query, candidates, allowed=allowed)

    def sections(self) -> dict[StatuteRef, Section]:
        """Whole section -> :class:`Section` reassembled from its chunks (overlaps dropped; cached), for look-up's
        side-by-side view (:func:`legal_rag.index.served.sections_of`)."""
        if self._sections is None:
            from .served import sections_of

            self._sections = sections_of(self.store.all_chunks())
        return self._sections

    def embed_query(self, query: str) -> np.ndarray:
        """The query vector (read-only; the last 64 queries are kept, so the section finder's second search of the
        same question does not embed it again); raises IndexMismatchError when the embedder's dimension is not
        the index's."""
        v = self._qcache.get(query)
        if v is None:
            v = self.embedder.embed_query(query)
            if v.shape != (self.manifest.dim,):
                raise IndexMismatchError(f"embedder gives {v.shape[0]}-d vectors, index at {self.root} holds "
                                         f"{self.manifest.dim}-d; " + REBUILD_HINT.format(path=self.root))
            v = np.array(v, copy=True)
            v.setflags(write=False)
            self._qcache.put(query, v)
        return v

    def clear_query_cache(self) -> None:
        """Forget the kept query vectors (:meth:`embed_query`) and their dense pools (:meth:`dense_search`); a
        benchmark clears them before timing a question the pipeline has already seen."""
        self._qcache.clear()
        self._pools.clear()

    def close(self) -> None:
        """Release the build's files: the chunk snapshot and (embedded mode) the Chroma client."""
        self.store.close()
        close = getattr(self.dense.client, "close", None)
        if close is not None and not self.manifest.chroma_url:
            close()


def chunk_metadata(c: Chunk) -> dict:
    """Chroma metadata of a chunk (scalars only; used by metadata filters)."""
    meta = dict(c.meta)
    out = {"kind": c.kind, "source": c.source}
    if c.ref is not None:
        out.update(act=c.ref.act, section=c.ref.section)
    if c.case:
        out["case"] = c.case
    if meta.get("code"):
        out["code"] = meta["code"]
    if c.kind == "upload":  # a user's upload is no court's judgment: a court or year filter never keeps it
        return out
    if meta.get("court"):
        out["court"] = meta["court"]
    if meta.get("year", "").isdigit():
        out["year"] = int(meta["year"])
    return out


#: the chunk meta pair that keeps a chunk out of the dense index: it is searched by BM25 (and its judgment by the
#: case base) only, and never embedded (:func:`sparse_only`; set by :func:`mark_sparse_only`)
SPARSE_ONLY = ("dense", "no")


def sparse_only(chunk: Chunk) -> bool:
    """Whether ``chunk`` is kept out of the dense index (its meta holds :data:`SPARSE_ONLY`)."""
    return SPARSE_ONLY in chunk.meta


def mark_sparse_only(chunks: Sequence[Chunk], sources: set[str]) -> list[Chunk]:
    """``chunks`` with those of the files ``sources`` (``Chunk.source``) marked :data:`SPARSE_ONLY` and every other
    one unmarked: BM25 and the case base find the marked ones, the embedder never sees them. The mark is meta, not
    text: a chunk's id and its embedding cache key (:func:`~legal_rag.index.store.content_hash`) do not change, so
    unmarking a source later embeds its chunks and nothing else."""
    out = []
    for c in chunks:
        want = c.source in sources
        if want != sparse_only(c):
            meta = (*c.meta, SPARSE_ONLY) if want else tuple(m for m in c.meta if m != SPARSE_ONLY)
            c = dataclasses.replace(c, meta=tuple(sorted(meta)))
        out.append(c)
    return out


def _embed_missing(store: ChunkStore, embedder: Embedder, progress: Callable[[int, int], None] | None) -> int:
    todo = store.missing_embeddings(embedder.model_id, keep=lambda c: not sparse_only(c))
    for i in range(0, len(todo), EMBED_COMMIT):
        part = todo[i:i + EMBED_COMMIT]
        store.put_embeddings(embedder.model_id, [h for h, _ in part], embedder.embed_passages([p for _, p in part]))
        checkpoint("embedded")
        if progress:
            progress(min(i + EMBED_COMMIT, len(todo)), len(todo))
    return len(todo)


def _write_build(settings: Settings, store: ChunkStore, embedder: Embedder, stats: dict,
                 sources: Sequence[str] = (), failed: Sequence[str] = ()) -> Path:
    paths = data_paths(settings)
    chunks = store.all_chunks()
    ids = [c.id for c in chunks]
    embedded = [c for c in chunks if not sparse_only(c)]
    dense_ids = [c.id for c in embedded]
    vecs = store.vectors(embedder.model_id, dense_ids) if dense_ids else np.zeros((0, embedder.dim), np.float32)
    dim = int(vecs.shape[1]) if len(dense_ids) else embedder.dim
    build_id = new_build_id()
    bdir = paths["builds"] / build_id
    bdir.mkdir(parents=True)
    snap = ChunkStore(bdir / "chunks.sqlite")
    snap.sync(chunks)
    hashes = [content_hash(c) for c in chunks]
    snap.put_embeddings(embedder.model_id, [content_hash(c) for c in embedded], vecs)
    snap.close()
    checkpoint("snapshot")
    name = f"legal_rag_{build_id}" if settings.chroma_url else "chunks"
    t0 = time.perf_counter()
    dense = DenseIndex.create(settings, None if settings.chroma_url else bdir / "chroma", name,
                              embedder.model_id, dim)
    checkpoint("dense-begun")
    stats["dense_batches"] = dense.upsert(dense_ids, vecs, [chunk_metadata(c) for c in embedded]) if dense_ids else 0
    stats["sparse_only"] = len(ids) - len(dense_ids)
    stats["dense_s"] = time.perf_counter() - t0
    checkpoint("dense")
    t0 = time.perf_counter()
    SparseIndex.build(ids, [index_text(c) for c in chunks]).save(bdir / "bm25")
    stats["sparse_s"] = time.perf_counter() - t0
    checkpoint("sparse")
    corpus: dict[str, list[str]] = {}
    for c, h in zip(chunks, hashes):
        corpus.setdefault(c.source, []).append(h)
    Manifest(format_version=FORMAT_VERSION, build_id=build_id, embed_model=embedder.model_id, dim=dim,
             chunk_tokens=settings.chunk_tokens, chunk_overlap=settings.chunk_overlap,
             query_prompt=settings.embed_query_prompt, passage_prompt=settings.embed_passage_prompt,
             hnsw=hnsw_config(settings), collection=name, chroma_url=settings.chroma_url, chunks=len(ids),
             corpus={s: hashlib.sha256("".join(sorted(hs)).encode()).hexdigest() for s, hs in sorted(corpus.items())},
             created=time.strftime("%Y-%m-%dT%H:%M:%S"), sources=sorted(sources),
             failed=sorted(failed)).write(bdir / "manifest.json")
    checkpoint("manifest")
    return bdir


def build_index(chunks: Sequence[Chunk], settings: Settings, *, embedder: Embedder | None = None,
                wait_s: float = 0.0, progress: Callable[[int, int], None] | None = None,
                stats: dict | None = None, held: HeldLock | None = None,
                sources: Sequence[str] = (), failed: Sequence[str] = ()) -> Index:
    """Sync ``chunks`` into the store (upsert; documents not in ``chunks`` are dropped), embed only chunks whose
    passage hash has no vector for this model yet, write a new build and switch to it atomically.

    Raises :class:`IndexLockedError` when another writer holds the lock longer than ``wait_s`` seconds; ``held``
    (what :func:`~legal_rag.index.manifest.writer_lock` yielded to a caller that took the lock before its first
    step) means the lock is already this caller's. ``sources`` / ``failed``: the manifest sources this build is to serve
    and those of them that failed with nothing to keep (recorded in the manifest for ``legal-rag check``).
    ``stats`` (if given) receives counts and seconds: ``added``, ``removed``, ``unchanged``, ``embedded``,
    ``embed_s``, ``dense_s``, ``sparse_s``, ``dense_batches``, ``sparse_only`` (chunks kept out of Chroma).
    """
    embedder = embedder or Embedder.from_settings(settings)
    stats = {} if stats is None else stats
    checkpoint("before-lock")
    mine = held is not None and Path(held.path) == data_paths(settings)["lock"]
    with nullcontext() if mine else writer_lock(settings, wait_s):
        checkpoint("locked")
        store = ChunkStore(data_paths(settings)["store"])
        try:
            rep = store.sync(chunks, prune=True)
            checkpoint("synced")
            stats.update(added=rep.added, removed=rep.removed, unchanged=rep.unchanged)
            t0 = time.perf_counter()
            stats["embedded"] = _embed_missing(store, embedder, progress)
            stats["embed_s"] = time.perf_counter() - t0
            bdir = _write_build(settings, store, embedder, stats, sources=sources, failed=failed)
        finally:
            store.close()
        switch_current(settings, bdir)
    return open_index(settings, embedder=embedder)


def rebuild_index(settings: Settings, *, embedder: Embedder | None = None, wait_s: float = 0.0) -> Index:
    """Rebuild dense and sparse indexes from the store (new HNSW settings, lost Chroma directory) without
    embedding again, except chunks that have no vector for the configured model."""
    embedder = embedder or Embedder.from_settings(settings)
    with writer_lock(settings, wait_s):
        store = ChunkStore(data_paths(settings)["store"])
        try:
            _embed_missing(store, embedder, None)
            bdir = _write_build(settings, store, embedder, {})
        finally:
            store.close()
        switch_current(settings, bdir)
    return open_index(settings, embedder=embedder)


def open_index(settings: Settings, *, embedder: Embedder | None = None) -> Index:
    """Open the served build. Raises :class:`IndexMismatchError` when there is none, or when it was built with
    another model, dimension, chunking, prompts, HNSW parameters or format (the message says how to rebuild)."""
    embedder = embedder or Embedder.from_settings(settings)
    bdir = current_build(settings)
    if bdir is None:
        raise IndexMismatchError(f"no index at {data_paths(settings)['root']}; build it with `legal-rag index`")
    man = Manifest.read(bdir / "manifest.json")
    man.check(settings, embedder.model_id, bdir)
    dense = DenseIndex.open(settings, None if settings.chroma_url else bdir / "chroma", man.collection,
                            man.embed_model, man.dim)
    return Index(root=bdir, manifest=man, store=ChunkStore(bdir / "chunks.sqlite"), dense=dense,
                 sparse=SparseIndex.load(bdir / "bm25"), embedder=embedder)


def remove_index(settings: Settings) -> None:
    """Delete builds and the pointer, keeping the store (and its embedding cache)."""
    p = data_paths(settings)
    with writer_lock(settings):
        p["current"].unlink(missing_ok=True)
        shutil.rmtree(p["builds"], ignore_errors=True)
