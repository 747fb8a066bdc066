"""The checks bench/schedule_agreement.py runs on every First Schedule row (legal_rag.eval.schedule), on small rows."""

from __future__ import annotations

import pytest

from legal_rag.config import Settings
from legal_rag.eval.schedule import (
    offence_agreement, pair_rows, punishment_agreement, row_label, section_exists,
)
from legal_rag.law import Schedule, default_section_sets, load_concordance
from legal_rag.types import ScheduleRow, Section, StatuteRef


def _row(act: str, section: str, sub: tuple[str, ...] = (), n: int = 1, **kw) -> ScheduleRow:
    base = dict(schedule="BNSS" if act == "BNS" else "CrPC", act=act, section=section + "".join(f"({s})" for s in sub),
                ref=StatuteRef(act, section, sub), offence="Cheating and dishonestly inducing delivery of property.",
                punishment="Imprisonment for 7 years and fine.", cognizable=True, bailable=False,
                court="Magistrate of the first class.", cognizable_text="Cognizable.", bailable_text="Non-bailable.",
                source="x.pdf", page=183, row=n)
    return ScheduleRow(**{**base, **kw})


SECTION = Section(StatuteRef("BNS", "318"), "Cheating.",
                  "(4) Whoever cheats and thereby dishonestly induces the person deceived to deliver any property "
                  "... shall be punished with imprisonment of either description for a term which may extend to "
                  "seven years, and shall also be liable to fine.", "bns.pdf", (86, 87))


@pytest.fixture(scope="module")
def conc():
    path = Settings().corpus_path
    if not (path / "mappings").is_dir():
        pytest.skip("shared corpus not found")
    return load_concordance(path)


def test_section_exists_names_the_rows_that_fail():
    rows = [_row("BNS", "318", ("4",)), _row("BNS", "359", n=2), _row("IPC", "498A", n=3), _row("IPC", "498Z", n=4)]
    assert [r.row for r in section_exists(rows, default_section_sets())] == [2, 4]


def test_offence_words_against_the_section():
    check = offence_agreement(_row("BNS", "318", ("4",)), SECTION)
    # cheating, dishonestly, inducing, delivery, property: "delivery" is not "deliver" to legal_rag.text.stem
    assert (check.coverage, check.heading, check.missing) == (0.8, 0.2, ("delivery",))
    other = offence_agreement(_row("BNS", "318", ("4",), offence="Lighthouse or seamark."), SECTION)
    assert other.coverage == 0.0 and set(other.missing) == {"lighthous", "seamark"}  # stemmed
    assert offence_agreement(_row("BNS", "318", ("4",), offence=""), SECTION).coverage is None
    assert offence_agreement(_row("BNS", "318", ("4",)), None).coverage is None


def test_punishment_terms_against_the_section():
    terms, missing = punishment_agreement(_row("BNS", "318", ("4",)), SECTION)
    assert terms == {"7 year", "fine"} and missing == frozenset()
    _, missing = punishment_agreement(_row("BNS", "318", ("4",), punishment="Imprisonment for life."), SECTION)
    assert missing == {"life"}
    assert punishment_agreement(_row("BNS", "318", ("4",), punishment="Same as for offence abetted."), SECTION) == (
        frozenset(), frozenset())


def test_pairs_follow_the_official_table_and_report_differences(conc):
    bns = _row("BNS", "318", ("4",), 1)
    ipc = _row("IPC", "420", (), 2, offence="Cheating and thereby dishonestly inducing delivery of property.")
    other = _row("IPC", "417", (), 3, offence="Cheating.", cognizable=False, bailable=True,
                 court="Any Magistrate.")
    (pair,) = pair_rows([bns], Schedule((bns, ipc, other)), conc)
    assert pair.ipc == ipc and (pair.cognizable, pair.bailable, pair.court) == (True, True, True)
    assert pair.source_row.startswith("BPRD_correspondence_BNS_to_IPC_clean.csv#")
    changed = _row("IPC", "420", (), 2, bailable=True, bailable_text="Bailable.", court="Any Magistrate")
    (pair,) = pair_rows([bns], Schedule((bns, changed)), conc)
    assert (pair.cognizable, pair.bailable, pair.court) == (True, False, False)
    new = _row("BNS", "111", ("2", "a"), 4)  # organised crime: "New" in the table, no IPC row to compare
    assert pair_rows([new], Schedule((new, ipc)), conc) == []


def test_second_conviction_rows_pair_with_each_other(conc):
    bns = _row("BNS", "77", (), 1, offence="Second or subsequent conviction.", continued=True,
               punishment="Imprisonment for not less than 3 years but which may extend to 7 years and fine.")
    first = _row("IPC", "354C", (), 2, offence="Voyeurism", bailable=True,
                 punishment="Imprisonment of not less than 1 year but which may extend to 3 years and with fine for "
                            "first conviction.")
    second = _row("IPC", "354C", (), 3, offence="", continued=True,
                  punishment="Imprisonment of not less than 3 years but which may extend 7 years and with fine for "
                             "second or subsequent conviction")
    (pair,) = pair_rows([bns], Schedule((bns, first, second)), conc)
    assert pair.ipc == second and pair.bailable


def test_row_label():
    assert row_label(_row("BNS", "318", ("4",), 384)) == "BNS 318(4) (BNSS p.183, row 384)"
    assert row_label(_row("BNS", "77", (), 40, continued=True)) == "BNS 77+ (BNSS p.183, row 40)"
