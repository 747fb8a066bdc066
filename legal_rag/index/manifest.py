"""Index manifest, on-disk layout, writer lock and atomic switch.

Layout under ``Settings.data_dir``::

    store.sqlite            chunk store + embedding cache (source of truth, incremental)
    index.lock              held (fcntl.flock) by the one writer
    CURRENT                 name of the served build, replaced atomically (os.replace)
    builds/<build id>/      manifest.json, chroma/ (embedded mode), bm25/, chunks.sqlite (snapshot served)

A build is written into a fresh ``builds/<id>`` directory and only then named in ``CURRENT``, so a reader sees
the old build or the new one, never a half-built one. Older builds are removed, keeping the previous one.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterator

from ..config import Settings
from ..errors import IndexLockedError, IndexMismatchError
from .faults import checkpoint

FORMAT_VERSION = 1
REBUILD_HINT = "rebuild it with `legal-rag index` (it writes a new build with the current settings; {path} is left as it is)"

#: libraries whose on-disk formats the build depends on (Chroma's segment files, bm25s's saved arrays)
FORMAT_LIBRARIES = ("chromadb", "bm25s")


def library_versions() -> dict[str, str]:
    """Installed versions of :data:`FORMAT_LIBRARIES`, e.g. ``{"bm25s": "0.3.16", "chromadb": "1.5.9"}``."""
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for name in FORMAT_LIBRARIES:
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = "not installed"
    return out


@dataclass(frozen=True)
class Manifest:
    """What an index was built with. ``corpus`` maps each source file name to the sha256 of its chunks."""

    format_version: int
    build_id: str
    embed_model: str  # resolved model id (config.resolve_model_ref(...).model_id)
    dim: int
    chunk_tokens: int
    chunk_overlap: int
    query_prompt: str
    passage_prompt: str
    hnsw: dict = field(default_factory=dict)
    collection: str = "chunks"
    chroma_url: str = ""
    chunks: int = 0
    corpus: dict = field(default_factory=dict)
    created: str = ""
    #: the manifest sources (file names) this build was made to serve (written by ``legal-rag index``; empty for
    #: an index built from chunks alone), and those of them that could not be read and had nothing served before
    sources: list = field(default_factory=list)
    failed: list = field(default_factory=list)
    # a manifest written before this field existed reads as built with the installed versions
    libraries: dict = field(default_factory=library_versions)

    def write(self, path: Path) -> None:
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(asdict(self), indent=1, sort_keys=True))
        os.replace(tmp, path)

    @classmethod
    def read(cls, path: Path) -> "Manifest":
        return cls(**json.loads(path.read_text()))

    def check(self, settings: Settings, model_id: str, where: Path) -> None:
        """Raise :class:`IndexMismatchError` naming every setting that differs and how to rebuild."""
        from .dense import hnsw_config

        want = {"format_version": FORMAT_VERSION, "embed_model": model_id, "chunk_tokens": settings.chunk_tokens,
                "chunk_overlap": settings.chunk_overlap, "query_prompt": settings.embed_query_prompt,
                "passage_prompt": settings.embed_passage_prompt, "hnsw": hnsw_config(settings),
                "chroma_url": settings.chroma_url, "libraries": library_versions()}
        have = asdict(self)
        bad = [f"{k}: index has {have[k]!r}, settings ask for {v!r}" for k, v in want.items() if have[k] != v]
        if bad:
            raise IndexMismatchError(f"index at {where} was built with other settings ({'; '.join(bad)}); "
                                     + REBUILD_HINT.format(path=where))


def data_paths(settings: Settings) -> dict[str, Path]:
    d = Path(settings.data_dir)
    return {"root": d, "store": d / "store.sqlite", "lock": d / "index.lock", "current": d / "CURRENT",
            "builds": d / "builds"}


def new_build_id() -> str:
    return time.strftime("%Y%m%dT%H%M%S") + f"-{os.getpid()}-{time.monotonic_ns() % 10**6:06d}"


def current_build(settings: Settings) -> Path | None:
    """Directory of the served build, or None when no index was built yet."""
    p = data_paths(settings)
    if not p["current"].is_file():
        return None
    d = p["builds"] / p["current"].read_text().strip()
    return d if d.is_dir() else None


def switch_current(settings: Settings, build_dir: Path, keep: int = 2) -> None:
    """Point ``CURRENT`` at ``build_dir`` atomically, then delete every other build but the one served until now
    (readers that opened it keep a complete index) and, with ``keep`` > 2, the newest others by build id. Builds
    are told apart by name, never by modification time: a reader or a crashed build can touch any directory."""
    p = data_paths(settings)
    before = p["current"].read_text().strip() if p["current"].is_file() else ""
    tmp = p["current"].with_suffix(".tmp")
    tmp.write_text(build_dir.name)
    checkpoint("switching")
    os.replace(tmp, p["current"])
    checkpoint("switched")
    served = {build_dir.name, before}
    others = sorted((b for b in p["builds"].iterdir() if b.is_dir() and b.name not in served),
                    key=lambda b: b.name, reverse=True)
    for old in others[max(0, keep - len(served - {""})):]:
        shutil.rmtree(old, ignore_errors=True)


@dataclass(frozen=True)
class HeldLock:
    """Proof that this process holds the lock on ``path`` (what :func:`file_lock` yields): a writer passes it to a
    step that would otherwise take the same lock again."""

    path: Path


@contextmanager
def file_lock(path: Path, wait_s: float = 0.0, busy: str = "the index is being written") -> Iterator[HeldLock]:
    """Hold an exclusive ``fcntl.flock`` on ``path`` (released by the OS if the process dies). Waits up to
    ``wait_s`` seconds, then raises :class:`IndexLockedError` saying ``busy`` by whom ("pid 123"), never a path:
    the message may reach a user."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fh = open(path, "a+")
    deadline = time.monotonic() + wait_s
    try:
        while True:
            try:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    holder = _holder(fh)
                    raise IndexLockedError(f"{busy} by {holder}; wait for it to finish or run one writer at a "
                                           "time") from None
                time.sleep(0.1)
        fh.seek(0)
        fh.truncate()
        fh.write(f"pid {os.getpid()}")
        fh.flush()
        yield HeldLock(path)
    finally:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
        finally:
            fh.close()


def _holder(fh, settle_s: float = 2.0) -> str:
    """Who holds the lock on ``fh``, as its holder wrote it ("pid 123"). The holder writes its pid just after it
    takes the lock, so an empty file is read again for up to ``settle_s`` seconds before "another process"."""
    deadline = time.monotonic() + settle_s
    while True:
        fh.seek(0)
        holder = fh.read().strip()
        if holder or time.monotonic() >= deadline:
            return holder or "another process"
        time.sleep(0.02)


def writer_lock(settings: Settings, wait_s: float = 0.0):
    """Hold the index writer lock (``data_dir/index.lock``, :func:`file_lock`). Waits up to ``wait_s`` seconds,
    then raises :class:`IndexLockedError`."""
    return file_lock(data_paths(settings)["lock"], wait_s)
