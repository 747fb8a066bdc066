"""First Schedule parsing on small PDFs printed like the real ones (tests/ingest/schedule_factory.py) and on
hand-made table lines: rows, section numbers, lead-ins, further cases, "Ditto", amendment marks, the cache."""

from __future__ import annotations

import json

import pytest

from legal_rag.errors import CorpusError
from legal_rag.ingest.schedule_rows import build, dedupe, group, join_lines, parse_number, yes_no
from legal_rag.ingest.schedule_table import TableLine
from legal_rag.ingest.schedules import PARSER_VERSION, cached_schedule, parse_schedule
from legal_rag.types import StatuteRef

from .pdf_factory import text_pdf
from .schedule_factory import schedule_pdf

GAZETTE_ROWS = [
    ("49", ["Abetment of any offence,", "if the act abetted is", "committed."], ["Same as for offence", "abetted."],
     ["According as offence", "abetted is cognizable", "or non-cognizable."],
     ["According as", "offence abetted", "is bailable or", "non-bailable."],
     ["Court by which offence", "abetted is triable."]),
    ("264", ["Omission to apprehend, or", "sufferance of escape:\u2014"], [], [], [], []),
    ("", ["(a) in case of intentional", "omission or sufferance;"], ["Imprisonment for 3 years,", "or fine, or both."],
     ["Non-cognizable."], ["Bailable."], ["Magistrate of the first", "class."]),
    ("", ["(b) in case of negligent", "omission or sufferance."], ["Simple imprisonment for", "2 years, or fine."],
     ["Non-cognizable."], ["Bailable."], ["Any Magistrate."]),
    ("318(4)", ["Cheating and dishonestly", "inducing delivery of", "property."], ["Imprisonment for 7 years", "and fine."],
     ["Cognizable."], ["Non-bailable."], ["Magistrate of the first", "class."]),
    ("58 (a)", ["Concealing design."], ["Imprisonment for 7 years", "and fine."], ["Cognizable."], ["Non-bailable."],
     ["Court of Session."]),
    ("(b)", ["If offence be not committed."], ["Imprisonment for 3 years", "and fine."], ["Cognizable."], ["Bailable."],
     ["Court of Session."]),
]

INDIA_CODE_ROWS = [
    ("120B", ["Criminal conspiracy to commit", "a grave offence."], ["Same as for abetment."],
     ["According as the", "offence is", "cognizable or", "non-cognizable."], ["According as", "offence is", "bailable or",
                                                                              "non-bailable."],
     ["Court by", "which", "abetment is", "triable."]),
    ("", ["Any other criminal conspiracy."], ["Imprisonment for", "6 months, or fine."], ["N o n -cognizable."],
     ["Bailable."], ["Magistrate of", "the first class."]),
    ("121", ["Waging war against the", "Government of India."], ["Death, or imprisonment", "for life and fine."],
     ["Cognizable."], ["Non-bailable."], ["Court of", "Session."]),
    ("121A", ["Conspiring to commit certain", "offences against the State."], ["Imprisonment for life."], ["Ditto"],
     ["Ditto"], ["Ditto."]),
    ("^1[166A", ["Public servant disobeying", "direction under law."], ["Imprisonment for 2 years."], ["Cognizable"],
     ["^1[Bailable"], ["Any Magistrate.]"]),
    ("171-I", ["Failure to keep election", "accounts."], ["Fine of 500 rupees."], ["D i t t o"], ["Ditto"], ["Ditto"]),
    # printed with narrower columns 4 and 5, as IPC 172 on the CrPC's p.172 ("Non-cognizable Bailable Any Magistrate."
    # across the joints of the rule under the column numbers)
    ("172", ["Absconding to avoid service", "of summons."], ["Simple imprisonment for", "1 month."], ["Non-cognizable"],
     ["Bailable"], ["Any Magistrate."], (64, 97, 258, 357, 424, 492)),
]


@pytest.fixture(scope="module")
def gazette(tmp_path_factory):
    path = schedule_pdf(tmp_path_factory.mktemp("sched") / "bnss.pdf", GAZETTE_ROWS)
    return parse_schedule(path, "BNSS")


@pytest.fixture(scope="module")
def india_code(tmp_path_factory):
    path = schedule_pdf(tmp_path_factory.mktemp("sched") / "crpc.pdf", INDIA_CODE_ROWS, joints=True,
                        act="INDIAN PENAL CODE")
    return parse_schedule(path, "CrPC")


