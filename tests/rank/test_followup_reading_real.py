"""A first message that states facts of its own with pronouns ("he cut my arm ...") is read as a question that
stands alone, so the section ranker chooses its provision; the rules had read it as a follow-up and, with no previous
turn, answered nothing (issue 29: "plain fact patterns"). Real index, real query embedder, shipped weights."""

from __future__ import annotations

import pytest

from legal_rag.law import is_followup
from legal_rag.law.question import analyse

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("question, section", [
    ("He cut my arm with a broken bottle outside the dhaba, eight stitches", "BNS 118"),
    ("my landlord says he will burn my shop if I complain", "BNS 351"),
])
def test_a_first_message_with_facts_of_its_own_gets_a_provision_chosen(real_pipeline, question, section):
    assert is_followup(analyse(question, concordance=real_pipeline.concordance))  # what the rules read
    answer = real_pipeline.ask(question)
    assert not [n for n in answer.notices if n.kind == "follow-up"]
    assert answer.suggestions and answer.head, answer.text[:300]
    assert f"{answer.head[0].ref.act} {answer.head[0].ref.section}" == section, answer.text[:300]


def test_after_a_fact_pattern_facts_of_their_own_are_not_answered_for_the_previous_provision(real_pipeline):
    first = real_pipeline.ask("Someone took 2 lakh from me promising a railway job and vanished. Which section?")
    second = real_pipeline.ask("He cut my arm with a broken bottle outside the dhaba, eight stitches", previous=first)
    assert not [n for n in second.notices if n.kind == "follow-up"]
    assert second.head and second.head[0].ref.section == "118", second.text[:300]
