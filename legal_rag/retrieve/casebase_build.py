"""Build or load the case base under ``<data_dir>/casebase/<key>/``.

It sits in the retrieve layer because it joins two units of the layer below: the loader
(:func:`legal_rag.ingest.casebase.load_casebase`) and the index (:class:`legal_rag.index.casebase.CaseBase`).

``key`` is a content hash (sha256, first 16 hex digits) of everything that shapes the case base: the AILA tar's and
query file's bytes, the manifest's bytes (it pins every judgment source by sha256), ``Settings.casebase_limit``,
the extra guarded texts, the saved format version, and the source of the code that reads, cites and indexes
(``legal_rag/ingest/*.py`` but chunking and statute parsing, ``legal_rag/law/refs*.py``, ``legal_rag/law/sections.py``, ``legal_rag/index/sparse.py``,
``legal_rag/index/casebase.py``). A build whose key is already on disk only opens it (``stats["cached"]``);
otherwise it builds, saves atomically and removes the case bases of older keys.
"""

from __future__ import annotations

import hashlib
import shutil
import time
from pathlib import Path
from typing import Sequence

from ..config import Settings
from ..errors import CorpusError
from ..index.casebase import FORMAT_VERSION, CaseBase
from ..ingest import casebase as ingest_casebase
from ..types import Judgment, Paragraph

_PKG = Path(__file__).resolve().parent.parent
_CODE = ("ingest/*.py", "law/refs*.py", "law/sections.py", "index/sparse.py", "index/casebase.py")
#: ingest modules that do not shape the case base (chunking, statute parsing)
_NOT_READING = frozenset({"chunk.py", "statutes.py"})
PHASES = ("aila", "judgments", "leak", "bm25", "save")


def casebase_key(settings: Settings, extra_texts: Sequence[str] = ()) -> str:
    """The content hash naming the case base ``settings`` would build (module docstring)."""
    h = hashlib.sha256(f"format={FORMAT_VERSION}|limit={settings.casebase_limit}".encode())
    corpus = Path(settings.corpus_path)
    for path in (corpus / ingest_casebase.AILA_TAR, corpus / ingest_casebase.AILA_QUERIES,
                 Path(settings.manifest_path)):
        h.update(path.name.encode())
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    for pattern in _CODE:
        for path in sorted(_PKG.glob(pattern)):
            if path.name not in _NOT_READING:
                h.update(path.name.encode() + path.read_bytes())
    for t in extra_texts:
        h.update(b"\x00extra:" + t.encode())
    return h.hexdigest()[:16]


def ensure_casebase(settings: Settings, progress: bool = False, *,
                    others: tuple[Sequence[Judgment], Sequence[Paragraph]] | None = None,
                    extra_texts: Sequence[str] = ()) -> tuple[CaseBase, dict]:
    """The case base of ``settings``: opened from ``<data_dir>/casebase/<key>`` when built before with the same
    inputs, else built (AILA judgments -- the first ``settings.casebase_limit`` -- plus the corpus's judgments,
    ``others`` when the caller has already ingested them) and saved there.

    ``progress`` shows a tqdm bar over the phases (``aila``, ``judgments``, ``leak``, ``bm25``, ``save``).
    Returns ``(casebase, stats)``; stats: ``cached`` (True: opened, nothing built), ``key``, ``path``, ``cases``,
    ``paragraphs``, ``cites`` (paragraph-section mentions), ``cases_with_cites``, ``dropped`` (case ids the
    leakage guard removed; empty when cached), ``seconds`` (per phase and ``total``). Raises ``FileNotFoundError``
    when the AILA tar or query file is missing.
    """
    t0 = time.perf_counter()
    key = casebase_key(settings, extra_texts)
    root = Path(settings.data_dir) / "casebase"
    path = root / key
    stats: dict = {"key": key, "path": str(path), "cached": False, "dropped": [], "seconds": {}}
    secs = stats["seconds"]
    if (path / "cases.json.gz").is_file():
        try:
            t = time.perf_counter()
            cb = CaseBase.open(path)
            secs["open"] = round(time.perf_counter() - t, 3)
            stats["cached"] = True
        except (OSError, ValueError):  # unreadable or another format: build it again
            cb = None
        if cb is not None:
            return cb, _counts(cb, stats, t0)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(PHASES), desc="case base", unit="phase")
    state = {"name": None, "t": time.perf_counter()}

    def phase(name: str | None) -> None:
        now = time.perf_counter()
        if state["name"] is not None:
            secs[state["name"]] = round(now - state["t"], 3)
            if bar is not None:
                bar.update(1)
        state.update(name=name, t=now)
        if bar is not None and name is not None:
            bar.set_postfix_str(name)

    try:
        judgments, paragraphs, leaks = ingest_casebase.load_casebase(
            settings.corpus_path, settings.casebase_limit, others=others, settings=settings,
            extra_texts=extra_texts, on_phase=phase)
        phase("bm25")
        cb = CaseBase.build(judgments, paragraphs)
        phase("save")
        cb.save(path)
        phase(None)
    finally:
        if bar is not None:
            bar.close()
    for old in root.iterdir():  # case bases of other keys (older inputs) and stale temporaries
        if old.name != key and old.is_dir() and not old.name.startswith(".") and (old / "cases.json.gz").exists():
            shutil.rmtree(old, ignore_errors=True)
    stats["dropped"] = list(leaks.dropped)
    stats["leaks"] = [list(m) for m in leaks.matches]
    return cb, _counts(cb, stats, t0)


def open_casebase(settings: Settings, extra_texts: Sequence[str] = ()) -> CaseBase | None:
    """The case base built for ``settings`` (same key as :func:`ensure_casebase`), opened; ``None`` when none was
    built for these inputs or ``settings.casebase`` is off. Never builds (a query-time caller stays fast)."""
    if not settings.casebase:
        return None
    try:
        path = Path(settings.data_dir) / "casebase" / casebase_key(settings, extra_texts)
        return CaseBase.open(path)
    except (OSError, ValueError, CorpusError):  # no AILA judgments or tables in this corpus, or none built
        return None


def _counts(cb: CaseBase, stats: dict, t0: float) -> dict:
    cites = cases_with = 0
    for c in cb.cases:
        n = sum(len(p.cites) for p in cb.paragraphs(c))
        cites += n
        cases_with += n > 0
    stats.update(cases=len(cb), paragraphs=cb.n_paragraphs, cites=cites, cases_with_cites=cases_with)
    stats["seconds"]["total"] = round(time.perf_counter() - t0, 3)
    return stats


__all__ = ["PHASES", "casebase_key", "ensure_casebase", "open_casebase"]
