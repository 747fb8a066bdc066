"""``legal-rag train-ranker``'s fitting (:mod:`legal_rag.rank.training`) on a stand-in ranker with planted signals:
deterministic, split by source line, and it learns the feature that carries the gold."""

from __future__ import annotations

import json
import zlib

import numpy as np
import pytest

from legal_rag.rank import FieldIndex, Limb, SectionFields, Signals, load_ranker
from legal_rag.rank.choose import SectionRanker
from legal_rag.rank.examples import Example, parse_ref, read_examples
from legal_rag.rank.training import folds, train
from legal_rag.types import StatuteRef

SECTIONS = [StatuteRef("BNS", str(n)) for n in range(300, 306)] + [StatuteRef("BNSS", "187"), StatuteRef("BSA", "23")]


def test_parse_ref_and_read_examples(tmp_path):
    assert parse_ref("BNS 318(4)") == StatuteRef("BNS", "318", ("4",))
    assert parse_ref("BNSS 187(3)(a)") == StatuteRef("BNSS", "187", ("3", "a"))
    p = tmp_path / "q.jsonl"
    p.write_text(json.dumps({"id": "a", "question": "q", "gold": ["BNS 303(2)"], "source_line": "BNS 303"}) + "\n"
                 + json.dumps({"id": "b", "question": "cheque", "gold": [], "out_of_corpus": "NI Act"}) + "\n")
    a, b = read_examples([p])
    assert (a.label, a.group, a.gold) == ("BNS", "BNS 303", (StatuteRef("BNS", "303", ("2",)),))
    assert (b.label, b.gold) == ("other:NI Act", ())
    p.write_text(json.dumps({"id": "c", "question": "q", "gold": []}) + "\n")
    with pytest.raises(ValueError, match="q.jsonl:1"):
        read_examples([p])


def examples():
    out = []
    for i in range(90):
        if i % 10 == 9:
            out.append(Example(f"o{i}", f"other {i}", (), "other:X Act", f"X{i % 3}"))
            continue
        ref = SECTIONS[i % len(SECTIONS)]
        gold = StatuteRef(ref.act, ref.section, ("2",)) if ref.act == "BNS" else ref
        out.append(Example(f"e{i}", f"q{i}", (gold,), ref.act, f"{ref} {i % 4}"))
    return out


class Embeds:
    """The index's query embedder, for the memory: the Act's axis of the question's example."""

    def __init__(self, exs):
        self.by_q = {e.question: e for e in exs}

    def embed_query(self, text):
        v = np.zeros(4)
        v[{"BNS": 0, "BNSS": 1, "BSA": 2}.get(self.by_q[text].label, 3)] = 1.0
        return v


class Planted(SectionRanker):
    """Signals where the gold section has the best ``field_schedule`` and a random ``dense``; the embedding says the
    Act (first three axes) or other (fourth)."""

    def __init__(self, exs):
        fields = {r: SectionFields(r, (("title", "cheating theft hurt"),),
                                   tuple(Limb(StatuteRef(r.act, r.section, (s,)), f"({s}) whoever limb words")
                                         for s in "12") if r.act == "BNS" else ())
                  for r in SECTIONS}
        super().__init__(index=Embeds(exs), fields=FieldIndex(fields))
        self.by_q = {e.question: e for e in exs}

    def signals(self, question, exclude=(), kind=None):
        e = self.by_q[question]
        rng = np.random.default_rng(zlib.crc32(question.encode()))
        v = rng.normal(scale=0.1, size=4)
        axis = {"BNS": 0, "BNSS": 1, "BSA": 2}.get(e.label, 3)
        v[axis] += 1.0
        gold = e.gold[0].base if e.gold else None
        sched = {r: (1.0 if r == gold else rng.uniform(0, 0.5)) for r in SECTIONS}
        dense = {r: rng.uniform(0, 1) for r in SECTIONS}
        limb = {StatuteRef(g.act, g.section, g.sub): 0.9 for g in e.gold if g.sub}
        return Signals(len(question.split()), v, dense=dense, fields={"schedule": sched}, limb_dense=limb)

    def candidates(self, s):
        return tuple(SECTIONS)


def asked(n_writers=3):
    """The planted questions again, as asked sets of ``n_writers`` writers."""
    return [Example(f"a{e.id}", f"asked {e.question}", e.gold, e.label, f"a {e.group}", f"ask_{i % n_writers}")
            for i, e in enumerate(examples())]


