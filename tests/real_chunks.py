"""Chunks of the session's real-corpus index picked by position, as the model is given them, for the tests that
attack a rule on the real passages (``real_index`` in ``tests/conftest.py``)."""

from __future__ import annotations

import pytest

from legal_rag.types import Hit


def no_equivalents(ref):
    """An ``equivalents`` callable of :func:`legal_rag.verify.verify` that knows no counterpart of any section."""
    return set()


def given(*chunks) -> tuple[Hit, ...]:
    """``chunks`` as the passages [1], [2], ... given to the model (descending scores, stage ``rrf``)."""
    return tuple(Hit(c, 1.0 - i / 100, "rrf", i) for i, c in enumerate(chunks, 1))


def part(index, act, section, k):
    """The chunk of ``act`` ``section`` with ``part == k`` in ``index``; fails the test (naming the chunks there are)
    when the chunker no longer makes it."""
    chunks = index.by_ref(act, section)
    found = [c for c in chunks if c.part == k]
    if not found:
        pytest.fail(f"{act} {section} has no chunk {k} any more: {[c.id for c in chunks]}")
    return found[0]
