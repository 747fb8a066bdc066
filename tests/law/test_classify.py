"""Offence classification look-up (legal_rag.law.classify) and its place in the section look-up."""

from __future__ import annotations

import dataclasses

import pytest

from legal_rag.errors import RefError
from legal_rag.law import Schedule, classify, counterpart_rows, describe, format_lookup, lookup
from legal_rag.types import ScheduleRow, StatuteRef


def _row(act: str, section: str, sub: tuple[str, ...] = (), n: int = 1, **kw) -> ScheduleRow:
    printed = section + "".join(f"({s})" for s in sub)
    base = dict(schedule="BNSS" if act == "BNS" else "CrPC", act=act, section=printed,
                ref=StatuteRef(act, section, sub), offence=f"offence {printed}", punishment="Imprisonment for 7 years.",
                cognizable=True, bailable=False, court="Magistrate of the first class.",
                cognizable_text="Cognizable.", bailable_text="Non-bailable.", source="x.pdf", page=10 + n, row=n)
    return ScheduleRow(**{**base, **kw})


ROWS = (
    _row("BNS", "318", ("2",), 1, cognizable=False, bailable=True, cognizable_text="Non-cognizable.",
         bailable_text="Bailable.", court="Any Magistrate."),
    _row("BNS", "318", ("4",), 2),
    _row("BNS", "64", ("1",), 3, court="Court of Session."),
    _row("BNS", "77", (), 4),
    _row("BNS", "77", (), 5, continued=True, bailable=False, offence="Second or subsequent conviction."),
    _row("IPC", "420", (), 6, ditto=(4,)),
    _row("BNS", "49", (), 7, cognizable=None, bailable=None,
         cognizable_text="According as offence abetted is cognizable or non-cognizable.",
         bailable_text="According as offence abetted is bailable or non-bailable."),
)
SCHEDULE = Schedule(ROWS)


@pytest.mark.parametrize("query, sections", [
    ("BNS 318(4)", ["318(4)"]),
    ("BNS 318", ["318(2)", "318(4)"]),           # a whole section: every sub-section row
    ("BNS 318(1)", []),                          # a sub-section the schedule has no row for
    ("BNS 64(1)(a)", ["64(1)"]),                 # finer than the schedule: the row it falls under
    ("BNS 77", ["77", "77"]),                    # a further case comes with its section
    ("Section 420 IPC", ["420"]),
    ("IPC 420(1)", ["420"]),
    ("BNSS 482", []),                            # no offence of the BNS or IPC
])
def test_classify_is_sub_section_precise(query, sections):
    assert [r.section for r in classify(query, SCHEDULE)] == sections


def test_classify_takes_a_ref_and_refuses_text_without_one():
    assert classify(StatuteRef("IPC", "420"), SCHEDULE) == (ROWS[5],)
    with pytest.raises(RefError):
        classify("cheating", SCHEDULE)


def test_counterpart_rows_in_target_order_each_once():
    targets = (StatuteRef("BNS", "318", ("4",)), StatuteRef("BNS", "318"), StatuteRef("BNS", "999"))
    assert counterpart_rows(targets, SCHEDULE) == (ROWS[1], ROWS[0])


def test_describe_says_what_a_lawyer_asks():
    assert describe(ROWS[1]) == ("BNS 318(4): cognizable; non-bailable; triable by Magistrate of the first class; "
                                 "punishment: Imprisonment for 7 years. (BNSS First Schedule, p. 12)")
    assert describe(ROWS[6]).startswith("BNS 49: According as offence abetted is cognizable or non-cognizable; "
                                        "According as offence abetted is bailable or non-bailable;")
    assert "BNS 77 (further case): " in describe(ROWS[4])


def test_lookup_of_an_old_code_section_shows_its_row_and_its_successor_row(conc):
    res = lookup("IPC 420", conc, schedule=SCHEDULE)
    assert res.classification == (ROWS[5], ROWS[1])  # IPC 420 (CrPC schedule), then BNS 318(4) by the BPR&D table
    text = format_lookup(res)
    assert "classification: IPC 420: cognizable; non-bailable" in text
    assert "classification: BNS 318(4): cognizable; non-bailable" in text and "(BNSS First Schedule, p. 12)" in text


def test_lookup_of_a_new_code_section_shows_the_predecessor_row_after_its_own(conc):
    res = lookup("BNS 318(4)", conc, schedule=SCHEDULE)
    assert res.classification == (ROWS[1], ROWS[5])


def test_lookup_without_a_schedule_is_unchanged(conc):
    res = lookup("IPC 420", conc)
    assert res.classification == () and "classification" not in format_lookup(res)
    assert dataclasses.replace(res, classification=()) == res


def test_ambiguous_lookup_classifies_each_reading(conc):
    res = lookup("420", conc, schedule=SCHEDULE)
    ipc = next(r for r in res.readings if r.ref == StatuteRef("IPC", "420"))
    assert ipc.classification[0] == ROWS[5]


@pytest.mark.slow
def test_pipeline_lookup_on_the_real_schedules(tmp_path):
    """``legal-rag lookup "IPC 420"`` and ``"BNS 318(4)"``: cognizable / bailable / court / punishment with the
    schedule's page, for both codes (CrPC p.193: "420 Cheating and thereby dishonestly Imprisonment for 7 Ditto
    Non-bailable Magistrate"; BNSS p.183: "318(4) Cheating and dishonestly Imprisonment for 7 years Cognizable.
    Non-bailable. Magistrate of the first")."""
    from legal_rag.config import Settings
    from legal_rag.pipeline import Pipeline

    settings = Settings(data_dir=tmp_path / "data")
    if not (settings.corpus_path / "statutes" / "pdf").is_dir():
        pytest.skip("real corpus not found")
    pipe = Pipeline(settings)
    res = pipe.lookup("IPC 420")
    assert [(r.schedule, r.section, r.page) for r in res.classification] == [("CrPC", "420", 193),
                                                                            ("BNSS", "318(4)", 183)]
    text = format_lookup(res)
    assert ("classification: IPC 420: cognizable; non-bailable; triable by Magistrate of the first class; "
            "punishment: Imprisonment for 7 years and fine. (CrPC First Schedule, p. 193)") in text
    assert ("classification: BNS 318(4): cognizable; non-bailable; triable by Magistrate of the first class; "
            "punishment: Imprisonment for 7 years and fine. (BNSS First Schedule, p. 183)") in text
    res = pipe.lookup("BNS 318(4)")
    assert [(r.schedule, r.section) for r in res.classification] == [("BNSS", "318(4)"), ("CrPC", "420")]


def test_the_ui_look_up_shows_the_classification_table(conc):
    from legal_rag.ui.html import lookup_html

    html = lookup_html(lookup("IPC 420", conc, schedule=SCHEDULE))
    assert 'class="lr-rows lr-classification"' in html
    assert "<td>IPC 420</td>" in html and "<td>BNS 318(4)</td>" in html
    assert "<td>Cognizable.</td><td>Non-bailable.</td><td>Magistrate of the first class.</td>" in html
    assert "<td>BNSS First Schedule, p. 12</td>" in html
    assert "lr-classification" not in lookup_html(lookup("IPC 420", conc))
