"""The fitted models' arithmetic, storage and checks (:mod:`legal_rag.rank.model`), against scikit-learn and
LightGBM."""

from __future__ import annotations

import json

import numpy as np
import pytest

from legal_rag.errors import ConfigError
from legal_rag.rank import LIMB_FEATURES, OUTSIDE_FEATURES, SECTION_FEATURES, Boosted, Linear, Ranker, load_ranker
from legal_rag.rank.model import WEIGHTS, softmax, trees_path


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


def _boosted(names=tuple(SECTION_FEATURES)):
    """A small LambdaMART model where the first feature marks the gold of each group of five."""
    from legal_rag.rank.training import lambdamart_fit

    rng = np.random.default_rng(0)
    groups = []
    for _ in range(40):
        X = rng.uniform(size=(5, len(names)))
        y = np.zeros(5, dtype=int)
        y[rng.integers(5)] = 1
        X[:, 0] = y + rng.uniform(0, 0.5, 5)
        groups.append((X, y))
    return lambdamart_fit(groups, (20, 3), names), groups


def _ranker(sections=tuple(SECTION_FEATURES), limbs=tuple(LIMB_FEATURES)):
    def lin(names):
        n = len(names)
        return Linear(names, np.zeros(n), np.ones(n), np.zeros(n), np.zeros(1))

    acts = Linear(("e0",), np.zeros(1), np.ones(1), np.zeros((2, 1)), np.zeros(2), ("BNS", "other:X Act"))
    return Ranker(acts, _boosted(sections)[0], lin(limbs), 0.5, 0.8, {"examples": 1}, lin(OUTSIDE_FEATURES))


def test_the_boosted_section_model_ranks_by_what_it_learned_and_survives_its_text():
    m, groups = _boosted()
    hits = [int(np.argmax(m.decision(X))) == int(np.argmax(y)) for X, y in groups]
    assert np.mean(hits) > 0.9
    imp = m.importance()
    assert max(imp, key=imp.get) == tuple(SECTION_FEATURES)[0]          # the feature that marks the gold
    back = Boosted(m.names, m.text)
    X = groups[0][0]
    assert back.decision(X) == pytest.approx(m.decision(X)) and len(m.decision(np.zeros((0, len(m.names))))) == 0


def test_softmax_is_the_choice_probability_over_candidates():
    p = softmax([0.0, np.log(3.0)])
    assert p == pytest.approx([0.25, 0.75]) and softmax([1000.0, 1000.0]) == pytest.approx([0.5, 0.5])
    assert len(softmax([])) == 0


def test_ranker_round_trip_and_checks(tmp_path):
    p = tmp_path / "w.json"
    saved = _ranker()
    saved.save(p)
    assert trees_path(p) == tmp_path / "w.sections.txt" and trees_path(p).read_text() == saved.sections.text
    r = load_ranker(p)
    assert r.out_of_corpus == 0.5 and r.close == 0.8 and r.meta == {"examples": 1}
    assert r.act_probs(np.zeros(1)) == {"BNS": 0.5, "other:X Act": 0.5}
    X = np.random.default_rng(1).uniform(size=(6, len(SECTION_FEATURES)))
    assert r.sections.decision(X) == pytest.approx(saved.sections.decision(X))
    trees_path(p).write_text(saved.sections.text.replace("tree_sizes", "tree_sizes ", 1))
    load_ranker.cache_clear()
    with pytest.raises(ConfigError, match="sha256"):                 # trees that are not the ones fitted
        load_ranker(p)
    _ranker(sections=("dense",)).save(tmp_path / "old.json")
    with pytest.raises(ConfigError, match="other features"):
        load_ranker(tmp_path / "old.json")
    with pytest.raises(ConfigError, match="train-ranker"):
        load_ranker(tmp_path / "missing.json")


def test_a_boosted_limb_model_is_stored_beside_the_section_trees(tmp_path):
    limbs, groups = _boosted(tuple(LIMB_FEATURES))
    r = _ranker()
    saved = Ranker(r.acts, r.sections, limbs, r.out_of_corpus, r.close, r.meta, r.outside)
    p = tmp_path / "w.json"
    saved.save(p)
    assert trees_path(p, "limbs") == tmp_path / "w.limbs.txt" and trees_path(p, "limbs").read_text() == limbs.text
    back = load_ranker(p)
    assert isinstance(back.limbs, Boosted) and back.limbs.decision(groups[0][0]) == pytest.approx(
        limbs.decision(groups[0][0]))
    trees_path(p, "limbs").write_text(limbs.text + "\n")
    load_ranker.cache_clear()
    with pytest.raises(ConfigError, match="sha256"):
        load_ranker(p)


def test_the_shipped_weights_load_and_are_for_these_features():
    r = load_ranker(WEIGHTS)
    assert r.sections.names == tuple(SECTION_FEATURES) and r.limbs.names == tuple(LIMB_FEATURES)
    assert r.outside.names == OUTSIDE_FEATURES
    assert {"BNS", "BNSS", "BSA"} <= set(r.acts.classes) and any(c.startswith("other:") for c in r.acts.classes)
    assert 0 < r.out_of_corpus < 1 and 0 < r.close < 1
    assert r.meta["asked_questions"] >= 150 and r.meta["source_questions"] >= 600
    assert len(r.meta["asked_writers"]) >= 3 and r.meta["folds"] == len(r.meta["asked_writers"])
