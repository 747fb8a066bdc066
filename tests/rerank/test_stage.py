"""The stage without models: switching off, ordering, names, errors (a fake scorer stands in for a model)."""

from __future__ import annotations

import pytest

from legal_rag.config import Settings
from legal_rag.errors import ConfigError
from legal_rag.rerank import Reranker, windows
from legal_rag.types import Chunk, Hit

from .conftest import fused


def _chunks(n):
    return [Chunk(id=f"c{i}", kind="judgment", text=f"text {i}", title=f"T{i}", source="s.txt", pages=(1, 1),
                  case=f"C{i}") for i in range(n)]


class FakeScorer:
    name = "fake-v1"

    def __init__(self, scores):
        self.scores, self.calls = scores, []

    def score(self, query, passages):
        self.calls.append(len(passages))
        return [self.scores[int(p.split()[-1])] for p in passages]


@pytest.mark.parametrize("setting", ["none", "None", "", "off"])
def test_none_returns_fused_list_unchanged_and_loads_nothing(setting):
    hits = fused(_chunks(8))
    rr = Reranker(setting)
    assert not rr.enabled
    assert rr.rerank("q", hits, top_k=3, rerank_candidates=5) == hits
    assert rr._scorer is None and rr.name == "none"


def test_default_setting_is_respected():
    rr = Reranker.from_settings(Settings(rerank_model="none"))
    assert not rr.enabled


def test_rescores_only_candidates_keeps_top_k_and_names_model():
    hits = fused(_chunks(6))
    rr = Reranker("fake")
    rr._scorer = FakeScorer([0.1, 0.2, 0.9, 0.5, 0.3, 99.0])
    out = rr.rerank("q", hits, top_k=3, rerank_candidates=4)
    assert rr._scorer.calls == [4]  # c5 (score 99) is past rerank_candidates: never scored
    assert [h.chunk.id for h in out] == ["c2", "c3", "c1"]
    assert [h.rank for h in out] == [1, 2, 3]
    assert {h.stage for h in out} == {"rerank:fake-v1"}
    assert [h.score for h in out] == [0.9, 0.5, 0.2]
    assert hits[0].stage == "rrf"  # the input is untouched


def test_ties_keep_fused_order():
    rr = Reranker("fake")
    rr._scorer = FakeScorer([1.0, 1.0, 2.0, 1.0])
    out = rr.rerank("q", fused(_chunks(4)), top_k=4, rerank_candidates=4)
    assert [h.chunk.id for h in out] == ["c2", "c0", "c1", "c3"]


def test_bad_sizes_raise():
    with pytest.raises(ValueError):
        Reranker("none").rerank("q", (), top_k=0, rerank_candidates=3)


def test_legal_without_training_says_how_to_train(tmp_path):
    rr = Reranker("legal", data_dir=tmp_path)
    with pytest.raises(ConfigError, match="train-reranker"):
        rr.rerank("q", fused(_chunks(2)), top_k=1, rerank_candidates=2)


def test_missing_package_is_a_config_error():
    with pytest.raises(ConfigError, match="rerank_model='pkg:no_such_package_xyz/model'.*not installed"):
        Reranker("pkg:no_such_package_xyz/model").rerank("q", fused(_chunks(2)), 1, 2)
    with pytest.raises(ConfigError, match="embed_model='pkg:no_such_package_xyz/model'.*not installed"):
        Reranker("maxsim", embed_model="pkg:no_such_package_xyz/model").rerank("q", fused(_chunks(2)), 1, 2)


def test_legal_model_name_reads_the_trainers_metadata_or_refuses(tmp_path):
    import json

    from legal_rag.rerank import LEGAL_META, legal_model_name

    assert legal_model_name(tmp_path) == "legal-minilm-ce"  # no metadata: the plain name
    (tmp_path / LEGAL_META).write_text(json.dumps({"name": "legal-minilm-ce", "fingerprint": "1a2b3c4d5e6f"}))
    assert legal_model_name(tmp_path) == "legal-minilm-ce@1a2b3c4d"
    for bad in ('{"name": "legal-minilm-ce"}', "not json", "[]"):
        (tmp_path / LEGAL_META).write_text(bad)
        with pytest.raises(ConfigError, match="legal_reranker.json: not the metadata"):
            legal_model_name(tmp_path)


@pytest.mark.parametrize("n,size,overlap", [(0, 5, 2), (5, 5, 2), (6, 5, 2), (100, 7, 3), (1000, 510, 32)])
def test_windows_cover_every_token_within_size(n, size, overlap):
    w = windows(n, size, overlap)
    assert w[0][0] == 0 and w[-1][1] == n
    assert all(0 < b - a <= size or n == 0 for a, b in w)
    assert all(b1 > a2 for (_, b1), (a2, _) in zip(w, w[1:]))  # consecutive windows overlap: no gap
    assert windows(10, 4, 1) == [(0, 4), (3, 7), (6, 10)]


def test_ensure_reranker_trains_only_when_legal_is_set_and_missing(tmp_path, monkeypatch):
    """`legal-rag index` calls ensure_reranker: with rerank_model=legal and no weights in the data dir it trains
    (offline, on first run); with weights present, or another setting, it does nothing."""
    from legal_rag.rerank.training import train as rerank_train

    calls = []
    monkeypatch.setattr(rerank_train, "train_reranker",
                        lambda settings, out_dir, **kw: calls.append(out_dir) or (out_dir.mkdir(parents=True)
                                                                                  or (out_dir / "config.json").write_text("{}")))
    assert rerank_train.ensure_reranker(Settings(data_dir=tmp_path, rerank_model="none")) is None
    path = rerank_train.ensure_reranker(Settings(data_dir=tmp_path, rerank_model="legal"))
    assert calls == [path] and path == tmp_path / "models" / "legal-reranker"
    rerank_train.ensure_reranker(Settings(data_dir=tmp_path, rerank_model="legal"))
    assert calls == [path]  # trained once
