"""A bare section number (legal_rag.law.bare): every reading of a number written without its Act, ordered
by how many judgments of the case base cite it in each sense (counts passed in here), the tie rule only between
equal counts, a date or a named Act disambiguating as before; and the head giving each reading a line."""

from __future__ import annotations

import pytest

from legal_rag.generate.head import compose_head, governing_refs
from legal_rag.law import Schedule, bare_numbers, order_readings
from legal_rag.law.bare import RULE, RULES
from legal_rag.law.question import analyse
from legal_rag.types import ScheduleRow, StatuteRef

IPC323, BNS323 = StatuteRef("IPC", "323"), StatuteRef("BNS", "323")
BNS115_2 = StatuteRef("BNS", "115", ("2",))


def _row(act, section, sub=(), n=1, **kw) -> ScheduleRow:
    printed = section + "".join(f"({s})" for s in sub)
    base = dict(schedule="BNSS" if act == "BNS" else "CrPC", act=act, section=printed,
                ref=StatuteRef(act, section, sub), offence=f"Offence {printed}.", punishment="Imprisonment for 1 year.",
                cognizable=False, bailable=True, court="Any Magistrate.", cognizable_text="Non-cognizable.",
                bailable_text="Bailable.", source="x.pdf", page=100 + n, row=n)
    return ScheduleRow(**{**base, **kw})


#: a schedule listing IPC 323, BNS 323 and BNS 115(2) (IPC 323's successor), and IPC 376 alone of its number
SCHEDULE = Schedule((_row("IPC", "323", n=1), _row("BNS", "323", n=2, court="Magistrate of the first class."),
                     _row("BNS", "115", ("2",), n=3), _row("IPC", "376", n=4)))


def counts(table):
    return lambda ref: table.get(ref.base, 0)


def test_the_rules_are_one_named_table():
    assert [name for name, _ in RULES] == ["exists", "schedule", "acts", "date", "cases", "tie"]
    assert all(RULE[name] for name, _ in RULES)


@pytest.mark.parametrize("cited, first", [({IPC323: 9, BNS323: 2}, IPC323), ({IPC323: 2, BNS323: 9}, BNS323)])
def test_the_order_is_the_case_base_counts_whichever_code_is_newer(conc, cited, first):
    a = analyse("Is section 323 bailable?", concordance=conc)
    (b,) = bare_numbers(a, SCHEDULE, usage=counts(cited))
    assert b.ambiguous and b.refs[0] == first and set(b.refs) == {IPC323, BNS323}
    assert [r.cites for r in b.readings] == [9, 2]


def test_equal_counts_put_the_code_in_force_today_first_and_the_notice_says_so(conc):
    a = analyse("Is section 323 bailable?", concordance=conc)
    (b,) = bare_numbers(a, SCHEDULE, usage=counts({IPC323: 4, BNS323: 4}))
    assert b.refs == (BNS323, IPC323) and b.tied
    assert f"equal counts: {RULE['tie']}" in b.notice()


def test_equal_counts_before_the_cutoff_put_the_old_code_first(conc):
    dated = analyse("What is the procedure under section 161? The FIR was lodged on 3 March 2024.", concordance=conc)
    assert dated.procedural_era == "old"  # procedure codes follow the proceeding date
    refs = (StatuteRef("BNSS", "161"), StatuteRef("CrPC", "161"))
    assert [r.ref for r in order_readings(refs, dated, counts({}))] == [StatuteRef("CrPC", "161"),
                                                                        StatuteRef("BNSS", "161")]
    today = analyse("What is the procedure under section 161?", concordance=conc)
    assert [r.ref for r in order_readings(refs, today, counts({}))] == list(refs)


def test_without_a_case_base_the_tie_rule_orders_and_the_notice_says_no_counts(conc):
    a = analyse("Is section 323 bailable?", concordance=conc)
    (b,) = bare_numbers(a, SCHEDULE)
    assert b.refs == (BNS323, IPC323) and all(r.cites is None for r in b.readings)
    assert "No case base was counted" in b.notice() and "cited in" not in b.notice()


