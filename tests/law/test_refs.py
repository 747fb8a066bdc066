"""Citation grammar: the forms of the issue, the corpus's own spellings, and what must NOT be read as IPC/BNS."""

import pytest

from legal_rag.errors import RefError
from legal_rag.law import find_refs, parse_ref
from legal_rag.types import StatuteRef as R


def ok(text, sets):
    return [str(f.ref) for f in find_refs(text, sections=sets) if f.status == "ok"]


@pytest.mark.parametrize("text, expected", [
    ("Section 420 IPC", ["IPC 420"]),
    ("s. 420, I.P.C.", ["IPC 420"]),
    ("sec 302/34 IPC", ["IPC 302", "IPC 34"]),
    ("Sections 406 and 420 of the Indian Penal Code", ["IPC 406", "IPC 420"]),
    ("318(4) BNS", ["BNS 318(4)"]),
    ("BNSS 482", ["BNSS 482"]),
    ("65-B of the Evidence Act", ["IEA 65B"]),
    ("Section 41A Cr.P.C.", ["CrPC 41A"]),
    ("Bharatiya Nyaya Sanhita, 2023, s. 103(1)", ["BNS 103(1)"]),
    ("sections 316(2), 318(4), 338, 336(3) & 340(2) of BNS", ["BNS 316(2)", "BNS 318(4)", "BNS 338", "BNS 336(3)", "BNS 340(2)"]),
    ("Sections 483 and 528 of the Bharatiya Nagarik Suraksha Sanhita (BNSS), 2023", ["BNSS 483", "BNSS 528"]),
    ("u/s 528 of BNSS, 2023", ["BNSS 528"]),
    ("Section 379 of BNSS / 340 CrPC", ["BNSS 379", "CrPC 340"]),
    ("Sections 299 to 304 IPC", ["IPC 299", "IPC 300", "IPC 301", "IPC 302", "IPC 303", "IPC 304"]),
    ("u/ss. 302 and 392 I. P. C.", ["IPC 302", "IPC 392"]),
    ("Sec. 120- B of the Indian Penal Code", ["IPC 120B"]),
    ("u/s. 302 read with S. 34 of the IPC", ["IPC 302", "IPC 34"]),
    ("Section 304 Part I, IPC", ["IPC 304"]),
    ("Sections 498A, 143, 147, 341, 302 read with S. 149 I.P.C.", ["IPC 498A", "IPC 143", "IPC 147", "IPC 341", "IPC 302", "IPC 149"]),
    # page furniture from the SC daily orders: a stray page number, a page marker inside the citation
    ("Sections 338,\n336(3) & 340(2) of 3 BNS, added", ["BNS 338", "BNS 336(3)", "BNS 340(2)"]),
    ("Sections 117(2), 118(2), 191(3) & 190 of\n1\n\n## Page 1393\n\nthe  Bharatiya  Nyaya  Sanhita  (BNS),  2023",
     ["BNS 117(2)", "BNS 118(2)", "BNS 191(3)", "BNS 190"]),
    ("Sections 201, 61(2) and 3(5) the\nBhartiya Nyaya Sanhita, 2023", ["BNS 201", "BNS 61(2)", "BNS 3(5)"]),
    ("Sections 333, 118, 74\n&  324(4)  of  the  Bharatiya  Nayaya  Sanhita,  2023", ["BNS 333", "BNS 118", "BNS 74", "BNS 324(4)"]),
    ("Section 379/215, BNSS pending", ["BNSS 379", "BNSS 215"]),
    ("Sections 144 BNSS / 125 Cr.P.C.", ["BNSS 144", "CrPC 125"]),
    ("Section 64(2)(m), 332(b) of BNS", ["BNS 64(2)(m)", "BNS 332(b)"]),
    ("223 r/w 210 of BNSS, 2023", ["BNSS 223", "BNSS 210"]),
    ("section 420 ipc", ["IPC 420"]),
    ("Code of Criminal Procedure, 1973 (for short 'the Code'). Later: Section 482 of the Code", ["CrPC 482"]),
    # forms the callers of the three retired local grammars (verify, retrieve, ingest) needed (issue 12)
    ("Section 103 of the Bhartiya Nyaya Sanhita", ["BNS 103"]),
    ("u/s 420 of the Criminal Procedure Code", ["CrPC 420"]),
    ("u/s 302 r/w 34 IPC", ["IPC 302", "IPC 34"]),
    ("302/34 IPC", ["IPC 302", "IPC 34"]),
    ("Section 161 Cr.P.C.", ["CrPC 161"]),
    ("65-B Evidence Act", ["IEA 65B"]),
    ("Section 313 Cr.P.C./351 B.N.S.S.", ["CrPC 313", "BNSS 351"]),
    ("Section 309 of Cr.P.C/346 of the BNSS.", ["CrPC 309", "BNSS 346"]),
    ("mentioned in (180 BNSS) of the chargesheet", ["BNSS 180"]),
    ("BNS 318(4), read with section 498-A of the Indian Penal Code", ["BNS 318(4)", "IPC 498A"]),
    # the judgments' own capitals and spellings
    ("PETITION FILED UNDER SECTION 482 OF CR.P.C., SEEKING", ["CrPC 482"]),
    ("CONVICTED FOR THE OFFENCE P/U/S 302 AND 201 OF IPC", ["IPC 302", "IPC 201"]),
    ("under Section 164 of the Code of criminal Procedure, 1973", ["CrPC 164"]),
    ("under Section 406 of the Indian penal Code", ["IPC 406"]),
    ("As per sec.6 of evidence Act", ["IEA 6"]),
    ("an offence u/s. 302 read with S. 34 IP Code", ["IPC 302", "IPC 34"]),
    ("u/s 482 Cr. P. Code", ["CrPC 482"]),
    ("the offence under section-302 of I.P.C . which", ["IPC 302"]),
    ("Section 498\u00adA of the IPC", ["IPC 498A"]),
    ("under Sections 304 II/149 IPC", ["IPC 304", "IPC 149"]),
    ("under Section 304-Part I/149 IPC", ["IPC 304", "IPC 149"]),
    ("convicted under Section 304-I IPC.", ["IPC 304"]),
    ("the consequential order under Sec. 27 of the Evidence Act", ["IEA 27"]),  # "order" blocks "Order 39", not a keyword
])
def test_forms(text, expected, sets):
    assert ok(text, sets) == expected


