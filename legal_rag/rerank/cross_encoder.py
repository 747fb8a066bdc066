"""A sentence-transformers ``CrossEncoder`` as a :class:`~legal_rag.rerank.base.Scorer`: one relevance logit per
(query, passage) pair, the max over token windows for a passage (or query) longer than the model's window.

Imports only the contract (:mod:`.base`); the stage (:mod:`legal_rag.rerank`) imports this module, never the
reverse. The model loads on first use.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Sequence

from ..errors import ConfigError
from .base import SLACK, windows

log = logging.getLogger(__name__)


class CrossEncoderScorer:
    """A sentence-transformers ``CrossEncoder`` (one relevance logit per pair), loaded on first use.

    ``window`` is the model's input length in tokens, special tokens included (``max_length`` of the model,
    512 for MiniLM/BERT). ``score(query, passages) -> list[float]`` of ``len(passages)`` raw logits, each the max
    over the passage's windows (and the query's windows when the query is long).
    """

    def __init__(self, path: str, *, name: str | None = None, batch_size: int = 16, max_length: int | None = None,
                 device: str = "cpu"):
        self.path, self.batch_size, self.device = path, batch_size, device
        self.name = name or Path(path.rstrip("/")).name
        self._max_length = max_length
        self._model = None
        self._lock = threading.Lock()

    @property
    def model(self):
        if self._model is None:
            with self._lock:
                if self._model is None:
                    from sentence_transformers import CrossEncoder

                    self._model = CrossEncoder(self.path, num_labels=1, device=self.device,
                                               max_length=self._max_length)
                    self._model.model.eval()
        return self._model

    @property
    def window(self) -> int:
        m = self.model
        # what the model says it takes; a model that says neither gets no guessed window (too large a guess
        # would truncate each window silently)
        limits = [int(x) for x in (m.max_length, getattr(m.model.config, "max_position_embeddings", None)) if x]
        if not limits:
            raise ConfigError(f"rerank_model {self.name}: the model states no input length (no "
                              "max_position_embeddings in its config.json, no max_length): set one there")
        return min(limits)

    def _pieces(self, text: str, size: int) -> list[str]:
        tok = self.model.tokenizer
        offs = tok(text, add_special_tokens=False, truncation=False, return_offsets_mapping=True)["offset_mapping"]
        return [text[offs[a][0]:offs[b - 1][1]] if b > a else text for a, b in windows(len(offs), size)]

    def pairs(self, query: str, passages: Sequence[str]) -> tuple[list[tuple[str, str]], list[int]]:
        """The (query piece, passage piece) pairs to score and, for each pair, the index of its passage."""
        tok = self.model.tokenizer
        special = tok.num_special_tokens_to_add(pair=True)
        q_len = len(tok(query, add_special_tokens=False, truncation=False)["input_ids"])
        q_size = (self.window - special) // 2 - SLACK
        q_pieces = [query] if q_len <= q_size else self._pieces(query, q_size)
        if len(q_pieces) > 1:
            log.warning("query of %d tokens does not fit the %d-token window of %s with a passage: scored as the "
                        "max over %d query windows (nothing cut)", q_len, self.window, self.name, len(q_pieces))
        out, owner = [], []
        for q in q_pieces:
            ql = q_len if len(q_pieces) == 1 else len(tok(q, add_special_tokens=False)["input_ids"])
            p_size = self.window - special - ql - SLACK
            for i, p in enumerate(passages):
                for piece in self._pieces(p, p_size):
                    out.append((q, piece))
                    owner.append(i)
        return out, owner

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        if not passages:
            return []
        import torch

        pairs, owner = self.pairs(query, passages)
        m = self.model
        logits: list[float] = []
        with torch.inference_mode():
            for i in range(0, len(pairs), self.batch_size):
                batch = pairs[i:i + self.batch_size]
                enc = m.tokenizer([q for q, _ in batch], [p for _, p in batch], padding=True,
                                  truncation="only_second", max_length=self.window, return_tensors="pt")
                logits.extend(m.model(**enc.to(m.model.device)).logits[:, 0].float().tolist())
        best = [float("-inf")] * len(passages)
        for i, s in zip(owner, logits):
            best[i] = max(best[i], s)
        return best
