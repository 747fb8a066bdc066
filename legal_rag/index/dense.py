"""Dense index: a Chroma collection holding our own vectors (never Chroma's default embedding function).

* Embedded ``PersistentClient`` by default; ``HttpClient`` when ``Settings.chroma_url`` is set
  (``chroma run --path DIR --host 127.0.0.1 --port N``); telemetry off in both.
* Created with ``configuration={"hnsw": {space, ef_construction, ef_search, max_neighbors}}`` from settings and
  read back after creation: a collection whose HNSW parameters differ raises :class:`IndexMismatchError`
  (space and construction parameters are fixed at creation; BL-11, BL-16).
* The model id and dimension live in the collection metadata and are checked on open: a collection built with
  another model, even of the same dimension, refuses to serve (BL-14).
* Writes use ``upsert`` (never ``add``: an ``add`` of an existing id keeps the stale text, BL-13) in batches of
  ``client.get_max_batch_size()`` (BL-10).

Scores are cosine similarities in ``[-1, 1]`` (vectors are unit length), higher is better.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence
from urllib.parse import urlparse

import numpy as np

from ..config import Settings
from ..errors import IndexMismatchError

HNSW_KEYS = ("space", "ef_construction", "ef_search", "max_neighbors")


def make_client(settings: Settings, path: Path | None):
    """A Chroma client: ``HttpClient`` for ``settings.chroma_url``, else ``PersistentClient(path)``."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    cs = ChromaSettings(anonymized_telemetry=False)
    if settings.chroma_url:
        u = urlparse(settings.chroma_url)
        return chromadb.HttpClient(host=u.hostname or "127.0.0.1", port=u.port or 8000,
                                   ssl=u.scheme == "https", settings=cs)
    if path is None:
        raise ValueError("a PersistentClient needs a path")
    path.mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(path=str(path), settings=cs)


def hnsw_config(settings: Settings) -> dict[str, Any]:
    return {"space": settings.hnsw_space, "ef_construction": settings.hnsw_ef_construction,
            "ef_search": settings.hnsw_ef_search, "max_neighbors": settings.hnsw_max_neighbors}


@dataclass
class DenseIndex:
    """One Chroma collection. Use :meth:`create` to build and :meth:`open` to serve."""

    client: Any
    collection: Any
    model_id: str
    dim: int
    _size: int | None = field(default=None, repr=False, compare=False)

    @classmethod
    def create(cls, settings: Settings, path: Path | None, name: str, model_id: str, dim: int) -> "DenseIndex":
        """Create collection ``name`` (replacing one of that name) and check its HNSW parameters."""
        from chromadb.errors import NotFoundError

        client = make_client(settings, path)
        try:
            client.delete_collection(name)
        except NotFoundError:  # not there: nothing to delete
            pass
        col = client.create_collection(name, configuration={"hnsw": hnsw_config(settings)},
                                       metadata={"model_id": model_id, "dim": dim, "format": "legal_rag-dense-1"},
                                       embedding_function=None)
        idx = cls(client, col, model_id, dim)
        idx.check(settings, model_id, dim)
        return idx

    @classmethod
    def open(cls, settings: Settings, path: Path | None, name: str, model_id: str, dim: int | None = None
             ) -> "DenseIndex":
        """Open collection ``name``; raises :class:`IndexMismatchError` when it was built with another model,
        dimension or HNSW configuration."""
        from chromadb.errors import NotFoundError

        client = make_client(settings, path)
        try:
            col = client.get_collection(name, embedding_function=None)
        except NotFoundError as exc:  # any other error (a server that does not answer) is not a missing index
            raise IndexMismatchError(f"dense collection {name!r} not found ({exc}); rebuild the index") from None
        meta = col.metadata or {}
        idx = cls(client, col, model_id, int(meta.get("dim", -1)))
        idx.check(settings, model_id, dim)
        return idx

    def check(self, settings: Settings, model_id: str, dim: int | None) -> None:
        """Compare the collection's stored HNSW configuration, model id and dimension with what is expected."""
        meta = self.collection.metadata or {}
        if meta.get("model_id") != model_id:
            raise IndexMismatchError(f"collection {self.collection.name!r} was built with embedder "
                                     f"{meta.get('model_id')!r}, settings ask for {model_id!r}")
        if dim is not None and int(meta.get("dim", -1)) != dim:
            raise IndexMismatchError(f"collection {self.collection.name!r} holds {meta.get('dim')}-d vectors, "
                                     f"the embedder gives {dim}-d")
        got = (self.collection.configuration or {}).get("hnsw") or {}
        want = hnsw_config(settings)
        bad = {k: (got.get(k), want[k]) for k in HNSW_KEYS if got.get(k) != want[k]}
        if bad:
            raise IndexMismatchError(f"collection {self.collection.name!r} HNSW parameters differ "
                                     f"(stored, wanted): {bad}")

    def upsert(self, ids: Sequence[str], vectors: np.ndarray, metadatas: Sequence[Mapping[str, Any]]) -> int:
        """Upsert in batches of the client's max batch size; returns the number of batches."""
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.shape != (len(ids), self.dim):
            raise ValueError(f"expected vectors of shape ({len(ids)}, {self.dim}), got {vectors.shape}")
        step = max(1, int(self.client.get_max_batch_size()))
        n = 0
        for i in range(0, len(ids), step):
            self.collection.upsert(ids=list(ids[i:i + step]), embeddings=vectors[i:i + step],
                                   metadatas=[dict(m) for m in metadatas[i:i + step]])
            n += 1
        self._size = None
        return n

    def count(self) -> int:
        return self.collection.count()

    def search(self, vector: np.ndarray, candidates: int, where: Mapping[str, Any] | None = None
               ) -> list[tuple[str, float]]:
        """Up to ``candidates`` ``(chunk id, cosine similarity)``, best first (ties by id). The collection's size
        is read on the first search and kept (a served build never changes; :meth:`upsert` forgets it)."""
        if self._size is None:
            self._size = self.count()
        n = min(candidates, self._size)
        if n <= 0:
            return []
        res = self.collection.query(query_embeddings=[np.asarray(vector, dtype=np.float32)], n_results=n,
                                    where=dict(where) if where else None, include=["distances"])
        # cosine and ip: distance = 1 - cos; l2 on unit vectors: distance = 2 - 2 cos
        half = ((self.collection.configuration or {}).get("hnsw") or {}).get("space") == "l2"
        pairs = [(cid, 1.0 - float(d) / (2.0 if half else 1.0)) for cid, d in zip(res["ids"][0], res["distances"][0])]
        return sorted(pairs, key=lambda p: (-p[1], p[0]))
