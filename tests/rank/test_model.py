"""The fitted models' arithmetic, storage and checks (:mod:`legal_rag.rank.model`), against scikit-learn."""

from __future__ import annotations

import json

import numpy as np
import pytest

from legal_rag.errors import ConfigError
from legal_rag.rank import LIMB_FEATURES, OUTSIDE_FEATURES, SECTION_FEATURES, Linear, Ranker, load_ranker
from legal_rag.rank.model import WEIGHTS, softmax


def test_linear_matches_scikit_learn():
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 4))
    y = (X[:, 0] - X[:, 2] > 0).astype(int)
    sc = StandardScaler().fit(X)
    lr = LogisticRegression().fit(sc.transform(X), y)
    m = Linear(("a", "b", "c", "d"), sc.mean_, sc.scale_, lr.coef_[0], lr.intercept_)
    assert m.proba(X) == pytest.approx(lr.predict_proba(sc.transform(X))[:, 1])
    labels = np.array(["BNS", "BNSS", "BSA"])[rng.integers(0, 3, 80)]
    multi = LogisticRegression().fit(X, labels)
    mm = Linear(("a", "b", "c", "d"), np.zeros(4), np.ones(4), multi.coef_, multi.intercept_, tuple(multi.classes_))
    assert mm.proba(X) == pytest.approx(multi.predict_proba(X))
    back = Linear.from_json(json.loads(json.dumps(mm.to_json())))
    assert back.classes == mm.classes and back.proba(X) == pytest.approx(mm.proba(X), abs=1e-5)


def _ranker(sections=tuple(SECTION_FEATURES), limbs=tuple(LIMB_FEATURES)):
    def lin(names):
        n = len(names)
        return Linear(names, np.zeros(n), np.ones(n), np.zeros(n), np.zeros(1))

    acts = Linear(("e0",), np.zeros(1), np.ones(1), np.zeros((2, 1)), np.zeros(2), ("BNS", "other:X Act"))
    return Ranker(acts, lin(sections), lin(limbs), 0.5, 0.8, {"examples": 1}, lin(OUTSIDE_FEATURES))


def test_softmax_is_the_choice_probability_over_candidates():
    p = softmax([0.0, np.log(3.0)])
    assert p == pytest.approx([0.25, 0.75]) and softmax([1000.0, 1000.0]) == pytest.approx([0.5, 0.5])
    assert len(softmax([])) == 0


def test_ranker_round_trip_and_checks(tmp_path):
    p = tmp_path / "w.json"
    _ranker().save(p)
    r = load_ranker(p)
    assert r.out_of_corpus == 0.5 and r.close == 0.8 and r.meta == {"examples": 1}
    assert r.act_probs(np.zeros(1)) == {"BNS": 0.5, "other:X Act": 0.5}
    _ranker(sections=("dense",)).save(tmp_path / "old.json")
    with pytest.raises(ConfigError, match="other features"):
        load_ranker(tmp_path / "old.json")
    with pytest.raises(ConfigError, match="train-ranker"):
        load_ranker(tmp_path / "missing.json")


def test_the_shipped_weights_load_and_are_for_these_features():
    r = load_ranker(WEIGHTS)
    assert r.sections.names == tuple(SECTION_FEATURES) and r.limbs.names == tuple(LIMB_FEATURES)
    assert r.outside.names == OUTSIDE_FEATURES
    assert {"BNS", "BNSS", "BSA"} <= set(r.acts.classes) and any(c.startswith("other:") for c in r.acts.classes)
    assert 0 < r.out_of_corpus < 1 and 0 < r.close < 1
    assert r.meta["asked_questions"] >= 150 and r.meta["source_questions"] >= 600
    assert len(r.meta["asked_writers"]) >= 3 and r.meta["folds"] == len(r.meta["asked_writers"])
