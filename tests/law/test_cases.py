"""The case-name grammar (legal_rag.law.cases): titles in questions and in judgment headers, party names."""

import pytest

from legal_rag.law.cases import clean_party, find_case_titles, is_versus_line, split_title, title_in


@pytest.mark.parametrize("text, titles", [
    ("What did Ramesh Kumar vs. State of Punjab hold?", ["Ramesh Kumar v. State of Punjab"]),
    # the old abstain grammar knew only lower-case "v", "vs", "versus": these were no titles
    ("What did Ramesh Kumar Vs. State of Punjab hold?", ["Ramesh Kumar v. State of Punjab"]),
    ("Ramesh Kumar VERSUS State of Punjab", ["Ramesh Kumar v. State of Punjab"]),
    ("Ramesh Kumar v/s State of Punjab", ["Ramesh Kumar v. State of Punjab"]),
    # words that open a sentence are not part of a party (the old grammar kept "Summarise"/"In")
    ("Summarise Ramesh Kumar v. State of Punjab", ["Ramesh Kumar v. State of Punjab"]),
    ("In Selvi Vs. State of Karnataka, (2010) 7 SCC 263, the Court held", ["Selvi v. State of Karnataka"]),
    ("In Onkarlal Bajaj v. Union of India [(2003) 2 SCC 673] it was observed", ["Onkarlal Bajaj v. Union of India"]),
    ("M/s. Dadri Cement Co. v. M/s. Bird & Co. Pvt. Ltd.", ["M/s. Dadri Cement Co. v. M/s. Bird & Co. Pvt. Ltd."]),
    ("Mohd. Yusuf v. State of U.P. decided it", ["Mohd. Yusuf v. State of U.P."]),
    # a capital "V." in running text is an initial
    ("Shri V. D. Sharma has in his affidavit stated", []),
    ("Sujata V. Manohar, J. was a member", []),
    ("What did Justice C. V. Raman say?", []),
    ("IPC vs BNS: what changed for cheating?", []),
    ("Compare the Indian Penal Code v. Bharatiya Nyaya Sanhita", []),
    ("A v. B v. C", ["A v. B"]),
])
def test_titles_in_free_text(text, titles):
    assert [t.title for t in find_case_titles(text)] == titles


def test_title_spans_are_half_open():
    text = "Did Ramesh Kumar v. State of Punjab decide it?"
    (t,) = find_case_titles(text)
    assert text[t.span[0]:t.span[1]] == "Ramesh Kumar v. State of Punjab"


@pytest.mark.parametrize("line, sides", [
    ("State of U.P. Vs. Ram Lal", ("State of U.P.", "Ram Lal")),
    ("RAMESH V STATE OF KERALA", ("RAMESH", "STATE OF KERALA")),
    # a header line: "V." after an initial is an initial (C318 printed "C. V. Govindappa and Others v State of
    # Karnataka"; the old header grammar split it at "V." and titled it "C v. Govindappa and Others v State ...")
    ("C. V. Govindappa and Others v State of Karnataka", ("C. V. Govindappa and Others", "State of Karnataka")),
    ("Chapter V of the Code", None),
    ("no title here", None),
])
def test_split_title_lines(line, sides):
    got = split_title(line)
    assert (tuple(s.strip() for s in got) if got else None) == sides


@pytest.mark.parametrize("line, ok", [("VERSUS", True), ("  v. ", True), ("Vs", True), ("V/s.", True), ("Versus X", False)])
def test_versus_lines(line, ok):
    assert is_versus_line(line) is ok


@pytest.mark.parametrize("lines, name", [
    (["STATE OF U.P.", "...Respondent"], "State of U.P."),
    (["Shambhoo Nath Misra v. State of U. P."], "Shambhoo Nath Misra v. State of U. P."),  # old: "U. P" lost its stop
    (["UNION OF INDIA AND ORS"], "Union of India and Ors."),
    (["M/S LEGACY FOODS PVT. LTD.  ...Appellant(s)"], "M/s Legacy Foods Pvt. Ltd."),
    (["Ram Kumar."], "Ram Kumar"),
])
def test_clean_party(lines, name):
    assert clean_party(lines) == name


def test_title_in_is_exact_whole_word():
    assert title_in("Ramesh Kumar v. State of Punjab", "Ramesh Kumar v. The State of Punjab & Ors.")
    assert not title_in("Sunita w/o Ramesh v. Elegant Associates", "Ramesh w/o Sunita v. Elegant Associates Pvt Ltd")
    assert not title_in("Sunita v. Elegant Associates", "Sunita v. Elegant Enterprises")


def test_judgment_reference_indian_form():
    from legal_rag.law.cases import judgment_reference, order_citations

    assert order_citations(["[2024] 7 S.C.R. 97", "(2024) 9 SCC 1", "2024 INSC 479", " "]) == (
        "2024 INSC 479", "(2024) 9 SCC 1", "[2024] 7 S.C.R. 97")
    assert judgment_reference("Mohd. Anwar v. The State (N.C.T. of Delhi)", ("[2020] 7 S.C.R. 150",), (156, 156),
                              "16") == "Mohd. Anwar v. The State (N.C.T. of Delhi), [2020] 7 S.C.R. 150, at 156, para 16"
    assert judgment_reference("A v. B", ("[2024] 7 S.C.R. 97", "2024 INSC 479"), (100, 101), "4-5") == (
        "A v. B, 2024 INSC 479 : [2024] 7 S.C.R. 97, at 100-101, paras 4-5")
    # no report that prints pages: paragraphs only, never a page the reader cannot find
    assert judgment_reference("A v. B", (), (100, 100), "4") == "A v. B, para 4"
    assert judgment_reference("A v. B", ("AIR 1980 SC 1789",), (100, 100)) == "A v. B, AIR 1980 SC 1789"
    assert judgment_reference("") == "Unnamed judgment"


def test_title_in_reads_initials_however_dotted_or_spaced():
    from legal_rag.law.cases import title_in

    anwar = "Mohd. Anwar v. The State (N.C.T. of Delhi)"  # as [2020] 7 S.C.R. 150 prints it
    assert title_in("Mohd. Anwar v. State (NCT of Delhi)", anwar)
    assert title_in("K.S. Puttaswamy v. Union of India", "Justice K S Puttaswamy (Retd.), and Anr. v. Union of India and Ors.")
    assert title_in("Shambhoo Nath Misra v. State of U.P.", "Shambhoo Nath Misra v. State of U. P.")
    assert not title_in("Mohd. Anwar v. State of Delhi", anwar)  # a missing word is no match
    assert not title_in("Ram v. State of U.P.", "Shambhoo Nath Misra v. State of U. P.")


def test_citation_lookup_reads_titles_with_the_one_grammar():
    """BL-49: the initial "V." of "C. V. Govindappa" is never the separator where a question's title is matched
    with the stored titles (legal_rag.law.citation_lookup splits titles with split_title)."""
    from legal_rag.law.citation_lookup import names_agree

    stored = "C. V. Govindappa and Others v. State of Karnataka"
    assert names_agree("C. V. Govindappa and Others v. State of Karnataka", stored)
    assert names_agree("C.V. Govindappa v. State of Karnataka", stored)
    assert not names_agree("C. V. Govindappa v. Union of India", stored)
