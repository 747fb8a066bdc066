"""The citation prior of precedent search (issue 18): party normalisation, title matching on both parties, counting
in-citations from other judgments (unit), and the chunk/prior signals in the CombSUM."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from bench.precedents import (PrecedentWeights, citation_counts, citation_prior, fuse_signals, party_key,
                              title_key)


def test_party_key_normalises_spellings_of_one_party():
    assert party_key("The State Of U.P. & Ors.") == party_key("State of Uttar Pradesh") == "state of uttar pradesh"
    assert party_key("S.D.S. Shipping Pvt. Ltd.") == "sds shipping pvt ltd"
    assert party_key("Umadevi (3)") == "umadevi"
    assert party_key("State of Punjab and Another") == "state of punjab"
    assert party_key("Anil Kumar") != party_key("Anil Kumar Sharma")
    assert title_key("", "State of Bihar") is None


def test_citation_counts_match_both_parties_and_never_count_the_case_itself():
    titles = {"C1": "Masud Khan v State Of U.P.", "C2": "Anil Kumar v State of Punjab", "C3": "Ram v Shyam"}
    texts = {"C1": "Masud Khan v. State of Uttar Pradesh (itself). In Anil Kumar v. State of Punjab and Others it "
                   "was held.",
             "C2": "See Masud Khan v. The State of U. P. (1973). Later Masud Khan v. State of U.P. again.",
             "C3": "Anil Kumar v. State of Haryana is another case; Masud Khan v. State of Bihar too.",
             "C4": "Masud Khan v. State of UP."}
    got = citation_counts(titles, texts)
    # C1: cited by C2 (once, though named twice) and C4; not by itself, not by C3 (other respondent)
    assert got == {"C1": 2, "C2": 1, "C3": 0}
    assert citation_prior(got) == pytest.approx({"C1": math.log(3), "C2": math.log(2)})


def test_prior_and_chunk_only_reorder_what_text_signals_found():
    text = {"doc@0.75": {"A": 1.0, "B": 0.9}, "para_max": {}, "para_sum": {}, "chunk": {"B": 2.0, "C": 1.0}}
    prior = {"A": 0.1, "B": 1.0, "Z": 5.0}
    w = PrecedentWeights(doc=1.0, para=0.0, doc_b=0.75)
    assert [c for c, _ in fuse_signals(text, {}, w, prior)] == ["A", "B"]  # prior weight 0 changes nothing
    got = fuse_signals(text, {}, PrecedentWeights(doc=1.0, para=0.0, doc_b=0.75, prior=1.0), prior)
    assert [c for c, _ in got] == ["B", "A"]  # B: 0.9 + 1.0 > A: 1.0 + 0.1
    assert "Z" not in dict(got)  # a prior alone never brings in a judgment no text signal found
    with_chunk = fuse_signals(text, {}, PrecedentWeights(doc=1.0, para=0.0, doc_b=0.75, chunk=1.0))
    assert [c for c, _ in with_chunk] == ["B", "A", "C"]
    with pytest.raises(ValueError):
        fuse_signals({k: v for k, v in text.items() if k != "chunk"}, {}, PrecedentWeights(doc_b=0.75, chunk=1.0))


@pytest.mark.slow
def test_citation_counts_on_300_aila_judgments(real_settings):
    """Real corpus: among the first 300 AILA judgments some are named by another, and every count is backed by a
    citing text that names the cited judgment's first party (checked by plain substring, not by the key rule)."""
    from legal_rag.eval.aila import load_casedocs
    from legal_rag.law.cases import split_title
    from legal_rag.text import normalise

    judgments, paras = load_casedocs(real_settings.corpus_path, 300)
    texts: dict[str, list[str]] = {}
    for p in paras:
        texts.setdefault(p.case, []).append(p.text)
    full = {c: "\n".join(t) for c, t in texts.items()}
    titles = {j.case_id: j.title for j in judgments}
    counts = citation_counts(titles, full)
    cited = {c: n for c, n in counts.items() if n}
    assert len(cited) >= 3, cited
    for c in cited:
        first = normalise(split_title(titles[c])[0]).split()[0].strip(".,")
        assert sum(1 for d, t in full.items() if d != c and first in normalise(t)) >= counts[c], (c, titles[c])


# ---- citation propagation (issue 18, session 7) --------------------------------------------------------------------
def test_citation_pairs_name_who_cites_whom_and_citing_map_inverts_them():
    from bench.precedents import citation_pairs, citing_map

    titles = {"C1": "Masud Khan v State Of U.P.", "C2": "Anil Kumar v State of Punjab", "C3": "Ram v Shyam"}
    texts = {"C1": "Masud Khan v. State of Uttar Pradesh (itself). In Anil Kumar v. State of Punjab and Others it "
                   "was held.",
             "C2": "See Masud Khan v. The State of U. P. (1973).",
             "C3": "Anil Kumar v. State of Haryana is another case.",
             "C4": "Masud Khan v. State of UP."}
    pairs = citation_pairs(titles, texts)
    assert pairs == {"C1": {"C2", "C4"}, "C2": {"C1"}}  # C3 never cited: absent; C1 never cites itself
    assert citing_map(pairs) == {"C1": ["C2"], "C2": ["C1"], "C4": ["C1"]}