def test_spans_are_half_open_offsets_of_the_number(sets):
    text = "convicted under Sections 406 and 420 of the Indian Penal Code"
    f = find_refs(text, sections=sets)
    assert [text[a:b] for a, b in (x.span for x in f)] == ["406", "420"]
    assert text[f[0].run_span[0]:f[0].run_span[1]] == "Sections 406 and 420 of the Indian Penal Code"


def test_u_s_498_a_without_act_is_ambiguous_with_its_readings(sets):
    (f,) = find_refs("u/s 498-A", sections=sets)
    assert f.status == "ambiguous" and f.ref is None and f.readings == (R("IPC", "498A"),)


def test_bare_302_has_the_readings_of_every_code_where_it_exists(sets):
    f = parse_ref("302", sections=sets)
    assert f.status == "ambiguous"
    assert f.readings == (R("IPC", "302"), R("CrPC", "302"), R("BNS", "302"), R("BNSS", "302"))  # IEA ends at 167, BSA at 170


@pytest.mark.parametrize("text, act, last", [("420 BNS", "BNS", 358), ("BNS 377", "BNS", 358), ("Section 531A BNSS", "BNSS", 531),
                                             ("s. 171 BSA", "BSA", 170), ("Section 512 IPC", "IPC", 511),
                                             ("Section 485 CrPC", "CrPC", 484), ("Section 168 of the Evidence Act", "IEA", 167)])
def test_beyond_last_section_is_invalid(text, act, last, sets):
    (f,) = find_refs(text, sections=sets)
    assert f.status == "invalid" and f.ref.act == act and str(last) in f.note


def test_lettered_sections_must_exist(sets):
    assert find_refs("Section 302A IPC", sections=sets)[0].status == "invalid"
    assert find_refs("Section 376DA IPC", sections=sets)[0].status == "ok"
    assert find_refs("Section 65B of the Evidence Act", sections=sets)[0].status == "ok"
    assert find_refs("Section 41D CrPC", sections=sets)[0].status == "ok"  # named by the BPR&D pairs, not civictech


@pytest.mark.parametrize("text, expected", [
    ("Article 21", [("21", (), "Constitution of India")]),
    ("Articles 14, 19 and 21 of the Constitution of India",
     [("14", (), "Constitution of India"), ("19", (), "Constitution of India"), ("21", (), "Constitution of India")]),
    ("Art. 20(1) and Section 302 IPC", [("20", ("1",), "Constitution of India")]),
    ("under Articles 226/227", [("226", (), "Constitution of India"), ("227", (), "Constitution of India")]),
    ("Article 137 of the Limitation Act, 1963", [("137", (), "Limitation Act, 1963")]),
])
def test_articles_are_constitutional_not_statute_sections(text, expected, sets):
    found = find_refs(text, sections=sets)
    arts = [f for f in found if f.kind == "article"]
    assert [(f.section, f.sub, f.act_text) for f in arts] == expected
    assert all(f.status == "other_act" and f.ref.act == "OTHER" for f in arts)
    assert [str(f.ref) for f in found if f.status == "ok"] == (["IPC 302"] if "302" in text else [])


