"""The section-finding grid of ``bench/run.py --only sectionfind`` (:mod:`bench.tuning`): the choice rule and the
case base that searches each query once for a whole grid."""

from __future__ import annotations

from legal_rag.eval.sectionfind import StatuteMap, task2_run
from legal_rag.retrieve.evidence import EvidenceParams
from legal_rag.retrieve.sectionfind import FusionWeights
from legal_rag.types import StatuteRef

from bench.tuning import CachedCaseBase, choose
from tests.casebase_fake import OneCase


def test_cached_case_base_searches_each_query_once_at_the_deepest_k():
    m = StatuteMap({"S20": StatuteRef("IPC", "420")}, {"S20": "derived_csv"}, ("S1",))
    cb = CachedCaseBase(OneCase())
    direct = ["S1", "S7", "S20"]
    run = task2_run("facts", direct, cb, m, FusionWeights(direct=0.3, rrf_k=5), EvidenceParams())
    assert run[0] == "S20" and sorted(run) == sorted(direct)
    task2_run("facts", direct, cb, m, FusionWeights(), EvidenceParams(k=10))
    assert cb.cb.calls == 1  # the deeper first search serves the shallower ones
    assert len(cb) == 100  # every other call goes to the wrapped case base


def test_choose_takes_the_best_point_and_gives_ties_to_the_preferred_one():
    # value depends on rrf_k only: 5 and 60 tie at the top, 20 is worse
    value = {5: 0.5, 20: 0.4, 60: 0.5}
    f = lambda w, p: value[w.rrf_k]  # noqa: E731
    space = {"rrf_k": [5, 20, 60], "gamma": [0.5, 1.0]}
    w, p, best, table = choose(f, FusionWeights(), EvidenceParams(), space)
    assert (w.rrf_k, p.gamma, best, len(table)) == (5, 0.5, 0.5, 6)  # no preference: first best in grid order
    w, p, _, _ = choose(f, FusionWeights(), EvidenceParams(), space, prefer={"rrf_k": 60, "gamma": 1.0})
    assert (w.rrf_k, p.gamma) == (60, 1.0)  # the preferred point is among the best: it wins the tie
    w, p, _, _ = choose(f, FusionWeights(), EvidenceParams(), space, prefer={"rrf_k": 20, "gamma": 1.0})
    assert (w.rrf_k, p.gamma) == (5, 0.5)  # a worse preferred point never wins
