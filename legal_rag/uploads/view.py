"""One user's view of the index: the served corpus build plus that user's uploads, searched as one collection.

``IndexView(index, chunks, vectors)`` answers every call the retrieval stages make of an
:class:`legal_rag.index.Index` (``get``, ``chunks``, ``metadata``, ``allowed_ids``, ``by_ref``, ``sections``,
``embed_query``, ``dense_search``, ``sparse_search``); nothing of the corpus build is written or copied, so one
user's uploads never change another user's answers (each user has a view of their own; a user with no uploads is
answered from the build itself).

How the uploads rank against the corpus:

* dense: exact cosine similarity of the query vector with each upload vector (the same embedding model as the
  build, unit vectors), merged by score into the build's HNSW list;
* sparse: BM25 with the build's own document frequencies, document count and mean length
  (:meth:`legal_rag.index.sparse.SparseIndex.score_outside`), so an upload's score is on the build's scale, as if
  it had been indexed with the corpus, and merged by score.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ..index import Index, chunk_metadata
from ..index.sparse import legal_tokenize
from ..injection import index_text
from ..kept import Kept
from ..types import Chunk, Section, StatuteRef


@dataclass
class IndexView:
    """``index`` plus ``uploads`` (chunks of kind ``"upload"``) with their ``vectors`` (rows in chunk order,
    unit length, the build's dimension). ``id`` is the build's id with the uploads' own digest."""

    index: Index
    uploads: tuple[Chunk, ...]
    vectors: np.ndarray
    _tokens: list[list[str]] | None = field(default=None, repr=False)
    _chunks: dict[str, Chunk] | None = field(default=None, repr=False)
    _meta: dict[str, dict] | None = field(default=None, repr=False)
    _allowed: Kept = field(default_factory=lambda: Kept(64), repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        if len(self.uploads) != len(self.vectors):
            raise ValueError(f"{len(self.uploads)} upload chunks for {len(self.vectors)} vectors")

    # ---- what the build answers alone ------------------------------------------------------------------
    @property
    def manifest(self):
        return self.index.manifest

    @property
    def embedder(self):
        return self.index.embedder

    @property
    def store(self):
        return self.index.store

    @property
    def id(self) -> str:
        import hashlib

        digest = hashlib.sha256("|".join(c.id for c in self.uploads).encode()).hexdigest()[:8]
        return f"{self.index.id}+uploads-{digest}"

    def embed_query(self, query: str) -> np.ndarray:
        return self.index.embed_query(query)

    def by_ref(self, act: str, section: str) -> list[Chunk]:
        return self.index.by_ref(act, section)  # uploads are no statute: they have no section

    def sections(self) -> dict[StatuteRef, Section]:
        return self.index.sections()

    # ---- the build and the uploads together ----------------------------------------------------------
    def chunks(self) -> dict[str, Chunk]:
        if self._chunks is None:
            with self._lock:
                if self._chunks is None:
                    self._chunks = {**self.index.chunks(), **{c.id: c for c in self.uploads}}
        return self._chunks

    def get(self, ids: Sequence[str]) -> dict[str, Chunk]:
        every = self.chunks()
        return {cid: every[cid] for cid in ids if cid in every}

    def metadata(self) -> dict[str, dict]:
        if self._meta is None:
            self._meta = {**self.index.metadata(), **{c.id: chunk_metadata(c) for c in self.uploads}}
        return self._meta

    def allowed_ids(self, filters) -> frozenset[str]:
        got = self._allowed.get(filters)
        if got is None:
            got = self.index.allowed_ids(filters) | {c.id for c in self._kept(filters)}
            self._allowed.put(filters, got)
        return got

    def _kept(self, filters) -> list[Chunk]:
        if filters is None or filters.is_empty():
            return list(self.uploads)
        return [c for c in self.uploads if filters.matches(chunk_metadata(c))]

    def dense_search(self, vector: np.ndarray, candidates: int, filters=None) -> list[tuple[str, float]]:
        """The build's nearest chunks and the uploads' (exact cosine), merged by score, best first."""
        kept = self._kept(filters)
        pos = {c.id: i for i, c in enumerate(self.uploads)}
        mine = []
        if kept:
            sims = self.vectors[[pos[c.id] for c in kept]] @ np.asarray(vector, dtype=np.float32)
            mine = [(c.id, float(s)) for c, s in zip(kept, sims)]
        return _merged(self.index.dense_search(vector, candidates, filters), mine, candidates)

    def sparse_search(self, query: str, candidates: int, filters=None) -> list[tuple[str, float]]:
        """The build's BM25 hits and the uploads' on the build's scale (module docstring), merged by score."""
        kept = self._kept(filters)
        mine = []
        if kept:
            tokens = self._upload_tokens()
            pos = {c.id: i for i, c in enumerate(self.uploads)}
            sparse = self.index.sparse
            avgdl = sparse.avgdl or self._build_avgdl()
            scores = sparse.score_outside(query, [tokens[pos[c.id]] for c in kept], avgdl)
            mine = [(c.id, float(s)) for c, s in zip(kept, scores) if s > 0]
        return _merged(self.index.sparse_search(query, candidates, filters), mine, candidates)

    def _upload_tokens(self) -> list[list[str]]:
        if self._tokens is None:
            self._tokens = [legal_tokenize(index_text(c)) for c in self.uploads]
        return self._tokens

    def _build_avgdl(self) -> float:
        """The build's mean passage length in tokens, for a build written before it was recorded (read once)."""
        sparse = self.index.sparse
        if sparse.avgdl is None:
            texts = [index_text(c) for c in self.index.chunks().values()]
            sparse.avgdl = sum(len(legal_tokenize(t)) for t in texts) / max(1, len(texts))
        return sparse.avgdl

    def close(self) -> None:
        """Nothing of its own to release: the build is closed by whoever opened it."""


def _merged(theirs: list[tuple[str, float]], mine: list[tuple[str, float]], k: int) -> list[tuple[str, float]]:
    """``theirs`` and ``mine`` merged by score, best first (ties by chunk id), at most ``k``."""
    return sorted([*theirs, *mine], key=lambda p: (-p[1], p[0]))[:k]


__all__ = ["IndexView"]
