"""The same index code against a Chroma server (``chroma run`` on loopback), started and stopped here."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from legal_rag.config import Settings
from legal_rag.errors import IndexMismatchError
from legal_rag.index import build_index, open_index
from legal_rag.ingest.chunk import chunk_section
from legal_rag.types import Section, StatuteRef

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def chroma_server(tmp_path):
    exe = Path(sys.executable).with_name("chroma")
    if not exe.exists():
        exe = shutil.which("chroma")
    assert exe, "chromadb's `chroma` command is not installed"
    port = _free_port()
    proc = subprocess.Popen([str(exe), "run", "--path", str(tmp_path / "server"), "--host", "127.0.0.1",
                             "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300  # a hang guard for a loaded machine, never a verdict on speed
        while True:
            try:
                if httpx.get(url + "/api/v2/heartbeat", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("chroma server did not start")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_build_and_search_through_server(tmp_path, chroma_server, hash_embedder):
    s = Settings(data_dir=tmp_path / "data", chroma_url=chroma_server)
    secs = [Section(StatuteRef("BNS", str(n)), f"T{n}", f"Provision {n} on procedure and evidence.", "b.pdf", (1, 1))
            for n in range(1, 30)]
    chunks = [c for x in secs for c in chunk_section(x, hash_embedder)]
    idx = build_index(chunks, s, embedder=hash_embedder)
    assert idx.dense.count() == len(chunks)
    assert idx.dense.collection.configuration["hnsw"]["space"] == "cosine"
    again = open_index(s, embedder=hash_embedder)
    cid = chunks[5].id
    vec = again.store.vectors(hash_embedder.model_id, [cid])[0]
    assert again.dense.search(vec, 1)[0][0] == cid
    assert {h for h, _ in again.dense.search(vec, 5, where={"act": "BNS"})}
    with pytest.raises(IndexMismatchError):  # the manifest records the server URL it was built against
        open_index(Settings(data_dir=tmp_path / "data"), embedder=hash_embedder)
