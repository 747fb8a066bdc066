"""A few-step training run on a handful of real pairs: the trainer writes a model the stage can load."""

from __future__ import annotations

import json

import pytest

from legal_rag.rerank import Reranker
from legal_rag.rerank.training.data import Group
from legal_rag.rerank.training.train import TrainConfig, fingerprint, train

from .conftest import chunk_of, fused

pytestmark = pytest.mark.slow


def test_smoke_train_then_rerank(tmp_path, bns):
    def p(k):
        return bns[k].passage()

    groups = [Group("Whoever intending to take dishonestly any movable property", p("BNS 303"), (p("BNS 318"),), "t:1"),
              Group("causes bodily pain to any person", p("BNS 114"), (p("BNS 303"),), "t:2"),
              Group("deceives any person and induces delivery of property", p("BNS 318"), (p("BNS 114"),), "t:3")]
    cfg = TrainConfig(groups_per_step=2, train_max_length=64, max_seconds=300)
    out = tmp_path / "models" / "legal-reranker"
    rep = train(groups, out, cfg, progress=False)
    assert rep.steps == rep.planned_steps == 2 and not rep.stopped_early
    meta = json.loads((out / "legal_reranker.json").read_text())
    assert meta["fingerprint"] == fingerprint(groups, cfg) != fingerprint(groups[:2], cfg)
    rr = Reranker("legal", data_dir=tmp_path)
    hits = fused([chunk_of(bns[k]) for k in ("BNS 318", "BNS 303")])
    res = rr.rerank("theft of movable property", hits, top_k=2, rerank_candidates=2)
    assert len(res) == 2 and res[0].stage == f"rerank:legal-minilm-ce@{rep.fingerprint[:8]}"
    with pytest.raises(ValueError):
        train([], tmp_path / "x", cfg, progress=False)
