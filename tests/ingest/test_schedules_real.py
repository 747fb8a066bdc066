"""The First Schedules of the real BNSS and CrPC PDFs (``real_schedules``: parsed once, cached by content hash).

Every expected value below was read off the printed page it names (the page's text, as pdfplumber extracts it,
is quoted in the comment); none comes from memory.
"""

from __future__ import annotations

import pytest

from legal_rag.law import Schedule, classify, default_section_sets
from legal_rag.types import StatuteRef

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def bnss(real_schedules):
    return next(sp for sp in real_schedules if sp.schedule == "BNSS")


@pytest.fixture(scope="module")
def crpc(real_schedules):
    return next(sp for sp in real_schedules if sp.schedule == "CrPC")


@pytest.fixture(scope="module")
def schedule(real_schedules):
    return Schedule(tuple(r for sp in real_schedules for r in sp.rows))


def test_both_schedules_found_by_their_headings(bnss, crpc):
    import pdfplumber

    from legal_rag.config import Settings

    for sp, act, heading in ((bnss, "BNS", "I.—OFFENCES UNDER THE BHARATIYA NYAYA SANHITA"),
                             (crpc, "IPC", "I.–OFFENCES UNDER THE INDIAN PENAL CODE")):
        assert sp.act == act and sp.problems == ()
        with pdfplumber.open(Settings().corpus_path / "statutes" / "pdf" / sp.source) as pdf:
            first = pdf.pages[sp.pages[0] - 1].extract_text()
            last = pdf.pages[sp.pages[1] - 1].extract_text()
        assert "THE FIRST SCHEDULE\nCLASSIFICATION OF OFFENCES" in first and heading in first
        assert "CLASSIFICATION OF OFFENCES AGAINST OTHER LAWS" in last
        assert sp.rows[0].page == sp.pages[0] and sp.rows[-1].page <= sp.pages[1]


def test_row_counts_are_in_a_sane_range(bnss, crpc):
    # Part I lists offences only: the BNS's run from s.49 (abetment) to s.357, the IPC's from s.109 to s.511;
    # sections with sub-section or further-case rows give more rows than sections
    for sp, first, last in ((bnss, "49", "357"), (crpc, "109", "511")):
        sections = {r.ref.section for r in sp.rows}
        assert 250 <= len(sections) <= len(sp.rows) <= 650
        assert sp.rows[0].ref.section == first and sp.rows[-1].ref.section == last
    assert all(r.act == "BNS" for r in bnss.rows) and all(r.act == "IPC" for r in crpc.rows)
    assert [r.row for r in bnss.rows] == list(range(1, len(bnss.rows) + 1))


def test_every_row_names_a_section_of_its_act(real_schedules):
    sets = default_section_sets()
    rows = [r for sp in real_schedules for r in sp.rows]
    assert [f"{r.act} {r.section} p.{r.page}" for r in rows if not sets.exists(r.ref.act, r.ref.section)] == []


def test_bns_316_2_is_non_bailable(schedule):
    # BNSS p.183: "316(2) Criminal breach of trust. Imprisonment for 5 years, Cognizable. Non-bailable. Magistrate
    # of the first / or fine, or both. class."
    (row,) = classify("BNS 316(2)", schedule)
    assert (row.schedule, row.page, row.offence) == ("BNSS", 183, "Criminal breach of trust.")
    assert (row.cognizable, row.bailable) == (True, False)
    assert (row.punishment, row.court) == ("Imprisonment for 5 years, or fine, or both.", "Magistrate of the first class.")


def test_bns_318_4_cognizable_non_bailable_first_class_magistrate(schedule):
    # BNSS p.183: "318(4) Cheating and dishonestly Imprisonment for 7 years Cognizable. Non-bailable. Magistrate of
    # the first / inducing delivery of and fine. class. / property."
    (row,) = classify(StatuteRef("BNS", "318", ("4",)), schedule)
    assert (row.section, row.page, row.cognizable, row.bailable) == ("318(4)", 183, True, False)
    assert row.offence == "Cheating and dishonestly inducing delivery of property."
    assert (row.punishment, row.court) == ("Imprisonment for 7 years and fine.", "Magistrate of the first class.")


def test_section_query_returns_every_sub_section_row(schedule):
    # BNSS p.183: "318(2) Cheating. Imprisonment for 3 years, Non-cognizable. Bailable. Any Magistrate." /
    # "318(3) Cheating a person whose ... Imprisonment for 5 years, Non-cognizable. Bailable. Any Magistrate." /
    # "318(4) ... Cognizable. Non-bailable. Magistrate of the first class."
    rows = classify("BNS 318", schedule)
    assert [(r.section, r.cognizable, r.bailable) for r in rows] == [
        ("318(2)", False, True), ("318(3)", False, True), ("318(4)", True, False)]
    assert classify("BNS 318(1)", schedule) == ()  # 318(1) defines cheating; the schedule has no row for it


