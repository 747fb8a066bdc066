"""The part of a section a sentence is about, and the punishment printed for it (``legal_rag.law.scope``; issue 17).

A punishment term must be printed for the clause, sub-section or block the sentence describes, not merely somewhere
in the passage: unit tests on inline text shaped like the Gazette prints, then the real corpus through ``verify``
with every chunk of the section cited at once (the most a lexical check could be given), for the sentences reviews
made ship as false law: BNS 140(2) with 140(1)'s ten years, 61(2)(b)'s six months for 61(2)(a), BNS 78(1)'s proviso
spliced onto 78(2)'s punishment, simple cheating with 318(4)'s seven years, 196(1) with 196(2)'s five years, 109(1)
with 109(2)'s death, 308(3) with 308(5)'s ten years. Each has its true counterpart, which must pass."""

import pytest

from legal_rag.law.scope import about, parts, printed_for, punishing
from legal_rag.types import Draft, Hit
from legal_rag.verify import verify

from tests.generate.fakes import hits, statute
from tests.statutes import BNS_318_2, SEVEN_YEARS_AND_FINE

S140 = ("(1) Whoever kidnaps or abducts any person in order that such person may be murdered shall be punished with "
        "imprisonment for life or rigorous imprisonment for a term which may extend to ten years, and shall also be "
        "liable to fine.\nIllustration.\nA kidnaps Z from India, intending that Z may be murdered.\n"
        "(2) Whoever kidnaps or abducts any person and threatens to cause death to such person in order to compel any "
        "person to pay a ransom, shall be punished with death, or imprisonment for life, and shall also be liable to "
        "fine.")
S61 = ("(2) Whoever is a party to a criminal conspiracy,—\n(a) to commit an offence punishable with death, imprisonment "
       "for life or rigorous imprisonment for a term of two years or upwards, shall, where no express provision is "
       "made in this Sanhita for the punishment of such a conspiracy, be punished in the same manner as if he had "
       "abetted such offence;\n(b) other than a criminal conspiracy to commit an offence punishable as aforesaid "
       "shall be punished with imprisonment of either description for a term not exceeding six months, or with fine "
       "or with both.")
S78 = ("(1) Any man who follows a woman and contacts her repeatedly despite a clear indication of disinterest commits "
       "the offence of stalking:\nProvided that such conduct shall not amount to stalking if the man who pursued it "
       "proves that it was pursued for the purpose of preventing or detecting crime.\n(2) Whoever commits the offence "
       "of stalking shall be punished on first conviction with imprisonment of either description for a term which "
       "may extend to three years, and shall also be liable to fine.")
S196 = ("(1) Whoever,—\n(a) by words promotes disharmony or feelings of enmity between different religious groups; or\n"
        "(b) commits any act which is prejudicial to the maintenance of harmony,\nshall be punished with imprisonment "
        "which may extend to three years or with fine or with both.\n(2) Whoever commits an offence specified in "
        "sub-section (1) in any place of worship shall be punished with imprisonment which may extend to five years "
        "and shall also be liable to fine.")


def _labels(ps):
    return [(p.label, p.kind) for p in ps]


def test_parts_are_clauses_sub_sections_and_blocks():
    assert _labels(parts([statute("BNS", "140", "Kidnapping for ransom, etc.", S140)])) == [
        (("1",), "provision"), (("1", "Illustration"), "block"), (("2",), "provision")]
    assert _labels(parts([statute("BNS", "61", "Criminal conspiracy.", S61)])) == [
        (("2", "a"), "provision"), (("2", "b"), "provision")]
    (a, b) = parts([statute("BNS", "61", "Criminal conspiracy.", S61)])
    assert "six months" not in a.text and "six months" in b.text and "party to a criminal conspiracy" in a.text
    # a clause list's common ending (where 196(1)'s punishment is printed) belongs to every clause of the list
    ps = parts([statute("BNS", "196", "Promoting enmity.", S196)])
    assert [p.label for p in ps] == [("1", "a"), ("1", "b"), ("2",)]
    assert all("three years" in p.text for p in ps[:2])


def test_parts_need_one_section():
    with pytest.raises(ValueError):
        parts([statute("BNS", "140", "t", S140), statute("BNS", "61", "t", S61)])


def test_a_sentence_is_about_the_part_that_prints_its_words():
    ps = parts([statute("BNS", "140", "Kidnapping for ransom, etc.", S140)])
    assert [p.label for p in about("Kidnapping a person and threatening death to obtain a ransom", ps)] == [("2",)]
    assert [p.label for p in about("Kidnapping a person in order that he may be murdered", ps)] == [("1",)]
    # words that tell no part from another: about none (checked against the whole passage, as before)
    assert about("The punishment for this act under section 140 is death", ps) == ()


