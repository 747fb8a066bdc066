"""Fixtures for the rerank tests: real BNS/IPC text (``statutes/structured``) made into chunks, and the two
rerankers that need no training (MaxSim; a MiniLM cross-encoder with a seeded fresh head, for window mechanics)."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from legal_rag.config import Settings  # noqa: E402
from legal_rag.types import Chunk, Hit, StatuteRef  # noqa: E402


def chunk_of(doc, text: str | None = None) -> Chunk:
    act, sec = doc.key.split()
    return Chunk(id=f"{act}-{sec}-0-test", kind="statute", text=text or doc.text, title=doc.title,
                 source="bns_sections_kaggle_cmrit.csv", pages=(0, 0), ref=StatuteRef(act, sec))


def fused(chunks) -> tuple[Hit, ...]:
    return tuple(Hit(c, 1.0 / (60 + i + 1), "rrf", i + 1) for i, c in enumerate(chunks))


@pytest.fixture(scope="session")
def bns():
    from legal_rag.rerank.training.data import bns_docs

    return bns_docs(Settings().corpus_path)


@pytest.fixture(scope="session")
def maxsim():
    from legal_rag.rerank import Reranker

    return Reranker("maxsim")


@pytest.fixture(scope="session")
def fresh_ce():
    """MiniLM turned into a cross-encoder with a seeded, untrained head: its scores mean nothing, but they are
    deterministic, which is all the window tests need."""
    import torch

    from legal_rag.rerank import CrossEncoderScorer
    from legal_rag.rerank.training.train import base_model_dir

    torch.manual_seed(0)
    sc = CrossEncoderScorer(base_model_dir(), name="minilm-fresh-head")
    sc.model  # load under the seed
    return sc