def test_bns_103_triable_by_court_of_session(schedule):
    # BNSS p.163: "103(1) Murder. Death or imprisonment for Cognizable. Non-bailable. Court of Session." /
    # "103(2) Murder by group of five Death or with imprisonment Cognizable. Non-bailable. Court of Session."
    rows = classify("BNS 103", schedule)
    assert [r.section for r in rows] == ["103(1)", "103(2)"]
    assert {(r.court, r.cognizable, r.bailable, r.page) for r in rows} == {("Court of Session.", True, False, 163)}
    assert rows[0].punishment == "Death or imprisonment for life and fine."


def test_ipc_420_from_the_crpc_schedule_with_its_ditto_resolved(schedule):
    # CrPC p.193: "419 Cheating by personation . Ditto Cognizable Ditto Ditto." /
    # "420 Cheating and thereby dishonestly Imprisonment for 7 Ditto Non-bailable Magistrate / inducing delivery of
    # property, or years and fine. of the first / the making, alteration or class. / destruction of a valuable
    # security."  -- column 4 of 420 reads "Ditto": the row above says "Cognizable".
    (row,) = classify("IPC 420", schedule)
    assert (row.schedule, row.act, row.page, row.ditto) == ("CrPC", "IPC", 193, (4,))
    assert (row.cognizable, row.cognizable_text, row.bailable) == (True, "Cognizable", False)
    assert row.punishment == "Imprisonment for 7 years and fine."
    assert row.court == "Magistrate of the first class."
    assert row.offence.startswith("Cheating and thereby dishonestly inducing delivery of property")


def test_a_row_of_dittos_takes_the_row_above(schedule):
    # CrPC p.168: "121 Waging or attempting to wage war, or abetting Death, or imprisonment Cognizable. Non-bailable.
    # Court of / ... Session." / "121A Conspiring to commit certain offences against Imprisonment for life, or Ditto
    # Ditto Ditto."
    (above,) = classify("IPC 121", schedule)
    (row,) = classify("IPC 121A", schedule)
    assert row.ditto == (4, 5, 6) and above.ditto == ()
    assert (row.cognizable, row.bailable, row.court) == (True, False, "Court of Session.") == (
        above.cognizable, above.bailable, above.court)
    assert row.punishment == "Imprisonment for life, or imprisonment for 10 years and fine."


def test_further_cases_printed_without_a_number(schedule):
    # BNSS p.161: "77 Voyeurism. Imprisonment for not less Cognizable. Bailable. Court of Session. ..." /
    # "Second or subsequent Imprisonment for not less Cognizable. Non-bailable. Court of Session. / conviction. than
    # 3 years but which may / extend to 7 years and fine."
    first, second = classify("BNS 77", schedule)
    assert (first.continued, second.continued) == (False, True)
    assert (first.bailable, second.bailable) == (True, False)
    assert second.offence == "Second or subsequent conviction."
    assert second.punishment == "Imprisonment for not less than 3 years but which may extend to 7 years and fine."


def test_rows_the_india_code_prints_out_of_line(schedule):
    # CrPC p.190 prints 376DB's number a line above its offence, and its punishment on into 376E's height:
    # "person's natural life and / 376DB with fine. / Gang rape on woman under twelve years Imprisonment for life
    # Cognizable Non-bailable Court of / of age. which shall mean Session.] / imprisonment for the / 376E Repeat
    # offenders. remainder of that person's Cognizable Non-bailable Court of / natural life and with fine Session.] /
    # or with death. / Imprisonment for life / which shall mean / imprisonment for the / remainder of that person’s /
    # natural life or with death."
    (db,) = classify("IPC 376DB", schedule)
    (e,) = classify("IPC 376E", schedule)
    assert db.offence == "Gang rape on woman under twelve years of age."
    assert db.punishment == ("Imprisonment for life which shall mean imprisonment for the remainder of that person's "
                             "natural life and with fine or with death.")
    assert e.offence == "Repeat offenders."
    assert e.punishment == ("Imprisonment for life which shall mean imprisonment for the remainder of that person’s "
                            "natural life or with death.")


def test_according_as_and_qualified_classifications(schedule):
    # BNSS p.158: "49 Abetment of any offence, Same as for offence According as offence According as offence Court
    # by which offence / ... abetted is cognizable abetted is bailable or abetted is triable."
    (row,) = classify("BNS 49", schedule)
    assert (row.cognizable, row.bailable) == (None, None)
    assert row.cognizable_text == "According as offence abetted is cognizable or non-cognizable."
    # BNSS p.160: "67 Sexual intercourse by Imprisonment for not Cognizable (only Bailable. Court of Session. /
    # husband upon his wife less than 2 years but on the complaint / ... of the victim)."
    (row,) = classify("BNS 67", schedule)
    assert (row.cognizable, row.bailable) == (True, True)
    assert row.cognizable_text == "Cognizable (only on the complaint of the victim)."
