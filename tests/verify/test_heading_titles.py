"""``legal_rag.verify.is_heading``: a cited passage's title that is itself a rule of law ("Facts admitted need not be
proved.", BSA 53) is a statement, checked and shipped, not a heading dropped (a one-sentence answer would then be
withheld as if it had failed verification); a label such as "Explanation." is dropped.

The ``real_`` tests read chunks of the session's real-corpus index (``real_index``, slow)."""

from __future__ import annotations

import re

import pytest

from legal_rag.types import Draft
from legal_rag.verify import check_claim, is_heading, verify

from tests.generate.fakes import hits, statute
from tests.real_chunks import given, part
from tests.real_chunks import no_equivalents as none


STATEMENT_TITLES = [
    pytest.param("BSA", "53", "Facts admitted need not be proved", id="BSA-53"),
    pytest.param("BSA", "25", "Admissions not conclusive proof, but may estop", id="BSA-25"),
    pytest.param("BNSS", "58", "Person arrested not to be detained more than twenty-four hours", id="BNSS-58"),
]

@pytest.mark.slow
@pytest.mark.parametrize("act, section, title", STATEMENT_TITLES)
def test_real_the_title_sentence_passes_every_check(real_index, act, section, title):
    """Precondition of the test below: the title sentence is the passage's own words, a rule of law, and passes
    every check against it."""
    c = part(real_index, act, section, 0)
    assert re.sub(r"\W+", " ", c.title).strip().lower() == re.sub(r"\W+", " ", title).strip().lower()
    assert check_claim(title, [given(c)[0]], none, sections=real_index.by_ref) == ()

@pytest.mark.slow
@pytest.mark.parametrize("act, section, title", STATEMENT_TITLES)
def test_real_a_title_that_states_a_rule_ships(real_index, act, section, title):
    c = part(real_index, act, section, 0)
    v = verify(Draft("q", f"{title}. [1]", passages=given(c)), equivalents=none, sections=real_index.by_ref)
    assert v.checks[0].status == "supported" and "withheld" not in v.text, v.text

def test_a_label_is_dropped_but_a_statement_beginning_like_a_title_is_checked():
    """Guard: "Explanation." is dropped; a sentence that is the title plus words is a statement and is checked (and
    removed when false); a heading beside a verified statement does not withhold the answer."""
    text = ("Facts admitted need not be proved.\n53. No fact need be proved in any proceeding which the parties "
            "thereto or their agents agree to admit at the hearing.\nExplanation.—A test label.")
    c = statute("BSA", "53", "Facts admitted need not be proved.", text)
    ps = tuple(hits(c))
    assert is_heading("Explanation.", ps) and not is_heading("Facts admitted need not be proved at trial", ps)
    v = verify(Draft("q", "Explanation. [1] No fact need be proved in any proceeding which the parties agree to "
                          "admit at the hearing [1].", passages=ps), equivalents=none)
    assert [c.status for c in v.checks] == ["heading", "supported"] and "withheld" not in v.text
    false = verify(Draft("q", "Facts admitted need not be proved, except for murder punished with death [1].",
                         passages=ps), equivalents=none)
    assert false.checks[0].status == "unsupported"
