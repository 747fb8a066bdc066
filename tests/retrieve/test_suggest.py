"""Which fact-pattern questions get section suggestions, how many lead, and the sub-section the precedents point to
(:mod:`legal_rag.retrieve.suggest`), on hand-made suggestions and the real BPR&D concordance."""

from __future__ import annotations

import pytest

from legal_rag.law.question import analyse
from legal_rag.retrieve.suggest import LONG_WORDS, SHORT_WORDS, is_fact_pattern, lead_for, sub_section
from legal_rag.types import Answer, SectionSuggestion, StatuteRef

BNS318, IPC420, IPC415 = StatuteRef("BNS", "318"), StatuteRef("IPC", "420"), StatuteRef("IPC", "415")


@pytest.fixture(scope="module")
def concordance():
    from legal_rag.config import Settings
    from legal_rag.law import load_concordance

    s = Settings()
    if not (s.corpus_path / "mappings").is_dir():
        pytest.skip("real corpus not found")
    return load_concordance(s.corpus_path)


def sug(ref=BNS318, n=5, rank=3, cases=("C1", "C2"), counterparts=(IPC415, IPC420)):
    return SectionSuggestion(ref, 1.0, n, cases, 10, rank, counterparts)


@pytest.mark.parametrize("question, expect", [
    ("My client was cheated of Rs 5 lakh by someone who promised a government job. Which sections apply?", True),
    ("What is the punishment for cheating?", True),
    ("What is the BNS equivalent of IPC 420?", False),          # names a section: a look-up
    ("What is the procedure for recording a confession?", False),  # procedure
    ("Which judgment held that Section 4 POCSO Act applies?", False),
])
def test_fact_pattern_questions(concordance, question, expect):
    assert is_fact_pattern(analyse(question, concordance=concordance)) is expect


def test_how_many_lead():
    short = " ".join(["word"] * (SHORT_WORDS - 1))
    mid = " ".join(["word"] * (SHORT_WORDS + 5))
    long = " ".join(["word"] * (LONG_WORDS + 1))
    assert lead_for([sug()], short) == 0                       # a short question: the statute text decides
    assert lead_for([sug()], mid) == 1                         # precedents and text agree
    assert lead_for([sug(n=1)], mid) == 0                      # too few precedents
    assert lead_for([sug(rank=None)], mid) == 0                # the text search never reached it
    assert lead_for([sug(rank=9)], mid) == 0
    assert lead_for([sug(n=0, rank=None)], long) == 2          # a long statement: precedents lead
    assert lead_for([], long) == 0


def test_lead_rule_constants_none_switch_a_branch_off(monkeypatch):
    import legal_rag.retrieve.suggest as sg

    mid = " ".join(["word"] * (SHORT_WORDS + 5))
    long = " ".join(["word"] * (LONG_WORDS + 1))
    monkeypatch.setattr(sg, "LONG_WORDS", None)       # no statement counts as long: the agreement rule decides
    assert lead_for([sug(n=0, rank=None)], long) == 0 and lead_for([sug()], long) == 1
    monkeypatch.setattr(sg, "MAX_DIRECT_RANK", None)  # the text rank is not asked
    assert lead_for([sug(rank=None)], mid) == 1
    monkeypatch.setattr(sg, "SHORT_WORDS", None)      # no one-ahead branch at all
    assert lead_for([sug()], mid) == 0


class Cites:
    """A case base stand-in: each case cites IPC 420 twice and IPC 415 once."""

    def case_cites(self, case):
        if case == "gone":
            raise KeyError(case)
        return {IPC420: 2, IPC415: 1, StatuteRef("IPC", "34"): 5}


def test_sub_section_from_the_most_cited_predecessor(concordance):
    # IPC 420 -> BNS 318(4) by the BPR&D table row; IPC 34 is not a predecessor of 318 and does not count
    assert sub_section(sug(), Cites(), concordance) == StatuteRef("BNS", "318", ("4",))
    assert sub_section(sug(cases=()), Cites(), concordance) == BNS318     # no precedent: the section itself
    assert sub_section(sug(cases=("gone",)), Cites(), concordance) == BNS318
    assert sub_section(sug(), None, concordance) == BNS318


