"""The fitted follow-up reading (legal_rag.rank.followup): its vector, its fit and threshold on planted data, storage
and its refusals; then the shipped weights over the real query embedder on messages of our own (the held-apart set
is measured by bench/followup_eval.py, never here)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from legal_rag.errors import ConfigError
from legal_rag.law.followup import CUES, cues
from legal_rag.law.question import analyse
from legal_rag.rank.followup import (FOLLOWUP_WEIGHTS, FollowupModel, feature_names, fit_followup, followup_files,
                                     followup_vector, load_followup, read_messages)


def test_the_vector_is_the_cues_then_the_embedding(conc):
    a = analyse("and is it bailable?", concordance=conc)
    v = followup_vector(a, np.array([0.5, -0.25], dtype=np.float32))
    assert v.shape == (len(CUES) + 2,) and v.dtype == np.float64
    assert tuple(v[:len(CUES)]) == cues(a) and tuple(v[len(CUES):]) == (0.5, -0.25)
    words, opener, pointer, offence, *_ = cues(a)
    assert (opener, pointer, offence) == (1.0, 1.0, 0.0) and words == pytest.approx(4 / 16)
    assert feature_names(2) == (*CUES, "e0", "e1")


def _planted(n=60, seed=0):
    """Follow-ups near +e0, messages that stand alone near -e0; the cues carry nothing."""
    rng = np.random.default_rng(seed)
    y = np.array([1] * n + [0] * (3 * n))
    emb = rng.normal(0, 0.3, (len(y), 3))
    emb[:, 0] += np.where(y == 1, 1.0, -1.0)
    X = np.hstack([np.zeros((len(y), len(CUES))), emb])
    return X, y


def test_fit_separates_planted_messages_and_records_held_out_figures(tmp_path):
    X, y = _planted()
    logs = []
    m = fit_followup(X, y, np.zeros(len(y), bool), feature_names(3), {"messages": 4}, log=logs.append)
    assert 0.05 <= m.threshold <= 0.95 and m.meta["messages"] == 4
    assert m.meta["held_out_recall"] > 0.9 and m.meta["held_out_false_followup"] < 0.05
    assert m.meta["followups"] == 60 and m.meta["standalone"] == 180 and any("chosen" in s for s in logs)
    p = m.model.proba(X)
    assert p[y == 1].min() > p[y == 0].max() - 0.5 and np.mean((p >= m.threshold) == y) > 0.95
    path = tmp_path / "w.json"
    m.save(path)
    back = load_followup(path)
    assert back.threshold == m.threshold and back.dim == 3
    assert np.allclose(back.model.proba(X), p)


def test_fit_refuses_without_both_kinds():
    X, y = _planted()
    with pytest.raises(ValueError, match="at least 5 follow-ups"):
        fit_followup(X[y == 0], y[y == 0], np.zeros(int((y == 0).sum()), bool), feature_names(3), log=lambda s: None)


def test_load_refuses_a_missing_file_and_other_cues(tmp_path):
    with pytest.raises(ConfigError, match="train-followup"):
        load_followup(tmp_path / "none.json")
    X, y = _planted()
    m = fit_followup(X, y, np.zeros(len(y), bool), ("x",) * len(CUES) + ("e0", "e1", "e2"), log=lambda s: None)
    path = tmp_path / "other.json"
    m.save(path)
    with pytest.raises(ConfigError, match="other cues"):
        load_followup(path)


def test_rows_with_matter_of_their_own_are_left_out_of_the_fit_and_read_alone():
    X, y = _planted()
    own = np.zeros(len(y), bool)
    own[:10] = True  # ten follow-ups marked as naming matter of their own: the fit never sees them
    m = fit_followup(X, y, own, feature_names(3), log=lambda s: None)
    assert m.meta["own_matter"] == {"followups": 10, "standalone": 0} and m.meta["held_out_recall"] <= 50 / 60


def test_a_question_with_legal_matter_of_its_own_is_never_a_follow_up(conc):
    X, y = _planted()
    always = FollowupModel(fit_followup(X, y, np.zeros(len(y), bool), feature_names(3), log=lambda s: None).model,
                           0.0, {})
    embedded = []

    def embed(text):
        embedded.append(text)
        return np.zeros(3)

    for own in ("and is section 318 BNS bailable?", "and what is the punishment for cheating?",
                "and what is the procedure for arrest?"):
        assert not always.reads(analyse(own, concordance=conc), embed), own
    assert embedded == []  # a question with matter of its own is not embedded for the reading
    assert always.reads(analyse("and is it bailable?", concordance=conc), embed)
    assert embedded == ["and is it bailable?"]


def test_read_messages_names_a_bad_line(tmp_path):
    p = tmp_path / "m.jsonl"
    p.write_text(json.dumps({"id": "a", "previous": "x", "question": "is it bailable?", "followup": True}) + "\n"
                 + json.dumps({"id": "b", "question": "no mark"}) + "\n")
    with pytest.raises(ValueError, match="m.jsonl:2"):
        read_messages([p])


def test_the_shipped_sets_hold_both_kinds_and_the_weights_say_what_they_were_fitted_on():
    msgs = read_messages(followup_files())
    assert sum(m.followup for m in msgs) >= 100 and sum(not m.followup for m in msgs) >= 100
    meta = json.loads(FOLLOWUP_WEIGHTS.read_text())["meta"]
    assert meta["messages"] == len(msgs) and meta["followups"] == sum(m.followup for m in msgs)


@pytest.mark.slow
@pytest.mark.parametrize("question, followup", [
    ("and what's the punishment for that?", True),
    ("can he get bail for it?", True),
    ("which court tries it?", True),
    ("what if he had a gun?", True),
    ("He cut my arm with a broken bottle outside the dhaba, eight stitches", False),
    ("my landlord says he will burn my shop if I complain", False),
    ("can she claim maintenance from her husband who left her?", False),
    ("punishment for voluntarily causing hurt", False),
    ("What is the punishment for cheating?", False),
])
def test_the_shipped_weights_read_messages_of_our_own(real_pipeline, question, followup):
    reads = real_pipeline.resources.reads_followup
    assert reads(analyse(question, concordance=real_pipeline.concordance)) is followup
