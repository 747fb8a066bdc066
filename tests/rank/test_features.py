"""Every feature of the section ranker on hand-made signals (:mod:`legal_rag.rank.features`): one case each."""

from __future__ import annotations

import math

import numpy as np
import pytest

from legal_rag.rank import LIMB_FEATURES, SECTION_FEATURES, Signals, candidates, limb_matrix, section_matrix
from legal_rag.rank.fields import FIELDS, Limb
from legal_rag.types import StatuteRef

BNS318, BNS303, BNSS187 = StatuteRef("BNS", "318"), StatuteRef("BNS", "303"), StatuteRef("BNSS", "187")
IPC420 = StatuteRef("IPC", "420")


def signals(words=10, **kw):
    base = dict(dense={BNS318: 0.7, IPC420: 0.9}, dense_rank={BNS318: 2, IPC420: 1}, sparse={BNS318: 1.0},
                sparse_rank={BNS318: 1}, fields={name: {BNS318: 0.1 * (i + 1)} for i, name in enumerate(FIELDS)},
                evidence={BNS318: 0.5}, lift={BNS318: 1.5}, named=BNS318, memory={BNS303: 0.8, BNS318: 0.6},
                memory_limbs={StatuteRef("BNS", "318", ("2",)): 0.7}, summary={BNS318: 0.5, BNS303: 0.3},
                ranks={"memory": {BNS303: 1, BNS318: 2}, "summary": {BNS318: 1, BNS303: 2}},
                memory_vote={BNS303: 0.7, BNS318: 0.3}, classifier={BNS303: 0.6, BNS318: 0.3, BNSS187: 0.1},
                title_cover={BNS303: (1.0, 0.5), BNS318: (0.25, 0.5)})
    base["ranks"] = {**base["ranks"], "classifier": {BNS303: 1, BNS318: 2, BNSS187: 3}}
    base.update(kw)
    return Signals(words, np.zeros(3), **base)


PREDS = {BNS318: (IPC420,)}
ACTS = {"BNS": 0.8, "BNSS": 0.15, "BSA": 0.05}


@pytest.mark.parametrize("name, ref, words, expect", [
    ("dense", BNS318, 10, 0.7), ("dense", BNS303, 10, 0.0),
    ("dense_gap", BNS318, 10, -0.2), ("dense_gap", IPC420, 10, 0.0), ("dense_gap", BNS303, 10, -0.9),
    ("dense_rr", BNS318, 10, 5 / 7), ("dense_rr", BNS303, 10, 0.0),
    ("sparse", BNS318, 10, 1.0), ("sparse_rr", BNS318, 10, 5 / 6), ("sparse_rr", BNS303, 10, 0.0),
    ("predecessor_dense", BNS318, 10, 0.9), ("predecessor_dense", BNS303, 10, 0.0),
    ("predecessor_sparse", BNS318, 10, 0.0),
    *[(f"field_{name}", BNS318, 10, 0.1 * (i + 1)) for i, name in enumerate(FIELDS)],
    ("field_title", BNS303, 10, 0.0),
    ("evidence", BNS318, 10, 0.5), ("evidence_lift", BNS318, 10, 1.5), ("evidence_lift", BNS303, 10, 0.0),
    ("evidence_lift_long", BNS318, 10, 0.0), ("evidence_lift_long", BNS318, 40, 1.5),
    ("dense_long", BNS318, 10, 0.0), ("dense_long", BNS318, 40, 0.7),
    ("act_logp", BNS318, 10, math.log(0.8)), ("act_logp", BNSS187, 10, math.log(0.15)),
    ("act_logp", StatuteRef("IPC", "1"), 10, math.log(1e-4)),
    ("schedule_name", BNS318, 10, 1.0), ("schedule_name", BNS303, 10, 0.0),
    ("summary_dense", BNS318, 10, 0.5), ("summary_dense", BNSS187, 10, 0.0),
    ("summary_gap", BNS303, 10, -0.2), ("summary_gap", BNS318, 10, 0.0),
    ("summary_rr", BNS318, 10, 5 / 6), ("summary_rr", BNS303, 10, 5 / 7), ("summary_rr", BNSS187, 10, 0.0),
    ("memory", BNS318, 10, 0.6), ("memory", BNSS187, 10, 0.0), ("memory", BNS303, 10, 0.8),
    ("memory_gap", BNS318, 10, -0.2), ("memory_gap", BNS303, 10, 0.0), ("memory_gap", BNSS187, 10, -0.8),
    ("memory_rr", BNS303, 10, 5 / 6), ("memory_rr", BNS318, 10, 5 / 7), ("memory_rr", BNSS187, 10, 0.0),
    ("memory_vote", BNS303, 10, 0.7), ("memory_vote", BNS318, 10, 0.3), ("memory_vote", BNSS187, 10, 0.0),
    ("classifier", BNS318, 10, 0.3), ("classifier", IPC420, 10, 0.0),
    ("classifier_share", BNS303, 10, 1.0), ("classifier_share", BNS318, 10, 0.5), ("classifier_share", IPC420, 10, 0.0),
    ("classifier_rr", BNS303, 10, 5 / 6), ("classifier_rr", BNSS187, 10, 5 / 8), ("classifier_rr", IPC420, 10, 0.0),
    ("title_cover", BNS303, 10, 1.0), ("title_cover", BNS318, 10, 0.25), ("title_cover", BNSS187, 10, 0.0),
    ("question_in_title", BNS318, 10, 0.5), ("question_in_title", BNSS187, 10, 0.0),
])
def test_section_feature(name, ref, words, expect):
    assert SECTION_FEATURES[name](signals(words), ref, ACTS, PREDS) == pytest.approx(expect)


