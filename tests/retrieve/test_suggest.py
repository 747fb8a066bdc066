"""Which questions are fact patterns, statute hits first for one asking which sections apply, the chunks that open
the suggested sections, and the suggestions panel (:mod:`legal_rag.retrieve.suggest`), on hand-made suggestions and
the real BPR&D concordance."""

from __future__ import annotations

import pytest

from legal_rag.law.question import analyse
from legal_rag.retrieve.suggest import is_fact_pattern, suggestion_hits
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


class Store:
    """An index stand-in: BNS 318 in two chunks, the second opening sub-section (4)."""

    def by_ref(self, act, section):
        from legal_rag.types import Chunk

        if (act, section) != ("BNS", "318"):
            return []
        return [Chunk(id="318-0", kind="statute", text="(1) Whoever ...", title="Cheating", source="s", pages=(1, 1),
                      part=0, ref=BNS318, meta=(("subs", "1,2,3"),)),
                Chunk(id="318-1", kind="statute", text="(4) Whoever ...", title="Cheating", source="s", pages=(1, 1),
                      part=1, ref=BNS318, meta=(("subs", "4"),))]


def test_suggestion_hits_open_the_chosen_limb():
    at4 = SectionSuggestion(BNS318, 0.8, 0, (), 0, 1, (IPC420,), StatuteRef("BNS", "318", ("4",)), p=0.8)
    whole = SectionSuggestion(BNS318, 0.8, 0, (), 0, 1, (IPC420,), p=0.8)
    assert [h.chunk.id for h in suggestion_hits([at4], Store())] == ["318-1"]
    assert [h.chunk.id for h in suggestion_hits([whole], Store())] == ["318-0"]
    hit = suggestion_hits([at4], Store())[0]
    assert (hit.stage, hit.rank, hit.score) == ("evidence", 1, 0.8)
    missing = SectionSuggestion(StatuteRef("BNS", "999"), 0.5, 0, (), 0, None, p=0.5)
    assert suggestion_hits([missing, at4], Store(), lead=2) == [hit]   # a section the index lacks is skipped
    assert suggestion_hits([at4], Store(), lead=0) == []
