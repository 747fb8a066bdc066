"""One query is embedded on ``Settings.query_threads`` torch threads (default 1) and torch's setting is restored
after (legal_rag/index/embed.py::torch_threads); the vector is the same as with torch's own thread count."""

import threading

import numpy as np
import torch

from legal_rag.config import Settings
from legal_rag.index.embed import Embedder, torch_threads


def test_torch_threads_sets_and_restores():
    before = torch.get_num_threads()
    seen = []
    with torch_threads(1):
        seen.append(torch.get_num_threads())
    assert seen == [1] and torch.get_num_threads() == before
    with torch_threads(0):  # 0: torch's own choice, untouched
        assert torch.get_num_threads() == before
    try:
        with torch_threads(1):
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    assert torch.get_num_threads() == before


def test_settings_reach_the_embedder():
    assert Embedder.from_settings(Settings()).query_threads == 1
    assert Embedder.from_settings(Settings(query_threads=0)).query_threads == 0


def test_query_vector_is_the_same_on_one_thread(minilm):
    q = "What is the punishment for cheating under the Bharatiya Nyaya Sanhita?"
    one = minilm.embed_query(q)
    other = Embedder(minilm.model_ref, query_threads=0)
    other._model = minilm.model  # the same weights, torch's own thread count
    assert np.allclose(one, other.embed_query(q), atol=1e-5)
    before = torch.get_num_threads()
    out = []
    ts = [threading.Thread(target=lambda: out.append(minilm.embed_query(q))) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert len(out) == 4 and all(np.allclose(v, one, atol=1e-6) for v in out)
    assert torch.get_num_threads() == before
