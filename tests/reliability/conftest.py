"""Fixtures of the reliability suite (issue 8): a tiny real sentence-transformers model for cheap index builds,
and manifest-driven corpora written into ``tmp_path``.

The tiny model is the shipped MiniLM's tokenizer and configuration files with a one-layer, 32-wide BERT of seeded
random weights in place of the 90 MB encoder: it goes through the real :class:`~legal_rag.index.Embedder` (and
the real ``legal-rag index`` command, via ``LEGAL_RAG_EMBED_MODEL``), counts tokens exactly as MiniLM does (so
chunks are the same), and embeds hundreds of passages per second. Its vectors carry no meaning: it is used only
where storage, crash and concurrency behaviour is under test, never where retrieval quality is.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from legal_rag.config import Settings


def build_tiny_model(dest: Path) -> Path:
    """Write the tiny sentence-transformers model into ``dest`` (see the module docstring); returns ``dest``."""
    import json

    import torch
    from transformers import BertConfig, BertModel

    from legal_rag.config import resolve_model_ref

    src = resolve_model_ref(Settings().embed_model, "embed_model").path
    dest.mkdir(parents=True, exist_ok=True)
    for name in ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt", "modules.json",
                 "sentence_bert_config.json", "config_sentence_transformers.json"):
        if (src / name).is_file():
            shutil.copy(src / name, dest / name)
    (dest / "1_Pooling").mkdir(exist_ok=True)
    pooling = json.loads((src / "1_Pooling" / "config.json").read_text())
    pooling["word_embedding_dimension"] = 32
    (dest / "1_Pooling" / "config.json").write_text(json.dumps(pooling))
    torch.manual_seed(8)
    cfg = BertConfig(vocab_size=30522, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                     intermediate_size=64, max_position_embeddings=512)
    BertModel(cfg).save_pretrained(str(dest))
    return dest


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory) -> Path:
    return build_tiny_model(tmp_path_factory.mktemp("tiny-embedder") / "model")


@pytest.fixture(scope="session")
def tiny_embedder(tiny_model):
    from legal_rag.index.embed import Embedder

    return Embedder(str(tiny_model))


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def write_manifest(path: Path, corpus: Path, entries: list[dict]) -> Path:
    """A ``corpora/manifest.toml`` for files under ``corpus``; each entry has ``name``, ``kind``, ``path`` (relative)
    and optionally ``act`` / ``format``; the sha256 is computed from the file as it is now."""
    lines = ["version = 1", ""]
    for e in entries:
        lines.append("[[source]]")
        for k in ("name", "kind", "format", "act", "path"):
            if e.get(k):
                lines.append(f'{k} = "{e[k]}"')
        lines.append(f'sha256 = "{e.get("sha256") or sha256(corpus / e["path"])}"')
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")
    return path
