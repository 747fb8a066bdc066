"""Check ``reversed verdict`` of ``legal_rag.verify`` (:mod:`legal_rag.verify.verdict`): a sentence without a
negation must not state as an offence what the statute passage it cites says is *not* that offence. A live 1.5B answer (session 10, dev D36) read
BNS 309's Illustration (d), "This is extortion, and punishable as such; but it is not robbery, unless Z is put in
fear of the instant death of his child", as "a person commits robbery if they ... send ten thousand rupees", and the
word-overlap check verified it. Inline passages, then the real BNS 309 and 316 chunks."""

import pytest

from legal_rag.types import Draft
from legal_rag.verify import check_claim, verify

from tests.generate.fakes import hits, statute

ILLUSTRATIONS = (
    "Illustrations.\n(a) A holds Z down, and fraudulently takes Z's money and jewels from Z's clothes, without Z's "
    "consent. Here A has committed theft, and, in order to the committing of that theft, has voluntarily caused "
    "wrongful restraint to Z. A has therefore committed robbery.\n(d) A obtains property from Z by saying—\"Your child "
    "is in the hands of my gang, and will be put to death unless you send us ten thousand rupees.\" This is extortion, "
    "and punishable as such; but it is not robbery, unless Z is put in fear of the instant death of his child.")
REVERSED = ("A person commits robbery if he obtains property by saying that the victim's child is in the hands of his "
            "gang and will be put to death unless the victim sends ten thousand rupees")


def none(ref):
    return set()


def cited():
    return hits(statute("BNS", "309", "Robbery.", ILLUSTRATIONS))


def reversed_(failures):
    """The offences the ``reversed verdict`` failures among ``failures`` name."""
    return [f.detail for f in failures if f.check == "reversed verdict"]


def test_a_sentence_reversing_an_illustration_s_verdict_fails():
    reasons = check_claim(REVERSED, cited(), none)
    assert reversed_(reasons) == ["robbery"], reasons
    v = verify(Draft("q", f"{REVERSED} [1].", passages=tuple(cited())), equivalents=none)
    assert v.checks[0].status == "unsupported" and "withheld" in v.text


@pytest.mark.parametrize("claim", [
    # the verdict as printed, with its negation
    "Obtaining property by saying that Z's child will be put to death unless Z sends ten thousand rupees is "
    "extortion, and punishable as such, but it is not robbery",
    # the positive Illustration's verdict: the item sharing most of its words says robbery
    "A holds Z down and fraudulently takes Z's money and jewels from Z's clothes without Z's consent, and A has "
    "therefore committed robbery",
    # another offence the item does not deny
    "Obtaining property by saying that Z's child is in the hands of a gang and will be put to death unless Z sends "
    "ten thousand rupees is extortion",
])
def test_the_verdict_as_printed_or_a_positive_one_passes(claim):
    assert not reversed_(check_claim(claim, cited(), none))


@pytest.mark.slow
def test_real_bns_309_illustration_d_and_316_illustration_d(real_index):
    c309 = next(c for c in real_index.by_ref("BNS", "309") if "not robbery" in c.text)
    assert "robbery" in reversed_(check_claim(
        "Under section 309 of the BNS, a person commits robbery if they steal property from another person by saying "
        "that their child is in their hands and will be put to death unless they send ten thousand rupees",
        hits(c309), none))
    # BNS 316 Illustration (d): "A, not having acted dishonestly, has not committed criminal breach of trust"
    c316 = next(c for c in real_index.by_ref("BNS", "316") if "has not committed criminal" in " ".join(c.text.split()))
    bad = ("If A, in good faith believing that it will be more for Z's advantage to hold shares in the Bank of Bengal, "
           "disobeys Z's directions and buys shares in the Bank of Bengal, A has committed criminal breach of trust")
    good = ("If A, in good faith believing that it will be more for Z's advantage to hold shares in the Bank of Bengal, "
            "disobeys Z's directions and buys shares, A has not committed criminal breach of trust")
    assert "criminal breach of trust" in reversed_(check_claim(bad, hits(c316), none))
    assert not reversed_(check_claim(good, hits(c316), none))


@pytest.mark.slow
def test_real_bns_303_explanation_1_says_both_and_is_not_reversed(real_index):
    """BNS 303 Explanation 1: "... is not the subject of theft; but it becomes capable of being the subject of theft
    as soon as it is severed from the earth": the item states the offence both ways, so a sentence stating the
    positive half is not a reversal (a check reading only the "not" would remove it)."""
    c = next(c for c in real_index.by_ref("BNS", "303") if "not the subject of theft" in " ".join(c.text.split()))
    claim = ("A thing attached to the earth becomes capable of being the subject of theft as soon as it is severed "
             "from the earth")
    assert not reversed_(check_claim(claim, hits(c), none))