def test_a_defining_part_takes_the_punishment_of_the_part_that_names_its_offence():
    ps = parts([statute("BNS", "78", "Stalking.", S78)])
    one, proviso, two = ps
    assert (one.label, proviso.label, two.label) == (("1",), ("1", "Provided"), ("2",))
    assert punishing(one, ps) == (two,) and printed_for(one, ps) == {"3 year", "fine"}
    assert printed_for(proviso, ps) == frozenset()  # an exception is never the offence's punishment
    # a punishing part that names more than the definition (an aggravated form) does not punish it
    ps = parts([statute("BNS", "140", "Kidnapping for ransom, etc.", S140)])
    assert all(punishing(p, ps) == (p,) for p in ps if p.terms)


def _one(text, title, section, claim):
    ps = hits(statute("BNS", section, title, text))
    return verify(Draft("q", f"{claim} [1].", passages=tuple(ps)), equivalents=lambda r: set()).checks[0]


@pytest.mark.parametrize("claim, text, title, section, ok", [
    ("Kidnapping a person and threatening death to obtain ransom is punished with imprisonment for life or "
     "imprisonment for a term which may extend to ten years", S140, "Kidnapping.", "140", False),
    ("Kidnapping a person and threatening death to obtain ransom is punished with death or imprisonment for life, "
     "and fine", S140, "Kidnapping.", "140", True),
    ("A party to a criminal conspiracy to commit an offence punishable with death shall be punished with imprisonment "
     "for a term not exceeding six months", S61, "Criminal conspiracy.", "61", False),
    ("A party to a criminal conspiracy other than one to commit an offence punishable as aforesaid shall be punished "
     "with imprisonment for a term not exceeding six months, or with fine, or with both", S61, "Criminal conspiracy.",
     "61", True),
    ("If the man who pursued it proves that it was pursued for the purpose of preventing crime, he shall be punished "
     "with imprisonment which may extend to three years and fine", S78, "Stalking.", "78", False),
    ("Any man who follows a woman and contacts her repeatedly despite disinterest shall be punished on first "
     "conviction with imprisonment which may extend to three years and fine", S78, "Stalking.", "78", True),
    ("Whoever by words promotes feelings of enmity between different religious groups shall be punished with "
     "imprisonment which may extend to five years", S196, "Promoting enmity.", "196", False),
    ("Whoever by words promotes feelings of enmity between different religious groups shall be punished with "
     "imprisonment which may extend to three years or with fine or with both", S196, "Promoting enmity.", "196", True),
    # the sub-section named (in the Acts' own form) decides, whatever the words
    ("Under sub-section (1) of section 196, the punishment is imprisonment which may extend to five years", S196,
     "Promoting enmity.", "196", False),
])
def test_verify_checks_the_punishment_against_the_part_described(claim, text, title, section, ok):
    check = _one(text, title, section, claim)
    assert (check.status == "supported") is ok, check.reasons
    if not ok:
        assert "punishment part" in [f.check for f in check.failures]


# ------------------------------------------------------------------------------------------ the real corpus

EXT10 = "shall be punished with imprisonment of either description for a term which may extend to ten years, and " \
        "shall also be liable to fine"


