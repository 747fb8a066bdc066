"""The contract every scorer of the rerank stage meets, and the token windows both scorers share.

A :class:`Scorer` maps ``(query, passages)`` to one float per passage (higher is better, comparable only within
one scorer). :func:`windows` cuts a token sequence into overlapping windows, so a passage longer than a model's
window is scored by the max over its windows and nothing is truncated. Nothing here loads a model; the scorers
(:mod:`.cross_encoder`, :mod:`.maxsim`) import this module and never the stage (:mod:`legal_rag.rerank`).
"""

from __future__ import annotations

from typing import Protocol, Sequence

WINDOW_OVERLAP = 32  # tokens shared by consecutive windows (passages and long queries)
SLACK = 4  # tokens kept free: a window cut at token offsets may re-tokenise a token or two longer


def windows(n: int, size: int, overlap: int = WINDOW_OVERLAP) -> list[tuple[int, int]]:
    """Half-open token ranges covering ``[0, n)`` with windows of at most ``size`` tokens sharing ``overlap``.

    ``windows(10, 4, 1) -> [(0, 4), (3, 7), (6, 10)]``; ``windows(0, 4) -> [(0, 0)]``. Raises ValueError when
    ``size`` < 1.
    """
    if size < 1:
        raise ValueError(f"window size must be positive, got {size}")
    if n <= size:
        return [(0, n)]
    step = max(1, size - min(overlap, size // 2))
    out, a = [], 0
    while True:
        b = min(a + size, n)
        out.append((a, b))
        if b == n:
            return out
        a += step


class Scorer(Protocol):
    """``score(query, passages) -> list[float]`` of ``len(passages)`` scores in input order; ``name`` is the
    model name shown in ``Hit.stage`` (``rerank:<name>``)."""

    name: str

    def score(self, query: str, passages: Sequence[str]) -> list[float]: ...
