"""Abstention: field cases BL-37 (fabricated citation) and BL-39 (title-only fabricated case), and the
relevance floor."""

import pytest

from legal_rag.config import load_settings
from legal_rag.generate import NOT_IN_SOURCES, case_references, generate
from legal_rag.generate.abstain import clears_floor
from legal_rag.law import analyse
from legal_rag.types import Hit
from legal_rag.verify import to_answer, verify

from .fakes import BNS_318, JUDGMENT, FakeBackend, cheating_hits, hits, judgment, statute


def never(_):
    raise AssertionError("the model must not be called when the sources do not contain the case")


def judgment_hits():
    return hits(judgment("sc-2019-1", "Ramesh Kumar v. State of Punjab", JUDGMENT,
                         meta=(("citations", "(2019) 5 SCC 999"), ("court", "Supreme Court of India"))),
                statute("BNS", "318", "Cheating.", BNS_318))


@pytest.mark.parametrize("generator", ["extractive", "llm"])
def test_bl37_fabricated_citation_is_not_summarised(generator):
    s = load_settings()
    backend = FakeBackend(never) if generator == "llm" else None
    d = generate("Verify and summarise (2019) 5 SCC 9999 on cheating", judgment_hits(), s, backend=backend)
    assert d.abstained and d.passages == ()
    assert "(2019) 5 SCC 9999" in d.text and "do not contain" in d.text
    a = to_answer(d, verify(d, equivalents=lambda r: set()))
    assert a.citations == () and "Ramesh" not in a.text  # no look-alike (2019) 5 SCC 999


def test_bl37_foreign_fabricated_citation():
    d = generate("Verify and summarise Varghese v. China Southern Airlines Co., 925 F.3d 1339 (11th Cir.)",
                 judgment_hits(), load_settings(), backend=FakeBackend(never))
    assert d.abstained and "925 F.3d 1339" in d.text


def test_bl39_title_only_case_gets_no_fuzzy_match():
    s = load_settings()
    look_alike = hits(judgment("bom-1", "Sunita v. Elegant Enterprises", JUDGMENT),
                      judgment("bom-2", "Ramesh w/o Sunita v. Elegant Associates Pvt Ltd", JUDGMENT))
    q = "Apply the ratio of Sunita w/o Ramesh v. Elegant Associates to a builder's delay"
    d = generate(q, look_alike, s, backend=FakeBackend(never))
    assert d.abstained and "please give a citation" in d.text.lower()
    assert "Elegant Enterprises" not in d.text and d.passages == ()


def test_a_case_that_is_in_the_sources_is_answered():
    s = load_settings()
    d = generate("What did Ramesh Kumar vs. State of Punjab hold on cheating?", judgment_hits(), s)
    assert not d.abstained and "[1]" in d.text
    d = generate("Summarise (2019) 5 SCC 999", judgment_hits(), s)
    assert not d.abstained


def test_known_case_lookup_is_consulted():
    s = load_settings()
    q = "Summarise (2020) 1 SCC 100 on cheating"
    assert generate(q, cheating_hits(), s).abstained
    d = generate(q, cheating_hits(), s, known_case=lambda ref: ref.text == "(2020) 1 SCC 100")
    assert not d.abstained


def test_code_comparisons_are_not_case_titles():
    assert case_references("IPC vs BNS: what changed for cheating?") == ()
    assert case_references("Compare the Indian Penal Code v. Bharatiya Nyaya Sanhita") == ()


def test_relevance_floor():
    s = load_settings()
    c = statute("BNS", "318", "Cheating.", BNS_318)
    assert clears_floor(analyse("cake recipe"), Hit(c, 0.0, "lookup", 1), s.relevance_floor)
    assert not clears_floor(analyse("cheating"), Hit(c, 0.10, "dense", 1), {"dense": 0.25})
    assert clears_floor(analyse("cake"), Hit(c, 0.30, "dense", 1), {"dense": 0.25})
    assert clears_floor(analyse("cheating"), Hit(c, 0.01, "rrf", 1), {"dense": 0.25})  # no floor for rrf: words decide
    assert not clears_floor(analyse("What is the punishment under the law?"), Hit(c, 0.01, "rrf", 1), {})
    assert clears_floor(analyse("what does section 318 say"), Hit(c, 0.01, "rrf", 1), {})
    assert not clears_floor(analyse("cheating"), Hit(c, 3.0, "rerank:my-model", 1), {"rerank": 4.0})