def test_outside_vector_reads_the_share_outside_and_the_best_match():
    from legal_rag.rank import OUTSIDE_FEATURES, outside_vector

    v = outside_vector(signals(), 0.3)
    assert len(v) == len(OUTSIDE_FEATURES)
    assert v == pytest.approx([0.3, math.log(0.3 / 0.7), 0.8, 0.7, 0.9])
    none = outside_vector(signals(dense={}, memory={}, memory_vote={}), 1.0)
    assert none == pytest.approx([1.0, 9.0, 0.0, 0.0, 0.0])


def test_every_section_feature_is_tested():
    tested = {p[0] for p in test_section_feature.pytestmark[0].args[1]}
    assert tested == set(SECTION_FEATURES)


LIMBS = (Limb(StatuteRef("BNS", "318", ("1",)), "(1) Whoever, by deceiving ... is said to cheat."),
         Limb(StatuteRef("BNS", "318", ("2",)), "(2) Whoever cheats shall be punished ...", "Cheating"),
         Limb(StatuteRef("BNS", "318", ("4",)), "(4) Whoever cheats and thereby ... shall be punished ...",
              "Cheating and thereby dishonestly inducing delivery of property"))


@pytest.mark.parametrize("name, kind, column", [
    ("limb_bm25", "", [0.0, 0.2, 1.0]), ("limb_dense", "", [0.0, 0.0, 0.6]), ("limb_memory", "", [0.0, 0.7, 0.0]),
    ("limb_first", "", [1.0, 0.0, 0.0]), ("limb_position", "", [0.0, 0.5, 1.0]),
    ("limb_punishes", "", [0.0, 1.0, 1.0]), ("limb_scheduled", "", [0.0, 1.0, 1.0]),
    ("limb_punishes_asked", "punishment", [0.0, 1.0, 1.0]), ("limb_punishes_asked", "offence", [0.0, 0.0, 0.0]),
    ("limb_first_defined", "definition", [1.0, 0.0, 0.0]), ("limb_first_defined", "punishment", [0.0, 0.0, 0.0]),
])
def test_limb_feature(name, kind, column):
    s = signals(limb_dense={StatuteRef("BNS", "318", ("4",)): 0.6}, kind=kind)
    bm25 = {LIMBS[1].ref: 0.2, LIMBS[2].ref: 1.0}
    X = limb_matrix(s, LIMBS, bm25)
    assert X.shape == (3, len(LIMB_FEATURES))
    assert X[:, list(LIMB_FEATURES).index(name)].tolist() == pytest.approx(column)


def test_every_limb_feature_is_tested():
    assert {p[0] for p in test_limb_feature.pytestmark[0].args[1]} == set(LIMB_FEATURES)


def test_rank_of_shares_ties():
    from legal_rag.rank.signals import rank_of

    assert rank_of({BNS318: 0.9, BNS303: 0.5, BNSS187: 0.5}) == {BNS318: 1, BNS303: 2, BNSS187: 2}
    assert rank_of({}) == {}


def test_candidates_bridge_old_code_and_keep_known_sections_only():
    s = signals(fields={}, evidence={}, named=None, memory={}, summary={},
                sparse={BNS303: 1.0, StatuteRef("BNS", "999"): 0.5})
    got = candidates(s, lambda r: (BNS318,) if r == IPC420 else (), known=(BNS318, BNS303))
    assert got == (BNS318, BNS303)            # IPC 420's text brings in BNS 318; BNS 999 is not a known section
    assert candidates(signals(dense={}, sparse={}, fields={}, evidence={}, named=None, memory={}, summary={}),
                      lambda r: (), ()) == ()


def test_section_matrix_shape_and_order():
    X = section_matrix(signals(), (BNS318, BNS303), ACTS, PREDS)
    assert X.shape == (2, len(SECTION_FEATURES))
    assert X[0, list(SECTION_FEATURES).index("dense")] == pytest.approx(0.7)
    assert section_matrix(signals(), (), ACTS, PREDS).shape == (0, len(SECTION_FEATURES))


def test_best_keys_and_ranks_equal_the_full_sort_with_ties():
    import random

    from legal_rag.rank.features import best_keys
    from legal_rag.rank.signals import rank_of

    rng = random.Random(5)
    for trial in range(50):
        table = {StatuteRef(rng.choice(["BNS", "BNSS", "BSA"]), str(i)): rng.choice([0.1, 0.2, 0.25, 0.5, 0.9, 1.0])
                 for i in range(rng.randint(0, 80))}
        for n in (1, 5, 25, 100):
            assert best_keys(table, n) == sorted(table, key=lambda r: (-table[r], str(r)))[:n]
        ranks, prev, rank = {}, None, 0  # the full sort, ties sharing the better rank
        for i, (k, v) in enumerate(sorted(table.items(), key=lambda kv: -kv[1])):
            if v != prev:
                rank, prev = i + 1, v
            ranks[k] = rank
        got = rank_of(table)
        assert list(got.items()) == list(ranks.items()) and len(got) == len(ranks)
        assert got.get(StatuteRef("IPC", "1")) is None and StatuteRef("IPC", "1") not in got
