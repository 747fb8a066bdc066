"""SQLite chunk store: the source of truth for chunks and their embeddings.

Tables: ``chunks`` (one row per chunk: text, metadata, the sha256 of its passage text, and ``doc``, the unit that
is replaced as a whole: ``stat:<ACT>:<SECTION>`` or ``case:<case id>``) and ``embeddings`` (one vector per
``(content hash, model id)``: re-ingesting unchanged text embeds nothing again, and a changed chunk gets a new
hash). Vectors are float32 blobs. The dense and sparse indexes are rebuilt from this store without
re-embedding. Writes commit per batch, so an interrupted embedding run keeps the work it paid for (BL-10).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

import numpy as np

from ..injection import index_text
from ..types import Chunk, StatuteRef

_SCHEMA = """
CREATE TABLE IF NOT EXISTS chunks(
  id TEXT PRIMARY KEY, doc TEXT NOT NULL, kind TEXT NOT NULL, act TEXT, section TEXT, sub TEXT, case_id TEXT,
  title TEXT NOT NULL, text TEXT NOT NULL, source TEXT NOT NULL, page_first INT, page_last INT, part INT,
  parts INT, span_start INT, span_end INT, meta TEXT NOT NULL, hash TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS chunks_doc ON chunks(doc);
CREATE INDEX IF NOT EXISTS chunks_ref ON chunks(act, section);
CREATE INDEX IF NOT EXISTS chunks_hash ON chunks(hash);
CREATE TABLE IF NOT EXISTS embeddings(
  hash TEXT NOT NULL, model TEXT NOT NULL, dim INT NOT NULL, vec BLOB NOT NULL, PRIMARY KEY(hash, model));
"""


def content_hash(chunk: Chunk) -> str:
    """sha256 hex of the chunk's index text (heading + text, instruction sentences blanked:
    :func:`legal_rag.injection.index_text`): the embedding cache key."""
    return hashlib.sha256(index_text(chunk).encode("utf-8")).hexdigest()


def doc_key(chunk: Chunk) -> str:
    """The unit replaced as a whole on re-ingest: ``stat:BNS:318`` or ``case:C12``."""
    if chunk.ref is not None:
        return f"stat:{chunk.ref.act}:{chunk.ref.section}"
    return f"case:{chunk.case}"


@dataclass(frozen=True)
class SyncReport:
    """What :meth:`ChunkStore.sync` changed: chunk counts."""

    added: int = 0
    removed: int = 0
    unchanged: int = 0


class ChunkStore:
    """The SQLite store at ``path`` (created on first use). Not shared across processes for writing: callers
    hold the index lock (:mod:`legal_rag.index.manifest`)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # readers may call from several threads (LangChain's batch); a lock serialises use of the connection
        self.db = sqlite3.connect(str(self.path), timeout=30, check_same_thread=False)
        self._lock = threading.RLock()
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.executescript(_SCHEMA)

    def close(self) -> None:
        self.db.close()

    # ---- chunks -------------------------------------------------------------------------------------------
    def sync(self, chunks: Sequence[Chunk], *, prune: bool = False) -> SyncReport:
        """Make the store hold exactly ``chunks`` for every document they belong to (upsert by id, and delete a
        document's chunks that are not in the new set, so no stale text survives). With ``prune=True``,
        documents absent from ``chunks`` are deleted too (a full rebuild). Raises ValueError on duplicate ids."""
        ids = [c.id for c in chunks]
        if len(set(ids)) != len(ids):
            dup = sorted({i for i in ids if ids.count(i) > 1})[:5]
            raise ValueError(f"duplicate chunk ids: {dup}")
        new_by_doc: dict[str, set[str]] = {}
        for c in chunks:
            new_by_doc.setdefault(doc_key(c), set()).add(c.id)
        have = dict(self.db.execute("SELECT id, hash FROM chunks").fetchall())
        doc_of = dict(self.db.execute("SELECT id, doc FROM chunks").fetchall())
        stale = [i for i, d in doc_of.items() if (d in new_by_doc and i not in new_by_doc[d])
                 or (prune and d not in new_by_doc)]
        rows, unchanged = [], 0
        for c in chunks:
            h = content_hash(c)
            if have.get(c.id) == h:
                unchanged += 1
            rows.append(_row(c, h))
        with self.db:
            self.db.executemany("DELETE FROM chunks WHERE id = ?", [(i,) for i in stale])
            self.db.executemany(f"INSERT OR REPLACE INTO chunks VALUES ({','.join('?' * 18)})", rows)
        return SyncReport(added=len(chunks) - unchanged, removed=len(stale), unchanged=unchanged)

    def delete_docs(self, docs: Iterable[str]) -> int:
        """Delete every chunk of the documents ``docs`` (``doc`` keys: ``case:<case id>``); returns how many.
        Their embeddings stay (keyed by content hash, they cost nothing to keep and spare a re-upload)."""
        docs = list(docs)
        with self._lock, self.db:
            cur = self.db.executemany("DELETE FROM chunks WHERE doc = ?", [(d,) for d in docs])
        return cur.rowcount

    def count(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]

    def all_chunks(self) -> list[Chunk]:
        """Every chunk, ordered by id (deterministic)."""
        return [_chunk(r) for r in self.db.execute("SELECT * FROM chunks ORDER BY id")]

    def get(self, ids: Iterable[str]) -> dict[str, Chunk]:
        ids = list(ids)
        out: dict[str, Chunk] = {}
        for i in range(0, len(ids), 500):
            part = ids[i:i + 500]
            q = f"SELECT * FROM chunks WHERE id IN ({','.join('?' * len(part))})"
            with self._lock:
                rows = self.db.execute(q, part).fetchall()
            out.update((r[0], _chunk(r)) for r in rows)
        return out

    def by_ref(self, act: str, section: str) -> list[Chunk]:
        """Chunks of one section, in part order (``section`` as stored, letters upper-case: ``498A``)."""
        q = "SELECT * FROM chunks WHERE act = ? AND upper(section) = upper(?) ORDER BY part"
        with self._lock:
            rows = self.db.execute(q, (act, section)).fetchall()
        return [_chunk(r) for r in rows]

    # ---- embeddings ---------------------------------------------------------------------------------------
    def missing_embeddings(self, model: str, keep: Callable[[Chunk], bool] | None = None) -> list[tuple[str, str]]:
        """``(hash, passage text)`` of chunks with no embedding for ``model``, one per distinct hash; with ``keep``,
        only of the chunks it keeps (its passage text is not even composed for the others)."""
        q = ("SELECT c.hash, c.* FROM chunks c LEFT JOIN embeddings e ON e.hash = c.hash AND e.model = ? "
             "WHERE e.hash IS NULL ORDER BY c.id")
        seen: dict[str, str] = {}
        for r in self.db.execute(q, (model,)):
            if r[0] in seen:
                continue
            chunk = _chunk(r[1:])
            if keep is None or keep(chunk):
                seen[r[0]] = index_text(chunk)
        return list(seen.items())

    def put_embeddings(self, model: str, hashes: Sequence[str], vecs: np.ndarray) -> None:
        """Store float32 vectors (shape ``(len(hashes), dim)``) for ``model``; commits immediately."""
        vecs = np.asarray(vecs, dtype=np.float32)
        if vecs.ndim != 2 or vecs.shape[0] != len(hashes):
            raise ValueError(f"expected ({len(hashes)}, dim) vectors, got {vecs.shape}")
        with self.db:
            self.db.executemany("INSERT OR REPLACE INTO embeddings VALUES (?, ?, ?, ?)",
                                [(h, model, vecs.shape[1], v.tobytes()) for h, v in zip(hashes, vecs)])

    def embedding_count(self, model: str) -> int:
        return self.db.execute("SELECT COUNT(*) FROM embeddings WHERE model = ?", (model,)).fetchone()[0]

    def vectors(self, model: str, ids: Sequence[str]) -> np.ndarray:
        """float32 ``(len(ids), dim)`` embeddings of the chunks ``ids`` under ``model``, in the order given.
        Raises KeyError naming a chunk with no embedding."""
        q = ("SELECT c.id, e.dim, e.vec FROM chunks c JOIN embeddings e ON e.hash = c.hash AND e.model = ? "
             "WHERE c.id IN ({})")
        got: dict[str, np.ndarray] = {}
        for i in range(0, len(ids), 500):
            part = list(ids[i:i + 500])
            for cid, _dim, blob in self.db.execute(q.format(",".join("?" * len(part))), [model, *part]):
                got[cid] = np.frombuffer(blob, dtype=np.float32)
        missing = [i for i in ids if i not in got]
        if missing:
            raise KeyError(f"no {model} embedding for chunk {missing[0]} ({len(missing)} missing)")
        return np.stack([got[i] for i in ids]) if ids else np.zeros((0, 0), dtype=np.float32)


def _row(c: Chunk, h: str) -> tuple:
    ref = c.ref
    return (c.id, doc_key(c), c.kind, ref.act if ref else None, ref.section if ref else None,
            json.dumps(list(ref.sub)) if ref else None, c.case, c.title, c.text, c.source, c.pages[0], c.pages[1],
            c.part, c.parts, c.span[0], c.span[1], json.dumps(list(c.meta)), h)


def _chunk(r: Sequence) -> Chunk:
    (cid, _doc, kind, act, section, sub, case, title, text, source, p0, p1, part, parts, s0, s1, meta, _h) = r
    ref = StatuteRef(act, section, tuple(json.loads(sub))) if act is not None else None
    return Chunk(id=cid, kind=kind, text=text, title=title, source=source, pages=(p0, p1), part=part, parts=parts,
                 ref=ref, case=case, span=(s0, s1), meta=tuple(tuple(x) for x in json.loads(meta)))