def test_no_relevant_passage_means_abstention_without_a_model_call():
    d = generate("What is the recipe for chocolate cake?", cheating_hits(), load_settings(),
                 backend=FakeBackend(never))
    assert d.abstained and d.text == NOT_IN_SOURCES and d.found_nothing
    d = generate("What is cheating?", [], load_settings())
    assert d.abstained and d.text == NOT_IN_SOURCES and d.found_nothing


def test_an_abstention_that_names_what_is_missing_is_no_found_nothing():
    """``Draft.found_nothing`` is the plain "not in the sources" only: a judgment or a section that is not there is
    said by name, and the answer did not merely find nothing."""
    s = load_settings()
    d = generate("What does section 999 of the BNS say?", cheating_hits(), s)
    assert d.abstained and not d.found_nothing and "999" in d.text
    d = generate("Summarise (2020) 1 SCC 100 on cheating", cheating_hits(), s)
    assert d.abstained and not d.found_nothing
    assert not generate("What is cheating?", cheating_hits(), s).found_nothing


def test_the_analysis_or_the_text_is_answered_alike():
    """A stage that has read the question passes its analysis; a text is analysed first, to the same draft."""
    s = load_settings()
    for q in ("What is cheating?", "Summarise (2020) 1 SCC 100 on cheating", "What does section 999 of the BNS say?"):
        a, b = generate(q, cheating_hits(), s), generate(analyse(q), cheating_hits(), s)
        assert (a.text, a.passages, a.abstained, a.problems) == (b.text, b.passages, b.abstained, b.problems)


@pytest.mark.parametrize("generator", ["extractive", "llm"])
@pytest.mark.parametrize("question,note", [
    ("What does section 999 of the BNS say?", "BNS has no section 999 (its last section is 358)"),
    ("Is cheating punishable under BNS 420?", "BNS has no section 420 (its last section is 358)"),
    ("What does section 600 of the BNSS provide?", "BNSS has no section 600 (its last section is 531)"),
])
def test_a_section_that_does_not_exist_is_answered_as_such(generator, question, note):
    """Extractive F3 in bench/results_answers.md quoted a judgment paragraph on s.34 instead: the word "say"
    cleared the relevance floor. A question on a section beyond the Act's last is answered with that fact."""
    s = load_settings()
    d = generate(question, cheating_hits(), s, backend=FakeBackend(never) if generator == "llm" else None)
    assert d.abstained and d.passages == () and note in d.text and "do not contain" in d.text
    a = to_answer(d, verify(d, equivalents=lambda r: set()))
    assert a.citations == () and note in a.text


def test_a_model_that_wrongly_says_not_in_sources_gets_the_passages_quoted_instead():
    """The 1.5B Qwen replied with the abstention sentence on 13 of 14 dev questions whose gold section was passage
    [1] (bench/results_answers.md). The reader then gets the passages' sentences, quoted and cited, and a note."""
    s = load_settings()
    d = generate("What is the punishment for cheating?", cheating_hits(), s, backend=FakeBackend(NOT_IN_SOURCES))
    assert not d.abstained and d.generator == "fake+extractive" and "[1]" in d.text
    assert any("quotes them instead" in p for p in d.problems)
    a = to_answer(d, verify(d, equivalents=lambda r: set()))
    assert a.citations and all(c.support == "supported" for c in a.citations)


def test_a_model_answer_that_merely_mentions_the_sources_is_kept():
    s = load_settings()
    reply = ("The indexed sources do not contain a definition, but whoever cheats shall be punished with "
             "imprisonment which may extend to seven years [1].")
    d = generate("What is the punishment for cheating?", cheating_hits(), s, backend=FakeBackend(reply))
    assert d.text == reply and d.generator == "fake"


def test_title_with_capital_vs_is_a_case_reference():
    """The case-name grammar (legal_rag.law.cases) reads "Vs."/"VERSUS" as the old abstain grammar did not: a question
    naming a judgment the index lacks is answered with the abstention, not with the model's prose."""
    d = generate("What did Suresh Chand Vs. State of Haryana hold on cheating?", judgment_hits(), load_settings(),
                 backend=FakeBackend(never))
    assert d.abstained and "Suresh Chand v. State of Haryana" in d.text


def test_a_capitalised_first_word_is_not_part_of_the_title():
    """"Summarise Ramesh Kumar v. State of Punjab": the old grammar looked for a party "Summarise Ramesh Kumar" and
    abstained although the judgment was among the passages."""
    d = generate("Summarise Ramesh Kumar v. State of Punjab on cheating", judgment_hits(), load_settings())
    assert not d.abstained and "[1]" in d.text
    assert case_references("Shri V. D. Sharma filed an affidavit") == ()  # "V." is an initial
