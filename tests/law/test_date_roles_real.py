"""Date roles through the real pipeline (issue 31): the date of what the accused did is the offence date whatever
proceeding the question also names, in whichever order; a month decides the era and is said; with an act before
1 July 2024 and an FIR after it the IPC governs the offence and the BNSS the procedure; an ``offence_date`` argument
gives the answer the same date in the text gives."""

from __future__ import annotations

import datetime as dt

import pytest

from legal_rag.types import StatuteRef

pytestmark = pytest.mark.slow

# the FIR is told right after the date, in the next sentence: it dates nothing
LAST = ("A tailor took an advance of Rs 60,000 from me on 22.05.2024. An FIR is being lodged for cheating. "
        "Which sections apply?")
FIRST = ("On 22.05.2024 a tailor took an advance of Rs 60,000 from me. An FIR is being lodged for cheating. "
         "Which sections apply?")


def date_notices(answer) -> list[str]:
    return [n.text for n in answer.notices if n.kind == "date"]


def test_the_act_date_last_with_an_fir_after_it_is_the_offence_date(real_pipeline):
    a = real_pipeline.ask(LAST)
    assert (a.offence_date, a.proceeding_date) == (dt.date(2024, 5, 22), None)
    assert not date_notices(a)  # the role is plain: "took ... on 22.05.2024"
    first = a.text.split("\n", 1)[0]
    assert "No offence date given" not in a.text
    substantive = [h for h in a.head if h.ref.act in ("IPC", "BNS")]
    assert substantive and all(h.ref.act == "IPC" for h in substantive), first  # an act before 1 July 2024
    assert "Offence date 22 May 2024 is before 1 July 2024" in substantive[0].rule


def test_the_same_facts_with_the_date_first_read_the_same(real_pipeline):
    last, first = real_pipeline.ask(LAST), real_pipeline.ask(FIRST)
    assert (first.offence_date, first.proceeding_date) == (last.offence_date, last.proceeding_date)
    lead = [h for h in first.head if h.ref.act in ("IPC", "BNS")]
    assert lead and lead[0].ref.act == "IPC" and "Offence date 22 May 2024 is before 1 July 2024" in lead[0].rule


def test_a_month_and_year_decides_the_era_and_is_said(real_pipeline):
    a = real_pipeline.ask("My bicycle was stolen from outside the gym in March 2025. Which sections apply?")
    assert a.offence_date == dt.date(2025, 3, 1)
    assert date_notices(a) == ['Read "March 2025" as a month (1-31 March 2025): all its days are on or after '
                               "1 July 2024."]
    lead = [h for h in a.head if h.ref.act in ("IPC", "BNS")]
    assert lead and lead[0].ref.act == "BNS"
    assert lead[0].rule.startswith("Offence date March 2025 is on or after 1 July 2024")


def test_offence_before_the_cutoff_fir_after_it_ipc_for_the_offence_bnss_for_procedure(real_pipeline):
    a = real_pipeline.ask("He forged my signature on a sale deed on 8 April 2024 and the FIR under IPC 465 was "
                          "registered on 19 August 2024 under CrPC 154. Which provisions govern?")
    assert (a.offence_date, a.proceeding_date) == (dt.date(2024, 4, 8), dt.date(2024, 8, 19))
    by_act = {h.ref.act: h for h in a.head}
    assert "IPC" in by_act and "BNS" not in by_act  # the forgery before 1 July 2024: the IPC
    assert "BNSS" in by_act and "CrPC" not in by_act  # the FIR after it: the BNSS
    assert by_act["IPC"].rule.startswith("Offence date 8 April 2024 is before 1 July 2024: IPC 465 governs")
    assert by_act["BNSS"].rule.startswith("Proceeding date 19 August 2024 is on or after 1 July 2024")
    assert StatuteRef("CrPC", "154") in by_act["BNSS"].counterparts


@pytest.mark.parametrize("written, bare, when", [
    ("Is IPC 406 bailable? The cash was entrusted to the cashier on 17.06.2024; an FIR is being lodged.",
     "Is IPC 406 bailable? The cash was entrusted to the cashier; an FIR is being lodged.", "2024-06-17"),
    ("Is IPC 406 bailable? The cash was entrusted to the cashier on 17.07.2024; an FIR is being lodged.",
     "Is IPC 406 bailable? The cash was entrusted to the cashier; an FIR is being lodged.", "2024-07-17"),
])
def test_the_offence_date_argument_gives_the_answer_the_same_date_in_the_text_gives(real_pipeline, written, bare,
                                                                                       when):
    text, arg = real_pipeline.ask(written), real_pipeline.ask(bare, offence_date=when)
    assert text.offence_date == arg.offence_date == dt.date.fromisoformat(when)
    assert text.proceeding_date == arg.proceeding_date
    assert [(h.ref, h.rule) for h in text.head] == [(h.ref, h.rule) for h in arg.head]
    assert text.text.split("\n", 1)[0] == arg.text.split("\n", 1)[0]
    assert not date_notices(text) and not date_notices(arg)