def test_suggestions_panel_says_why_and_escapes():
    from legal_rag.ui.html import citations_panel, suggestions_html

    s = SectionSuggestion(BNS318, 1.0, 5, ("C1",), 10, 3, (IPC420,), StatuteRef("BNS", "318", ("4",)),
                          ("<b>A</b> v. State",))
    html = suggestions_html(Answer("q", "text", suggestions=(s,)))
    assert "BNS 318(4)" in html and "(formerly IPC 420)" in html
    assert "applied in 5 of the 10 most similar judgments; text match 3" in html
    assert "&lt;b&gt;A&lt;/b&gt; v. State" in html and "<b>A</b>" not in html
    assert "not a quote check" in html
    assert suggestions_html(Answer("q", "text")) == ""
    assert "Sections the facts point to" in citations_panel(Answer("q", "text", suggestions=(s,)))


def test_statutes_first_only_for_a_fact_pattern_asking_for_sections(concordance):
    from legal_rag.retrieve.suggest import statutes_first
    from legal_rag.types import Chunk, Hit

    def hit(kind, n):
        return Hit(Chunk(id=f"{kind}{n}", kind=kind, text="t", title="", source="s", pages=(1, 1)), 1.0, "rrf", n)

    hits = [hit("judgment", 1), hit("statute", 2), hit("judgment", 3), hit("statute", 4)]
    asks = analyse("I was cheated on 20 June 2024. Which section applies?", concordance=concordance)
    plain = analyse("dishonest intention at the time of making the promise in a complaint of cheating",
                    concordance=concordance)
    assert asks.asks_sections and not plain.asks_sections
    assert [h.chunk.id for h in statutes_first(hits, asks)] == ["statute2", "statute4", "judgment1", "judgment3"]
    assert statutes_first(hits, plain) == hits
    assert statutes_first(hits, None) == hits


def test_offence_suggestions_come_from_the_substantive_code(concordance):
    """A fact pattern's suggestions are BNS (or IPC for an earlier offence) only: a procedural section its
    precedents cite (BNSS 395, compensation; seen leading a job-scam answer on the full case base) is never the
    offence. find_sections is called with the substantive Acts as its filter."""
    from legal_rag.config import Settings
    import legal_rag.retrieve.sectionfind as sf
    from legal_rag.retrieve.suggest import suggest

    seen = {}

    def fake_find(question, index, casebase, settings, *, era, filters, concordance, limit, analysis=None):
        seen.update(era=era, act=filters.act)
        return ()

    real, sf.find_sections = sf.find_sections, fake_find
    try:
        a = analyse("My client was cheated of Rs 5 lakh by someone who promised a government job. Which sections "
                    "apply?", concordance=concordance)
        suggest(a.question, a, None, None, Settings(), concordance=concordance)
        assert seen == {"era": "new", "act": ("BNS", "IPC")}
        old = analyse("I was cheated on 20 June 2024. Which section applies?", concordance=concordance)
        suggest(old.question, old, None, None, Settings(), concordance=concordance)
        assert seen["era"] == "old"
        from legal_rag.retrieve.filters import Filters

        assert suggest(a.question, a, None, None, Settings(), concordance=concordance,
                       filters=Filters(act=("BNSS",))) == ()
    finally:
        sf.find_sections = real


def test_sub_section_ties_go_to_the_first_section_in_the_acts_order_whatever_the_order_read():
    """Two old sections cited equally often (IPC 147 and 148, each once) point to two sub-sections of BNS 191: the
    tie is decided by the Act's order (IPC 147 -> BNS 191(2)), the same however the citations were read."""
    from legal_rag.retrieve.suggest import sub_section
    from legal_rag.types import SectionSuggestion, StatuteRef

    class Table:
        def counterparts(self, ref):
            return {"147": (StatuteRef("BNS", "191", ("2",)),), "148": (StatuteRef("BNS", "191", ("3",)),)}[ref.section]

    class Cases:
        def __init__(self, order):
            self.order = order

        def case_cites(self, case):
            return {StatuteRef("IPC", n): 1 for n in self.order}

    s = SectionSuggestion(StatuteRef("BNS", "191"), 0.2, 1, ("C1",), 10, None,
                          counterparts=(StatuteRef("IPC", "147"), StatuteRef("IPC", "148")))
    got = {sub_section(s, Cases(order), Table()) for order in (("147", "148"), ("148", "147"))}
    assert got == {StatuteRef("BNS", "191", ("2",))}
