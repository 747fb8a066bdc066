"""Runners: AILA Task 2 and Task 1, the BNS-era variant of Task 2, and the dev set. Each returns figures; the
bench scripts print them and ``legal-rag eval`` calls them.

Systems compared: ``sparse`` (BM25 with the legal tokenizer), ``dense`` (MiniLM cosine through Chroma HNSW),
``hybrid`` (both fused by RRF, ``rrf_k`` from settings). Section look-up is off for AILA (its queries name no
section: the statutes are anonymised) and on for the dev set (the product's default).
"""

from __future__ import annotations

import csv
import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from ..config import Settings
from ..types import Chunk, Hit, Section
from .aila import (TEST_QUERIES, AilaResult, doc_ranking, load_casedocs, load_qrels, load_queries,
                   load_statutes, score)

if TYPE_CHECKING:
    from ..index import Embedder, Index

MODES = ("sparse", "dense", "hybrid")


def _chunks_for(sections, paragraphs, judgments, settings: Settings, embedder) -> tuple[Chunk, ...]:
    from ..ingest.chunk import chunk_corpus

    return chunk_corpus(sections, paragraphs, embedder, judgments=judgments, chunk_tokens=settings.chunk_tokens,
                        overlap=settings.chunk_overlap)


def build_aila_statutes(settings: Settings, embedder=None, stats: dict | None = None):
    """Index of the 197 AILA statutes under ``settings.data_dir``."""
    from ..index import Embedder, build_index

    embedder = embedder or Embedder.from_settings(settings)
    chunks = _chunks_for(load_statutes(settings.corpus_path), (), None, settings, embedder)
    return build_index(chunks, settings, embedder=embedder, stats=stats)


@dataclass(frozen=True)
class ActsIndex:
    """What :func:`build_acts_index` built: the index, the sections and chunks in it, where the sections came from
    (``origin``: ``"ingest"`` or ``"structured"``, see :func:`legal_rag.eval.acts.load_sections`), seconds spent
    loading, chunking and building, and the build stats of :func:`legal_rag.index.build_index`."""

    index: Index
    sections: tuple[Section, ...]
    origin: str
    chunks: tuple[Chunk, ...]
    load_s: float = 0.0
    chunk_s: float = 0.0
    build_s: float = 0.0
    stats: dict = field(default_factory=dict)


def build_acts_index(settings: Settings, *, source: Settings | None = None, embedder: Embedder | None = None
                     ) -> ActsIndex:
    """Index of the Acts' sections under ``settings.data_dir`` (the index ``legal-rag eval bns|dev`` and
    ``bench/run.py`` evaluate). Sections are loaded with ``source`` settings (corpus, manifest, page cache; default
    ``settings``) by :func:`legal_rag.eval.acts.load_sections`, chunked section by section and indexed."""
    from ..index import Embedder, build_index
    from ..ingest.chunk import chunk_section
    from .acts import load_sections

    embedder = embedder or Embedder.from_settings(settings)
    t0 = time.perf_counter()
    secs, origin = load_sections(source or settings)
    load_s, t0 = time.perf_counter() - t0, time.perf_counter()
    chunks = tuple(c for x in secs for c in chunk_section(x, embedder, chunk_tokens=settings.chunk_tokens,
                                                          overlap=settings.chunk_overlap))
    chunk_s, t0 = time.perf_counter() - t0, time.perf_counter()
    stats: dict = {}
    index = build_index(chunks, settings, embedder=embedder, stats=stats)
    return ActsIndex(index, tuple(secs), origin, chunks, load_s, chunk_s, time.perf_counter() - t0, stats)


def run_task2(index, settings: Settings, modes: Sequence[str] = MODES, queries: Sequence[str] = TEST_QUERIES
              ) -> list[AilaResult]:
    """AILA Task 2 on ``queries`` for each mode; every chunk is ranked (depth = all chunks)."""
    from ..retrieve.search import search

    texts, qrels = load_queries(settings.corpus_path), load_qrels(settings.corpus_path, "task2")
    depth = len(index.sparse)
    out = []
    for mode in modes:
        runs = {q: doc_ranking(search(texts[q], index, settings, mode=mode, candidates=depth, limit=depth,
                                      lookup=False, max_per_doc=None)) for q in queries}
        out.append(score("task2", mode, runs, qrels, queries))
    return out


