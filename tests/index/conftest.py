"""Fixtures for index tests: the real MiniLM tokenizer/embedder (loaded once per session) and a cheap
deterministic embedder for tests about storage, locking and batching, where vector quality is irrelevant."""

from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from legal_rag.config import Settings  # noqa: E402
from legal_rag.index.embed import Embedder  # noqa: E402


from hash_embedder import HashEmbedder  # noqa: E402


@pytest.fixture(scope="session")
def minilm() -> Embedder:
    return Embedder.from_settings(Settings())


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(data_dir=tmp_path / "data")


@pytest.fixture
def hash_embedder(minilm) -> HashEmbedder:
    return HashEmbedder(tokenizer_of=minilm)
