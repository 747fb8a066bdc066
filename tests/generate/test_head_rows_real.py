"""The head's punishment and classification come from the First Schedule row only, and only when the schedule
has a row (issue 14): a line whose provision no row lists (a procedure section, a definition) states no
punishment at all; a line with rows states each row's punishment as printed, cited to its page. Real index."""

from __future__ import annotations

import re

import pytest

from legal_rag.law.classify import classify

pytestmark = pytest.mark.slow

QUESTIONS = ("What replaced section 438 CrPC?", "What is the BNS equivalent of IPC 498A?",
             "Is 318(4) cognizable?", "BNS equivalent of IPC 376", "What is the punishment under section 85 BNS?")
PUNISH_WORDS = re.compile(r"\b(?:imprisonment|fine|rigorous|simple)\b")


@pytest.mark.parametrize("question", QUESTIONS)
def test_punishment_only_from_a_schedule_row(real_pipeline, question):
    answer = real_pipeline.ask(question)
    assert answer.head
    for h in answer.head:
        assert set(h.rows) <= set(classify(h.ref, real_pipeline.schedule))  # the line's own provision's rows
        body = h.line.split(" -- ", 1)[-1].lower() if " -- " in h.line else ""
        if not h.rows:
            assert "[first schedule" not in body and not PUNISH_WORDS.search(body), h.line
        else:
            for r in h.rows[:3]:
                assert r.punishment.rstrip(". ") in h.line and f"p. {r.page}]" in h.line


def test_a_section_no_schedule_lists_has_a_line_without_punishment(real_pipeline):
    answer = real_pipeline.ask("What replaced section 438 CrPC?")
    line = answer.head[0]
    assert line.rows == () and not classify(line.ref, real_pipeline.schedule)
    assert line.line.endswith("Direction for grant of bail to person apprehending arrest.")


@pytest.mark.parametrize("question, act, expected", [
    ("criminal breach of trust by a clerk or a servant", "BNS", ("316", ("4",))),
    ("is criminal breach of trust by a carrier or wharfinger bailable", "BNS", ("316", ("3",))),
    ("criminal breach of trust", "BNS", ("316", ("2",))),  # the bare name: the plain offence
    ("theft by a clerk or servant of property in possession of the master", "IPC", ("381", ())),
])
def test_a_qualified_offence_name_names_its_own_row(real_pipeline, question, expected, act):
    """A First Schedule name is named by the question when its opening words stand together and most of its
    qualifying words follow (issue 17: the head is in the model's prompt, so it must be the row asked about)."""
    from legal_rag.generate.head import offence_named

    ref = offence_named(question, real_pipeline.schedule, act)
    assert ref is not None and (ref.section, ref.sub) == expected


def test_qualifying_words_scattered_through_a_statement_of_facts_name_nothing_more(real_pipeline):
    from legal_rag.generate.head import offence_named

    facts = ("The accused, a servant of the bank, was charged with criminal breach of trust. Years later a clerk "
             "of the court, a public servant, found that the merchant had paid the agent and the banker in cash.")
    ref = offence_named(facts, real_pipeline.schedule, "BNS")
    assert ref is not None and (ref.section, ref.sub) == ("316", ("2",))  # only the name itself is in the text