def test_gazette_layout_rows(gazette):
    assert (gazette.schedule, gazette.act, gazette.pages, gazette.problems) == ("BNSS", "BNS", (1, 1), ())
    assert gazette.methods == ((1, "gutters"),)  # no vertical rules and no joints: whitespace between columns
    assert [r.section for r in gazette.rows] == ["49", "264", "264", "318(4)", "58(a)", "58(b)"]
    assert [r.row for r in gazette.rows] == [1, 2, 3, 4, 5, 6]
    r = gazette.rows[3]
    assert r.ref == StatuteRef("BNS", "318", ("4",))
    assert (r.offence, r.punishment) == ("Cheating and dishonestly inducing delivery of property.",
                                         "Imprisonment for 7 years and fine.")
    assert (r.cognizable, r.bailable, r.court) == (True, False, "Magistrate of the first class.")
    assert (r.cognizable_text, r.bailable_text, r.page, r.source) == ("Cognizable.", "Non-bailable.", 1, "bnss.pdf")


def test_according_as_is_none(gazette):
    r = gazette.rows[0]
    assert (r.cognizable, r.bailable) == (None, None)
    assert r.cognizable_text == "According as offence abetted is cognizable or non-cognizable."
    assert r.court == "Court by which offence abetted is triable."


def test_lead_in_goes_before_each_clause_and_is_dropped(gazette):
    a, b = gazette.rows[1:3]
    assert a.offence == ("Omission to apprehend, or sufferance of escape:\u2014 (a) in case of intentional omission "
                         "or sufferance;")
    assert b.offence.startswith("Omission to apprehend, or sufferance of escape:\u2014 (b) in case of negligent")
    assert (a.continued, b.continued) == (False, True)
    assert (a.court, b.court) == ("Magistrate of the first class.", "Any Magistrate.")
    assert (b.cognizable, b.bailable) == (False, True)


def test_bare_clause_number_is_a_clause_of_the_section_above(gazette):
    a, b = gazette.rows[4:6]
    assert (a.ref, b.ref) == (StatuteRef("BNS", "58", ("a",)), StatuteRef("BNS", "58", ("b",)))
    assert (a.bailable, b.bailable) == (False, True)


def test_india_code_layout_rule_joints_ditto_and_amendment_marks(india_code):
    rows = india_code.rows
    assert (india_code.act, india_code.methods) == ("IPC", ((1, "rule joints"),))
    assert [r.section for r in rows] == ["120B", "120B", "121", "121A", "166A", "171-I", "172"]
    assert rows[1].continued and (rows[1].cognizable, rows[1].bailable) == (False, True)
    assert rows[1].cognizable_text == "Non-cognizable."  # letter-spaced "N o n -cognizable." closed up
    ditto = rows[3]
    assert ditto.ditto == (4, 5, 6)
    assert (ditto.cognizable, ditto.bailable, ditto.court) == (True, False, "Court of Session.")
    assert ditto.punishment == "Imprisonment for life."  # its own column 3, not the row above's
    amended = rows[4]
    assert amended.ref == StatuteRef("IPC", "166A")
    assert (amended.bailable_text, amended.court) == ("Bailable", "Any Magistrate.")  # ¹[ ... ] marks dropped
    chain = rows[5]
    assert (chain.ref, chain.section) == (StatuteRef("IPC", "171I"), "171-I")
    assert chain.ditto == (4, 5, 6)  # "D i t t o" too
    assert (chain.cognizable, chain.bailable, chain.court) == (True, True, "Any Magistrate.")
    own = rows[6]  # its own column widths: the boundaries moved for this row only
    assert (own.cognizable_text, own.bailable_text, own.court) == ("Non-cognizable", "Bailable", "Any Magistrate.")
    assert own.punishment == "Simple imprisonment for 1 month."


def test_a_pdf_without_the_schedule_headings_is_refused(tmp_path):
    path = text_pdf(tmp_path / "plain.pdf", [["THE SECOND SCHEDULE", "FORM No. 1"]])
    with pytest.raises(CorpusError, match="FIRST SCHEDULE"):
        parse_schedule(path, "BNSS")


def test_cache_is_keyed_by_content_and_version_and_is_read_back(tmp_path):
    pdf = schedule_pdf(tmp_path / "s.pdf", GAZETTE_ROWS[:1] + GAZETTE_ROWS[4:5])
    first = cached_schedule(pdf, "BNSS", tmp_path / "cache")
    files = list((tmp_path / "cache").iterdir())
    assert len(files) == 1 and files[0].name.startswith("BNSS-") and files[0].name.endswith(f"-v{PARSER_VERSION}.json")
    data = json.loads(files[0].read_text(encoding="utf-8"))
    data["rows"][1]["court"] = "Read from the cache."
    files[0].write_text(json.dumps(data), encoding="utf-8")
    again = cached_schedule(pdf, "BNSS", tmp_path / "cache")
    assert again.rows[1].court == "Read from the cache." and again.rows[0] == first.rows[0]
    schedule_pdf(pdf, GAZETTE_ROWS[4:5])  # other bytes: another key, parsed afresh
    assert [r.section for r in cached_schedule(pdf, "BNSS", tmp_path / "cache").rows] == ["318(4)"]
    assert len(list((tmp_path / "cache").iterdir())) == 2


