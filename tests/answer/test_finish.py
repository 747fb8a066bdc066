"""``legal_rag.answer.finish``: what the answer carries besides its verified text, read from typed fields (the
draft's ``found_nothing``, the verification's ``withheld``, the question's analysis), never from the text's words."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

from legal_rag.answer import Context, finish
from legal_rag.config import load_settings
from legal_rag.generate import NOT_IN_SOURCES, generate
from legal_rag.law import Question, analyse, load_concordance
from legal_rag.retrieve import Filters
from legal_rag.types import Draft
from legal_rag.verify import verify

from tests.generate.fakes import cheating_hits

JUDGMENTS_ONLY = Filters(court="Supreme Court of India")


def _finish(draft: Draft, text: str, filters=JUDGMENTS_ONLY, offence_date=None):
    conc = load_concordance()
    question = Question(text, text, analyse(text, offence_date, concordance=conc), "statute")
    res = SimpleNamespace(concordance=conc, index=SimpleNamespace(id="test"))
    ver = verify(draft, equivalents=lambda ref: set())
    return finish(draft, ver, question, (), (), Context(load_settings(), res, filters))


def test_an_answer_that_found_nothing_under_judgments_only_filters_says_why():
    q = "What is the recipe for chocolate cake?"
    answer = _finish(generate(q, cheating_hits(), load_settings()), q)
    assert answer.text == NOT_IN_SOURCES
    assert [n.kind for n in answer.notices] == ["filters"] and "keep judgments only" in answer.notices[0].text
    assert not _finish(generate(q, cheating_hits(), load_settings()), q, filters=None).notices


def test_a_withheld_answer_found_nothing_too():
    q = "What is cheating?"
    draft = Draft(q, "Cheating is punished with death [1].", passages=tuple(cheating_hits()))
    answer = _finish(draft, q)
    assert answer.text.startswith(NOT_IN_SOURCES) and [n.kind for n in answer.notices] == ["filters"]


def test_an_abstention_that_names_the_missing_judgment_gets_no_filters_notice():
    q = "Summarise (2020) 1 SCC 100 on cheating"
    answer = _finish(generate(q, cheating_hits(), load_settings()), q)
    assert "(2020) 1 SCC 100" in answer.text and not answer.notices


def test_the_answer_carries_the_dates_it_applied():
    q = "My client cheated a buyer on 20 June 2024; the FIR was lodged on 5 July 2024. Which section applies?"
    answer = _finish(generate(q, cheating_hits(), load_settings()), q, filters=None)
    assert (answer.offence_date, answer.proceeding_date) == (dt.date(2024, 6, 20), dt.date(2024, 7, 5))
    later = _finish(generate(q, cheating_hits(), load_settings()), q, filters=None, offence_date="2024-08-01")
    assert later.offence_date == dt.date(2024, 8, 1)  # the date argument wins over the text


def test_markers_are_numbered_in_reading_order_with_their_passages_and_citations():
    from legal_rag.cite import cite

    hs = tuple(cheating_hits())
    q = "What is cheating and what replaced IPC 420?"
    text = "IPC 420 punished cheating [3]. BNS 318 now defines it [1, 3]."
    draft = Draft(q, text, passages=hs)
    ver = SimpleNamespace(text=text, citations=cite(text, hs).citations, problems=(), withheld=False)
    from legal_rag.verify import to_answer
    from legal_rag.answer.finish import in_reading_order

    before = to_answer(draft, ver)
    after = in_reading_order(before)
    assert after.text == "IPC 420 punished cheating [1]. BNS 318 now defines it [2, 1]."
    assert [h.chunk.id for h in after.passages] == [hs[2].chunk.id, hs[0].chunk.id, hs[1].chunk.id]
    # each citation still names its own chunk, now under its new number
    assert [(c.marker, c.chunk_id) for c in after.citations] == [
        (1, hs[2].chunk.id), (2, hs[0].chunk.id), (1, hs[2].chunk.id)]
    assert all(after.passages[c.marker - 1].chunk.id == c.chunk_id for c in after.citations)
    assert in_reading_order(after) == after
