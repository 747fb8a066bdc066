"""HyDE: search with the embedding of a hypothetical passage instead of the bare question (Gao, Ma, Lin &
Callan 2022, "Precise Zero-Shot Dense Retrieval without Relevance Labels").

The generated passage may be wrong in every detail; it is only embedded for dense search, never shown, cited
or verified. Behind ``settings.hyde`` (off by default); its effect on the dev set is measured by the benchmark,
not assumed.
"""

from __future__ import annotations

from ..config import Settings
from ..errors import ConfigError
from .backends import ChatBackend, get_backend
from .prompt import load_template, render

HYDE_MAX_NEW_TOKENS = 128


def hypothetical_passage(question: str, settings: Settings, backend: ChatBackend | None = None,
                         max_new_tokens: int = HYDE_MAX_NEW_TOKENS) -> str:
    """A statute-style paragraph that would answer ``question``, written by the configured LLM from
    ``prompts/hyde.txt``. Raises :class:`ConfigError` when the generator is ``extractive`` (no model)."""
    if backend is None:
        if settings.generator == "extractive":
            raise ConfigError("hyde=True needs an LLM generator; generator='extractive' has none")
        backend = get_backend(settings)
    prompt = render(load_template("hyde", settings.prompts_dir), question=question.strip())
    return backend.chat((("user", prompt),), max_new_tokens=max_new_tokens).text


def search_text(question: str, settings: Settings, backend: ChatBackend | None = None) -> str:
    """What the dense retriever should embed: ``question`` itself when ``settings.hyde`` is off, else the
    question followed by its hypothetical passage (the query stays in, as Gao et al. average it in)."""
    if not settings.hyde:
        return question
    return f"{question.strip()}\n{hypothetical_passage(question, settings, backend)}"
