"""The case base (legal_rag.index.casebase): BM25 over paragraphs, citation counts, atomic persistence; and its
build or load under <data_dir>/casebase (legal_rag.retrieve.casebase_build) on the real corpus (sampled)."""

from __future__ import annotations

from collections import Counter

import pytest

from legal_rag.index.casebase import CaseBase, CaseHit
from legal_rag.types import Judgment, Paragraph, StatuteRef

IPC302, IPC34, IPC498A = StatuteRef("IPC", "302"), StatuteRef("IPC", "34"), StatuteRef("IPC", "498A")


def _j(c: str) -> Judgment:
    return Judgment(c, f"title {c}", "Supreme Court of India", "1999", f"{c}.txt")


def _p(c: str, text: str, *cites: StatuteRef) -> Paragraph:
    return Paragraph(c, "", text, f"{c}.txt", (0, 0), cites)


@pytest.fixture
def small():
    js = [_j("A"), _j("B"), _j("C")]
    ps = [_p("A", "the husband poured kerosene and set the wife on fire over dowry", IPC302, IPC498A),
          _p("B", "cheating by promising a government job for money"),
          _p("A", "the wife was harassed for dowry", StatuteRef("IPC", "498A", ("1",))),
          _p("C", "murder with a common intention of all accused", IPC302, IPC34),
          _p("C", "the accused shared a common intention", IPC34)]
    return CaseBase.build(js, ps)


def test_search_ranks_paragraphs_and_excludes_cases(small):
    hits = small.search("dowry kerosene fire", 5)
    assert hits[0] == CaseHit("A", 0, hits[0].score) and hits[0].score > 0
    assert [(h.case, h.para) for h in hits] == [("A", 0), ("A", 1)]
    assert all(h.case != "A" for h in small.search("dowry kerosene fire common intention", 5, exclude={"A"}))
    assert small.search("government job", 1)[0].case == "B"
    assert small.search("zzz unknownword", 5) == [] and small.search("dowry", 0) == []
    assert small.paragraph_text("A", 1) == "the wife was harassed for dowry"


def test_counts_are_at_section_level(small):
    assert len(small) == 3 and small.n_paragraphs == 5
    assert small.case_cites("A") == {IPC302: 1, IPC498A: 2}  # 498A(1) counts as 498A
    assert small.case_cites("C") == {IPC302: 1, IPC34: 2} and small.case_cites("B") == {}
    assert small.paragraph_cites("A", 1) == (StatuteRef("IPC", "498A", ("1",)),)
    assert small.section_df(IPC302) == 2 and small.section_df(StatuteRef("IPC", "498A", ("1",))) == 1
    assert small.section_df(StatuteRef("BNS", "318")) == 0


def test_citing_lists_the_paragraphs_of_a_section_with_the_sub_sections_named(small):
    from legal_rag.index.casebase import SectionCite

    # section level: 498A and 498A(1) both; each paragraph with the references it makes, as named
    assert small.citing(StatuteRef("IPC", "498A", ("2",))) == (
        SectionCite("A", 0, (IPC498A,)), SectionCite("A", 1, (StatuteRef("IPC", "498A", ("1",)),)))
    assert [(s.case, s.para) for s in small.citing(IPC34)] == [("C", 0), ("C", 1)]
    assert small.citing(StatuteRef("BNS", "318")) == ()
    assert small.judgment("C").court == "Supreme Court of India" and small.judgment("C").date == "1999"


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="unknown case"):
        CaseBase.build([_j("A")], [_p("Z", "text")])
    with pytest.raises(ValueError, match="twice"):
        CaseBase.build([_j("A"), _j("A")], [])


def test_save_open_round_trip_is_atomic(small, tmp_path):
    path = tmp_path / "cb"
    small.save(path)
    small.save(path)  # overwriting leaves one directory, no temporaries
    assert [p.name for p in tmp_path.iterdir()] == ["cb"]
    back = CaseBase.open(path)
    assert back == small and back.judgment("A") == small.judgment("A")
    assert back.search("common intention", 3) == small.search("common intention", 3)
    assert back.case_cites("C") == small.case_cites("C")


# --- the real corpus (sampled: real_settings.casebase_limit) ------------------------------------------------------

