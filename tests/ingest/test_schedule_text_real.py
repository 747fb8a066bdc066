"""The Acts' Schedules, forms and appendix on the real prints: never part of the last section, in the parse, in the
session's real index, or in what an answer cites (the First Schedules' rows reach answers as classification data,
cited "[First Schedule, BNSS, p. N]").

Last words are read from the prints: BNSS s.531(3) ("... for the extension of time.", Act 46 of 2023, p. 157), BSA
s.170(2) (p. 45), CrPC s.484(3) (p. 166), BNS s.358(4) (p. 102, above the Legislative Counsel's signature) and
IPC s.511, Illustration (b) (p. 112)."""

from __future__ import annotations

import re

import pytest

from legal_rag.ingest.statutes import parse_act
from legal_rag.types import StatuteRef

pytestmark = pytest.mark.slow

#: act -> (last section, its last words, its pages)
LAST = {"BNSS": ("531", "specified by this Sanhita or provisions are made in this Sanhita for the extension of time.",
                 (156, 157)),
        "BSA": ("170", "immediately before such commencement, as if this Adhiniyam had not come into force.", (45, 45)),
        "CrPC": ("484", "prescribed by this Code or provisions are made in this Code for the extension of time.",
                 (166, 166)),
        "BNS": ("358", "affect the general application of section 6 of the General Clauses Act,1897 with regard to the\n"
                       "effect of the repeal.", (102, 102)),
        "IPC": ("511", "Z's having nothing in his pocket. A is guilty under this section.", (112, 112))}

#: text that only a First Schedule's table, a form or the closing signature prints (never a section's words)
NOT_A_SECTIONS = {
    "classification columns": re.compile(r"\b(?:Non-)?[Cc]ognizable\.?\s+(?:Non-)?[Bb]ailable\b"),
    "abetment row": re.compile(r"According as offence abetted is"),
    "schedule notes": re.compile(r"EXPLANATORY NOTES|I\.\s*[—–-]\s*OFFENCES UNDER THE|CLASSIFICATION OF OFFENCES"),
    "form heading": re.compile(r"^\s*(?:\d{1,2}\[)?FORM\s+No\.?\s*\d", re.M),
    "form seal": re.compile(r"\(Seal of the Court\)"),
    "signature": re.compile(r"Legislative Counsel to the Govt"),
}


@pytest.fixture(scope="module")
def acts(parsed_acts):
    """act -> :class:`~legal_rag.ingest.statutes.StatutePrint` of the real print (pages extracted once per session)."""
    return {act: parse_act(act, p.result.pages, p.result.source) for act, p in parsed_acts.items()}


@pytest.mark.parametrize("act", list(LAST))
def test_the_last_section_ends_with_its_own_words(acts, act):
    number, words, pages = LAST[act]
    last = acts[act].sections[-1]
    assert last.ref == StatuteRef(act, number) and last.pages == pages
    assert last.text.endswith(words), last.text[-300:]
    assert not [k for k, rx in NOT_A_SECTIONS.items() if rx.search(last.text)]


def test_the_schedules_are_units_of_their_own(acts):
    bnss, bsa, crpc = acts["BNSS"].schedules, acts["BSA"].schedules, acts["CrPC"].schedules
    first = bnss[0]
    assert first.citation == "BNSS, First Schedule (Classification of offences), pp. 158-189"
    assert "I.—OFFENCES UNDER THE BHARATIYA NYAYA SANHITA" in first.text
    assert "II.—CLASSIFICATION OF OFFENCES AGAINST OTHER LAWS" in first.text
    forms = bnss[1:]
    assert [u.form for u in forms] == [str(n) for n in range(1, 59)]
    assert {u.part for u in forms} == {"Second Schedule"} and forms[-1].pages == (249, 249)
    assert forms[0].citation == "BNSS, Second Schedule, Form No. 1 (Notice for appearance by the police), p. 190"
    assert forms[0].see == "section 35(3)" and forms[0].text.startswith("THE SECOND SCHEDULE\n(See section 522)")
    assert "Legislative Counsel" not in forms[-1].text and "DIWAKAR" not in forms[-1].text
    (cert,) = bsa
    assert cert.citation == "BSA, Schedule (Certificate), pp. 46-47" and cert.see == "section 63(4)(c)"
    assert [u.label for u in crpc][:2] == ["CrPC, First Schedule (Classification of offences)",
                                           "CrPC, Second Schedule, Form No. 1 (Summons to an accused person)"]
    assert crpc[-1].part == "Appendix" and crpc[-1].pages == (235, 237)
    assert "44A" in {u.form for u in crpc} and not acts["BNS"].schedules and not acts["IPC"].schedules


def test_the_build_reports_the_units_set_apart(real_build):
    report, _ = real_build
    assert dict(report.schedules) == {"BNSS": 59, "BSA": 1, "CrPC": 59}
    notes = {p.source: p.message for p in report.problems if p.kind == "set_apart"}
    assert notes["BNSS_2023_gazette_Act46.pdf"].startswith(
        "after section 531: BNSS, First Schedule (Classification of offences), pp. 158-189")


@pytest.mark.parametrize("act", list(LAST))
def test_the_indexed_last_section_ends_with_its_own_words(real_index, act):
    number, words, pages = LAST[act]
    chunks = sorted(real_index.by_ref(act, number), key=lambda c: c.part)
    assert chunks and all(c.pages == pages for c in chunks)
    assert chunks[-1].text.endswith(words.split("\n")[-1])
    assert real_index.sections()[StatuteRef(act, number)].text.endswith(words)


def test_no_section_chunk_holds_schedule_rows_forms_or_the_signature(real_index):
    found = [(k, str(c.ref)) for c in real_index.chunks().values() if c.ref is not None
             for k, rx in NOT_A_SECTIONS.items() if rx.search(c.text)]
    assert found == []


QUESTIONS = ["Is the offence of theft cognizable and bailable, and which court tries it?",
             "Classification of offences: is criminal intimidation a cognizable offence?",
             "Which court tries the offence of dowry death, and is it bailable?",
             "Which form is prescribed for a notice of appearance before the police under the BNSS?",
             "What must the certificate for an electronic record in the BSA Schedule contain?",
             "What does the First Schedule say about offences against other laws punishable with less than three "
             "years?"]


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_schedule_question_is_never_answered_as_the_last_section(real_pipeline, question, acts):
    pipe = real_pipeline
    hits = pipe.search(question)
    assert not [h.chunk.id for h in hits if h.chunk.ref is not None and h.chunk.ref.base == StatuteRef("BNSS", "531")]
    a = pipe.ask(question)
    cited = [c.ref for c in a.citations if c.ref is not None]
    assert StatuteRef("BNSS", "531") not in {r.base for r in cited}
    assert "531(3)" not in a.text
    # the classification is cited as the schedule, at a page of the schedule's own print
    first = {u.act: u.pages for u in (acts["BNSS"].schedules[0], acts["CrPC"].schedules[0])}
    shown = re.findall(r"First Schedule, (BNSS|CrPC), p{1,2}\. (\d+)", a.text)
    assert len(shown) == len(re.findall(r"First Schedule, (?:BNSS|CrPC)", a.text))
    assert all(first[s][0] <= int(n) <= first[s][1] for s, n in shown), shown
    assert all(first[r.schedule][0] <= r.page <= first[r.schedule][1] for h in a.head for r in h.rows)
