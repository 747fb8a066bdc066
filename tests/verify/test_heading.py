"""A heading written as a sentence (``legal_rag.verify.is_heading``, issue 17): the 1.5B model copied block labels
("Explanation. [2]") and passage titles or case names ("Dr.Sohail Malik v.Union of India & Anr. [2]") as
sentences and cited them. They state nothing: dropped from the answer, listed in ``problems``, and counted neither
as verified nor as removed statements. Unit tests on inline passages, then BNS 61's real chunks."""

import pytest

from legal_rag.types import Draft
from legal_rag.verify import is_heading, verify

from tests.generate.fakes import hits, judgment, statute

TEXT_61 = ("(2) Whoever is a party to a criminal conspiracy to commit an offence punishable with death shall be "
           "punished in the same manner as if he had abetted such offence.\nExplanation.—It is immaterial whether "
           "the illegal act is the ultimate object of such agreement, or is merely incidental to that object.")
STATEMENT = ("It is immaterial whether the illegal act is the ultimate object of such agreement, or is merely "
             "incidental to that object")


def none(ref):
    return set()


def passages():
    return hits(statute("BNS", "61", "Criminal conspiracy.", TEXT_61),
                judgment("caseA", "Dr.Sohail Malik v.Union of India & Anr.", "Sexual harassment at the workplace."))


@pytest.mark.parametrize("claim, cite, heading", [
    ("Explanation.", 1, True),
    ("Illustrations", 1, True),
    ("Criminal conspiracy.", 1, False),  # a section's title is checked as a statement (BSA 53 states a rule)
    ("Dr. Sohail Malik v. Union of India & Anr.", 2, True),  # the case name, spacing aside
    ("Criminal conspiracy is an offence.", 1, False),    # a statement, however short
    ("Explanation.", 2, False),                          # not the judgment's label: checked as a statement
    (STATEMENT, 1, False),
])
def test_is_heading(claim, cite, heading):
    assert is_heading(claim, [passages()[cite - 1]]) is heading


def test_a_heading_is_dropped_and_counted_neither_way():
    ps = tuple(passages())
    v = verify(Draft("q", f"{STATEMENT} [1]. Explanation. [1] Dr.Sohail Malik v.Union of India & Anr. [2]",
                     passages=ps), equivalents=none)
    assert v.text == f"{STATEMENT} [1]."
    assert [c.status for c in v.checks] == ["supported", "heading", "heading"]
    assert v.supported_share == 1.0 and not v.removed
    assert [c.sentence.rstrip(".") for c in v.citations] == [STATEMENT]
    assert sum(p.startswith("dropped a heading") for p in v.problems) == 2
    # a draft of headings only is withheld, as one of unverified statements is
    only = verify(Draft("q", "Explanation. [1]", passages=ps), equivalents=none)
    assert "withheld" in only.text


@pytest.mark.slow
def test_real_bns_61_explanation_label(real_index):
    """Dev set D28 (live Qwen run, session 10): "... six months, or with fine or with both. [2] Explanation. [2] It is
    immaterial ... [2]" cited to BNS 61's real chunks."""
    chunks = real_index.by_ref("BNS", "61")
    with_expl = [c for c in chunks if "Explanation" in c.text]
    assert with_expl
    ps = tuple(hits(*with_expl))
    v = verify(Draft("q", f"Explanation. [1] {STATEMENT} [1].", passages=ps), equivalents=none)
    assert [c.status for c in v.checks] == ["heading", "supported"] and v.text == f"{STATEMENT} [1]."


def test_the_extractive_answer_keeps_its_title_lines():
    """The extractive answer heads each quoted passage with its label on purpose (a judgment's or document's title
    line, cited); only a model's draft has headings dropped (tests/generate/test_injection.py drives the composer)."""
    ps = tuple(passages())
    text = f"Dr.Sohail Malik v.Union of India & Anr. [2]\n{STATEMENT} [1]."
    kept = verify(Draft("q", text, passages=ps, generator="extractive"), equivalents=none)
    assert kept.text.startswith("Dr.Sohail Malik") and "heading" not in [c.status for c in kept.checks]
    dropped = verify(Draft("q", text, passages=ps, generator="llama_cpp"), equivalents=none)
    assert not dropped.text.startswith("Dr.Sohail Malik") and [c.status for c in dropped.checks][0] == "heading"
