"""``Concordance.counterparts``: the official counterparts of a provision, on real rows of the BPR&D tables.

Each expected value was read from the table row named in the comment (file line number; clean CSV =
BPRD_correspondence_BNS_to_IPC_clean.csv, pairs = official_correspondence_pairs_BPRD_via_leylegal.csv, both under
``corpus_path/mappings``).
"""

import csv

import pytest

from legal_rag.errors import RefError
from legal_rag.law import Concordance
from legal_rag.types import StatuteRef


def R(act, section, *sub):
    return StatuteRef(act, section, tuple(sub))


def test_one_old_section_one_new_sub_section(conc: Concordance):
    # clean CSV #453: "318 (4), Cheating and dishonestly inducing delivery of property., 420"
    assert conc.counterparts(R("IPC", "420")) == (R("BNS", "318", "4"),)
    assert conc.counterparts(R("IPC", "420"), level="section") == (R("BNS", "318"),)


def test_a_split_section_gives_both_new_sections_in_table_order(conc: Concordance):
    # #149 "85 ... 498A" and #150 "86, Cruelty defined., 498A Explanat ion": 498A bifurcated into 85 and 86
    assert conc.counterparts(R("IPC", "498A")) == (R("BNS", "85"), R("BNS", "86"))
    assert conc.counterparts(R("IPC", "498A"), level="section") == (R("BNS", "85"), R("BNS", "86"))


def test_a_section_no_row_names_has_none(conc: Concordance, corpus):
    with open(corpus / "mappings" / "BPRD_correspondence_BNS_to_IPC_clean.csv", encoding="utf-8", newline="") as f:
        ipc_column = [row["ipc_section"] for row in csv.DictReader(f)]
    assert not any("377" in cell for cell in ipc_column)  # the table is silent on IPC 377
    assert conc.query(R("IPC", "377")).status == "no_counterpart"
    assert conc.counterparts(R("IPC", "377")) == () == conc.counterparts(R("IPC", "377"), level="section")


def test_a_new_provision_has_none(conc: Concordance):
    # #180 "111, Organized crime., -, Newly added section"; #169 "103 (2), Punishment for murder., -"
    assert conc.query(R("BNS", "111")).status == "new_provision"
    assert conc.counterparts(R("BNS", "111")) == ()
    assert conc.counterparts(R("BNS", "103", "2")) == ()
    # #167-168: 103(1) <- 302; the section as a whole answers with its one mapped row
    assert conc.counterparts(R("BNS", "103")) == (R("IPC", "302"),)


def test_rows_are_selected_at_the_refs_own_precision(conc: Concordance):
    # #125 "64, Punishment for rape., 376(1) & 376(2)" (merged); #126 "65(1), ..., 376(3)"
    assert conc.counterparts(R("IPC", "376")) == (R("BNS", "64"), R("BNS", "65", "1"))
    assert conc.counterparts(R("IPC", "376"), level="section") == (R("BNS", "64"), R("BNS", "65"))
    assert conc.counterparts(R("IPC", "376", "3")) == (R("BNS", "65", "1"),)
    assert conc.counterparts(R("IPC", "376", "2")) == (R("BNS", "64"),)


def test_new_to_old(conc: Concordance):
    # #450-#453: 318(1) <- 415, 318(2) <- 417, 318(3) <- 418, 318(4) <- 420
    assert conc.counterparts(R("BNS", "318")) == (R("IPC", "415"), R("IPC", "417"), R("IPC", "418"), R("IPC", "420"))
    assert conc.counterparts(R("BNS", "318", "4")) == (R("IPC", "420"),)
    # #126 "65(1) <- 376(3)", #127 "65(2) <- 376AB": the section level drops 376(3)'s sub-section
    assert conc.counterparts(R("BNS", "65")) == (R("IPC", "376", "3"), R("IPC", "376AB"))
    assert conc.counterparts(R("BNS", "65"), level="section") == (R("IPC", "376"), R("IPC", "376AB"))


def test_the_procedure_codes_both_ways(conc: Concordance):
    # pairs #1039 "BNSS,482,CRPC,438"
    assert conc.counterparts(R("CrPC", "438")) == (R("BNSS", "482"),)
    assert conc.counterparts(R("BNSS", "482")) == (R("CrPC", "438"),)


def test_acts_outside_the_tables_and_sections_an_act_lacks_have_none(conc: Concordance):
    with pytest.raises(RefError):
        conc.query(R("Constitution", "21"))  # the tables do not know the Act: () below is a decision, not a catch
    assert conc.counterparts(R("Constitution", "21")) == ()
    assert conc.query(R("IPC", "999")).status == "invalid"
    assert conc.counterparts(R("IPC", "999")) == ()


def test_another_level_is_refused(conc: Concordance):
    with pytest.raises(ValueError):
        conc.counterparts(R("IPC", "420"), level="subsection")  # type: ignore[arg-type]


def test_counterparts_are_the_mapped_targets_of_every_ref_the_tables_print(conc: Concordance):
    refs = {x for p in conc.pairs for x in (p.old, p.new) if x is not None}
    refs |= {r.base for r in refs}
    assert len(refs) > 2000
    for r in refs:
        c = conc.query(r)
        want = c.targets if c.status == "mapped" else ()
        assert conc.counterparts(r) == want, r
        assert conc.counterparts(r, level="section") == tuple(dict.fromkeys(t.base for t in want)), r
