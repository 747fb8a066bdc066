"""Fixtures for index tests: a cheap deterministic embedder (tests/index/hash_embedder.py) for tests about storage,
locking and batching, where vector quality is irrelevant; ``minilm`` and ``settings`` come from tests/conftest.py."""

from __future__ import annotations

import pytest
from hash_embedder import HashEmbedder


@pytest.fixture
def hash_embedder(minilm) -> HashEmbedder:
    return HashEmbedder(tokenizer_of=minilm)
