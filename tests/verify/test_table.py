"""The check table of :mod:`legal_rag.verify` (:data:`~legal_rag.verify.CHECKS`): one case per check that fails it
and one that passes it, the table's names are the ``CheckName`` Literal's, each failure reads as the reason the reader
is shown (the wording of the answer's ``⟨unsupported: ...⟩`` mark and of ``Answer.problems``), a gate is data, and
only our own abstention is left unchecked. Unit tests on inline passages."""

from typing import get_args

import pytest

from legal_rag.generate import NOT_IN_SOURCES
from legal_rag.types import Draft, is_extractive
from legal_rag.verify import (CHECKS, WORDING, Check, CheckName, Claim, Evidence, Failure, check_claim, failures,
                              verify)

from tests.generate.fakes import BNS_103, cheating_hits, hits, statute
from tests.verify.test_verdict import ILLUSTRATIONS, REVERSED


def none(ref):
    return set()


def bns_318():
    return tuple(cheating_hits()[:1])


def bns_103():
    return tuple(hits(statute("BNS", "103", "Punishment for murder.", BNS_103)))


def bns_309():
    return tuple(hits(statute("BNS", "309", "Robbery.", ILLUSTRATIONS)))


THREE_YEARS = "Whoever cheats shall be punished with imprisonment which may extend to three years"

#: check -> (a draft that fails it, the reason it is shown, a draft that passes every check, its passages)
CASES: dict[str, tuple[str, str, str, object]] = {
    "no citation": (f"{THREE_YEARS}.", "no [n] citation", f"{THREE_YEARS} [1].", bns_318),
    "cites passages not given": (f"{THREE_YEARS} [7].", "cites only passages not given", f"{THREE_YEARS} [1].",
                                 bns_318),
    "quote": ("The section says \u201cwhoever cheats shall be hanged by the neck\u201d [1].",
              "quote not in the cited text: \u201cwhoever cheats shall be hanged by the neck\u201d",
              "The section says \u201cwhoever cheats shall be punished with imprisonment of either "
              "description\u201d [1].",
              bns_318),
    "section": ("Cheating is punishable under BNS 319 [1].", "section BNS 319 is not the cited passage's",
                "Cheating is punishable under BNS 318 [1].", bns_318),
    "punishment": ("Whoever cheats shall be punished with death [1].", "punishment not in the cited text: death",
                   f"{THREE_YEARS} [1].", bns_318),
    "other-act punishment": (
        f"Under section 420 of the IPC, {THREE_YEARS[0].lower()}{THREE_YEARS[1:]} [1].",
        "punishment stated for a section of the IPC, whose text is not cited",
        f"Under section 318 of the BNS, {THREE_YEARS[0].lower()}{THREE_YEARS[1:]} [1].", bns_318),
    "number": ("A group of ten or more persons committing murder is punished with death [1].",
               "number not in the cited text: 10",
               "A group of five or more persons committing murder is punished with death [1].", bns_103),
    "punishment part": (
        "Whoever cheats shall be punished with imprisonment which may extend to seven years and fine [1].",
        "punishment not printed for the part it describes (BNS 318(2)): 7 year",
        "Whoever cheats and thereby dishonestly induces the person deceived to deliver any property shall be "
        "punished with imprisonment which may extend to seven years and fine [1].", bns_318),
    "reversed verdict": (
        f"{REVERSED} [1].",
        "the cited passage says this is not robbery: \u201c(d) A obtains property from Z by saying\u2014\"Your child "
        "is in the hands of my gang, and will b\u201d",
        "Obtaining property by saying that Z's child will be put to death unless Z sends ten thousand rupees is "
        "extortion, and punishable as such, but it is not robbery [1].", bns_309),
    "overlap": ("This is a very interesting and important topic for students [1].",
                "only 0% of its words occur in the cited text",
                "Whoever commits murder shall be punished with death [1].", bns_103),
}


def checked(text, passages):
    (check,) = verify(Draft("q", text, passages=passages()), equivalents=none).checks
    return check


def test_the_table_names_are_the_literal_s_in_its_order_and_each_has_a_wording_and_a_case():
    assert tuple(c.name for c in CHECKS) == get_args(CheckName)
    assert set(WORDING) == set(get_args(CheckName)) == set(CASES)
    for c in CHECKS:  # a gate names checks that run before it
        before = [d.name for d in CHECKS[:CHECKS.index(c)]]
        assert set(c.unless) <= set(before), c.name


@pytest.mark.parametrize("name", get_args(CheckName))
def test_each_check_fails_its_case_with_today_s_wording(name):
    text, reason, _, passages = CASES[name]
    check = checked(text, passages)
    mine = [f for f in check.failures if f.check == name]
    assert check.status == "unsupported" and mine, check.failures
    assert str(mine[0]) == reason
    assert reason in check.reasons


@pytest.mark.parametrize("name", get_args(CheckName))
def test_each_check_passes_its_other_case(name):
    _, _, text, passages = CASES[name]
    check = checked(text, passages)
    assert check.status == "supported" and check.failures == (), check.failures


