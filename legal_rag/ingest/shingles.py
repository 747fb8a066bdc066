"""Word n-gram shingles of a text (Broder 1997, "On the resemblance and containment of documents"): the measure by
which the case base's leakage guard (:mod:`legal_rag.ingest.casebase`) and the many-decision readers
(:mod:`legal_rag.ingest.many`) tell a copy of a text from a text that only quotes it."""

from __future__ import annotations

import re

#: word n-gram length
SHINGLE = 8
_WORD = re.compile(r"\w+")


def shingles(text: str, n: int = SHINGLE) -> set[tuple[str, ...]]:
    """Lower-cased word ``n``-grams of ``text`` (``\\w+`` words); a text shorter than ``n`` words gives its whole
    word tuple (so a short question still has one shingle)."""
    words = _WORD.findall(text.lower())
    if len(words) < n:
        return {tuple(words)} if words else set()
    return set(zip(*(words[i:] for i in range(n))))


def contained(text: str, other: str, n: int = SHINGLE) -> float:
    """The share of ``text``'s word ``n``-grams found in ``other`` (0.0 for an empty ``text``)."""
    mine = shingles(text, n)
    return len(mine & shingles(other, n)) / len(mine) if mine else 0.0


__all__ = ["SHINGLE", "contained", "shingles"]
