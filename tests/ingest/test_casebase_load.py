"""The case-base loader (legal_rag.ingest.casebase): AILA judgments read in place with their cited sections, the
corpus's other judgments through the judgment path, and the leakage guard against test queries."""

from __future__ import annotations

import pytest

from legal_rag.ingest.casebase import (
    KNOWN_LEAKS, LEAK_CONTAINMENT, TEST_QUERY_IDS, TRAIN_QUERY_IDS, containment, leak_guard, load_casebase,
    read_aila_casedocs, read_aila_queries, shingles,
)
from legal_rag.ingest.statute_cites import find_statute_refs, find_statute_refs_by_paragraph
from legal_rag.types import StatuteRef


def ipc(*secs: str) -> tuple[StatuteRef, ...]:
    return tuple(StatuteRef("IPC", s) for s in secs)


@pytest.mark.parametrize("text, want", [
    ("convicted under section 302 read with section 34 of the Indian Penal Code", ipc("302", "34")),
    ("convicted u/s 302/34 IPC", ipc("302", "34")),
    ("charged u/s 498-A r/w 34 I.P.C.", ipc("498A", "34")),
    ("offences punishable under Ss. 302 and 201, I.P.C.", ipc("302", "201")),
    ("his statement under Section 161 Cr.P.C. was recorded", (StatuteRef("CrPC", "161"),)),
    # an Article of the Constitution is no section of the six Acts: the grammar reads it (other_act), cites omit it
    ("it offends Article 21", ()),
])
def test_aila_prose_forms_are_read_by_the_one_grammar(text, want):
    assert find_statute_refs(text) == want


@pytest.mark.parametrize("text, want", [
    ("it offends Articles 14 and 21 of the Constitution", (StatuteRef("Constitution", "14"),
                                                           StatuteRef("Constitution", "21"))),
    ("Art. 20(1) bars it; u/s 302 IPC", (StatuteRef("Constitution", "20"), StatuteRef("IPC", "302"))),
    ("a writ under Article 226 of the Constitution of India", (StatuteRef("Constitution", "226"),)),
    ("Art. 21A", (StatuteRef("Constitution", "21A"),)),
    ("Article 137 of the Limitation Act", ()),  # another Act's Article
    ("Article 400", ()),  # the Constitution ends at Article 395
])
def test_the_case_base_option_keeps_articles_of_the_constitution(text, want):
    assert find_statute_refs(text, articles=True) == want
    assert all(r.act != "Constitution" for r in find_statute_refs(text))  # the default (product index) does not


def test_a_short_name_defined_earlier_reaches_later_paragraphs_and_no_citation_crosses_a_paragraph():
    paras = ['Code of Criminal Procedure, 1973 (for short "the Code") applies.',
             "The appellant was convicted under Section 302",  # no Act here: the next paragraph's "IPC" is not its Act
             "IPC was read. A petition under Section 482 of the Code."]
    assert find_statute_refs(paras[2]) == ()  # alone, "the Code" is undefined
    assert find_statute_refs_by_paragraph(paras) == ((), (), (StatuteRef("CrPC", "482"),))
    assert find_statute_refs_by_paragraph(["u/s 302 IPC", "no number"]) == (ipc("302"), ())


def test_shingles_and_containment():
    assert shingles("A b c", 8) == {("a", "b", "c")}
    assert len(shingles(" ".join(f"w{i}" for i in range(10)), 8)) == 3
    q = {"q": " ".join(f"w{i}" for i in range(20))}
    docs = {"copy": "intro words " + q["q"] + " outro", "half": " ".join(f"w{i}" for i in range(10)), "none": "x y"}
    cont = containment(q, docs)
    assert cont["q"]["copy"] == 1.0 and 0 < cont["q"]["half"] < 0.5 and "none" not in cont["q"]
    rep = leak_guard(q, docs, ["q"])
    assert rep.dropped == ("copy",) and rep.matches == (("q", "copy", 1.0),)
    assert leak_guard(q, docs, []).dropped == ()  # measured and reported, not excluded


@pytest.fixture(scope="module")
def corpus_path(real_settings):
    return real_settings.corpus_path