def test_every_found_number_carries_its_section_and_act(sets):
    f = {x.text: x for x in find_refs("u/s 498-A; Section 482 of the Code; s. 318(4) BNS; Section 138 of the NI Act",
                                       sections=sets)}
    assert (f["498-A"].status, f["498-A"].act, f["498-A"].section) == ("ambiguous", None, "498A")
    assert (f["482"].status, f["482"].act, f["482"].section) == ("unknown_act", None, "482")
    assert (f["318(4)"].act, f["318(4)"].section, f["318(4)"].sub) == ("BNS", "318", ("4",))
    assert (f["138"].status, f["138"].act) == ("other_act", "OTHER")


@pytest.mark.parametrize("text", [
    "Article 21 of the Constitution", "Crl. A. No. 420 of 2019", "in the year 2019 at page 302",
    "para 302 IPC", "fine of Rs. 302 IPC", "S. B. Sinha, J. delivered", "the IPC, 1860 and the CrPC, 1973",
])
def test_not_references(text, sets):
    assert [f for f in find_refs(text, sections=sets) if f.status in ("ok", "ambiguous", "invalid")] == []


@pytest.mark.parametrize("text, name", [
    ("Section 138 of the Negotiable Instruments Act", "Negotiable Instruments Act"),
    ("Section 13(1)(d) of the Prevention of Corruption Act", "Prevention of Corruption Act"),
    ("Section 27 of the Arms Act, 1959", "Arms Act, 1959"),
    ("Section 34(2) of\nthe M.P.Excise Act", "M.P.Excise Act"),
    ("Section 302 of the Ranbir Penal Code", "Ranbir Penal Code"),
    ("Section 342 of the Code of Criminal Procedure, 1898", "Code of Criminal Procedure, 1898"),
    ("the exchange was made to get round s. 6 of the Ordinance", "Ordinance"),
    ("split the amount to circumvent S. 6, Cl. 9 of the Ordinance", "Ordinance"),
    ("a licence under section 4 of the Rules", "Rules"),
    ("Section 5, clause (b) of the Regulations", "Regulations"),
])
def test_other_acts_are_never_ours(text, name, sets):
    (f,) = find_refs(text, sections=sets)
    assert f.status == "other_act" and f.ref.act == "OTHER" and f.act_text == name


def test_a_clause_or_sub_section_named_between_a_section_and_its_act_keeps_the_act(sets):
    (f,) = find_refs("an order under Section 13, sub-section (1) of the BNSS", sections=sets)
    assert (f.status, f.ref) == ("ok", R("BNSS", "13"))


def test_the_code_without_definition_is_unknown(sets):
    (f,) = find_refs("Section 482 of the Code", sections=sets)
    assert f.status == "unknown_act" and f.ref is None


def test_default_act_for_an_acts_own_text(sets):
    (f,) = find_refs("punishable under section 303", default_act="BNS", sections=sets)
    assert f.status == "ok" and f.ref == R("BNS", "303")


def test_parse_ref_errors(sets):
    with pytest.raises(RefError):
        parse_ref("what is cheating?", sections=sets)
    assert parse_ref("IPC 420", sections=sets).ref == R("IPC", "420")


@pytest.mark.parametrize("text, ref, run", [
    ("under sub-section (2) of section 196 of the BNS, five years", R("BNS", "196", ("2",)),
     "sub-section (2) of section 196 of the BNS"),
    ("clause (b) of sub-section (2) of section 61 of the BNS", R("BNS", "61", ("2", "b")),
     "clause (b) of sub-section (2) of section 61 of the BNS"),
    ("Sub-section (3) of Section 308 of the Bharatiya Nyaya Sanhita", R("BNS", "308", ("3",)),
     "Sub-section (3) of Section 308 of the Bharatiya Nyaya Sanhita"),
])
def test_the_acts_own_form_of_a_sub_section(text, ref, run, sets):
    """The Acts cite a sub-section as "sub-section (1) of section 196" (BNS 196(2)); the grammar reads it as 196(1)."""
    (f,) = find_refs(text, sections=sets)
    assert f.ref == ref and f.sub == ref.sub and text[f.run_span[0]:f.run_span[1]] == run


def test_a_sub_section_written_after_the_number_is_not_overridden(sets):
    (f,) = find_refs("sub-section (2) of section 196(1)", sections=sets)
    assert f.sub == ("1",)