def test_folds_hold_out_one_writer_each_or_whole_source_lines():
    exs = asked()
    cv = folds(exs)
    assert len(cv) == 3
    for fit, held in cv:
        assert set(fit).isdisjoint(held) and sorted(fit + held) == list(range(len(exs)))
        assert len({exs[i].writer for i in held}) == 1 and exs[held[0]].writer not in {exs[i].writer for i in fit}
    two = asked(n_writers=2)
    cv = folds(two)
    assert len(cv) == 5                                                 # too few writers: by source line
    for fit, held in cv:
        assert {two[i].group for i in fit}.isdisjoint({two[i].group for i in held})


def test_train_learns_the_planted_feature_and_is_deterministic(tmp_path):
    src, ask = examples(), asked()
    a, b = tmp_path / "a" / "w.json", tmp_path / "b" / "w.json"
    a.parent.mkdir(), b.parent.mkdir()
    train(Planted(src + ask), src, ask, out=a, log=lambda *_: None)
    train(Planted(src + ask), src, ask, out=b, log=lambda *_: None)
    assert a.read_text() == b.read_text()
    assert a.with_name("w.sections.txt").read_text() == b.with_name("w.sections.txt").read_text()
    r = load_ranker(a)
    gain = r.sections.importance()
    assert max(gain, key=gain.get) == "field_schedule"           # the feature that carries the gold
    assert r.meta["held_out_top1_section"] == 1.0
    assert r.meta["held_out_top1_by_fold"] == {"ask_0": 1.0, "ask_1": 1.0, "ask_2": 1.0}
    assert r.meta["held_out_act_accuracy"] == 1.0
    assert r.meta["held_out_limb_accuracy"] == 1.0                # the gold limb has the dense match
    assert r.meta["limb_model"]["kind"] == "logistic"             # no tree model does better: the tie is logistic's
    assert r.meta["limb_model"]["source_share"] == 0.0           # ... and the asked questions' alone
    assert set(r.acts.classes) == {"BNS", "BNSS", "BSA", "other:X Act"}
    assert (r.meta["source_questions"], r.meta["asked_questions"], r.meta["folds"]) == (len(src), len(ask), 3)
    assert r.meta["asked_writers"] == ["ask_0", "ask_1", "ask_2"]
    assert 0 < r.out_of_corpus < 1 and r.meta["held_out_outside_said"] == 1.0
    x_out, x_in = np.array([0.9, 2.2, 0.1, 0.1, 0.1]), np.array([0.05, -2.9, 0.8, 0.8, 0.8])
    assert r.outside.proba(x_out)[0] > r.outside.proba(x_in)[0]   # a share outside says outside


def test_the_limb_fit_weighs_the_source_set_limb_questions_by_each_share(tmp_path, monkeypatch):
    from legal_rag.rank import LIMB_FEATURES
    from legal_rag.rank import training

    seen = []
    real = training._scaled_fit

    def spy(X, y, C, names, weight=None):
        if tuple(names) == tuple(LIMB_FEATURES):
            seen.append((len(X), tuple(sorted(set(np.round(weight, 2))))))
        return real(X, y, C, names, weight)

    monkeypatch.setattr(training, "_scaled_fit", spy)
    src, ask = examples(), asked()
    train(Planted(src + ask), src, ask, out=tmp_path / "w.json", log=lambda *_: None)
    n_src = sum(1 for e in src if any(g.sub for g in e.gold))
    assert n_src > 0
    # each limb question gives two rows (its section's two limbs); the asked rows weigh 1 and the source rows each
    # share, and share 0 leaves the source rows out
    assert training.LIMB_SOURCE_SHARES == (0.0, 0.5, 1.0)
    assert {w for _, w in seen} == {(0.5, 1.0), (1.0,)}
    assert min(n for n, w in seen if w == (0.5, 1.0)) > 2 * n_src
    assert min(n for n, _ in seen) < 2 * n_src


def test_train_needs_asked_questions_inside_and_outside(tmp_path):
    src = examples()
    inside = [e for e in asked() if e.gold]
    with pytest.raises(ValueError, match="inside and outside"):
        train(Planted(src + inside), src, inside, out=tmp_path / "w.json", log=lambda *_: None)
