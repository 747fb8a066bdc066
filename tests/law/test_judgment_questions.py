"""Which questions are answered from the judgments themselves (legal_rag.law.judgment_questions)."""

import pytest

from legal_rag.law.judgment_questions import judgment_task, quoted_text
from legal_rag.law.question import analyse


@pytest.mark.parametrize("q", [
    "Verify this quotation from Mohd. Anwar v. State: 'the plea of insanity was never raised at the trial'",
    'Is this quote from Frank Vitus accurate: "a pin on Google Maps defeats the object of bail"',
    "Check the quotation attributed to 2024 INSC 479: 'a pin on Google Maps defeats the object of bail'",
    "Did the court in Arnab Goswami say 'liberty across human eras is as tenuous as tenuous can be'?",
])
def test_quotation(q):
    t = judgment_task(q, ())
    assert t is not None and t.kind == "quotation" and len(t.quote.split()) >= 4 and t.quote not in t.rest


@pytest.mark.parametrize("q", [
    "Which judgment held that arrest is not mandatory merely because an offence is cognizable?",
    "Which Supreme Court decisions have held that a bail condition must not be onerous?",
    "What did the Supreme Court hold on the defence of insanity?",
    "Is there any judgment holding that a pin on Google Maps cannot be a bail condition?",
])
def test_holding(q):
    assert judgment_task(q, ()).kind == "holding"


def test_citation_and_none():
    assert judgment_task("What did 2024 INSC 363 decide?", ("2024 INSC 363",)).kind == "citation"
    assert judgment_task("What is the punishment for theft?", ()) is None
    assert judgment_task("Is anticipatory bail available under Section 482 BNSS?", ()) is None
    # a quoted phrase in a question that asks for no check is no quotation task
    assert judgment_task('What does "dishonestly" mean in the BNS?', ()) is None


def test_quoted_text():
    assert quoted_text("Verify from X v. Y: 'a b c d e f'") == ("a b c d e f", "Verify from X v. Y:")
    assert quoted_text("Verify this quotation from X v. Y: a b c d e")[0] == "a b c d e"
    assert quoted_text("no quotation here") == ("", "no quotation here")
    # an apostrophe inside the quotation does not end it
    assert quoted_text("Check: 'the accused's plea was not raised'")[0] == "the accused's plea was not raised"


@pytest.mark.parametrize("q", [
    "What does Section 318 BNS say about 'dishonestly inducing delivery of any property'?",
    "Does Section 85 BNS say 'subjects such woman to cruelty shall be punished'?",
    "Verify this quotation from Section 420 IPC: 'cheats and thereby dishonestly induces the person deceived'",
])
def test_a_statute_quotation_is_no_judgment_task(q):
    assert judgment_task(q, ()) is None


@pytest.mark.parametrize("q", [
    "What did Mohd. Anwar v. State (NCT of Delhi) hold?",
    "What was held in Arnab Goswami v. State of Maharashtra?",
    "Summarise Frank Vitus v. Narcotics Control Bureau",
    "What is the ratio of Sharif Ahmed v. State of U.P.?",
])
def test_case_named_by_title(q):
    assert judgment_task(q, ()).kind == "case"
    # the titles the question's analysis read are used as given, not read again
    assert judgment_task(q, (), analyse(q).cases).kind == "case"
    assert judgment_task(q, (), ()) is None


def test_title_without_a_question_about_it_is_no_case_task():
    assert judgment_task("Apply the facts of my case: A v. B had a contract for sale of land", ()) is None
