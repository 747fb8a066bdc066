"""Fixtures for index tests: the real MiniLM tokenizer/embedder (loaded once per session) and a cheap
deterministic embedder for tests about storage, locking and batching, where vector quality is irrelevant."""

from __future__ import annotations

import hashlib
import os

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from legal_rag.config import Settings  # noqa: E402
from legal_rag.index.embed import Embedder  # noqa: E402


class HashEmbedder:
    """Deterministic pseudo-embedder: a unit vector seeded by the text's sha256; counts tokens with the real
    MiniLM tokenizer so chunking behaves as in production. ``calls`` counts embedded passages."""

    def __init__(self, model_id: str = "test:hash-embedder@1", dim: int = 384, tokenizer_of: Embedder | None = None):
        self.model_id, self._dim, self.calls = model_id, dim, 0
        self._tok = tokenizer_of or Embedder(Settings().embed_model)
        self.window = self._tok.window

    @property
    def dim(self) -> int:
        return self._dim

    def count_tokens(self, text):
        return self._tok.count_tokens(text)

    def token_offsets(self, text):
        return self._tok.token_offsets(text)

    def _vec(self, text: str) -> np.ndarray:
        rng = np.random.default_rng(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little"))
        v = rng.standard_normal(self._dim).astype(np.float32)
        return v / np.linalg.norm(v)

    def embed_passages(self, texts):
        self.calls += len(texts)
        return np.stack([self._vec(t) for t in texts]) if texts else np.zeros((0, self._dim), np.float32)

    def embed_query(self, text):
        return self._vec(text)


@pytest.fixture(scope="session")
def minilm() -> Embedder:
    return Embedder.from_settings(Settings())


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(data_dir=tmp_path / "data")


@pytest.fixture
def hash_embedder(minilm) -> HashEmbedder:
    return HashEmbedder(tokenizer_of=minilm)
