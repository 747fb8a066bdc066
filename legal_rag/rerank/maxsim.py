"""Late interaction (ColBERT, Khattab & Zaharia, SIGIR 2020): score(q, p) = sum over query tokens of the max
cosine similarity over passage tokens, using the token vectors of the same sentence-transformers encoder that
embeds the index (MiniLM, 384-d, 256-token window).

No training: the encoder's contextual token vectors are used as they are. Texts longer than the encoder window
are encoded in overlapping windows and their token vectors concatenated, so the max over passage tokens is the
max over windows and nothing is truncated; a long query contributes every one of its tokens. Special tokens
([CLS], [SEP]) and padding are left out. Passage token matrices are cached by text (LRU, ``cache_size`` texts).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Sequence

import numpy as np

from .base import WINDOW_OVERLAP, windows


class MaxSimScorer:
    """``score(query, passages) -> list[float]``: for each passage, sum_i max_j cos(q_i, p_j) over the query's
    tokens i and the passage's tokens j (a float in ``[-n_query_tokens, n_query_tokens]``)."""

    def __init__(self, path: str, *, device: str = "cpu", batch_size: int = 16, cache_size: int = 4096):
        self.path, self.device, self.batch_size, self.cache_size = path, device, batch_size, cache_size
        self.name = f"maxsim-{Path(path.rstrip('/')).parent.name if Path(path).name == 'model' else Path(path).name}"
        self._model = None
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()

    @property
    def model(self):
        if self._model is None:
            with self._lock:
                if self._model is None:
                    from sentence_transformers import SentenceTransformer

                    self._model = SentenceTransformer(self.path, device=self.device)
        return self._model

    @property
    def window(self) -> int:
        return int(self.model.max_seq_length)

    def token_vectors(self, texts: Sequence[str]) -> list[np.ndarray]:
        """One float32 array of shape ``(n_tokens, dim)`` per text, rows L2-normalised, special tokens dropped."""
        import torch

        m = self.model
        tok = m.tokenizer
        budget = self.window - 2  # one token each side ([CLS] ... [SEP])
        pieces: list[list[int]] = []
        owner: list[int] = []
        for i, t in enumerate(texts):
            ids = tok(t, add_special_tokens=False, truncation=False)["input_ids"]
            for a, b in windows(len(ids), budget, WINDOW_OVERLAP):
                pieces.append(ids[a:b])
                owner.append(i)
        parts: list[list[np.ndarray]] = [[] for _ in texts]
        transformer = m[0].auto_model
        first = tok.cls_token_id if tok.cls_token_id is not None else tok.bos_token_id
        last = tok.sep_token_id if tok.sep_token_id is not None else tok.eos_token_id
        for s in range(0, len(pieces), self.batch_size):
            batch = pieces[s:s + self.batch_size]
            enc = tok.pad({"input_ids": [[first] + p + [last] for p in batch]}, return_tensors="pt")
            with torch.inference_mode():
                out = transformer(**{k: v.to(transformer.device) for k, v in enc.items()}).last_hidden_state
            out = torch.nn.functional.normalize(out.float(), dim=-1).cpu().numpy()
            for row, ids, i in zip(out, batch, owner[s:s + self.batch_size]):
                parts[i].append(row[1:1 + len(ids)])  # drop [CLS], [SEP] and padding
        dim = transformer.config.hidden_size
        return [np.concatenate(p).astype(np.float32) if p else np.zeros((0, dim), np.float32) for p in parts]

    def _passages(self, texts: Sequence[str]) -> list[np.ndarray]:
        keys = [hashlib.sha1(t.encode("utf-8")).hexdigest() for t in texts]
        todo = [i for i, k in enumerate(keys) if k not in self._cache]
        if todo:
            for i, v in zip(todo, self.token_vectors([texts[i] for i in todo])):
                self._cache[keys[i]] = v
        out = []
        for k in keys:
            self._cache.move_to_end(k)
            out.append(self._cache[k])
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return out

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        if not passages:
            return []
        q = self.token_vectors([query])[0]
        out = []
        for p in self._passages(passages):
            out.append(float((q @ p.T).max(axis=1).sum()) if len(p) and len(q) else 0.0)
        return out
