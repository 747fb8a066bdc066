"""Fixtures for the evaluation tests: the real MiniLM embedder (loaded once per session) and settings in tmp_path."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from legal_rag.config import Settings  # noqa: E402
from legal_rag.index.embed import Embedder  # noqa: E402


@pytest.fixture(scope="session")
def minilm() -> Embedder:
    return Embedder.from_settings(Settings())


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(data_dir=tmp_path / "data")


@pytest.fixture
def hash_embedder(minilm) -> HashEmbedder:
    return HashEmbedder(tokenizer_of=minilm)
