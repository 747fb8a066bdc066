"""Rerank benchmark: no rerank vs our trained cross-encoder (``legal``) vs MaxSim, on AILA 2019 Task 2 (test
queries Q11-Q50), AILA Task 1 (Q11-Q50, BM25 first stage) and the dev question set, with the latency each reranker
adds per query (p50, p95, seconds, on this machine). Writes ``bench/results_rerank.md``.

Every system reranks the same fused list: hybrid retrieval (dense + BM25, RRF), its first ``--candidates`` hits
rescored, the rest of the list kept behind them (so MAP over the whole ranking stays comparable). Documents are
ranked by their best chunk (AILA) or sections by their best chunk (dev set), then scored with ranx
(:mod:`legal_rag.eval.metrics`).

    HF_HUB_OFFLINE=1 .venv/bin/python bench/rerank_eval.py --tasks task2,dev --data-dir /tmp/rr/eval \
        --legal-dir .legal_rag/models/legal-reranker
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from legal_rag.config import Settings  # noqa: E402
from legal_rag.eval.aila import TEST_QUERIES, doc_ranking, load_qrels, load_queries  # noqa: E402
from legal_rag.eval.metrics import evaluate_run  # noqa: E402
from legal_rag.eval.runners import load_devset, section_ranking  # noqa: E402
from legal_rag.rerank import Reranker  # noqa: E402

METRICS = ("map", "ndcg@10", "recall@5")


def settings_at(base: Settings, data_dir: Path) -> Settings:
    return Settings(**{**base.model_dump(), "data_dir": data_dir})


def dev_index(settings: Settings, log):
    """An index of the BNS and IPC sections (structured texts: ``bns_sections_kaggle_cmrit.csv``,
    ``ipc_civictech.json``), the two Acts the dev set's gold sections come from."""
    from legal_rag.index import Embedder, build_index, open_index
    from legal_rag.ingest.chunk import chunk_corpus
    from legal_rag.rerank.training.data import bns_docs, ipc_docs
    from legal_rag.types import Section, StatuteRef

    try:
        return open_index(settings)
    except Exception:
        pass
    emb = Embedder.from_settings(settings)
    secs = [Section(StatuteRef(*d.key.split()), d.title, d.text, src, (0, 0))
            for docs, src in ((bns_docs(settings.corpus_path), "bns_sections_kaggle_cmrit.csv"),
                              (ipc_docs(settings.corpus_path), "ipc_civictech.json")) for d in docs.values() if d.text]
    chunks = chunk_corpus(secs, (), emb, chunk_tokens=settings.chunk_tokens, overlap=settings.chunk_overlap)
    log(f"dev index: {len(secs)} sections -> {len(chunks)} chunks; embedding ...")
    return build_index(chunks, settings, embedder=emb, progress=lambda i, n: log(f"  embedded {i}/{n}"))


def fused_lists(task: str, settings: Settings, data_dir: Path, log):
    """``(lists {qid: [Hit]}, qrels, texts, rank_fn)`` for a task."""
    from legal_rag.index import open_index
    from legal_rag.retrieve.search import search

    if task == "task2":
        s = settings_at(settings, data_dir / "task2")
        try:
            index = open_index(s)
        except Exception:
            from legal_rag.eval.runners import build_aila_statutes

            index = build_aila_statutes(s)
        texts = load_queries(settings.corpus_path)
        depth = len(index.sparse)
        lists = {q: list(search(texts[q], index, s, mode="hybrid", candidates=depth, limit=depth, lookup=False,
                                max_per_doc=None)) for q in TEST_QUERIES}
        return lists, load_qrels(settings.corpus_path, "task2"), texts, doc_ranking
    if task == "dev":
        s = settings_at(settings, data_dir / "dev")
        index = dev_index(s, log)
        items = load_devset(ROOT / "bench" / "devset.jsonl")
        qrels = {d["id"]: {re.sub(r"\(.*", "", g): 1 for g in d["gold"]} for d in items}
        texts = {d["id"]: d["question"] for d in items}
        lists = {d["id"]: list(search(d["question"], index, s, limit=50, lookup=True)) for d in items}
        return lists, qrels, texts, section_ranking
    if task == "task1":
        return task1_lists(settings, log)
    raise ValueError(f"unknown task {task!r}")


def task1_lists(settings: Settings, log, candidates: int = 100):
    """AILA Task 1 with a BM25 first stage over every chunk of the 2,914 judgments (no dense stage: embedding
    ~55k chunks takes ~45 min on 2 cores); judgments ranked by their best chunk."""
    from legal_rag.eval.aila import load_casedocs
    from legal_rag.index import Embedder, SparseIndex
    from legal_rag.ingest.chunk import chunk_corpus
    from legal_rag.injection import index_text
    from legal_rag.types import Hit

    t0 = time.perf_counter()
    judgments, paras = load_casedocs(settings.corpus_path)
    chunks = chunk_corpus((), paras, Embedder.from_settings(settings), judgments={j.case_id: j for j in judgments},
                          chunk_tokens=settings.chunk_tokens, overlap=settings.chunk_overlap)
    sparse = SparseIndex.build([c.id for c in chunks], [index_text(c) for c in chunks])
    log(f"task1: {len(judgments)} judgments -> {len(chunks)} chunks, BM25 built in {time.perf_counter() - t0:.0f}s")
    by_id = {c.id: c for c in chunks}
    texts = load_queries(settings.corpus_path)
    lists = {q: [Hit(by_id[cid], sc, "sparse", i + 1) for i, (cid, sc) in enumerate(sparse.search(texts[q], candidates))]
             for q in TEST_QUERIES}
    return lists, load_qrels(settings.corpus_path, "task1"), texts, doc_ranking


