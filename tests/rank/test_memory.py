"""The training questions as a memory (:mod:`legal_rag.rank.memory`) and the question sets' groups
(:mod:`legal_rag.rank.examples`)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from legal_rag.rank import Example, build_memory, read_examples, training_files
from legal_rag.types import StatuteRef

AT2, AT4 = StatuteRef("BNS", "318", ("2",)), StatuteRef("BNS", "318", ("4",))
THEFT = StatuteRef("BNS", "303", ("2",))


def examples():
    return [Example("a", "cheated of money", (AT4,), "BNS", "g1"), Example("b", "simple cheating", (AT2,), "BNS", "g2"),
            Example("c", "phone stolen", (THEFT,), "BNS", "g3"), Example("d", "cheque", (), "other:NI Act", "d")]


def embed(texts):
    table = {"cheated of money": [1, 0.1, 0], "simple cheating": [0.8, 0.6, 0], "phone stolen": [0, 0, 1]}
    return np.array([table[t] for t in texts], dtype=float)


def test_scores_are_the_nearest_question_per_gold_and_skip_excluded_groups(tmp_path):
    m = build_memory(examples(), embed)
    assert len(m) == 3                                   # the question outside the corpus is no memory
    q = np.array([1.0, 0.0, 0.0])
    sections, limbs = m.scores(q)
    assert set(sections) == {StatuteRef("BNS", "318"), StatuteRef("BNS", "303")}
    assert sections[StatuteRef("BNS", "318")] > 0.99 > limbs[AT2] > sections[StatuteRef("BNS", "303")]
    assert limbs[AT4] > limbs[AT2]
    sections, limbs = m.scores(q, exclude={"g1"})        # paraphrases of one source never vote for each other
    assert AT4 not in limbs and sections[StatuteRef("BNS", "318")] == limbs[AT2]


def test_votes_share_the_nearest_questions_and_skip_excluded_writers():
    exs = [Example("a", "cheated of money", (AT4,), "BNS", "g1", "w1"),
           Example("b", "simple cheating", (AT2,), "BNS", "g2", "w2"),
           Example("c", "phone stolen", (THEFT,), "BNS", "g3", "w2")]
    m = build_memory(exs, embed)
    q = np.array([1.0, 0.0, 0.0])
    v = m.votes(q, k=3, tau=0.05)
    assert sum(v.values()) == pytest.approx(1.0)
    assert v[StatuteRef("BNS", "318")] > 0.99 > v[StatuteRef("BNS", "303")] > 0        # both cheating questions vote
    only = m.votes(q, k=1)
    assert only == {StatuteRef("BNS", "318"): pytest.approx(1.0)}
    assert m.votes(q, exclude={"w2"}, k=3) == {StatuteRef("BNS", "318"): pytest.approx(1.0)}  # a writer's own
    sections, _ = m.scores(q, exclude={"w1"})
    assert sections[StatuteRef("BNS", "318")] == pytest.approx(0.8 / np.linalg.norm([0.8, 0.6, 0]))
    assert build_memory([], embed).votes(q) == {}
    assert m.read(q, {"w1"}, k=3) == (*m.scores(q, {"w1"}), m.votes(q, {"w1"}, k=3))   # one pass gives both


def test_vectors_are_cached_by_texts_and_model(tmp_path):
    calls = []

    def counting(texts):
        calls.append(len(texts))
        return embed(texts)

    a = build_memory(examples(), counting, cache_dir=tmp_path, model_id="m")
    b = build_memory(examples(), counting, cache_dir=tmp_path, model_id="m")
    assert calls == [3] and np.allclose(a.vectors, b.vectors)
    build_memory(examples(), counting, cache_dir=tmp_path, model_id="other")
    assert calls == [3, 3]
    assert np.allclose(np.linalg.norm(a.vectors, axis=1), 1.0)


def test_groups_are_source_lines_and_an_outside_question_is_its_own(tmp_path):
    p = tmp_path / "q.jsonl"
    rows = [{"id": "x1", "question": "q1", "gold": ["BNS 303(2)"], "source": "BNS s.303 Illustration (a)",
             "source_line": "BNS 303"},
            {"id": "x2", "question": "q2", "gold": [], "out_of_corpus": "NI Act", "source": "negative"}]
    p.write_text("\n".join(map(json.dumps, rows)) + "\n")
    a, b = read_examples([p])
    assert a.group == "BNS s.303 Illustration (a)" and b.group == "x2"
    assert a.writer == b.writer == "q"                  # the question set a question came from


def test_the_shipped_training_sets_read_and_name_every_act():
    exs = read_examples(training_files())
    assert len(exs) >= 600
    labels = {e.label for e in exs}
    assert {"BNS", "BNSS", "BSA"} <= labels and sum(lb.startswith("other:") for lb in labels) >= 6
    assert len({e.id for e in exs}) == len(exs)


def _read_by_loop(m, vector, exclude=(), k=None, tau=None):
    """What :meth:`Memory.read` gives, one memory question at a time (the reference its numpy form must equal)."""
    from legal_rag.rank.memory import VOTE_K, VOTE_TAU

    sims = m.vectors @ np.asarray(vector, dtype=np.float32)
    order = [i for i in np.argsort(-sims)
             if not (m.groups[i] in exclude or (m.writers and m.writers[i] in exclude))]
    sections, limbs = {}, {}
    for i in order:
        for g in m.golds[i]:
            sections.setdefault(g.base, float(sims[i]))
            if g.sub:
                limbs.setdefault(StatuteRef(g.act, g.section, g.sub[:1]), float(sims[i]))
    near = order[:VOTE_K if k is None else k]
    votes = {}
    if near:
        w = np.exp((sims[near] - sims[near[0]]) / (VOTE_TAU if tau is None else tau))
        w = w / w.sum()
        for i, wi in zip(near, w):
            for g in {g.base for g in m.golds[i]}:
                votes[g] = votes.get(g, 0.0) + float(wi)
    return sections, limbs, votes


def test_read_equals_the_loop_over_every_question_in_values_and_key_order():
    rng = np.random.default_rng(3)
    refs = [StatuteRef("BNS", str(s), sub) for s in range(300, 312) for sub in ((), ("1",), ("2",), ("2", "a"))]
    exs = [Example(f"q{i}", f"t{i}", tuple(refs[j] for j in rng.choice(len(refs), rng.integers(1, 4), replace=False)),
                   "BNS", f"g{i % 17}", f"w{i % 3}") for i in range(400)]
    vecs = rng.normal(size=(400, 8)).round(1)  # rounded: many equal cosines, so ties are met
    m = build_memory(exs, lambda texts: vecs[[int(t[1:]) for t in texts]])
    for trial in range(20):
        q = rng.normal(size=8)
        q /= np.linalg.norm(q)
        for exclude in ((), {"g3", "w1"}, {"w0", "w1", "w2"}):
            got, want = m.read(q, exclude, k=5 + trial % 7), _read_by_loop(m, q, exclude, k=5 + trial % 7)
            assert [list(d.items()) for d in got[:2]] == [list(d.items()) for d in want[:2]]
            assert list(got[2].items()) == list(want[2].items())
