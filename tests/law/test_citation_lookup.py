"""Look-up by citation and the party-name check (legal_rag.law.citation_lookup); pure, inline records."""

from legal_rag.law.citation_lookup import (CaseRecord, MetaRecord, case_id_citations, check_citation, citation_key,
                                           index_records, names_agree, record_named, titles_for)

ANWAR = CaseRecord("2020-7-SCR-150", "Mohd. Anwar v. The State (N.C.T. of Delhi)", ("[2020] 7 S.C.R. 150",),
                   "Supreme Court of India", "2020-08-19")
VITUS = CaseRecord("2024-INSC-479", "Frank Vitus v. Narcotics Control Bureau & Ors.",
                   ("[2024] 7 S.C.R. 97", "2024 INSC 479"), "Supreme Court of India", "2024-07-08")
OURS = index_records([ANWAR, VITUS])
ROW = MetaRecord("SHARIF AHMAD VS THE STATE OF UTTAR PRADESH", "2024-05-01", "Crl.A. No.-002357 - 2024", "3873/2017",
                 ("2024 INSC 363",))


def meta(c):
    return ROW if citation_key(c) == citation_key("2024 INSC 363") else None


def covers(c):  # the index lists the neutral citations of 2024
    return c.startswith("2024 INSC ")


def test_keys_and_ids():
    assert citation_key("[2020] 7 S.C.R. 150") == citation_key("[2020] 7 SCR 150")
    assert citation_key("(2019) 5 SCC 999") != citation_key("(2019) 5 SCC 9999")
    assert case_id_citations("2024-INSC-479") == ("2024 INSC 479",)
    assert case_id_citations("2020-7-SCR-150") == ("[2020] 7 S.C.R. 150",)
    assert case_id_citations("C117") == ()


def test_names_agree_by_distinctive_words_either_order():
    stored = ANWAR.title
    assert names_agree("Mohd Anwar v. State of Delhi", stored)
    assert names_agree("State (NCT of Delhi) v. Mohd. Anwar", stored)
    assert not names_agree("Ramesh Kumar v. Union of India", stored)
    assert not names_agree("Mohd. Anwar v. Union of India", stored)  # right side: another party
    assert names_agree("Frank Vitus", VITUS.title) and not names_agree("Arnab Goswami", VITUS.title)


def test_found_mismatch_not_indexed_absent():
    got = check_citation("[2020] 7 S.C.R. 150", "", OURS, meta, covers)
    assert got.status == "found" and got.record == ANWAR and ANWAR.title in got.message
    bad = check_citation("[2020] 7 S.C.R. 150", "Ramesh Kumar v. Union of India", OURS, meta, covers)
    assert bad.status == "mismatch"
    assert bad.message.startswith("[2020] 7 S.C.R. 150 is Mohd. Anwar v. The State (N.C.T. of Delhi), not Ramesh Kumar")
    ext = check_citation("2024 INSC 363", "", OURS, meta, covers)
    assert ext.status == "not_indexed" and "not indexed here" in ext.message and ext.meta == ROW
    wrong_ext = check_citation("2024 INSC 363", "Ramesh v. Union of India", OURS, meta, covers)
    assert wrong_ext.status == "mismatch" and "not Ramesh v. Union of India" in wrong_ext.message
    assert check_citation("2024 INSC 363", "Sharif Ahmad v. State of U.P.", OURS, meta, covers).status == "not_indexed"
    none = check_citation("2024 INSC 9999", "", OURS, meta, covers)
    assert none.status == "absent" and "no such judgment exists" in none.message
    rep = check_citation("(2019) 5 SCC 9999", "", OURS, meta, covers)
    assert rep.status == "absent" and "cannot be checked here" in rep.message and "do not contain" in rep.message


def test_titles_paired_with_citations():
    q = "Is [2020] 7 SCR 150, Ramesh Kumar v. Union of India, still good law?"
    assert titles_for(q, ("[2020] 7 S.C.R. 150",)) == ("Ramesh Kumar v. Union of India",)
    assert titles_for("Summarise 2024 INSC 479", ("2024 INSC 479",)) == ("",)


def test_record_named_by_title_or_short_name():
    assert record_named("Verify this quotation from Mohd. Anwar v. State of NCT of Delhi", [ANWAR, VITUS]) == ANWAR
    assert record_named("Is this quote from Frank Vitus accurate", [ANWAR, VITUS]) == VITUS
    assert record_named("Is this quote from Arnab Goswami's case accurate", [ANWAR, VITUS]) is None


def test_a_shared_surname_is_not_the_same_party():
    assert not names_agree("Ramesh Kumar v. State of Punjab", "Baljinder Kumar @ Kala VS State of Punjab")
    assert not names_agree("Vikas Kumar v. Union of India", "Pramod Kumar Saxena v. Union Of India & Ors.")
    assert names_agree("Arnab Goswami v. State of Maharashtra", "Arnab Manoranjan Goswami v. The State of "
                                                                 "Maharashtra & Ors.")  # a middle name left out
