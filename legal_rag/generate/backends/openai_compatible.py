"""Any server that speaks the OpenAI chat-completions API (Ollama, vLLM, llama.cpp server) by base URL and
model name: ``POST {base_url}/chat/completions`` with ``stream: true`` (server-sent events, ``data: {...}`` lines
ending with ``data: [DONE]``).

Token counts: with ``generator_tokenizer`` (a local Hugging Face tokenizer directory, a GGUF file, or ``pkg:``)
the prompt is counted with the model's tokenizer and chat template; without it the count is a deliberately high
estimate and every :class:`~legal_rag.types.Draft` says so. A :class:`Generation` carries the server's own
``usage`` when it sends one (OpenAI with ``stream_options.include_usage``; a non-streamed body); a server that
streams without usage (llama-cpp-python's ``llama_cpp.server`` 0.3.36) gets the counts from the tokenizer when
one is set, else 0 (unknown). Chat completions give no probabilities of a forced continuation, so
``sequence_logprob`` returns ``None`` (no RAG-Sequence weights for this backend).

Errors (all :class:`~legal_rag.errors.LegalRagError`, naming the URL): nothing listening ("cannot connect"), no
reply within ``timeout_s`` ("no reply within"), an HTTP status other than 200, and a stream that is not
chat-completions server-sent events ("malformed stream").
"""

from __future__ import annotations

import json
import time

from ...config import resolve_model_ref
from ...errors import ConfigError, LegalRagError
from .base import DeltaStream, Generation, OnToken, estimate_tokens
from ..prompt import Messages


class OpenAICompatibleBackend:
    def __init__(self, base_url: str, model: str, *, api_key: str = "", context_tokens: int = 4096,
                 temperature: float = 0.0, tokenizer: str = "", timeout_s: float = 120.0):
        if not base_url:
            raise ConfigError("generator='openai_compatible' needs generator_base_url (e.g. http://127.0.0.1:11434/v1)")
        if not model:
            raise ConfigError("generator='openai_compatible' needs generator_model (the server's model name)")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.name = f"openai_compatible:{model}"
        self.api_key = api_key
        self._ctx = context_tokens
        self.temperature = temperature
        self.timeout_s = timeout_s
        self._tokenizer_spec = tokenizer
        self._tok = None
        self.exact_tokens = bool(tokenizer)

    @property
    def context_tokens(self) -> int:
        return self._ctx

    def count_tokens(self, messages: Messages) -> int:
        if not self._tokenizer_spec:
            return sum(estimate_tokens(c) + 4 for _, c in messages) + 3
        if self._tok is None:
            from transformers import AutoTokenizer

            path = resolve_model_ref(self._tokenizer_spec, "generator_tokenizer", local_only=True).path
            kw = {"gguf_file": path.name} if path.is_file() else {}
            self._tok = AutoTokenizer.from_pretrained(str(path.parent if path.is_file() else path), **kw)
        text = self._tok.apply_chat_template([{"role": r, "content": c} for r, c in messages],
                                             add_generation_prompt=True, tokenize=False)
        return len(self._tok(text, add_special_tokens=False)["input_ids"])

    def chat(self, messages: Messages, *, max_new_tokens: int, on_token: OnToken | None = None) -> Generation:
        import httpx

        body = {"model": self.model, "messages": [{"role": r, "content": c} for r, c in messages],
                "max_tokens": max_new_tokens, "temperature": self.temperature, "stream": True,
                "stream_options": {"include_usage": True}}
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        url = f"{self.base_url}/chat/completions"
        stream, usage = DeltaStream(on_token), {}
        t0 = stream.t0
        try:
            with httpx.stream("POST", url, json=body, headers=headers, timeout=self.timeout_s) as resp:
                if resp.status_code != 200:
                    resp.read()
                    raise LegalRagError(f"{url}: HTTP {resp.status_code}: {resp.text[:200]}")
                if not resp.headers.get("content-type", "").startswith("text/event-stream"):
                    resp.read()  # a server that ignores "stream": one JSON body
                    data = resp.json()
                    choice = data["choices"][0]
                    text = choice["message"]["content"] or ""
                    if on_token and text:
                        on_token(text)
                    usage = data.get("usage") or {}
                    return Generation(text.strip(), usage.get("prompt_tokens", 0),
                                      usage.get("completion_tokens", 0), None, time.perf_counter() - t0,
                                      choice.get("finish_reason") or "")
                for line in resp.iter_lines():
                    if not line.startswith("data:"):
                        continue
                    payload = line[5:].strip()
                    if payload == "[DONE]":
                        break
                    event = json.loads(payload)
                    if not isinstance(event, dict):
                        raise ValueError(f"event is not a JSON object: {payload[:80]}")
                    choices = event.get("choices") or []
                    if not isinstance(choices, list) or not all(isinstance(c, dict) for c in choices):
                        raise ValueError(f"choices is not a list of objects: {payload[:80]}")
                    usage = event.get("usage") or usage
                    for choice in choices:
                        stream.add(choice)
        except httpx.ConnectError as exc:
            raise LegalRagError(f"{url}: cannot connect to the generator server (is it running at "
                                f"generator_base_url={self.base_url}?): {exc}") from None
        except httpx.TimeoutException as exc:
            raise LegalRagError(f"{url}: no reply within {self.timeout_s:g} s ({type(exc).__name__}); the server is "
                                "busy or too slow for this prompt") from None
        except httpx.HTTPError as exc:
            raise LegalRagError(f"{url}: {type(exc).__name__}: {exc}") from None
        except ValueError as exc:  # a line that is no JSON, or JSON that is no chat-completions event
            raise LegalRagError(f"{url}: malformed stream from the generator server ({type(exc).__name__}: "
                                f"{str(exc)[:200]})") from None
        text = stream.text.strip()
        prompt_tokens, completion_tokens = usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0)
        if not usage and self.exact_tokens:  # the server streamed no usage: count with the model's tokenizer
            prompt_tokens = self.count_tokens(messages)
            completion_tokens = len(self._tok(stream.text, add_special_tokens=False)["input_ids"]) if text else 0
        return Generation(text, prompt_tokens, completion_tokens, stream.ttft, stream.elapsed, stream.finish)

    def sequence_logprob(self, messages: Messages, continuation: str) -> None:
        return None
