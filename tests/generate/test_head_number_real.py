"""A bare number in a classification question (issue 14): "Which court tries 103?" takes the reading the First
Schedules list (the code of the era first) and the head says which reading was assumed; questions that write a
sub-section ("Is 318(4) cognizable?", "Is 316(2) bailable?") keep their own reading. Real index and schedules."""

from __future__ import annotations

import pytest

from legal_rag.law.classify import classify, read_plain_number
from legal_rag.retrieve.route import analyse_question
from legal_rag.types import StatuteRef

pytestmark = pytest.mark.slow


def test_which_court_tries_103_reads_the_scheduled_section_and_says_so(real_pipeline):
    sched = real_pipeline.schedule
    rows = classify(StatuteRef("BNS", "103"), sched)
    assert rows and not classify(StatuteRef("IPC", "103"), sched)  # only the BNS's 103 is a scheduled offence
    answer = real_pipeline.ask("Which court tries 103?")
    first = answer.head[0]
    assert first.ref == StatuteRef("BNS", "103")
    assert first.line.startswith('Read "103" as BNS 103, the section of that number the First Schedules list '
                                 '(the law in force today): BNS 103')
    assert rows[0].court.rstrip(". ") in first.line and f"p. {rows[0].page}" in first.line
    assert answer.text.startswith(first.line)


def test_an_offence_date_before_july_2024_reads_the_ipc_and_names_the_other_reading(real_pipeline):
    sched = real_pipeline.schedule
    ipc, bns = classify(StatuteRef("IPC", "302"), sched), classify(StatuteRef("BNS", "302"), sched)
    assert ipc and bns  # both schedules list a section 302 (different offences)
    answer = real_pipeline.ask("Which court tries 302?", offence_date="2023-05-01")
    first = answer.head[0]
    assert first.ref == StatuteRef("IPC", "302")
    assert first.line.startswith('Read "302" as IPC 302, the section of that number the First Schedules list (the '
                                 f'code in force on the offence date); BNS 302 ({bns[0].offence.rstrip(". ")}) is '
                                 'the other reading')


@pytest.mark.parametrize("question, ref", [("Is 318(4) cognizable?", StatuteRef("BNS", "318", ("4",))),
                                           ("Is 316(2) bailable?", StatuteRef("BNS", "316", ("2",)))])
def test_a_written_sub_section_keeps_its_reading(real_pipeline, question, ref):
    answer = real_pipeline.ask(question)
    assert answer.head[0].ref == ref and not answer.head[0].line.startswith("Read ")


@pytest.mark.parametrize("question", ["Which court tries murder?", "Is theft of Rs 500 bailable?",
                                      "Is it bailable if the punishment is 7 years?", "Which court tries 103 and 104?",
                                      "What is the punishment under 103?", "Is IPC 420 bailable?"])
def test_no_plain_number_is_read_outside_its_case(real_pipeline, question):
    a = analyse_question(question, concordance=real_pipeline.concordance)
    assert read_plain_number(a, real_pipeline.schedule, real_pipeline.concordance) is a