def test_a_classification_question_keeps_the_readings_the_schedules_list(conc):
    a = analyse("Is section 323 bailable?", concordance=conc)
    assert {r.ref.act for r in a.refs} == {"IPC", "CrPC", "BNS", "BNSS"}  # the grammar reads every Act's 323
    (b,) = bare_numbers(a, SCHEDULE, usage=counts({IPC323: 3}))
    assert set(b.refs) == {IPC323, BNS323}
    (one,) = bare_numbers(analyse("Is section 376 bailable?", concordance=conc), SCHEDULE, usage=counts({}))
    assert one.refs == (StatuteRef("IPC", "376"),) and not one.ambiguous


def test_another_question_keeps_the_readings_of_the_acts_it_searches(conc):
    a = analyse("What is the procedure under section 161?", concordance=conc)
    assert a.acts_first == ("BNSS", "CrPC")
    (b,) = bare_numbers(a, SCHEDULE, usage=counts({StatuteRef("CrPC", "161"): 5}))
    assert b.refs == (StatuteRef("CrPC", "161"), StatuteRef("BNSS", "161"))


@pytest.mark.parametrize("offence_date, only", [("2023-05-01", IPC323), ("2024-08-01", BNS323)])
def test_an_offence_date_leaves_the_reading_of_the_code_in_force_on_it(conc, offence_date, only):
    a = analyse("Is section 323 bailable?", offence_date, concordance=conc)
    (b,) = bare_numbers(a, SCHEDULE, usage=counts({IPC323: 1, BNS323: 9}))
    assert b.refs == (only,) and not b.ambiguous


@pytest.mark.parametrize("question", ["Is IPC 323 bailable?", "Is BNS 323 bailable?",
                                      "Is section 323 of the BNS bailable?", "Is s. 323 IPC cognizable?"])
def test_a_number_with_its_act_is_no_bare_number(conc, question):
    assert bare_numbers(analyse(question, concordance=conc), SCHEDULE, usage=counts({IPC323: 9})) == ()


def test_a_reading_that_does_not_exist_is_no_reading(conc):
    a = analyse("Is section 323 bailable?", concordance=conc)
    (b,) = bare_numbers(a, SCHEDULE, exists=lambda r: r != BNS323, usage=counts({}))
    assert b.refs == (IPC323,) and not b.ambiguous


def test_the_notice_names_each_reading_with_title_and_count_in_order(conc):
    a = analyse("Is section 323 bailable?", concordance=conc)
    (b,) = bare_numbers(a, SCHEDULE, usage=counts({IPC323: 25}))
    titles = {IPC323: "Punishment for voluntarily causing hurt", BNS323: "Dishonest removal of property"}
    text = b.notice(lambda r: titles.get(r, ""))
    assert text.startswith('"323" names a section in more than one code; both readings are given: IPC 323 '
                           '(Punishment for voluntarily causing hurt; cited in 25 judgments of the case base), then '
                           'BNS 323 (Dishonest removal of property; cited in 0 judgments of the case base). Ordered '
                           'by how many judgments of the case base cite the number in each sense.')
    assert "equal counts" not in text


def test_the_head_gives_every_reading_a_line_in_order_with_its_classification(conc):
    a = analyse("Is section 323 bailable?", concordance=conc)
    bare = bare_numbers(a, SCHEDULE, usage=counts({IPC323: 25}))
    assert governing_refs(a, (), SCHEDULE, bare=bare) == (IPC323, BNS323)
    assert len(governing_refs(a, (), SCHEDULE)) == 1  # without the bare numbers, one reading as before
    first, second = compose_head(a, concordance=conc, schedule=SCHEDULE, bare=bare)
    # IPC 323's reading: the law in force today leads (its official successor), with that section's classification
    assert first.ref == BNS115_2 and first.line.startswith(
        'Reading 1 of 2 of "323" (IPC 323, cited in 25 judgments of the case base): BNS 115(2) (formerly IPC 323)')
    assert "non-cognizable, bailable, triable by Any Magistrate [First Schedule, BNSS, p. 103]" in first.line
    assert second.ref == BNS323 and second.line.startswith(
        'Reading 2 of 2 of "323" (BNS 323, cited in 0 judgments of the case base): BNS 323')
    assert "triable by Magistrate of the first class [First Schedule, BNSS, p. 102]" in second.line