@pytest.mark.slow
@pytest.mark.parametrize("act, section, claim, ok", [
    ("BNS", "140", "Whoever kidnaps a person and threatens to cause death in order to compel the payment of a ransom "
     "shall be punished with imprisonment for life or rigorous imprisonment for a term which may extend to ten years",
     False),
    ("BNS", "140", "Whoever kidnaps a person and threatens to cause death in order to compel the payment of a ransom "
     "shall be punished with death, or imprisonment for life, and shall also be liable to fine", True),
    ("BNS", "61", "Whoever is a party to a criminal conspiracy to commit an offence punishable with death shall be "
     "punished with imprisonment for a term not exceeding six months, or with fine or with both", False),
    ("BNS", "61", "Whoever is a party to a criminal conspiracy other than a criminal conspiracy to commit an offence "
     "punishable as aforesaid shall be punished with imprisonment of either description for a term not exceeding six "
     "months, or with fine or with both", True),
    ("BNS", "78", "If the man who pursued it proves that it was pursued for the purpose of preventing or detecting "
     "crime, he shall be punished on first conviction with imprisonment of either description for a term which may "
     "extend to three years, and shall also be liable to fine", False),
    ("BNS", "78", "Any man who follows a woman and contacts her to foster personal interaction repeatedly despite a "
     "clear indication of disinterest by such woman shall be punished on first conviction with imprisonment of either "
     "description for a term which may extend to three years, and shall also be liable to fine", True),
    ("BNS", "318", f"Whoever cheats {SEVEN_YEARS_AND_FINE}", False),
    ("BNS", "318", BNS_318_2.removeprefix("(2) ").removesuffix("."), True),
    ("BNS", "196", "Whoever by words promotes disharmony or feelings of enmity between different religious groups "
     "shall be punished with imprisonment which may extend to five years and shall also be liable to fine", False),
    ("BNS", "196", "Whoever by words promotes disharmony or feelings of enmity between different religious groups "
     "shall be punished with imprisonment which may extend to three years or with fine or with both", True),
    ("BNS", "109", "Under section 109(1) of the BNS, if hurt is caused to any person by such act, the offender may be "
     "punished with death", False),
    ("BNS", "308", f"Under sub-section (3) of section 308 of the BNS, whoever in order to the committing of extortion "
     f"puts any person in fear of any injury {EXT10}", False),
    ("BNS", "308", "Whoever, in order to the committing of extortion, puts any person in fear of any injury, shall be "
     "punished with imprisonment of either description for a term which may extend to two years, or with fine, or "
     "with both", True),
    # a term printed behind a condition needs the condition's words (309(4): the highway at night; 78(2): a second
    # conviction; 109(1): hurt caused)
    ("BNS", "309", "Whoever commits robbery shall be punished with rigorous imprisonment for a term which may extend "
     "to fourteen years", False),
    ("BNS", "309", "If the robbery is committed on the highway between sunset and sunrise, the imprisonment may be "
     "extended to fourteen years", True),
    ("BNS", "78", "Whoever commits the offence of stalking shall be punished on first conviction with imprisonment "
     "which may extend to five years, and shall also be liable to fine", False),
    ("BNS", "78", "Whoever commits the offence of stalking shall be punished on a second or subsequent conviction "
     "with imprisonment which may extend to five years, and shall also be liable to fine", True),
    ("BNS", "109", "Whoever attempts to commit murder shall be punished with imprisonment for life", False),
    ("BNS", "109", "If hurt is caused to any person by an act done with the intention of committing murder, the "
     "offender shall be liable to imprisonment for life", True),
])
def test_real_sections_cited_whole(real_index, act, section, claim, ok):
    """Every chunk of the section given and cited: the lexical checks alone would pass each false sentence."""
    chunks = real_index.store.by_ref(act, section)  # in part order
    ps = tuple(Hit(c, 1.0, "rrf", i) for i, c in enumerate(chunks, 1))
    marks = "".join(f"[{i}]" for i in range(1, len(ps) + 1))
    check = verify(Draft("q", f"{claim} {marks}.", passages=ps)).checks[0]
    assert (check.status == "supported") is ok, check.reasons
    if not ok:
        assert "punishment part" in [f.check for f in check.failures], check.reasons


# BNS 75 as printed: (2) and (3) punish (1)'s clauses by number ("the offence specified in clause (iv) of sub-section
# (1)"), naming none of their words
BNS_75 = ("75. (1) A man committing any of the following acts:—\n(i) physical contact and advances involving unwelcome "
          "and explicit sexual overtures; or\n(ii) a demand or request for sexual favours; or\n(iii) showing "
          "pornography against the will of a woman; or\n(iv) making sexually coloured remarks,\nshall be guilty of "
          "the offence of sexual harassment.\n(2) Any man who commits the offence specified in clause (i) or clause "
          "(ii) or clause (iii)\nof sub-section (1) shall be punished with rigorous imprisonment for a term which may "
          "extend to three years, or with fine, or with both.\n(3) Any man who commits the offence specified in "
          "clause (iv) of sub-section (1) shall\nbe punished with imprisonment of either description for a term "
          "which may extend to one year, or with fine, or with both.")


def test_a_clause_punished_by_number_takes_that_sub_section_s_term():
    from legal_rag.law.scope import cross_punishers

    ps = parts([statute("BNS", "75", "Sexual harassment.", BNS_75)])
    defining = next(p for p in ps if p.label == ("1",))
    assert {c: [q.label for q in qs] for c, qs in cross_punishers(defining, ps).items()} == {
        "i": [("2",)], "ii": [("2",)], "iii": [("2",)], "iv": [("3",)]}
    pornography = "Showing pornography against the will of a woman is punished with three years, or fine, or both"
    remarks = "Making sexually coloured remarks is punished with imprisonment up to one year, or fine, or both"
    assert printed_for(defining, ps, "Sexual harassment.", pornography) == {"3 year", "fine"}
    assert printed_for(defining, ps, "Sexual harassment.", remarks) == {"1 year", "fine"}
    # no clause described: only what both punishing sub-sections print
    assert printed_for(defining, ps, "Sexual harassment.", "Sexual harassment is punished with three years") == {"fine"}
    for claim, ok in ((pornography, True), (remarks.replace("one year", "three years"), False)):
        v = verify(Draft("q", f"{claim} [1].", passages=tuple(hits(statute("BNS", "75", "Sexual harassment.",
                                                                            BNS_75)))), equivalents=lambda r: set())
        assert (v.checks[0].status == "supported") is ok, claim