@pytest.mark.parametrize("failure, shown", [
    (Failure("no citation"), "no [n] citation"),
    (Failure("cites passages not given"), "cites only passages not given"),
    (Failure("quote", "whoever cheats shall be hanged"),
     "quote not in the cited text: \u201cwhoever cheats shall be hanged\u201d"),
    (Failure("section", "section 2 of the Dowry Prohibition Act, 1961"),
     "section 2 of the Dowry Prohibition Act, 1961 is not the cited passage's"),
    (Failure("punishment", "10 year, fine"), "punishment not in the cited text: 10 year, fine"),
    (Failure("other-act punishment", "BNS, IPC"),
     "punishment stated for a section of the BNS, IPC, whose text is not cited"),
    (Failure("number", "5, 10"), "number not in the cited text: 5, 10"),
    (Failure("punishment part", "14 year", "BNS 309(4)"),
     "punishment not printed for the part it describes (BNS 309(4)): 14 year"),
    (Failure("reversed verdict", "theft", "(b) A is not guilty of theft."),
     "the cited passage says this is not theft: \u201c(b) A is not guilty of theft.\u201d"),
    (Failure("overlap", "40%"), "only 40% of its words occur in the cited text"),
])
def test_a_failure_reads_as_the_reason_shown(failure, shown):
    assert str(failure) == shown


def test_the_failures_of_a_sentence_are_listed_in_the_table_s_order_and_shown_joined():
    v = verify(Draft("q", "Cheating under BNS 319 carries ten years [1].", passages=bns_318()), equivalents=none,
               on_unsupported="mark")
    failed = v.checks[0].failures
    assert [f.check for f in failed] == ["section", "punishment", "number"]
    shown = "; ".join(map(str, failed))
    assert v.text == f"Cheating under BNS 319 carries ten years [1]. \u27e8unsupported: {shown}\u27e9"
    assert any(p.endswith(": " + "; ".join(map(str, failed))) for p in v.problems)


def test_a_gate_is_data():
    """A check runs unless a check it names in ``unless`` failed: the mechanism, on a planted table."""
    ran = []

    def fails(name):
        def run(claim, evidence):
            ran.append(name)
            return (Failure(name),)
        return run

    table = (Check("number", fails("number")), Check("punishment part", fails("punishment part"), unless=("number",)),
             Check("overlap", fails("overlap"), unless=("quote",)))
    got = failures(Claim.of("Anything at all."), Evidence((), none), table)
    assert [f.check for f in got] == ["number", "overlap"] and ran == ["number", "overlap"]
    # the real table: a sentence whose number is not printed is not asked for the part it describes
    gate = next(c for c in CHECKS if c.name == "punishment part")
    assert set(gate.unless) >= {"number", "punishment"}
    assert [f.check for f in check_claim("Whoever cheats shall be punished with imprisonment which may extend to "
                                         "seven years and fine, on 9 occasions", bns_318(), none)] == ["number"]


# -- abstention is data, not a prefix of a model's words ------------------------------------------------------------

def test_a_model_sentence_beginning_like_the_abstention_is_checked():
    text = ("The indexed sources do not contain a definition, but whoever cheats shall be punished with death [1].")
    v = verify(Draft("q", text, passages=bns_318(), generator="fake"), equivalents=none)
    assert v.checks[0].status == "unsupported"
    assert "punishment" in [f.check for f in v.checks[0].failures]  # death: the sentence was read and checked
    judged = verify(Draft("q", "No judgment titled \u201cA v. B\u201d is needed: whoever cheats shall be punished with "
                               "death [1].", passages=bns_318(), generator="fake"), equivalents=none)
    assert judged.checks[0].status == "unsupported" and "punishment" in [f.check for f in judged.checks[0].failures]


def test_our_own_abstention_is_not_checked():
    # the abstention sentence, whole, as a model is told to write it
    for text in (NOT_IN_SOURCES, f"{NOT_IN_SOURCES} [1]", NOT_IN_SOURCES.rstrip(".")):
        v = verify(Draft("q", text, passages=bns_318(), generator="fake"), equivalents=none)
        assert [c.status for c in v.checks] == ["abstention"] and v.text == text and not v.removed
    # every sentence of a draft that abstained (legal_rag.generate.abstain wrote it)
    msg = "No judgment titled \u201cA v. B\u201d is in the indexed sources. Please give a citation."
    v = verify(Draft("q", msg, abstained=True), equivalents=none)
    assert {c.status for c in v.checks} == {"abstention"} and v.text == msg


# -- "extractive" is a generator name -------------------------------------------------------------------------------

@pytest.mark.parametrize("name, extractive", [
    ("extractive", True), ("llama_cpp:qwen2.5-coder-1.5b-instruct+extractive", True), ("fake+extractive", True),
    ("llama_cpp:extractive-summariser", False), ("transformers:m", False), ("", False),
])
def test_the_extractive_generator_is_named_exactly(name, extractive):
    assert is_extractive(name) is extractive and Draft("q", "x", generator=name).extractive is extractive


def test_a_heading_is_dropped_from_a_model_s_draft_only():
    ps = bns_318()
    model = verify(Draft("q", f"Explanation. [1] {THREE_YEARS} [1].", passages=ps, generator="fake"),
                   equivalents=none)
    quotes = verify(Draft("q", f"Explanation. [1] {THREE_YEARS} [1].", passages=ps, generator="extractive"),
                    equivalents=none)
    assert [c.status for c in model.checks] == ["heading", "supported"]
    assert quotes.checks[0].status != "heading"
