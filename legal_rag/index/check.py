"""Consistency check of the served index: chunk store, Chroma, bm25s and manifest agree, and a canary query answers.

``check_index(settings, *, embedder=None, canary=None) -> CheckReport`` (``legal-rag check`` prints it as JSON)

What is checked (crashes and concurrency: field cases BL-10, BL-13, BL-15):

1. ``CURRENT`` names a build directory holding ``manifest.json``, ``chunks.sqlite``, ``chroma/`` (embedded mode)
   and ``bm25/``; no ``CURRENT`` at all is a valid state ("no index yet": ``built=False``, ``ok=True``).
2. The manifest agrees with the settings (model, dimension, chunking, prompts, HNSW, format): the same check as
   :func:`legal_rag.index.open_index`.
3. SQLite ``PRAGMA integrity_check`` passes on the shared store and on the build's snapshot.
4. The snapshot holds exactly ``manifest.chunks`` chunks, every one but those marked sparse-only
   (:data:`legal_rag.index.SPARSE_ONLY`) with an embedding for the manifest's model, and the per-source content
   hashes equal ``manifest.corpus``.
5. The Chroma collection holds exactly the snapshot's chunk ids less the sparse-only ones, and the bm25s index
   exactly all of them (no missing, no extra, no duplicates).
6. A build made by ``legal-rag index`` serves every manifest source it was made from (``Manifest.sources``, less
   those that failed and had nothing to keep), and was made from every statute and judgment of today's manifest.
7. Canary: a chunk (the first by id, or ``canary``) is its own nearest neighbour in Chroma under its stored vector,
   the bm25s top hit for its own passage text is a chunk with that same text, and when an embedder is given (or
   ``embedder="settings"``), a query embedded from its passage text finds it among the first 10 dense results.

Problems are strings naming the part that disagrees; ``ok`` is true when there are none. Build directories not
named by ``CURRENT`` (an earlier build, or one a killed writer left half-written) are listed in ``orphans``: they
are never served, and the next successful build removes them.
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config import Settings
from ..errors import LegalRagError
from ..injection import index_text
from .manifest import Manifest, current_build, data_paths

__all__ = ["CheckReport", "check_index"]

#: how far down the dense list a chunk may sit when queried with its own passage text
CANARY_DEPTH = 10


@dataclass(frozen=True)
class CheckReport:
    """Outcome of :func:`check_index`. ``counts`` has ``manifest``, ``store``, ``dense``, ``sparse`` (chunks)."""

    ok: bool
    built: bool
    build_id: str = ""
    counts: dict = field(default_factory=dict)
    canary: str = ""
    problems: tuple[str, ...] = ()
    orphans: tuple[str, ...] = ()

    def __str__(self) -> str:
        if not self.built:
            return "no index yet" + (f" ({'; '.join(self.problems)})" if self.problems else "")
        head = f"index {self.build_id}: " + ("consistent" if self.ok else "INCONSISTENT")
        counts = ", ".join(f"{k} {v}" for k, v in self.counts.items())
        return "\n".join([f"{head} ({counts}; canary {self.canary or '-'})", *self.problems])


def _integrity(path: Path) -> str | None:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30) as db:
            res = db.execute("PRAGMA integrity_check").fetchone()[0]
    except sqlite3.Error as exc:
        return f"{path.name}: {exc}"
    return None if res == "ok" else f"{path.name}: integrity_check says {res}"


def _dense_ids(collection: Any) -> list[str]:
    ids: list[str] = []
    step = 5000
    total = collection.count()
    for offset in range(0, total, step):
        ids += collection.get(include=[], limit=step, offset=offset)["ids"]
    return ids


def check_index(settings: Settings, *, embedder: Any = None, canary: str | None = None,
                manifest_sources: set[str] | None = None) -> CheckReport:
    """Check the served index under ``settings.data_dir`` (see the module docstring); never raises for a broken
    index, only reports. ``embedder``: an object with ``model_id`` and ``embed_query`` (e.g.
    :class:`~legal_rag.index.Embedder`), ``"settings"`` to load the configured one, or None to skip the
    embedded-query canary (the stored-vector canary still runs). ``manifest_sources``: the statute and judgment
    file names of today's manifest (``legal-rag check`` passes them); each must be one the build was made from. Raises nothing else but ``OSError`` on an
    unreadable data directory."""
    from .dense import DenseIndex
    from .sparse import SparseIndex
    from .store import ChunkStore, content_hash

    paths = data_paths(settings)
    problems: list[str] = []
    builds = paths["builds"]
    bdir = current_build(settings)
    if bdir is None:
        if paths["current"].is_file():
            problems.append(f"CURRENT names {paths['current'].read_text().strip()!r}, which is not a build directory")
        orphans = tuple(sorted(b.name for b in builds.iterdir() if b.is_dir())) if builds.is_dir() else ()
        return CheckReport(ok=not problems, built=False, problems=tuple(problems), orphans=orphans)
    orphans = tuple(sorted(b.name for b in builds.iterdir() if b.is_dir() and b.name != bdir.name))
    report = dict(built=True, build_id=bdir.name, orphans=orphans)

    def done(counts: dict, canary_id: str = "") -> CheckReport:
        return CheckReport(ok=not problems, counts=counts, canary=canary_id, problems=tuple(problems), **report)

    try:
        man = Manifest.read(bdir / "manifest.json")
    except (OSError, ValueError, TypeError) as exc:
        problems.append(f"manifest.json unreadable: {type(exc).__name__}: {exc}")
        return done({})
    if embedder == "settings":
        from .embed import Embedder

        embedder = Embedder.from_settings(settings)
    model_id = embedder.model_id if embedder is not None else man.embed_model
    try:
        man.check(settings, model_id, bdir)
    except LegalRagError as exc:
        problems.append(str(exc))
        return done({"manifest": man.chunks})
    for db in (paths["store"], bdir / "chunks.sqlite"):
        if not db.is_file():
            problems.append(f"{db} is missing")
        elif (bad := _integrity(db)) is not None:
            problems.append(bad)
    if problems:
        return done({"manifest": man.chunks})

    from . import sparse_only

    store = ChunkStore(bdir / "chunks.sqlite")
    try:
        chunks = store.all_chunks()
        ids = [c.id for c in chunks]
        dense_want = [c.id for c in chunks if not sparse_only(c)]
        counts = {"manifest": man.chunks, "store": len(ids)}
        if len(ids) != man.chunks:
            problems.append(f"snapshot holds {len(ids)} chunks, manifest says {man.chunks}")
        try:
            vecs = store.vectors(man.embed_model, dense_want)
        except KeyError as exc:
            problems.append(f"snapshot: {exc.args[0]}")
            vecs = None
        corpus: dict[str, list[str]] = {}
        for c in chunks:
            corpus.setdefault(c.source, []).append(content_hash(c))
        got = {s: hashlib.sha256("".join(sorted(hs)).encode()).hexdigest() for s, hs in corpus.items()}
        if man.sources:  # a build of the manifest's corpus: every source it was to serve is served
            lost = sorted(set(man.sources) - set(man.failed) - set(got))
            if lost:
                problems.append(f"manifest source(s) with no chunks in the served build: {lost[:5]}"
                                + (f" and {len(lost) - 5} more" if len(lost) > 5 else ""))
            problems.extend(_unindexed(manifest_sources, set(man.sources)))
        if got != man.corpus:
            diff = sorted(set(got) ^ set(man.corpus)) or sorted(s for s in got if got[s] != man.corpus.get(s))
            problems.append(f"chunk texts disagree with the manifest's corpus hashes for {diff[:5]}")
    finally:
        store.close()

    try:
        dense = DenseIndex.open(settings, None if settings.chroma_url else bdir / "chroma", man.collection,
                                man.embed_model, man.dim)
        dense_ids = _dense_ids(dense.collection)
    except Exception as exc:  # a missing or corrupt collection is a finding, not a crash
        problems.append(f"Chroma collection {man.collection!r} unusable: {type(exc).__name__}: {exc}")
        dense, dense_ids = None, []
    counts["dense"] = len(dense_ids)
    _same_ids("Chroma", dense_ids, dense_want, problems)
    try:
        sparse = SparseIndex.load(bdir / "bm25")
        sparse_ids = list(sparse.ids)
        n_docs = int(sparse.bm25.scores["num_docs"]) if sparse.bm25 is not None else 0
        if n_docs != len(sparse_ids):
            problems.append(f"bm25s holds {n_docs} documents for {len(sparse_ids)} ids")
    except Exception as exc:
        problems.append(f"bm25s index unusable: {type(exc).__name__}: {exc}")
        sparse, sparse_ids = None, []
    counts["sparse"] = len(sparse_ids)
    _same_ids("bm25s", sparse_ids, ids, problems)
    if problems or not ids:
        return done(counts)

    pick = canary if canary in ids else (dense_want or ids)[0]
    chunk = chunks[ids.index(pick)]
    embedded = pick in set(dense_want)
    if vecs is not None and dense is not None and embedded:
        top = dense.search(vecs[dense_want.index(pick)], 1)
        if not top or top[0][0] != pick and top[0][1] < 0.9999:
            problems.append(f"canary {pick}: its own vector's nearest neighbour is {top[:1]}")
    if sparse is not None:
        text = index_text(chunk)
        top = sparse.search(text, 5)
        twins = {c.id for c in chunks if index_text(c) == text}
        if not top or top[0][0] not in twins:
            problems.append(f"canary {pick}: bm25s top hits for its own text are {[t[0] for t in top]}")
    if embedder is not None and dense is not None and embedded:
        found = [cid for cid, _ in dense.search(embedder.embed_query(index_text(chunk)), CANARY_DEPTH)]
        if pick not in found and not {c.id for c in chunks if index_text(c) == index_text(chunk)} & set(found):
            problems.append(f"canary {pick}: not among the first {CANARY_DEPTH} dense hits of its own text")
    return done(counts, pick)


def _unindexed(want: set[str] | None, sources: set[str]) -> list[str]:
    """A problem naming the sources of today's manifest (``want``) that the served build was not made from
    (added to the manifest since, or a build that lost them): run ``legal-rag index``."""
    new = sorted((want or set()) - sources)
    return [f"manifest source(s) not in the served build: {new[:5]}" + (f" and {len(new) - 5} more" if len(new) > 5
            else "") + "; run `legal-rag index`"] if new else []


def _same_ids(what: str, got: list[str], want: list[str], problems: list[str]) -> None:
    if len(set(got)) != len(got):
        problems.append(f"{what} holds duplicate ids ({len(got) - len(set(got))})")
    missing, extra = set(want) - set(got), set(got) - set(want)
    if missing or extra:
        problems.append(f"{what} ids differ from the chunk store: {len(missing)} missing "
                        f"{sorted(missing)[:3]}, {len(extra)} extra {sorted(extra)[:3]}")
