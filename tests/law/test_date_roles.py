"""Date roles (issue 31): a date's role comes from what it is attached to -- the act or the proceeding of its own
clause -- never from a cue word elsewhere in the question; a month is read as its days; an unclear date is read by the
named rules and the reading is said; an ``offence_date`` argument reads as the same date written in the text."""

from datetime import date

import pytest

from legal_rag.law.question import (CLAUSE_BREAKS, UNCLEAR_READINGS, QuestionDate, analyse, choose_dates, clause_of,
                                    find_dates)
from legal_rag.law.read import read_question
from legal_rag.law.classify import Schedule


def roles(text):
    return [(d.text, d.role) for d in find_dates(text)]


@pytest.mark.parametrize("text, want", [
    # the act is dated; the FIR is told in the next sentence
    ("The treasurer kept Rs 2 lakh of the society's money entrusted to him on 03.04.2024. An FIR is to be lodged "
     "today.", [("03.04.2024", "offence")]),
    # the date first, the act after it in the same clause
    ("On 03/04/2024 the treasurer was entrusted with the society's money. The FIR will be lodged.",
     [("03/04/2024", "offence")]),
    # a proceeding dated, the act undated in another sentence
    ("My neighbour beat my son. The FIR was registered on 2 August 2024.", [("2 August 2024", "proceeding")]),
    # two dates, each by its own clause
    ("The agent took the deposit on 22nd of May 2024 and the police arrested him on August 9, 2024.",
     [("22nd of May 2024", "offence"), ("August 9, 2024", "proceeding")]),
    ("The FIR lodged on 10-09-2024 is about a bike taken away on 28-06-2024.",
     [("10-09-2024", "proceeding"), ("28-06-2024", "offence")]),
    # a month and year
    ("Someone hacked my bank account in February 2025.", [("February 2025", "offence")]),
    ("Bail was refused in Sept. 2024", [("Sept. 2024", "proceeding")]),
    # the elliptical clause repeats the act before it
    ("He slapped her on 5 June 2024 and again on 3 July 2024.", [("5 June 2024", "offence"), ("3 July 2024", "offence")]),
    # "after" and "till" are prepositions here, not the start of another clause
    ("A colleague stalked me after work on June 15, 2024.", [("June 15, 2024", "offence")]),
    ("My servant took Rs 40,000 from the till on 25.06.2024.", [("25.06.2024", "offence")]),
    # a clause with no cue of its own
    ("Cash vanished from the locker on 14.05.2024. An FIR is being lodged.", [("14.05.2024", "unknown")]),
])
def test_role_by_the_clause_the_date_stands_in(text, want):
    assert roles(text) == want


def test_a_cue_in_another_sentence_never_decides():
    # the same sentence with and without a proceeding sentence after it: the date's role does not change
    act = "The clerk siphoned the funds entrusted to him on 19.06.2024."
    assert roles(act) == roles(act + " The FIR is being registered now.") == [("19.06.2024", "offence")]


def test_clause_of_keeps_the_dots_of_a_date_and_cuts_at_sentences_and_conjunctions():
    text = "He took it on 12.05.2024. The FIR came later and he was arrested."
    s = text.index("12.05.2024")
    lo, hi = clause_of(text, s, s + 10)
    assert text[lo:hi] == "He took it on 12.05.2024"
    assert [m.group(0).strip() for m in CLAUSE_BREAKS.finditer(text)] == [".", "later", "and", "."]


def test_a_month_is_read_as_its_days_and_said():
    a = analyse("My phone was snatched in March 2025. Which sections apply?")
    (d,) = a.dates
    assert (d.value, d.until, d.precision, d.words()) == (date(2025, 3, 1), date(2025, 3, 31), "month", "March 2025")
    assert a.offence_date == date(2025, 3, 1) and a.substantive_era == "new" and a.offence_words == "March 2025"
    assert a.date_notes == ('Read "March 2025" as a month (1-31 March 2025): all its days are on or after 1 July 2024.',)
    old = analyse("My phone was snatched in June 2024. Which sections apply?")
    assert old.substantive_era == "old" and old.acts_first == ("IPC", "BNS")


def test_a_span_across_the_cutoff_decides_nothing_and_says_so():
    d = QuestionDate(date(2024, 6, 20), "mid-2024", (0, 8), "offence", "stole", date(2024, 7, 10))
    assert d.era() is None
    c = choose_dates((d,), "offence", True)
    assert c.offence is None and "spans 1 July 2024" in c.notes[0]