def test_propagate_by_hand():
    from bench.precedents import propagate

    # base max-normalised: A 1.0, B 0.5, C 0.25 (D scores 0: never passes anything on)
    base = {"A": 4.0, "B": 2.0, "C": 1.0, "D": 0.0}
    cites = {"A": ["X", "B", "A"], "B": ["X", "Y"], "C": ["X"], "D": ["Z"]}
    # k = 2: only A and B pass on; X cited by A (1.0) and B (0.5); B cited by A; A's cite of itself does not count
    assert propagate(base, cites, k=2) == pytest.approx({"X": 1.5, "B": 1.0, "Y": 0.5})
    assert propagate(base, cites, k=2, how="max") == pytest.approx({"X": 1.0, "B": 1.0, "Y": 0.5})
    assert propagate(base, cites, k=3) == pytest.approx({"X": 1.75, "B": 1.0, "Y": 0.5})
    assert propagate(base, cites, k=10)["X"] == pytest.approx(1.75) and "Z" not in propagate(base, cites, k=10)
    assert propagate({}, cites) == {}
    with pytest.raises(ValueError):
        propagate(base, cites, k=0)
    with pytest.raises(ValueError):
        propagate(base, cites, how="mean")  # type: ignore[arg-type]


def test_propagation_weight_zero_changes_nothing_and_a_weight_brings_in_cited_judgments():
    text = {"doc@0": {"A": 2.0, "B": 1.0}, "doc@0.75": {"A": 1.0, "B": 0.9}, "para_max": {"B": 1.0},
            "para_sum": {}, "chunk": {"B": 2.0, "C": 1.0}}
    cites = {"A": ["X"], "B": ["X", "A"], "C": ["Y"]}
    for w in (PrecedentWeights(doc=1.0, para=0.5, doc_b=0.75), PrecedentWeights(doc=0.5, para=0.25, chunk=1.0),
              PrecedentWeights(doc=1.0, para=0.0, doc_b=0.75, prior=0.5)):
        plain = fuse_signals(text, {}, w, {"B": 1.0})
        for base in ("doc@0.75", "chunk"):
            assert fuse_signals(text, {}, w, {"B": 1.0}, cites) == plain
            assert fuse_signals(text, {}, replace(w, prop_base=base, prop_k=1, prop_agg="max"), {"B": 1.0},
                                cites) == plain
    w = PrecedentWeights(doc=1.0, para=0.0, doc_b=0.75, prop=1.0, prop_base="doc@0.75", prop_k=2)
    got = dict(fuse_signals(text, {}, w, None, cites))
    # doc@0.75 normalised: A 1.0, B 0.9; prop: X = 1.0 + 0.9 = 1.9, A = 0.9 (cited by B) -> normalised by 1.9
    assert got == pytest.approx({"A": 1.0 + 0.9 / 1.9, "B": 0.9, "X": 1.0})
    with pytest.raises(ValueError):
        fuse_signals(text, {}, w)  # no citation graph
    with pytest.raises(ValueError):
        fuse_signals({k: v for k, v in text.items() if k != "chunk"}, {}, replace(w, prop_base="chunk"), None, cites)


# ---- RM3 feedback (issue 18, session 7) -----------------------------------------------------------------------------
def test_rm3_weights_by_hand():
    from bench.precedents import rm3_weights

    q = ["knife", "murder", "murder", "appeal"]  # q(w): knife 0.25, murder 0.5, appeal 0.25
    fb = [(["murder", "knife", "blood", "blood"], 2.0), (["blood", "witness"], 1.0), (["zzz"], 0.0)]
    # P(w|R) ∝ 2 * tf/4 (doc 1) + 1 * tf/2 (doc 2): blood 2*2/4 + 1*1/2 = 1.5, murder 0.5, knife 0.5, witness 0.5
    # two best terms (ties by term): blood 1.5, knife 0.5 -> renormalised 0.75, 0.25; the score-0 judgment adds nothing
    got = rm3_weights(q, fb, fb_terms=2, orig=0.6)
    assert got == pytest.approx({"knife": 0.6 * 0.25 + 0.4 * 0.25, "murder": 0.6 * 0.5, "appeal": 0.6 * 0.25,
                                 "blood": 0.4 * 0.75})
    assert sum(got.values()) == pytest.approx(1.0)
    assert rm3_weights(q, fb, fb_terms=5, orig=1.0) == pytest.approx({"knife": 0.25, "murder": 0.5, "appeal": 0.25})
    kept = rm3_weights(q, fb, fb_terms=1, orig=0.0, keep=lambda t: t != "blood")
    assert kept == pytest.approx({"knife": 1.0})  # knife, murder, witness tie at 0.5: the first term wins
    with pytest.raises(ValueError):
        rm3_weights(q, fb, orig=1.5)


def test_rm3_weight_zero_changes_nothing_and_needs_its_signal():
    from bench.precedents import rm3_key

    text = {"doc@0": {"A": 2.0, "B": 1.0}, "doc@0.75": {"A": 1.0, "B": 0.9}, "para_max": {"B": 1.0},
            "para_sum": {}, rm3_key(10, 20, 0.5): {"B": 3.0, "C": 1.0}}
    w = PrecedentWeights(doc=1.0, para=0.0, doc_b=0.75)
    plain = fuse_signals({k: v for k, v in text.items() if not k.startswith("rm3")}, {}, w)
    assert fuse_signals(text, {}, w) == plain == fuse_signals(text, {}, replace(w, rm3_docs=5, rm3_orig=0.7))
    got = dict(fuse_signals(text, {}, replace(w, rm3=1.0)))
    assert got == pytest.approx({"A": 1.0, "B": 0.9 + 1.0, "C": 1.0 / 3.0})
    with pytest.raises(ValueError):
        fuse_signals(text, {}, replace(w, rm3=1.0, rm3_terms=50))  # that variant was not computed
