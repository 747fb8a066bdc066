"""A cheap deterministic embedder for index tests where vector quality is irrelevant (importable by name, unlike
``conftest``, whose module name every test folder shares)."""

from __future__ import annotations

import hashlib

import numpy as np

from legal_rag.config import Settings
from legal_rag.index.embed import Embedder


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

    def count_tokens_many(self, texts):
        return self._tok.count_tokens_many(texts)

    def token_offsets_many(self, texts):
        return self._tok.token_offsets_many(texts)

    @property
    def counts_add_at_whitespace(self) -> bool:
        return self._tok.counts_add_at_whitespace

    def _vec(self, text: str) -> np.ndarray:
        rng = np.random.default_rng(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little"))
        v = rng.standard_normal(self._dim).astype(np.float32)
        return v / np.linalg.norm(v)

    def embed_passages(self, texts):
        self.calls += len(texts)
        return np.stack([self._vec(t) for t in texts]) if texts else np.zeros((0, self._dim), np.float32)

    def embed_query(self, text):
        return self._vec(text)
