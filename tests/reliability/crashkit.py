"""Helpers of the crash and concurrency tests: a small real corpus (a manifest naming real files of the shared
corpus), the ``legal-rag index`` command as a subprocess with the tiny embedder, and index snapshots to compare.

The case base (``settings.casebase``: AILA's 2,914 judgments read and indexed after the writer has switched and
released its lock) is off in both the command's environment and the in-process settings: it is no part of the
index writer's phases under test, and building it would dominate every run."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from legal_rag.config import Settings
from legal_rag.ingest.corpus import load_manifest

ROOT = Path(__file__).resolve().parents[2]


def small_manifest(dest: Path, names: list[str]) -> Path:
    """A manifest with the real manifest's entries ``names`` (paths stay relative to the shared corpus)."""
    from .conftest import write_manifest

    base = Settings()
    picked = {s.name: s for s in load_manifest(base.manifest_path) if s.name in names}
    missing = set(names) - set(picked)
    if missing:
        raise KeyError(f"not in the manifest: {sorted(missing)}")
    entries = [dict(name=s.name, kind=s.kind, format=s.format, act=s.act, path=s.path, sha256=s.sha256)
               for s in (picked[n] for n in names)]
    return write_manifest(dest, base.corpus_path, entries)


def cli_env(data_dir: Path, manifest: Path, tiny_model: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(LEGAL_RAG_DATA_DIR=str(data_dir), LEGAL_RAG_MANIFEST_PATH=str(manifest),
               LEGAL_RAG_EMBED_MODEL=str(tiny_model), LEGAL_RAG_CONFIG=str(data_dir.parent / "absent.toml"),
               HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", ANONYMIZED_TELEMETRY="False",
               TOKENIZERS_PARALLELISM="false", PYTHONPATH=str(ROOT), LEGAL_RAG_CASEBASE="false")
    return env


def start_index(env: dict[str, str], cwd: Path) -> subprocess.Popen:
    """``legal-rag index --no-progress`` as a child (its own process group, so SIGKILL takes it whole)."""
    return subprocess.Popen([sys.executable, "-m", "legal_rag.cli", "index", "--no-progress"], env=env, cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def settings_for(data_dir: Path, manifest: Path, tiny_model: Path) -> Settings:
    return Settings(data_dir=data_dir, manifest_path=manifest, embed_model=str(tiny_model), casebase=False)


@dataclass(frozen=True)
class Snapshot:
    """What a served index holds: chunk id -> text, and the dense and sparse counts."""

    build_id: str
    texts: dict
    dense: int
    sparse: int
    corpus: dict


def snapshot(settings: Settings, embedder) -> Snapshot:
    from legal_rag.index import open_index

    idx = open_index(settings, embedder=embedder)
    try:
        return Snapshot(idx.manifest.build_id, {c.id: c.text for c in idx.store.all_chunks()}, idx.dense.count(),
                        len(idx.sparse), dict(idx.manifest.corpus))
    finally:
        idx.close()
