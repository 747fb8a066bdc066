"""A local causal LM through Hugging Face transformers (a model directory, or a GGUF file read with the
``gguf`` package: ``from_pretrained(dir, gguf_file=name)``, dequantised to float32 on load).

Loads on first use; CPU only; greedy decoding when ``temperature == 0``. Exposes token log-probabilities,
so :mod:`.attribute` can weigh passages (RAG-Sequence, Lewis et al. 2020).
"""

from __future__ import annotations

import os
import threading
import time

from ...config import resolve_model_ref
from ...errors import ConfigError
from .base import Generation, OnToken
from ..prompt import Messages


class TransformersBackend:
    exact_tokens = True

    def __init__(self, model: str, *, context_tokens: int = 4096, temperature: float = 0.0):
        self.model_spec = model
        self.name = f"transformers:{model}"
        self._ctx_setting = context_tokens
        self.temperature = temperature
        self._model = None
        self._tok = None
        self._lock = threading.Lock()

    # ---------------------------------------------------------------------------------------------- loading
    def _load(self):
        with self._lock:
            if self._model is not None:
                return self._tok, self._model
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            import torch
            from transformers import AutoModelForCausalLM, AutoTokenizer

            path = resolve_model_ref(self.model_spec, "generator_model", local_only=True).path
            kw = {"gguf_file": path.name} if path.is_file() else {}
            where = str(path.parent if path.is_file() else path)
            try:
                tok = AutoTokenizer.from_pretrained(where, **kw)
                model = AutoModelForCausalLM.from_pretrained(where, dtype=torch.float32, **kw)
            except (OSError, ValueError, ImportError) as exc:
                raise ConfigError(f"generator_model={self.model_spec!r}: cannot load ({exc})") from None
            model.eval()
            if tok.chat_template is None:
                raise ConfigError(f"generator_model={self.model_spec!r}: the tokenizer has no chat template")
            self._tok, self._model = tok, model
            return tok, model

    @property
    def context_tokens(self) -> int:
        _, model = self._load()
        limit = getattr(model.config, "max_position_embeddings", None) or self._ctx_setting
        return min(self._ctx_setting, int(limit))

    # -------------------------------------------------------------------------------------------- tokens
    def _prompt_ids(self, messages: Messages) -> list[int]:
        tok, _ = self._load()
        text = tok.apply_chat_template([{"role": r, "content": c} for r, c in messages],
                                       add_generation_prompt=True, tokenize=False)
        return tok(text, add_special_tokens=False)["input_ids"]

    def count_tokens(self, messages: Messages) -> int:
        return len(self._prompt_ids(messages))

    # ---------------------------------------------------------------------------------------------- chat
    def chat(self, messages: Messages, *, max_new_tokens: int, on_token: OnToken | None = None) -> Generation:
        import torch
        from transformers import TextIteratorStreamer

        tok, model = self._load()
        ids = self._prompt_ids(messages)
        inputs = {"input_ids": torch.tensor([ids]), "attention_mask": torch.ones(1, len(ids), dtype=torch.long)}
        streamer = TextIteratorStreamer(tok, skip_prompt=True, skip_special_tokens=True)
        sample = self.temperature > 0
        kw = dict(max_new_tokens=max_new_tokens, do_sample=sample, streamer=streamer,
                  pad_token_id=tok.pad_token_id if tok.pad_token_id is not None else tok.eos_token_id)
        if sample:
            kw["temperature"] = self.temperature
        else:
            kw.update(temperature=None, top_p=None, top_k=None)
        result: dict = {}

        def run():
            try:
                with torch.no_grad():
                    result["out"] = model.generate(**inputs, **kw)
            except Exception as exc:  # re-raised in the caller's thread below
                result["error"] = exc
                streamer.end()

        t0 = time.perf_counter()
        worker = threading.Thread(target=run, daemon=True)
        worker.start()
        parts, ttft = [], None
        for piece in streamer:
            if piece and ttft is None:
                ttft = time.perf_counter() - t0
            parts.append(piece)
            if on_token and piece:
                on_token(piece)
        worker.join()
        if "error" in result:
            raise result["error"]
        out = result["out"][0][len(ids):]
        text = tok.decode(out, skip_special_tokens=True)
        finish = "length" if len(out) >= max_new_tokens else "stop"
        return Generation(text.strip(), len(ids), len(out), ttft, time.perf_counter() - t0, finish)

    # ----------------------------------------------------------------------------------------- log-probs
    def sequence_logprob(self, messages: Messages, continuation: str) -> float:
        """log p(continuation | chat prompt), nats, summed over the continuation's tokens (teacher forcing)."""
        import torch

        tok, model = self._load()
        prompt = self._prompt_ids(messages)
        cont = tok(continuation, add_special_tokens=False)["input_ids"]
        if not cont:
            return 0.0
        ids = torch.tensor([prompt + cont])
        with torch.no_grad():
            logits = model(input_ids=ids).logits[0, len(prompt) - 1: -1].float()
        logp = torch.log_softmax(logits, dim=-1)
        return float(logp.gather(1, torch.tensor(cont).unsqueeze(1)).sum())
