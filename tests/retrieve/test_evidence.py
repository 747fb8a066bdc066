"""The evidence arithmetic of legal_rag.retrieve.evidence on a tiny hand-made case base (values worked by hand from
the formula in the module docstring), the fusion of legal_rag.retrieve.sectionfind, and era mapping through the
real BPR&D concordance."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest

from legal_rag.retrieve.evidence import EvidenceParams, case_prior, case_similarity, era_map, section_evidence
from legal_rag.retrieve.sectionfind import FusionWeights, bridge, fuse, ranks
from legal_rag.types import Judgment, StatuteRef

IPC = lambda s: StatuteRef("IPC", s)  # noqa: E731
BNS = lambda s: StatuteRef("BNS", s)  # noqa: E731


@dataclass(frozen=True)
class Hit:
    case: str
    para: int
    score: float


class TinyCaseBase:
    """Stand-in with the CaseBase interface: fixed hits, cites per paragraph, df per section."""

    def __init__(self, hits, para_cites, df, n):
        self.hits, self.para_cites, self.df, self.n = hits, para_cites, df, n
        self.searched = []

    def __len__(self):
        return self.n

    def search(self, query, k, exclude=()):
        self.searched.append((query, k, tuple(exclude)))
        return [h for h in self.hits if h.case not in set(exclude)][:k]

    def paragraph_cites(self, case, para):
        paras = self.para_cites[case]
        if not 0 <= para < len(paras):
            raise IndexError(para)
        return paras[para]

    def case_cites(self, case):
        out = {}
        for refs in self.para_cites[case]:
            for r in set(refs):
                out[r] = out.get(r, 0) + 1
        return out

    def section_df(self, ref):
        return self.df.get(ref, 0)


def tiny():
    hits = [Hit("A", 0, 10.0), Hit("B", 1, 5.0), Hit("A", 2, 4.0)]
    para_cites = {"A": [(IPC("302"),), (IPC("302"),), (IPC("34"),), (IPC("302"),)],
                  "B": [(StatuteRef("IPC", "420", ("1",)),), (), (IPC("420"),)]}
    return TinyCaseBase(hits, para_cites, {IPC("302"): 100, IPC("34"): 100, IPC("420"): 10}, 1000)


P = EvidenceParams(k=10, top_cases=5, per_case=2, decay=0.5, gamma=1.0, beta=1.0, window=1, alpha=1.0)


def test_case_similarity_sums_best_paragraphs_with_decay_and_normalises():
    cases, per = case_similarity(tiny().hits, top_cases=5, per_case=2, decay=0.5)
    assert cases == [("A", 1.0), ("B", pytest.approx(5 / 12))]  # A: 10 + 0.5*4 = 12; B: 5
    assert [h.para for h in per["A"]] == [0, 2]


def _decision(court: str, date: str) -> Judgment:
    return Judgment(case_id="X", title="X v. State", court=court, date=date, source="x.txt")


def test_case_prior_weighs_court_level_and_date():
    p = EvidenceParams(lower_court=0.5, recent=3.0, recent_from=2024)
    assert case_prior(_decision("Supreme Court of India", "2019-04-01"), p) == 1.0
    assert case_prior(_decision("Supreme Court of India", "2024-07-01"), p) == 3.0
    assert case_prior(_decision("High Court of Delhi", "2023-12-31"), p) == 0.5
    assert case_prior(_decision("Allahabad High Court", "2025-01-09"), p) == pytest.approx(1.5)
    assert case_prior(_decision("", ""), p) == 0.5  # no court read, no date: lower, not recent
    assert case_prior(_decision("High Court of Delhi", "2025-01-09"), EvidenceParams()) == 1.0
    assert not EvidenceParams().prefers and p.prefers


def test_a_prior_reorders_the_judgments_before_the_best_are_chosen():
    hits = tiny().hits  # raw: A 12, B 5
    cases, _ = case_similarity(hits, top_cases=1, per_case=2, decay=0.5, prior={"A": 0.25, "B": 1.0}.get)
    assert cases == [("B", 1.0)]  # A: 3 < B: 5, and only one judgment votes
    cases, _ = case_similarity(hits, top_cases=5, per_case=2, decay=0.5, prior={"A": 1.0, "B": 2.0}.get)
    assert cases == [("A", 1.0), ("B", pytest.approx(10 / 12))]


def test_section_evidence_reads_the_prior_from_each_judgment():
    cb = tiny()
    cb.judgment = {"A": _decision("Supreme Court of India", "2010-01-01"),
                   "B": _decision("Delhi High Court", "2025-03-03")}.__getitem__
    p = EvidenceParams(**{**P.__dict__, "top_cases": 1, "recent": 4.0})  # B: 5 x 4 = 20 > A: 12
    assert [e.ref for e in section_evidence("facts", cb, params=p)] == [IPC("420")]
    assert section_evidence("facts", cb, params=P)[0].ref == IPC("302")  # no preference: as before


def test_evidence_scores_by_hand():
    cb = tiny()
    ev = section_evidence("facts", cb, params=P)
    got = {e.ref: e.score for e in ev}
    l11, l101 = math.log(11), math.log(101)
    # A: 302 cited in 3 paragraphs (max), local to hit p0 (10/10, via p0-p1) and to hit p2 (4/10, via p1 and p3:
    # a paragraph's neighbourhood counts once); 34 in 1 of max 3, local to hit p2 only (4/10)
    assert got[IPC("302")] == pytest.approx(1.0 * (1 + 1.4) * l11)
    assert got[IPC("34")] == pytest.approx(1.0 * (1 / 3 + 0.4) * l11)
    # B: 420 (its sub-section 420(1) counts as 420) in 2 of 2 paragraphs, local to hit p1 via the window
    assert got[IPC("420")] == pytest.approx(5 / 12 * (1 + 1.0) * l101)
    assert [e.ref for e in ev] == [IPC("302"), IPC("420"), IPC("34")]
    assert ev[0].cases == (("A", 1.0),) and ev[0].n_cases == 1
    assert cb.searched == [("facts", 10, ())]


def test_idf_damps_a_section_cited_everywhere():
    cb = tiny()
    cb.df[IPC("302")] = 1000  # every case cites it
    ev = section_evidence("facts", cb, params=P)
    assert ev[0].ref == IPC("420")
    assert {e.ref: e.score for e in ev}[IPC("302")] == pytest.approx(2.4 * math.log(2))
    flat = section_evidence("facts", cb, params=EvidenceParams(**{**P.__dict__, "alpha": 0.0}))
    assert flat[0].ref == IPC("302")  # alpha 0: no damping


def test_exclude_and_no_hits():
    cb = tiny()
    ev = section_evidence("facts", cb, params=P, exclude=("A",))
    assert [e.ref for e in ev] == [IPC("420")] and ev[0].cases == (("B", 1.0),)
    assert section_evidence("facts", TinyCaseBase([], {}, {}, 0), params=P) == ()


class FakeConcordance:
    """successors() by a fixed table (the real table is tested below)."""

    table = {IPC("302"): (StatuteRef("BNS", "103", ("1",)),), IPC("34"): (BNS("3"), BNS("190")), IPC("420"): ()}

    def successors(self, ref):
        return type("C", (), {"targets": self.table[ref.base]})()


def test_era_new_maps_to_successors_and_shares_one_to_many():
    old = {e.ref: e.score for e in section_evidence("facts", tiny(), params=P)}
    new = {e.ref: e.score for e in section_evidence("facts", tiny(), params=P, concordance=FakeConcordance(),
                                                     era="new")}
    assert new[BNS("103")] == pytest.approx(old[IPC("302")])  # sub-section dropped: BNS 103
    assert new[BNS("3")] == pytest.approx(old[IPC("34")] / 2) == pytest.approx(new[BNS("190")])
    assert IPC("420") not in new and len(new) == 3  # 420 maps to nothing here: no new-code evidence


def test_rank_fusion_and_score_fusion():
    ev = {"a": 3.0, "b": 2.0, "c": 1.0}
    di = {"c": 0.9, "d": 0.5}
    assert ranks(ev) == {"a": 1, "b": 2, "c": 3}
    out = dict(fuse(ev, di, FusionWeights(evidence=1.0, direct=1.0, rrf_k=10)))
    assert out["c"] == pytest.approx(1 / 13 + 1 / 11) and out["a"] == pytest.approx(1 / 11)
    assert [k for k, _ in fuse(ev, di, FusionWeights(evidence=1.0, direct=1.0, rrf_k=10))][0] == "c"
    sc = dict(fuse(ev, di, FusionWeights(evidence=1.0, direct=2.0, method="score")))
    assert sc["c"] == pytest.approx(1 / 3 + 2.0) and sc["d"] == pytest.approx(2 * 0.5 / 0.9)
    assert fuse(ev, di, FusionWeights(evidence=1.0, direct=0.0, rrf_k=60)) == sorted(
        [(k, 1 / (60 + r)) for k, r in ranks(ev).items()], key=lambda kv: -kv[1])


@pytest.fixture(scope="module")
def concordance():
    from legal_rag.config import Settings
    from legal_rag.law import load_concordance

    s = Settings()
    if not (s.corpus_path / "mappings").is_dir():
        pytest.skip("corpus mappings not found")
    return load_concordance(s.corpus_path)


def test_real_table_maps_ipc_to_bns(concordance):
    m = era_map([IPC("420"), IPC("498A"), IPC("302"), StatuteRef("CrPC", "438")], concordance, "new")
    assert m[IPC("420")] == ((BNS("318"), 1.0),)  # BNS 318(4), table row #453
    assert dict(m[IPC("498A")]) == {BNS("85"): 0.5, BNS("86"): 0.5}  # rows #149-150
    assert m[IPC("302")] == ((BNS("103"), 1.0),)
    assert m[StatuteRef("CrPC", "438")] == ((StatuteRef("BNSS", "482"), 1.0),)
    back = era_map([BNS("318")], concordance, "old")
    assert IPC("420") in dict(back[BNS("318")])


def test_bridge_shares_direct_value_with_counterparts(concordance):
    d = bridge([IPC("420"), BNS("111")], concordance, share=0.5, rrf_k=60)
    assert d[IPC("420")] == pytest.approx(1 / 61)
    assert d[BNS("318")] == pytest.approx(0.5 / 61)  # IPC 420's text lifts BNS 318
    assert d[BNS("111")] == pytest.approx(1 / 62)  # new provision: no counterpart gets anything
    assert bridge([IPC("420")], concordance, share=0.0) == {IPC("420"): pytest.approx(1 / 61)}


def test_article_cites_of_the_case_base_are_evidence_but_never_a_suggested_section():
    """The case base keeps Articles of the Constitution (``Constitution 21``, for AILA's Article statutes); they
    keep their own name in either era (the BPR&D table maps none), and the product's fusion returns only the era's
    Acts."""
    from legal_rag.retrieve.sectionfind import rank_sections
    from legal_rag.types import NEW_ACTS, OLD_ACTS

    art = StatuteRef("Constitution", "21")
    cb = tiny()
    cb.para_cites["A"] = [(IPC("302"), art), (art,), (IPC("34"),), (art,)]
    ev = section_evidence("facts", cb, params=P, concordance=FakeConcordance(), era="new")
    assert art in {e.ref for e in ev} and BNS("103") in {e.ref for e in ev}
    for era, acts in (("new", NEW_ACTS), ("old", OLD_ACTS)):
        ev = section_evidence("facts", cb, params=P, concordance=FakeConcordance() if era == "new" else None, era=era)
        out = rank_sections(ev, [art, IPC("302")], None, allowed=acts, weights=FusionWeights())
        assert out and all(s.ref.act in acts for s in out)