def run_task1(settings: Settings, *, dense_chunks_per_doc: int = 1, limit_docs: int | None = None,
              candidates: int = 1000, modes: Sequence[str] = MODES, embedder=None, log=print
              ) -> tuple[list[AilaResult], dict]:
    """AILA Task 1. BM25 indexes every chunk of every judgment; the dense index holds only the first
    ``dense_chunks_per_doc`` chunks of each judgment (embedding all ~55k chunks takes ~45 min on 2 CPU cores).
    Hybrid fuses the two chunk lists by RRF; judgments are ranked by their best chunk. Returns one result per mode
    and ``stats`` (counts and seconds). Precedent search over whole judgments is a benchmark
    (:mod:`bench.precedents`)."""
    from ..index import Embedder, SparseIndex, build_index
    from ..retrieve.fusion import rrf
    from ..retrieve.search import dense_hits
    from ..injection import index_text

    embedder = embedder or Embedder.from_settings(settings)
    stats: dict = {}
    t0 = time.perf_counter()
    judgments, paras = load_casedocs(settings.corpus_path, limit_docs)
    chunks = _chunks_for((), paras, {j.case_id: j for j in judgments}, settings, embedder)
    stats["docs"], stats["chunks"], stats["chunk_s"] = len(judgments), len(chunks), time.perf_counter() - t0
    log(f"task1: {len(judgments)} judgments -> {len(chunks)} chunks in {stats['chunk_s']:.0f}s")
    t0 = time.perf_counter()
    full_sparse = SparseIndex.build([c.id for c in chunks], [index_text(c) for c in chunks])
    stats["sparse_build_s"] = time.perf_counter() - t0
    by_id = {c.id: c for c in chunks}
    head = [c for c in chunks if c.part < dense_chunks_per_doc]
    bstats: dict = {}
    index = build_index(head, settings, embedder=embedder, stats=bstats,
                        progress=lambda i, n: log(f"  embedded {i}/{n}") if i % 1024 < 256 or i == n else None)
    stats.update(dense_chunks=len(head), **{f"build_{k}": v for k, v in bstats.items()})
    texts, qrels = load_queries(settings.corpus_path), load_qrels(settings.corpus_path, "task1")
    lists: dict[str, dict[str, list[Hit]]] = {}
    for q in TEST_QUERIES:
        sp = [Hit(by_id[cid], s, "sparse", i + 1) for i, (cid, s) in enumerate(full_sparse.search(texts[q], candidates))]
        de = dense_hits(texts[q], index, min(candidates, len(head)))
        lists[q] = {"sparse": sp, "dense": de, "hybrid": rrf([de, sp], settings.rrf_k)}
    results = [score("task1", m, {q: doc_ranking(lists[q][m]) for q in TEST_QUERIES}, qrels) for m in modes]
    index.close()
    return results, stats


def successor_qrels(settings: Settings) -> dict[str, dict[str, int]]:
    """Task 2 gold statutes re-labelled with their successors (``DERIVED_aila_statute_to_section_and_successor
    .csv``, from the BPR&D tables): ``{qid: {"BNS 318": 1, ...}}`` at section level; gold statutes with no
    identified successor are dropped, and queries left with none are dropped."""
    path = settings.corpus_path / "benchmarks" / "aila2019" / "DERIVED_aila_statute_to_section_and_successor.csv"
    succ: dict[str, set[str]] = {}
    with open(path, encoding="utf-8", newline="") as fh:
        for r in csv.DictReader(fh):
            for part in re.split(r"[;/]", r["new_section_per_BPRD"] or ""):
                m = re.match(r"\s*(\d+[A-Z]*)", part)
                if m and r["new_act"]:
                    succ.setdefault(r["aila_statute_id"], set()).add(f"{r['new_act']} {m.group(1)}")
    out: dict[str, dict[str, int]] = {}
    for q, docs in load_qrels(settings.corpus_path, "task2").items():
        gold = {s for d, rel in docs.items() if rel > 0 for s in succ.get(d, ())}
        if gold:
            out[q] = {g: 1 for g in sorted(gold)}
    return out


def section_ranking(hits: Sequence[Hit]) -> list[str]:
    """Sections (``"BNS 318"``) in order of their best chunk."""
    return list(dict.fromkeys(f"{h.chunk.ref.act} {h.chunk.ref.section}" for h in hits if h.chunk.ref))


def run_bns_variant(index, settings: Settings, modes: Sequence[str] = MODES, candidates: int | None = None
                    ) -> list[AilaResult]:
    """Task 2, BNS era: test queries against our indexed new codes (filter ``code="new"``: every BNS, BNSS and BSA
    section is a candidate, a far larger pool than AILA's 197 statutes), gold = successors; every other new-code
    section is judged non-relevant (for BPREF). ``candidates`` defaults to every new-code chunk."""
    from ..retrieve.search import search

    new = {f"{m['act']} {m['section']}" for m in index.metadata().values() if m.get("code") == "new"}
    candidates = candidates or sum(1 for m in index.metadata().values() if m.get("code") == "new")
    qrels = {q: {**{sec: 0 for sec in new}, **d} for q, d in successor_qrels(settings).items() if q in TEST_QUERIES}
    texts = load_queries(settings.corpus_path)
    out = []
    for mode in modes:
        runs = {q: section_ranking(search(texts[q], index, settings, mode=mode, candidates=candidates,
                                          limit=candidates, lookup=False, max_per_doc=None,
                                          filters={"code": "new"})) for q in qrels}
        out.append(score("task2-bns", mode, runs, qrels, list(qrels)))
    return out


def load_devset(path: Path) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def run_devset(index, settings: Settings, path: Path, modes: Sequence[str] = MODES, lookup: bool = True
               ) -> dict[str, dict[str, float]]:
    """recall@5, nDCG@10 and MRR at section level (a section counts once, at its best chunk), per mode."""
    from ..retrieve.search import search
    from .metrics import DEV_METRICS, evaluate_run

    items = load_devset(path)
    qrels = {d["id"]: {re.sub(r"\(.*", "", g): 1 for g in d["gold"]} for d in items}
    out = {}
    for mode in modes:
        runs = {d["id"]: section_ranking(search(d["question"], index, settings, mode=mode, limit=50,
                                                lookup=lookup)) for d in items}
        out[mode] = evaluate_run(qrels, runs, DEV_METRICS)
    return out


def aila_settings(settings: Settings, name: str) -> Settings:
    """The same settings with ``data_dir`` moved to ``<data_dir>/eval/<name>`` (evaluation indexes stay apart
    from the served one)."""
    return replace_settings(settings, data_dir=Path(settings.data_dir) / "eval" / name)


def replace_settings(settings: Settings, **kw) -> Settings:
    return Settings(**{**settings.model_dump(), **kw})
