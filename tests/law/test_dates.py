"""The one date grammar (legal_rag/law/dates.py), read by the question analysis and by judgment headers."""

from datetime import date

import pytest

from legal_rag.ingest.citations_meta import parse_date
from legal_rag.law.dates import date_spans, first_date
from legal_rag.law.question import find_dates


@pytest.mark.parametrize("text, want", [
    ("2024-06-20", date(2024, 6, 20)),
    ("on 3 March 2024", date(2024, 3, 3)),
    ("20 Jun 2024", date(2024, 6, 20)),
    ("2nd of August, 2024", date(2024, 8, 2)),
    ("24 February, 2025", date(2025, 2, 24)),
    ("12  May  2006", date(2006, 5, 12)),
    ("JANUARY 31, 2020", date(2020, 1, 31)),
    ("Sept. 14, 2021", date(2021, 9, 14)),
    ("dated 12.09.2024", date(2024, 9, 12)),
    ("14-06-2024", date(2024, 6, 14)),
    ("31/07/1980", date(1980, 7, 31)),
    ("Act of 25 October 1860", date(1860, 10, 25)),
])
def test_each_form(text, want):
    assert first_date(text) == want
    assert parse_date(text) == want.isoformat()


def test_impossible_and_out_of_range_dates_are_skipped():
    assert date_spans("31.02.2024 and 30.02.2023") == []
    assert first_date("31.02.2024, then 01.03.2024") == date(2024, 3, 1)
    assert first_date("in 2024 the Act came into force") is None
    assert first_date("12.09.1799") is None
    assert parse_date("no date here") == ""


def test_spans_are_in_order_and_never_overlap():
    text = "cheated on 20 Jun 2024, FIR on 05.07.2024; hearing 2024-08-01"
    spans = date_spans(text)
    assert [d for _, _, d in spans] == [date(2024, 6, 20), date(2024, 7, 5), date(2024, 8, 1)]
    assert [text[s:e] for s, e, _ in spans] == ["20 Jun 2024", "05.07.2024", "2024-08-01"]
    assert all(spans[i][1] <= spans[i + 1][0] for i in range(len(spans) - 1))


def test_question_dates_and_judgment_dates_read_the_same_grammar():
    text = "The offence was committed on 2nd of August, 2024 and the FIR was lodged on 14-08-2024."
    assert [q.value for q in find_dates(text)] == [d for _, _, d in date_spans(text)]
    assert parse_date(text) == "2024-08-02"
    assert [q.role for q in find_dates(text)] == ["offence", "proceeding"]


@pytest.mark.parametrize("text, want", [
    ("the 9th day of October, 2024", date(2024, 10, 9)),
    ("27-Feb-2025", date(2025, 2, 27)),
    ("15th of June 2024", date(2024, 6, 15)),
    ("June 15, 2024", date(2024, 6, 15)),
    ("15/06/2024", date(2024, 6, 15)),
])
def test_more_day_forms(text, want):
    assert first_date(text) == want


def test_a_month_and_year_is_a_span_of_days_never_a_day():
    from legal_rag.law.dates import month_spans, read_dates

    assert first_date("in March 2025") is None and parse_date("in March 2025") == ""  # never a judgment's day
    (m,) = month_spans("stolen in March 2025")
    assert (m.first, m.last, m.precision) == (date(2025, 3, 1), date(2025, 3, 31), "month")
    assert [(d.first, d.precision) for d in read_dates("Feb. 2024, then 2 May 2024, then Dec 2025")] == [
        (date(2024, 2, 1), "month"), (date(2024, 5, 2), "day"), (date(2025, 12, 1), "month")]
    assert read_dates("the market 2024 report; he may 20 times") == []  # whole month names or their abbreviations
    (feb,) = month_spans("February 2024")
    assert feb.last == date(2024, 2, 29) and not feb.straddles(date(2024, 7, 1))