def test_known_aila_paragraphs_cite_their_sections(corpus_path):
    judgments, paras = read_aila_casedocs(corpus_path, 60)
    assert [j.case_id for j in judgments] == [f"C{i}" for i in range(1, 61)]
    by = {(p.case, p.number): p for p in paras if p.number}
    # "charged with killing the deceased u/s. 302 of the Indian Penal Code (For short, IPC) ... u/s. 323 IPC ...
    # u/s. 307 IPC"
    assert "302 of the Indian Penal Code" in by["C6", "19"].text
    assert by["C6", "19"].cites == ipc("302", "323", "307")
    # "punishable u/s. 302 read with Ss. 34 and 498-A of the Indian Penal Code"
    assert by["C20", "9"].cites == ipc("302", "34", "498A")
    # "his examination under Section 313 of the Code": "the Code" is defined in an earlier paragraph of C54
    assert "Section 313 of the Code" in by["C54", "56"].text and find_statute_refs(by["C54", "56"].text) == ()
    assert StatuteRef("CrPC", "313") in by["C54", "56"].cites
    assert all(set(find_statute_refs(p.text)) <= set(p.cites) for p in paras)
    # Articles of the Constitution are kept (issue 13: AILA's statutes are mostly Articles): "did not offend Art. 14
    # of the Constitution"
    assert "Art. 14 of the Constitution" in by["C9", "4"].text and by["C9", "4"].cites == (StatuteRef("Constitution",
                                                                                                      "14"),)
    assert all(set(find_statute_refs(p.text, articles=True)) <= set(p.cites) for p in paras)


def test_eval_load_casedocs_reads_through_ingest(corpus_path):
    from legal_rag.eval.aila import load_casedocs

    j1, p1 = load_casedocs(corpus_path, 5)
    j2, p2 = read_aila_casedocs(corpus_path, 5, cites=False)
    assert (j1, p1) == (j2, p2) and all(p.cites == () for p in p1)


@pytest.fixture(scope="module")
def full(corpus_path):
    """All 2,914 AILA judgments (no other judgments: the guard is about the AILA queries)."""
    return load_casebase(corpus_path, others=((), ()))


def test_leakage_guard_drops_the_two_test_query_copies(full, corpus_path):
    judgments, paras, report = full
    cases = {j.case_id for j in judgments}
    assert report.dropped == tuple(sorted(c for c, _ in KNOWN_LEAKS.values()))  # ("C113", "C297")
    assert not {c for c, _ in KNOWN_LEAKS.values()} & cases and not {p.case for p in paras} - cases
    assert len(cases) == 2914 - 2
    found = {q: (c, v) for q, c, v in report.matches}
    assert set(found) == set(KNOWN_LEAKS) <= set(TEST_QUERY_IDS)
    for q, (c, v) in KNOWN_LEAKS.items():
        assert found[q][0] == c and found[q][1] == pytest.approx(v, abs=1e-3)
    # a wide gap between the copies and every other query (the threshold sits in it); no training query has one
    others = [v for q, (_, v) in report.best.items() if q not in KNOWN_LEAKS]
    assert max(others) < LEAK_CONTAINMENT / 4
    assert not [m for m in report.matches if m[0] in TRAIN_QUERY_IDS]
    assert set(read_aila_queries(corpus_path)) == set(TEST_QUERY_IDS) | set(TRAIN_QUERY_IDS)


def test_extra_texts_are_guarded_too(corpus_path):
    judgments, paras = read_aila_casedocs(corpus_path, 12, cites=False)
    victim = max((p for p in paras if p.case == "C7"), key=lambda p: len(p.text))
    kept, _, report = load_casebase(corpus_path, 12, others=((), ()), extra_texts=["unrelated words only", victim.text])
    assert report.dropped == ("C7",) and "C7" not in {j.case_id for j in kept}
    assert [m[:2] for m in report.matches] == [("extra:1", "C7")]


def test_corpus_judgments_join_through_the_judgment_path(real_settings, corpus_path):
    from legal_rag.ingest.corpus import load_corpus

    corpus = load_corpus(real_settings, only="judgment", progress=False)
    judgments, paras, _ = load_casebase(corpus_path, 20, others=(corpus.judgments, corpus.paragraphs))
    ids = [j.case_id for j in judgments]
    assert len(ids) == len(set(ids))
    aila = {f"C{i}" for i in range(1, 21)}
    # sc_ipc_selected/C4.txt is AILA's C4: read once, from the tar
    assert next(j for j in judgments if j.case_id == "C4").source == "C4.txt" and ids.count("C4") == 1
    from_corpus = [j for j in corpus.judgments if j.kind == "judgment" and j.case_id not in aila]
    assert from_corpus and {j.case_id for j in from_corpus} <= set(ids)
    extra = [p for p in paras if p.case not in aila]
    assert extra and all(set(find_statute_refs(p.text)) <= set(p.cites) for p in extra)
    assert any(p.cites for p in extra)