def run_system(name: str, reranker: Reranker | None, lists, texts, candidates: int, rank_fn, log):
    runs, lat = {}, []
    for i, (q, hits) in enumerate(lists.items()):
        if reranker is None:
            runs[q] = rank_fn(hits)
            continue
        head, tail = hits[:candidates], hits[candidates:]
        t0 = time.perf_counter()
        res = reranker.score(texts[q], head)
        lat.append(time.perf_counter() - t0)
        order = sorted(range(len(head)), key=lambda j: (-res.scores[j], j))
        runs[q] = rank_fn([head[j] for j in order] + tail)
        if i % 10 == 9:
            log(f"  {name}: {i + 1}/{len(lists)} queries, last {lat[-1]:.2f}s")
    return runs, lat


def pct(xs, p):
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tasks", default="task2,dev")
    ap.add_argument("--systems", default="none,legal,maxsim")
    ap.add_argument("--data-dir", type=Path, default=Path(".legal_rag") / "eval" / "rerank")
    ap.add_argument("--legal-dir", type=Path, default=None, help="trained model dir (default <data_dir>/models/...)")
    ap.add_argument("--candidates", type=int, default=30, help="hits rescored per query (rerank_candidates)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results_rerank.md")
    args = ap.parse_args(argv)
    log = lambda m: print(m, flush=True)  # noqa: E731
    settings = Settings()
    rows, notes = [], []
    for task in args.tasks.split(","):
        t0 = time.perf_counter()
        lists, qrels, texts, rank_fn = fused_lists(task, settings, args.data_dir, log)
        qids = [q for q in lists if any(v > 0 for v in qrels.get(q, {}).values())]
        lists = {q: lists[q] for q in qids}
        log(f"{task}: {len(lists)} queries, first stage {time.perf_counter() - t0:.0f}s")
        for sysname in args.systems.split(","):
            rr = None
            if sysname == "maxsim":
                rr = Reranker("maxsim", embed_model=settings.embed_model)
            elif sysname == "legal":
                path = args.legal_dir or (Path(settings.data_dir) / "models" / "legal-reranker")
                rr = Reranker(str(path))  # named legal-minilm-ce@<fingerprint> from the trainer's metadata
            elif sysname != "none":
                rr = Reranker(sysname)
            runs, lat = run_system(sysname, rr, lists, texts, args.candidates, rank_fn, log)
            m = evaluate_run({q: qrels[q] for q in qids}, runs, METRICS)
            first = "BM25 first stage" if task == "task1" else "hybrid RRF"
            label = f"no rerank ({first})" if rr is None else rr.name
            rows.append((task, label, len(qids), m, pct(lat, 50), pct(lat, 95)))
            log(f"{task} {label}: " + " ".join(f"{k}={v:.4f}" for k, v in m.items())
                + (f" p50={pct(lat, 50):.2f}s p95={pct(lat, 95):.2f}s" if lat else ""))
    load = os.getloadavg()
    out = ["| task | system | queries | MAP | nDCG@10 | recall@5 | added latency p50 (s) | p95 (s) |",
           "|---|---|---|---|---|---|---|---|"]
    for task, label, n, m, p50, p95 in rows:
        lat = f"{p50:.2f} | {p95:.2f}" if label.startswith("no rerank") is False else "0 | 0"
        out.append(f"| {task} | {label} | {n} | {m['map']:.4f} | {m['ndcg@10']:.4f} | {m['recall@5']:.4f} | {lat} |")
    table = (f"<!-- rerank-table:start (bench/rerank_eval.py --tasks {args.tasks} --candidates {args.candidates}; "
             f"load average at end {load[0]:.1f} on {os.cpu_count()} cores) -->\n" + "\n".join(out)
             + "\n<!-- rerank-table:end -->")
    write_block(args.out, args.tasks, table)
    print(table)
    return 0


def write_block(path: Path, tasks: str, table: str) -> None:
    """Put ``table`` into ``path`` in place of an earlier table for the same ``--tasks`` (others are kept)."""
    text = path.read_text(encoding="utf-8") if path.is_file() else "# Reranking results\n"
    pat = re.compile(r"<!-- rerank-table:start \(bench/rerank_eval.py --tasks " + re.escape(tasks)
                     + r" .*?<!-- rerank-table:end -->", re.S)
    text = pat.sub(lambda _: table, text) if pat.search(text) else text.rstrip("\n") + "\n\n" + table + "\n"
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
