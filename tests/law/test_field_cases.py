"""Field cases category d (shared/cases/field-cases.md: BL-26, 28, 29, 30, 31, 32, 35).

Expected sections come from the BPR&D table rows named in the comments; where the cases file and the tables
differ, the tables win.
"""

from legal_rag.law import find_refs, flag_superseded, lookup, parse_ref
from legal_rag.types import StatuteRef as R


def kinds(flags):
    return [f.kind for f in flags]


def test_bl26_bare_302_is_ambiguous_and_bns_302_is_not_murder(conc):
    (f,) = find_refs("What is the punishment under Section 302?", sections=conc.sections)
    assert f.status == "ambiguous" and R("IPC", "302") in f.readings and R("BNS", "302") in f.readings
    (flag,) = flag_superseded([f], "query", concordance=conc)
    assert flag.kind == "ambiguous" and flag.old == R("IPC", "302") and flag.new == (R("BNS", "103", ("1",)),)  # clean CSV #167-168
    assert "IPC 302 (Punishment for murder) → BNS 103(1)" in flag.note
    assert "BNS 302 (Uttering words" in flag.note and "← IPC 298" in flag.note  # clean CSV #411
    flags = flag_superseded(find_refs("302 BNS", sections=conc.sections), "query", concordance=conc)
    assert kinds(flags) == ["collision"] and "murder" in flags[0].note
    assert "natching" not in conc.predecessors(R("BNS", "302")).pairs[0].row.subject
    snatch = conc.predecessors(R("BNS", "304"))  # clean CSV #414: "304 | Snatching. | - | New addition."
    assert snatch.status == "new_provision" and snatch.pairs[0].row.subject == "Snatching."


def test_bl28_cheating_is_318_and_316_is_breach_of_trust(conc):
    assert conc.successors(R("IPC", "420")).targets == (R("BNS", "318", ("4",)),)  # #453
    assert conc.successors(R("IPC", "406")).targets == (R("BNS", "316", ("2",)),)  # #441
    assert all("breach of trust" in p.row.subject.lower() for p in conc.predecessors(R("BNS", "316")).pairs)
    assert conc.predecessors(R("BNS", "318", ("1",))).pairs[0].row.subject == "Cheating."  # #450


def test_bl29_ipc_420_is_bns_318_4_exactly(conc):
    r = lookup("What is the BNS equivalent of IPC 420?", conc)
    assert r.status == "ok" and r.correspondence.targets == (R("BNS", "318", ("4",)),)
    assert r.correspondence.rows[0].source_row.endswith("#453")
    bad = lookup("420 BNS", conc)
    assert bad.status == "invalid" and "358" in bad.message
    assert kinds(flag_superseded(find_refs("420 BNS", sections=conc.sections), "answer", concordance=conc)) == ["invalid"]


def test_bl30_498a_is_85_and_86(conc):
    a = conc.successors(R("IPC", "498A"))
    assert a.targets == (R("BNS", "85"), R("BNS", "86"))  # #149 and #150
    assert [p.row.subject for p in a.pairs] == [
        "Husband or relative of husband of a woman subjecting her to cruelty.", "Cruelty defined."]


def test_bl31_a_offence_before_cutoff_keeps_ipc_with_bnss_procedure(conc):
    refs = find_refs("cheating u/s 420 IPC; FIR under Section 154 CrPC", sections=conc.sections)
    flags = flag_superseded(refs, "query", "2024-06-20", proceeding_date="2024-07-05", concordance=conc)
    ipc, crpc = flags
    assert ipc.kind == "saved" and ipc.applies == "IPC" and ipc.new == (R("BNS", "318", ("4",)),)
    assert "BNS s.358" in ipc.note and "reference only" in ipc.note
    assert crpc.kind == "superseded" and crpc.applies == "BNSS" and crpc.new == (R("BNSS", "173"),)  # pairs #733


def test_bl31_b_offence_on_cutoff_under_ipc_447_504_is_flagged(conc):
    flags = flag_superseded(find_refs("registered under IPC 447/504", sections=conc.sections), "query", "2024-07-01",
                            concordance=conc)
    assert kinds(flags) == ["superseded", "superseded"] and {f.applies for f in flags} == {"BNS"}
    assert [f.new for f in flags] == [(R("BNS", "329", ("3",)),), (R("BNS", "352"),)]  # #479, #528
    assert flags[0].source_row.endswith("#479") and flags[1].source_row.endswith("#528")


def test_bl32_dropped_sections(conc):
    for sec in ("377", "497", "309"):
        r = lookup(f"IPC {sec}", conc)
        assert r.status == "ok" and r.correspondence.status == "no_counterpart" and r.correspondence.targets == ()
        (flag,) = flag_superseded([R("IPC", sec)], "query", concordance=conc)
        assert flag.kind == "no_counterpart" and flag.new == ()
    assert lookup("BNS 377", conc).status == "invalid"
    narrow = conc.predecessors(R("BNS", "226"))  # #335: "new", attempt to commit suicide to compel or restrain
    assert narrow.status == "new_provision" and "compel or restrain" in narrow.pairs[0].row.subject


def test_bl35_new_offences_have_no_ipc_antecedent_and_do_not_reach_back(conc):
    for sec in (R("BNS", "103", ("2",)), R("BNS", "111"), R("BNS", "112"), R("BNS", "113"), R("BNS", "304")):
        assert conc.predecessors(sec).status == "new_provision", sec
    flags = flag_superseded(find_refs("apply BNS 111 to a 2023 gang extortion", sections=conc.sections), "query",
                            "2023-03-01", concordance=conc)
    assert kinds(flags) == ["new_offence_retroactive", "collision"]
    assert "Art. 20(1)" in flags[0].note and flags[0].applies == "IPC"
    assert flags[1].old == R("IPC", "111") and flags[1].new == (R("BNS", "51"),)  # IPC 111 means abettor's liability (#111)


def test_bns_106_2_is_not_in_force(conc):
    (flag,) = flag_superseded(find_refs("BNS 106(2)", sections=conc.sections), "answer", concordance=conc)
    assert flag.kind == "not_in_force" and "S.O. 850(E)" in flag.note


def test_new_codes_in_post_2024_orders_are_not_superseded(conc):
    text = "the petition under Sections 483 and 528 of the Bharatiya Nagarik Suraksha Sanhita (BNSS), 2023"
    assert flag_superseded(find_refs(text, sections=conc.sections), "passage:order", "2025-06-01", concordance=conc) == ()


def test_unknown_date_names_the_successor_and_the_savings(conc):
    (flag,) = flag_superseded([parse_ref("s. 420 IPC", sections=conc.sections)], "passage:C81", concordance=conc)
    assert flag.kind == "superseded" and flag.applies == "BNS" and "before 1 July 2024" in flag.note
