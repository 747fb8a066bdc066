"""The citation prior of precedent search (issue 18): party normalisation, title matching on both parties, counting
in-citations from other judgments (unit), and the chunk/prior signals in the CombSUM."""

from __future__ import annotations

import math

import pytest

from legal_rag.retrieve.precedents import (PrecedentWeights, citation_counts, citation_prior, fuse_signals,
                                           party_key, title_key)


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
