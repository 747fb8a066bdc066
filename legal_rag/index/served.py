"""What a served build holds, read back from its chunk store (no embedder, no Chroma):

* :func:`sections_of` — whole sections reassembled from their chunks, for look-up's side-by-side view
  (``Index.sections()`` caches it);
* :func:`served_chunks` — the chunks the current build serves for chosen sources (what an ingest that could not
  read a file today keeps from the previous build).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..config import Settings
from ..types import Chunk, Section, StatuteRef
from .manifest import current_build
from .store import ChunkStore


def join_parts(texts: list[str]) -> str:
    """Join a section's chunk texts, dropping the overlap each chunk repeats from the one before.

    ``join_parts(["a b c d", "c d e f"]) -> "a b c d e f"``; parts that share nothing are joined by a newline.
    """
    out = texts[0] if texts else ""
    for t in texts[1:]:
        k = min(len(out), len(t))
        while k > 0 and not out.endswith(t[:k]):
            k -= 1
        out += ("" if k else "\n") + t[k:]
    return out


def sections_of(chunks: Iterable[Chunk]) -> dict[StatuteRef, Section]:
    """Whole section (``StatuteRef`` without sub-section) -> :class:`Section` joined from its statute chunks in
    part order; title and source of the first part, pages from the first part's first to the last part's last."""
    parts: dict[StatuteRef, list[Chunk]] = {}
    for c in chunks:
        if c.ref is not None:
            parts.setdefault(c.ref.base, []).append(c)
    out = {}
    for ref, cs in parts.items():
        cs.sort(key=lambda c: c.part)
        out[ref] = Section(ref, cs[0].title, join_parts([c.text for c in cs]), cs[0].source,
                           (cs[0].pages[0], cs[-1].pages[1]))
    return out


def served_chunks(settings: Settings, keep: Callable[[str], bool], have: set[str]) -> list[Chunk]:
    """Chunks the served build holds for sources ``keep`` accepts and whose ids are not in ``have``; ``[]`` when
    nothing is served yet."""
    bdir = current_build(settings)
    if bdir is None or not (bdir / "chunks.sqlite").is_file():
        return []
    store = ChunkStore(bdir / "chunks.sqlite")
    try:
        return [c for c in store.all_chunks() if keep(c.source) and c.id not in have]
    finally:
        store.close()
