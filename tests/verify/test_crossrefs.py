"""Cross-references inside a quoted section (issue 14, point 3): read as the quoted passage's Act, never a wrong
citation for the verifier and never a "names no Act" flag."""

from legal_rag.law.refs import find_refs_within, quote_regions
from legal_rag.types import Draft
from legal_rag.verify import Failure, answer_refs, check_claim, verify

from tests.generate.fakes import hits, statute

# the printed text of BNS 80 (Bharatiya Nyaya Sanhita, 2023), sub-section (1) with its Explanation
BNS_80 = ("(1) Where the death of a woman is caused by any burns or bodily injury or occurs otherwise than under normal "
          "circumstances within seven years of her marriage and it is shown that soon before her death she was "
          "subjected to cruelty or harassment by her husband or any relative of her husband for, or in connection "
          "with, any demand for dowry, such death shall be called \u201cdowry death\u201d, and such husband or "
          "relative shall be deemed to have caused her death.\n"
          "Explanation.\u2014For the purposes of this sub-section, \u201cdowry\u201d shall have the same meaning as "
          "in section 2 of the Dowry Prohibition Act, 1961.")
BNS_86 = ("For the purposes of section 85, \u201ccruelty\u201d means\u2014 (a) any wilful conduct which is of such a "
          "nature as is likely to drive the woman to commit suicide;")
CRPC_316 = ("Except as provided in sections 306 and 307, no influence, by means of any promise or threat or otherwise, "
            "shall be used to an accused person to induce him to disclose or withhold any matter within his knowledge.")


def none(ref):
    return set()


def test_quote_regions_nest_curly_quotes():
    text = "\u201cExplanation.\u2014\u201cdowry\u201d means as in section 2.\u201d [1] and \"plain\" text"
    regions = quote_regions(text)
    assert [text[a:b] for a, b in regions] == [text[:text.index(" [1]")], '"plain"']
    assert quote_regions("an \u201cunclosed quote") == ()
    assert quote_regions("no quote at all") == ()


def test_a_stray_quote_mark_hides_no_section_from_the_verifier():
    bns80 = hits(statute("BNS", "80", "Dowry death.", BNS_80))
    reasons = check_claim("Dowry death is punished under \u201csection 81 BNS for the purposes of dowry.", bns80, none)
    assert Failure("section", "section BNS 81") in reasons


def test_refs_within_a_region_are_the_regions_acts():
    text = "\u201cExcept as provided in sections 306 and 307, no influence\u201d [2]; see also section 302."
    a, b = quote_regions(text)[0]
    got = find_refs_within(text, [(a, b, "CrPC")])
    assert [(f.status, str(f.ref)) for f in got[:2]] == [("ok", "CrPC 306"), ("ok", "CrPC 307")]
    assert got[2].status == "ambiguous"  # outside the quote: the grammar as usual
    assert text[got[0].span[0]:got[0].span[1]] == "306"
    other = "\u201cthe same meaning as in section 2 of the Dowry Prohibition Act, 1961\u201d"
    (f,) = find_refs_within(other, [(0, len(other), "BNS")])
    assert f.status == "other_act" and "Dowry Prohibition Act" in f.act_text


def test_an_explanation_naming_another_acts_section_is_kept_by_the_verifier():
    bns80 = hits(statute("BNS", "80", "Dowry death.", BNS_80))
    explanation = ("\u201cExplanation.\u2014For the purposes of this sub-section, \u201cdowry\u201d shall have the "
                   "same meaning as in section 2 of the Dowry Prohibition Act, 1961.\u201d")
    assert check_claim(explanation, bns80, none) == ()
    ver = verify(Draft("Which section applies to a dowry death?", f"BNS 80(1) - Dowry death [1]\n{explanation} [1]",
                       passages=tuple(bns80)), equivalents=none)
    assert not ver.removed and "Dowry Prohibition Act" in ver.text
    # outside a quote, the passage's own cross-reference still supports the claim; another Act's section does not
    assert check_claim("Dowry has the meaning of section 2 of the Dowry Prohibition Act, 1961.", bns80, none) == ()
    assert check_claim("Dowry has the meaning of section 3 of the Dowry Prohibition Act, 1961.", bns80, none)


def test_a_definition_naming_its_own_acts_section_is_kept():
    bns86 = hits(statute("BNS", "86", "Cruelty defined.", BNS_86))
    claim = ("\u201cFor the purposes of section 85, \u201ccruelty\u201d means\u2014 (a) any wilful conduct which is of "
             "such a nature as is likely to drive the woman to commit suicide;\u201d")
    assert check_claim(claim, bns86, none) == ()
    assert check_claim("Cruelty is defined for the purposes of section 85.", bns86, none) == ()  # BNS 85 by BNS 86
    assert check_claim("Cruelty is defined for the purposes of section 85 IPC.", bns86, none)  # not the passage's


def test_answer_refs_read_quotes_as_the_cited_passages_act():
    crpc = hits(statute("CrPC", "316", "No influence to be used to induce disclosure.", CRPC_316))
    text = f"CrPC 316 - No influence to be used to induce disclosure [1]\n\u201c{CRPC_316}\u201d [1]\nSee section 306."
    got = answer_refs(text, crpc)
    assert [(f.status, str(f.ref)) for f in got if f.status == "ok"] == [
        ("ok", "CrPC 316"), ("ok", "CrPC 306"), ("ok", "CrPC 307")]
    assert [f.status for f in got if f.section == "306"] == ["ok", "ambiguous"]  # the unquoted one names no Act
