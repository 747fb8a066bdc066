"""Reciprocal rank fusion (Cormack, Clarke & Buettcher, SIGIR 2009) and list hygiene before it.

``rrf(lists, rrf_k=60)``: each list votes ``weight / (rrf_k + rank)`` for each chunk, ``rank`` 1-based within
that list. Rules, each from a field case:

* fused by chunk id, never by text: two Acts that re-enact the same words keep two hits with their own
  metadata (BL-19);
* each list is de-duplicated by chunk id before it votes (first, best-ranked copy), so a repeated id does not
  pile up score (BL-20); :func:`cap_per_doc` also limits how many chunks of one document a list may hold;
* only hits with positive evidence (score > 0) vote; a list left empty does not vote at all;
* when copies of one id differ, the copy with the longest text is kept (ties: the text that sorts first), so
  the output does not depend on the order of the lists (BL-22); ties in fused score break by best rank in any
  list, then by chunk id. Swapping the lists changes nothing.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ..types import Chunk, Hit


def dedupe(hits: Sequence[Hit]) -> list[Hit]:
    """Keep the first (best-ranked) hit of each chunk id; ranks are renumbered 1..n."""
    seen: set[str] = set()
    out: list[Hit] = []
    for h in hits:
        if h.chunk.id not in seen:
            seen.add(h.chunk.id)
            out.append(Hit(h.chunk, h.score, h.stage, len(out) + 1))
    return out


def doc_of(chunk: Chunk) -> str:
    """The document a chunk belongs to: ``stat:BNS:318`` or ``case:C12``."""
    if chunk.ref is not None:
        return f"stat:{chunk.ref.act}:{chunk.ref.section}"
    return f"case:{chunk.case}"


def cap_per_doc(hits: Sequence[Hit], max_per_doc: int, key: Callable[[Chunk], str] = doc_of) -> list[Hit]:
    """Keep at most ``max_per_doc`` hits per document, in order; ranks renumbered 1..n."""
    count: dict[str, int] = {}
    out: list[Hit] = []
    for h in hits:
        k = key(h.chunk)
        if count.get(k, 0) < max_per_doc:
            count[k] = count.get(k, 0) + 1
            out.append(Hit(h.chunk, h.score, h.stage, len(out) + 1))
    return out


def _better_copy(a: Chunk, b: Chunk) -> Chunk:
    return min(a, b, key=lambda c: (-len(c.text), c.text))


def rrf(lists: Sequence[Sequence[Hit]], rrf_k: int = 60, weights: Sequence[float] | None = None) -> list[Hit]:
    """Fuse ranked lists into one list of ``Hit(stage="rrf")`` with 1-based ranks (rules in the module doc).

    ``rrf([[h_a, h_b], [h_b]], rrf_k=60)`` scores b ``1/62 + 1/61`` and a ``1/61``: b first.
    Raises ValueError when ``weights`` does not match ``lists`` or ``rrf_k`` is not positive.
    """
    if rrf_k <= 0:
        raise ValueError(f"rrf_k must be positive, got {rrf_k}")
    weights = list(weights) if weights is not None else [1.0] * len(lists)
    if len(weights) != len(lists):
        raise ValueError(f"{len(weights)} weights for {len(lists)} lists")
    score: dict[str, float] = {}
    best_rank: dict[str, int] = {}
    chunk: dict[str, Chunk] = {}
    for hits, w in zip(lists, weights):
        voting = dedupe([h for h in hits if h.score > 0])
        for h in voting:
            cid = h.chunk.id
            score[cid] = score.get(cid, 0.0) + w / (rrf_k + h.rank)
            best_rank[cid] = min(best_rank.get(cid, h.rank), h.rank)
            chunk[cid] = _better_copy(chunk[cid], h.chunk) if cid in chunk else h.chunk
    order = sorted(score, key=lambda c: (-score[c], best_rank[c], c))
    return [Hit(chunk[c], score[c], "rrf", i + 1) for i, c in enumerate(order)]