def test_offence_before_the_cutoff_and_fir_after():
    a = analyse("My tenant forged my signature on 11.03.2024 and the FIR was registered on 14.08.2024. What offence?")
    assert (a.offence_date, a.proceeding_date) == (date(2024, 3, 11), date(2024, 8, 14))
    assert (a.substantive_era, a.procedural_era) == ("old", "new")
    assert a.date_notes == ()


def test_the_earliest_date_of_a_role_decides_and_acts_on_both_sides_are_said():
    a = analyse("He threatened me on 20 August 2024 and on 15 April 2024 he had extorted Rs 50,000. Which sections?")
    assert a.offence_date == date(2024, 4, 15) and a.substantive_era == "old"
    assert any("both sides of 1 July 2024" in n and "15 April 2024" in n for n in a.date_notes)


def test_an_unclear_date_is_read_by_the_named_rules_and_the_reading_is_said():
    assert [r.role for r in UNCLEAR_READINGS] == ["offence", "offence", "proceeding"]
    facts = analyse("Cash vanished from the locker on 14.05.2024 after the servant left; he stole it. What now?")
    # the date's clause has no cue, but the question tells what happened: the date of the facts
    assert facts.offence_date == date(2024, 5, 14) and facts.proceeding_date is None
    (note,) = facts.date_notes
    assert note.startswith('Nothing beside "14.05.2024" says whether it is the date of the act or of a proceeding: '
                           "read as the offence date (the question tells what happened)")
    procedure = analyse("What is the procedure to record a statement on 14.05.2024?")
    assert procedure.proceeding_date == date(2024, 5, 14) and procedure.offence_date is None
    assert "read as the proceeding date (the question asks about procedure)" in procedure.date_notes[0]


def test_an_unclear_date_left_over_is_said_not_applied():
    a = analyse("He cheated me on 3 April 2024; on 9 Sept 2024 the shop was shut. Which sections apply?")
    assert a.offence_date == date(2024, 4, 3)
    assert a.date_notes == ('Nothing beside "9 Sept 2024" says what it dates; it was not applied (the dates applied: '
                            "offence 3 April 2024).",)


@pytest.mark.parametrize("written, bare, when", [
    ("The cashier misappropriated the funds entrusted to him on 17.06.2024. The FIR is being lodged. What offence?",
     "The cashier misappropriated the funds entrusted to him. The FIR is being lodged. What offence?", "2024-06-17"),
    ("In January 2025 my cousin was kidnapped. Which sections apply?",
     "My cousin was kidnapped. Which sections apply?", "2025-01-01"),
])
def test_the_offence_date_argument_reads_as_the_same_date_in_the_text(written, bare, when):
    text, arg = analyse(written), analyse(bare, offence_date=when)
    for f in ("offence_date", "proceeding_date", "substantive_era", "procedural_era", "era", "kind", "acts_first"):
        assert getattr(text, f) == getattr(arg, f), f
    # the argument given beside the same date in the text changes nothing and adds no note
    both = analyse(written, offence_date=when)
    assert (both.offence_date, both.era, both.proceeding_date) == (text.offence_date, text.era, text.proceeding_date)
    assert not any("is applied, not the date" in n for n in both.date_notes)


def test_an_argument_that_differs_from_the_text_wins_and_is_said():
    a = analyse("She stole my purse on 2 May 2024. Which section?", offence_date="2024-09-01")
    assert a.offence_date == date(2024, 9, 1) and a.era == "new"
    assert a.date_notes == ('The offence date given (2024-09-01) is applied, not the date in the question '
                            '("2 May 2024").',)


def test_an_unclear_date_equal_to_the_argument_is_the_argument(conc):
    text = "Cash vanished from the locker on 14.05.2024. An FIR is being lodged."
    a = analyse(text, offence_date="2024-05-14", concordance=conc)
    assert (a.offence_date, a.proceeding_date) == (date(2024, 5, 14), None) and a.date_notes == ()


def test_the_reading_is_a_notice_of_the_question(conc):
    q = read_question("Cash vanished from the locker on 14.05.2024. An FIR is being lodged.", concordance=conc,
                      schedule=Schedule(()), limit=2000)
    dated = [n.text for n in q.notices if n.kind == "date"]
    assert dated == list(q.analysis.date_notes) and len(dated) == 1
    assert "read as the proceeding date" in dated[0] and "If it is the offence date, the IPC governs" in dated[0]