# ---- the row grammar on hand-made lines -------------------------------------------------------------------------
def _line(top: float, *cells: str, page: int = 1) -> TableLine:
    return TableLine(page, top, top + 8, tuple(cells) + ("",) * (6 - len(cells)))


def test_cells_printed_lower_than_their_row_and_a_punishment_running_into_the_next_row():
    # IPC 376DB / 376E as printed on CrPC p.190: the number one line above the row's text; 376DB's punishment runs
    # on, with no gap, beside 376E's first line; 376E's punishment starts with a capital after a full stop
    lines = [_line(500, "376DB"),
             _line(510, "", "Gang rape on woman under twelve", "Imprisonment for life", "Cognizable", "Non-bailable",
                   "Court of"),
             _line(520, "", "years of age.", "which shall mean", "", "", "Session."),
             _line(530, "376E", "Repeat offenders.", "natural life or with death.", "Cognizable", "Non-bailable",
                   "Court of"),
             _line(540, "", "", "Imprisonment for life", "", "", "Session."),
             _line(550, "", "", "or with death.")]
    rows, problems = build(*group(lines, "x.pdf")[:1], "CrPC", "IPC", "x.pdf")
    assert problems == []
    assert [(r.section, r.punishment) for r in rows] == [
        ("376DB", "Imprisonment for life which shall mean natural life or with death."),
        ("376E", "Imprisonment for life or with death.")]
    assert [r.offence for r in rows] == ["Gang rape on woman under twelve years of age.", "Repeat offenders."]


def test_ditto_with_no_row_above_is_reported_not_invented():
    rows, problems = build(*group([_line(100, "302", "Murder.", "Ditto", "Cognizable", "Non-bailable", "Court.")],
                                  "x.pdf")[:1], "CrPC", "IPC", "x.pdf")
    assert rows[0].punishment == "Ditto" and rows[0].ditto == ()
    assert [p.kind for p in problems] == ["schedule_ditto"]


def test_a_line_printed_twice_is_read_once():
    a = _line(103.4, "372", "Selling a minor", "Ditto", "Ditto", "Ditto", "A n y Mag i st ra te.")
    b = _line(111.6, "372", "Selling a minor", "Ditto", "Ditto", "Ditto", "Any Magistrate.")
    (only,) = dedupe([a, b])
    assert only.top == 111.6 and only.cells[5] == "Any Magistrate."
    assert len(dedupe([a, _line(130, "373", "Buying a minor")])) == 2


@pytest.mark.parametrize("lines, joined", [
    (["Imprison-", "ment for life"], "Imprisonment for life"),
    (["Non-", "bailable."], "Non-bailable."),
    (["one-", "half of the term"], "one-half of the term"),
    (["the Vice-", "President"], "the Vice-President"),
    (["or means [except as", "provided in section 122(2)]."], "or means [except as provided in section 122(2)]."),
    (["[Non-bailable"], "Non-bailable"),
    (["Any Magistrate.]"], "Any Magistrate."),
    (["Non- cognizable"], "Non-cognizable"),
    ([], ""),
])
def test_join_lines(lines, joined):
    assert join_lines(lines) == joined


@pytest.mark.parametrize("text, word, value", [
    ("Cognizable.", "cognizable", True),
    ("Non-cognizable.", "cognizable", False),
    ("Cognizable (only on the complaint of the victim).", "cognizable", True),
    ("According as offence abetted is cognizable or non-cognizable.", "cognizable", None),
    ("Non-bailable", "bailable", False),
    ("Bailable.", "bailable", True),
    ("Non-cognizable", "bailable", None),  # what the CrPC prints in IPC 222's bailable column
    ("", "bailable", None),
])
def test_yes_no(text, word, value):
    assert yes_no(text, word) is value


@pytest.mark.parametrize("cell, printed, ref", [
    ("318(4)", "318(4)", StatuteRef("BNS", "318", ("4",))),
    ("61(2)(a)", "61(2)(a)", StatuteRef("BNS", "61", ("2", "a"))),
    ("58 (a)", "58(a)", StatuteRef("BNS", "58", ("a",))),
    ("[120B", "120B", StatuteRef("BNS", "120B")),
    ("171-I", "171-I", StatuteRef("BNS", "171I")),
    ("(b)", "501(b)", StatuteRef("BNS", "501", ("b",))),
])
def test_parse_number(cell, printed, ref):
    assert parse_number(cell, StatuteRef("BNS", "501", ("a",)), "BNS") == (printed, ref)


def test_parse_number_refuses_text():
    assert parse_number("CHAPTER VI", None, "IPC") is None
    assert parse_number("(b)", None, "IPC") is None  # a bare clause with no section above