@pytest.fixture(scope="module")
def real_cb(real_settings):
    from legal_rag.retrieve.casebase_build import ensure_casebase

    return ensure_casebase(real_settings, progress=False)


def test_real_casebase_is_the_sample_plus_corpus_judgments(real_cb, real_settings):
    cb, stats = real_cb
    limit = real_settings.casebase_limit
    assert limit is not None  # tests/conftest.py samples the AILA judgments
    aila = [c for c in cb.cases if cb.judgment(c).source == f"{c}.txt" and c.startswith("C")]
    assert {f"C{i}" for i in range(1, limit + 1)} - set(aila) == {"C113", "C297"}  # the leakage guard's two
    assert len(cb) > len(aila)  # the corpus's other judgments (SCR, DHC PDFs) joined
    assert stats["cases"] == len(cb) and stats["paragraphs"] == cb.n_paragraphs and stats["cites"] > 0


def test_real_search_finds_the_judgment_a_paragraph_came_from(real_cb):
    cb, _ = real_cb
    tried = 0
    for case in cb.cases[::25]:
        paras = cb.paragraphs(case)
        if not paras:
            continue
        i = max(range(len(paras)), key=lambda k: len(paras[k].text))
        if len(paras[i].text) < 400:
            continue
        top = cb.search(paras[i].text, 3)
        # its own paragraph, or one printing the very same words (the High Courts' bail orders repeat their
        # conditions word for word from one order to the next)
        assert (top[0].case, top[0].para) == (case, i) or cb.paragraphs(top[0].case)[top[0].para].text == \
            paras[i].text, case
        assert cb.search(paras[i].text, 3, exclude={case})[0].case != case
        tried += 1
    assert tried >= 5


def test_real_counts_agree_with_paragraphs(real_cb):
    cb, _ = real_cb
    df: Counter = Counter()
    for case in cb.cases:
        per: Counter = Counter()
        for k, p in enumerate(cb.paragraphs(case)):
            assert cb.paragraph_cites(case, k) == p.cites
            per.update({r.base for r in p.cites})
        assert cb.case_cites(case) == dict(per)
        df.update(per.keys())
    assert df and all(cb.section_df(r) == n for r, n in df.items())
    assert df[IPC302] == max(df.values())  # murder is the most cited section among criminal appeals


def test_real_round_trip_and_cache(real_cb, real_settings):
    from legal_rag.retrieve.casebase_build import ensure_casebase, open_casebase

    cb, stats = real_cb
    again, st2 = ensure_casebase(real_settings, progress=False)
    assert st2["cached"] and st2["key"] == stats["key"] and again == cb
    assert open_casebase(real_settings) == cb
    assert open_casebase(real_settings.model_copy(update={"casebase": False})) is None
    assert open_casebase(real_settings.model_copy(update={"casebase_limit": 7})) is None  # other inputs: not built
    q = "the accused was convicted under section 302 read with section 34 IPC for the murder of the deceased"
    assert again.search(q, 10) == cb.search(q, 10)


def test_real_sections_of_rules_regulations_and_ordinances_are_cited_as_another_instrument(real_cb):
    """A judgment's "Article 207 of the Regulations" or "section 6 of the Ordinance" names an instrument none of
    ours is: its citation is another Act's, never a Constitution article or a section of ours."""
    import re

    from legal_rag.law import find_refs

    cb, _ = real_cb
    mention = re.compile(r"(?:[Ss]ections?|[Ss]s?\.|[Aa]rticles?|[Aa]rts?\.)\s*\d{1,3}[A-Z]?(?:\s*\(\w{1,3}\))*"
                         r"\s+of\s+the\s+(?:Rules|Regulations?|Ordinance)\b")
    seen = 0
    for case in cb.cases:
        for p in cb.paragraphs(case):
            for m in mention.finditer(p.text):
                (f,) = find_refs(m.group(0))
                assert f.status == "other_act" and f.act_text.split()[-1] in ("Rules", "Regulation", "Regulations",
                                                                              "Ordinance"), (case, m.group(0))
                seen += 1
    assert seen >= 10, seen  # 14 in the sample of tests/conftest.py
