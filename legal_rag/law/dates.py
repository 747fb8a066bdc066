"""Calendar dates as Indian courts and users write them: the one date grammar of the project.

Read by the question analysis (:func:`legal_rag.law.question.find_dates`: offence and proceeding dates in a
question) and by judgment ingestion (:func:`legal_rag.ingest.citations_meta.parse_date`: the date of a judgment's
header). Pure functions over text; no I/O.

Forms (day first, as Indian courts print; a month by its name or its first three letters, "Sept." too):

* ``2024-06-20`` (ISO, the form of the UI's date field);
* ``3 March 2024``, ``20 Jun 2024``, ``2nd of August, 2024``, ``24 February, 2025``, ``12  May  2006``,
  ``15-Jun-2024``, ``the 15th day of June, 2024`` (the form of Indian pleadings);
* ``March 3, 2024``, ``JANUARY 31, 2020``;
* ``12.09.2024``, ``14-06-2024``, ``31/07/1980``.

A month and year alone (``March 2025``, ``in Sept. 2023``) is a month, not a day: :func:`month_spans` reads it
as the span of its days (1-31 March 2025), which :func:`read_dates` returns beside the days, and a reader decides by
the whole span or says it cannot (:meth:`DateSpan.straddles`). :func:`date_spans` (the days alone) is what a
judgment header's date is read by.

Years 1800-2099 (the IPC is of 1860). Impossible dates (31.02.2024) are skipped, never guessed.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date
from typing import Literal

#: month number by the first three letters of its English name
MONTHS: dict[str, int] = {m: i for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)}

_Y = r"(?P<y>(?:18|19|20)[0-9]{2})"
_MON = r"(?P<m>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
#: the forms, in priority order: where two overlap, the earlier form's match is kept
DATE_FORMS: tuple[re.Pattern[str], ...] = (
    re.compile(r"(?<![\d.])" + _Y + r"-(?P<mn>[0-9]{1,2})-(?P<d>[0-9]{1,2})(?![\d])"),
    re.compile(r"(?<![\d.])(?P<d>[0-9]{1,2})(?:st|nd|rd|th)?(?:\s+day)?(?:\s+of\s+|\s+|-)" + _MON + r",?(?:\s+|-)"
               + _Y + r"\b", re.I),
    re.compile(r"\b" + _MON + r"\s+(?P<d>[0-9]{1,2})(?:st|nd|rd|th)?,?\s+" + _Y + r"\b", re.I),
    re.compile(r"(?<![\d.])(?P<d>[0-9]{1,2})[./-](?P<mn>[0-9]{1,2})[./-]" + _Y + r"(?![\d])"),
)

#: a month and year with no day ("March 2025", "Sept. 2023", "June, 2024"): read by :func:`month_spans` only where no
#: day-date of :data:`DATE_FORMS` covers it
#: (month names whole or as their usual abbreviations: "market 2024" is no month)
MONTH_FORM = re.compile(r"\b(?P<m>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
                        r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?,?\s+" + _Y + r"\b", re.I)

Precision = Literal["day", "month"]


@dataclass(frozen=True)
class DateSpan:
    """A date as written: ``text[start:end]``, the days it may mean (``first`` .. ``last``, both included: the same
    day for a day-date, the month's first and last days for a month), ``precision`` which."""

    start: int
    end: int
    first: date
    last: date
    precision: Precision = "day"

    def straddles(self, day: date) -> bool:
        """Whether ``day`` falls inside the span after its first day (the span is partly before ``day``, partly on
        or after it: it cannot decide which side of ``day`` it is on)."""
        return self.first < day <= self.last


def date_spans(text: str) -> list[tuple[int, int, date]]:
    """Every calendar date in ``text`` as ``(start, end, date)`` character spans, in text order, none overlapping.

    ``date_spans("cheated on 20 Jun 2024, FIR on 05.07.2024")`` -> ``[(11, 22, date(2024, 6, 20)),
    (31, 41, date(2024, 7, 5))]``."""
    spans: list[tuple[int, int, date]] = []
    for rx in DATE_FORMS:
        for m in rx.finditer(text):
            if any(s < m.end() and m.start() < e for s, e, _ in spans):
                continue
            g = m.groupdict()
            mon = int(g["mn"]) if g.get("mn") else MONTHS[g["m"].lower()[:3]]
            try:
                spans.append((m.start(), m.end(), date(int(g["y"]), mon, int(g["d"]))))
            except ValueError:
                continue
    return sorted(spans)


def month_spans(text: str) -> list[DateSpan]:
    """Every month-and-year of ``text`` that no day-date (:func:`date_spans`) covers, as the span of its days, in
    text order. ``month_spans("in March 2025, FIR on 3 April 2025")`` -> ``[DateSpan(3, 13, date(2025, 3, 1),
    date(2025, 3, 31), "month")]``."""
    days = date_spans(text)
    out = []
    for m in MONTH_FORM.finditer(text):
        if any(s < m.end() and m.start() < e for s, e, _ in days):
            continue
        y, mon = int(m.group("y")), MONTHS[m.group("m").lower()[:3]]
        out.append(DateSpan(m.start(), m.end(), date(y, mon, 1), date(y, mon, calendar.monthrange(y, mon)[1]),
                            "month"))
    return out


def read_dates(text: str) -> list[DateSpan]:
    """Every date of ``text``, days (:func:`date_spans`) and months (:func:`month_spans`), in text order, none
    overlapping. ``read_dates("stolen on 2 May 2024, found in June 2024")`` -> a day (2 May 2024) and a month
    (1-30 June 2024)."""
    days = [DateSpan(s, e, d, d) for s, e, d in date_spans(text)]
    return sorted(days + month_spans(text), key=lambda d: d.start)


def impossible_dates(text: str) -> list[str]:
    """The date-shaped strings of ``text`` that are no calendar date, as written, in text order (a question that
    names one is told it was not read as a date). ``impossible_dates("on 31.02.2024 and 1.3.2024") ->
    ["31.02.2024"]``."""
    good = date_spans(text)
    out: list[tuple[int, str]] = []
    for rx in DATE_FORMS:
        for m in rx.finditer(text):
            if any(s < m.end() and m.start() < e for s, e, _ in good) or any(p == m.start() for p, _ in out):
                continue
            out.append((m.start(), m.group(0)))
    return [t for _, t in sorted(out)]


def first_date(text: str) -> date | None:
    """The first calendar date in ``text`` (:func:`date_spans`), or None."""
    spans = date_spans(text)
    return spans[0][2] if spans else None


__all__ = ["DATE_FORMS", "MONTHS", "MONTH_FORM", "DateSpan", "Precision", "date_spans", "first_date",
           "impossible_dates", "month_spans", "read_dates"]
