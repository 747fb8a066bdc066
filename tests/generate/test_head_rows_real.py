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
