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


@pytest.mark.parametrize("q, refs", [
    ("which judgments applied BNS 318(4)?", ["BNS 318(4)"]),
    ("cases on section 480 BNSS", ["BNSS 480"]),
    ("any High Court decisions under BNSS 482 in 2025?", ["BNSS 482"]),
    ("show me orders citing BNS 103", ["BNS 103"]),
    ("a 2025 High Court bail order under BNSS 480", ["BNSS 480"]),
    ("case law on section 480 BNSS", ["BNSS 480"]),
    ("BNSS 480 cases", ["BNSS 480"]),
    ("Give me precedents on IPC 420", ["IPC 420"]),
    ("List Supreme Court rulings interpreting Section 65B of the Evidence Act", ["IEA 65B"]),
])
def test_judgments_that_applied_a_section(q, refs):
    t = judgment_task(q)
    assert t.kind == "applied" and [str(r) for r in t.refs] == refs
    # the sections the question's analysis read with their Act are used as given
    assert judgment_task(q, refs=tuple(r.ref for r in analyse(q).refs if r.how == "named")).kind == "applied"


@pytest.mark.parametrize("q", [
    "What is the punishment in cases under BNS 103?",
    "Is bail available in cases under BNSS 480?",
    "Is an order under BNSS 163 appealable?",
    "Which orders can a magistrate pass under BNSS 163?",
    "Which section of BNS applies to cheating cases?",
    "judgments on section 302",                                        # no Act named: no section to list for
    "Is it like the old 125 CrPC case, and what remedy do I have now?",
])
def test_a_statute_question_about_cases_is_no_applied_task(q):
    t = judgment_task(q)
    assert t is None or t.kind != "applied"


def test_the_rules_are_one_ordered_table():
    from legal_rag.law.judgment_questions import RULES

    assert [k for k, _ in RULES] == ["quotation", "citation", "case", "applied", "holding"]
    # what was held, with a section named, stays a holding question (the rule after "applied")
    assert judgment_task("Which judgment held that arrest under BNSS 35 is not mandatory?").kind == "holding"


def test_every_task_carries_the_court_and_years_asked():
    t = judgment_task("Which Supreme Court decisions in 2024 held that a bail condition must not be onerous?")
    assert t.kind == "holding" and (t.constraint.court, t.constraint.year_from) == ("Supreme Court of India", 2024)
    assert not judgment_task("What did 2024 INSC 363 decide?", ("2024 INSC 363",)).constraint


@pytest.mark.parametrize("q", [
    "landmark judgments on dowry death",
    "Which judgment held that arrest is not mandatory?",
    "What did the Supreme Court hold on the ratio of last seen evidence?",
    "any Supreme Court decisions on default bail?",
    "case law on anticipatory bail in a murder case",
    "Judgments on the misuse of the cruelty provision",
    "is there a ruling that says a confession to the police is inadmissible?",
])
def test_an_ask_for_judgments(q):
    from legal_rag.law.judgment_questions import asks_for_judgments

    assert asks_for_judgments(q)


@pytest.mark.parametrize("q", [
    "My cousin held the boy's arms while his friend stabbed him. Is he liable too?",
    "This appeal arises from the judgment of the learned Single Judge of the High Court who declined to quash the "
    "prosecution for selling adulterated supari.",
    "The High Court dismissed my brother's appeal last month and he has to surrender. What can we do now?",
    "what case can I file against my neighbour for blocking my gate?",
    "the panchayat decided that we must pay a penalty or leave the village, is that legal?",
])
def test_a_story_that_mentions_courts_or_holding_asks_for_none(q):
    from legal_rag.law import analyse
    from legal_rag.law.judgment_questions import asks_for_judgments

    assert not asks_for_judgments(q) and analyse(q).kind != "precedent"
