"""A small real index (real MiniLM vectors) built once per session in a temporary directory: a few IPC/BNS
sections from the structured copies of the Acts, two sections whose bodies are word for word identical
(IPC 498A / BNS 85, BL-19), and one long judgment whose paragraphs all cite Section 420 (BL-20)."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from legal_rag.config import Settings  # noqa: E402
from legal_rag.eval.acts import structured_sections  # noqa: E402
from legal_rag.index import Embedder, build_index  # noqa: E402
from legal_rag.ingest.chunk import chunk_judgment, chunk_section  # noqa: E402
from legal_rag.types import Judgment, Paragraph, Section, StatuteRef  # noqa: E402

CRUELTY = ("Whoever, being the husband or the relative of the husband of a woman, subjects such woman to cruelty "
           "shall be punished with imprisonment for a term which may extend to three years and shall also be liable "
           "to fine.")
WANT = {"IPC": {"302", "304B", "379", "406", "415", "420", "506"},
        "BNS": {"103", "80", "303", "316", "318", "351"}}


@pytest.fixture(scope="session")
def small_index(tmp_path_factory):
    settings = Settings(data_dir=tmp_path_factory.mktemp("retrieve") / "data")
    emb = Embedder.from_settings(settings)
    secs = [s for s in structured_sections(settings.corpus_path) if s.ref.section in WANT.get(s.ref.act, ())]
    secs += [Section(StatuteRef("IPC", "498A"), "Husband or relative of husband of a woman subjecting her to cruelty",
                     CRUELTY, "ipc.pdf", (80, 80)),
             Section(StatuteRef("BNS", "85"), "Husband or relative of husband of a woman subjecting her to cruelty",
                     CRUELTY, "bns.pdf", (25, 25))]
    paras = [Paragraph("C900", str(i), f"{i}. The trial court convicted the appellant under Section 420 of the "
                       "Indian Penal Code for the transaction of the year in question; " * 9, "C900.txt", (i, i))
             for i in range(1, 13)]
    judgment = Judgment("C900", "A v State", "Supreme Court of India", "1999-01-01", "C900.txt")
    chunks = [c for s in secs for c in chunk_section(s, emb)] + list(chunk_judgment(paras, emb, judgment=judgment))
    idx = build_index(chunks, settings, embedder=emb)
    yield idx, settings
    idx.close()
