"""Benchmarks that print figures (not timed tests). Usage::

    HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 .venv/bin/python bench/run.py [--work DIR] [--task1-chunks N]
        [--skip task1,langchain,sectionfind,...] [--only sectionfind|task1] [--acts-index DIR] [--casebase DIR]
        [--out bench/results.md]

Sections: section finding (``--only sectionfind``: case-base evidence fused with direct retrieval, weights chosen
on AILA Q1 and Q3-Q10, then AILA Task 2, the BNS-era variant and the dev set; see :func:`sectionfind_section`),
AILA Task 2 (BM25 / dense / hybrid), the Acts index (ingest -> index throughput vs the embedder's raw
throughput, dev set, BNS-era Task 2, query latency per stage, HNSW recall@10 vs exact search, LangChain
EnsembleRetriever baseline on the same chunks) and AILA Task 1 (capped dense, see run_task1; with ``--casebase``
also precedent search, weights chosen on Q1, Q3-Q10; ``--only task1 --casebase DIR --work .legal_rag`` runs only
that, caching under ``WORK/task1``, plus a post-hoc diagnostic: see :func:`task1_precedents_section`).
Every figure is appended to the markdown output as it is produced.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from legal_rag.config import Settings  # noqa: E402
from legal_rag.eval.aila import TEST_QUERIES, format_table, load_queries  # noqa: E402
from legal_rag.index import Embedder, build_index  # noqa: E402

OUT: list[str] = []


def emit(text: str = "") -> None:
    print(text, flush=True)
    OUT.append(text)


def pct(xs, p):
    return float(np.percentile(np.asarray(xs) * 1000, p))


def raw_throughput(emb: Embedder, passages: list[str]) -> float:
    t0 = time.perf_counter()
    emb.embed_passages(passages)
    return len(passages) / (time.perf_counter() - t0)


def hnsw_recall(index, emb_model: str, queries: int = 200, k: int = 10) -> float:
    ids = [c.id for c in index.store.all_chunks()]
    vecs = index.store.vectors(emb_model, ids)
    rng = np.random.default_rng(0)
    picks = rng.choice(len(ids), size=min(queries, len(ids)), replace=False)
    hits = 0
    for i in picks:
        q = vecs[i] + rng.normal(0, 0.02, vecs.shape[1]).astype(np.float32)
        q /= np.linalg.norm(q)
        exact = set(np.array(ids)[np.argsort(-(vecs @ q), kind="stable")[:k]])
        got = {cid for cid, _ in index.dense.search(q, k)}
        hits += len(exact & got)
    return hits / (k * len(picks))


def latency(index, settings, questions: list[str]) -> dict[str, list[float]]:
    from legal_rag.retrieve.search import search

    per: dict[str, list[float]] = {"embed": [], "dense": [], "sparse": [], "fuse": [], "total": []}
    for q in questions:
        t: dict = {}
        t0 = time.perf_counter()
        search(q, index, settings, timings=t)
        t["total"] = time.perf_counter() - t0
        for k in per:
            per[k].append(t.get(k, 0.0))
    return per


def langchain_baseline(index, settings, devset, k_each: int = 50):
    """EnsembleRetriever(BM25Retriever, Chroma vector store) over the same chunk passages, no case base
    (:func:`bench.latency.build_langchain`); vectors come from our store (same model, no second embedding run)."""
    from bench.latency import NoCases, build_langchain

    ens, _ = build_langchain(index, NoCases(), Path(settings.data_dir), k_each)
    return ens


def sectionfind_section(work: Path, acts_dir: Path | None, emb, keep_defaults: bool = False,
                        quoted: bool = True, casebase_dir: Path | None = None) -> None:
    """Section finding (issue 13): case-base evidence fused with direct statute retrieval.

    Inputs built once under ``work`` and reused: the case base (``work/casebase``: load_casebase + CaseBase.build,
    its leakage guard drops the near-copies of test queries), the AILA statute index (``work/aila-statutes``).
    ``acts_dir``: a data dir holding a built index of the six Acts (e.g. a copy of the test index), opened read-only
    for the BNS-era variant and the dev set; None builds one under ``work/acts``.
    Weights: a grid over the evidence parameters (direct weight 0), then one over the fusion weights, each point
    scored by the mean of Task 2 MAP and BNS-era MAP on the tuning queries (Q1, Q3-Q10: Q2 is an 80% copy of test
    Q50, so it is left out). Test figures (Q11-Q50) are computed once, with the chosen point, after the choice.
    Ties go to the module defaults (``choose(..., prefer=...)``): the defaults move only when the tuning value
    says so; the defaults' own tuning value is printed beside the best.
    ``keep_defaults``: no grid; the module defaults (the point chosen earlier by that procedure) are used.
    ``casebase_dir``: a saved case base to open instead of ``work/casebase`` (e.g. the one
    :func:`legal_rag.retrieve.casebase_build.ensure_casebase` keeps under ``<data dir>/casebase/<key>``).
    ``quoted``: the AILA statute map also takes the quoted-text identifications of the case base
    (:func:`legal_rag.eval.sectionfind.quoted_text_map`); its votes are printed. The grid is
    :func:`bench.tuning.choose`."""
    from dataclasses import replace

    from legal_rag.config import load_settings
    from legal_rag.eval.aila import TEST_QUERIES, TRAIN_QUERIES, load_qrels, score
    from legal_rag.eval.metrics import DEV_METRICS, evaluate_run
    from legal_rag.eval.runners import load_devset
    from legal_rag.eval import sectionfind as sf
    from legal_rag.index import open_index
    from legal_rag.index.casebase import CaseBase
    from legal_rag.law import load_concordance
    from legal_rag.retrieve.evidence import EvidenceParams, section_evidence
    from legal_rag.retrieve.filters import Filters
    from legal_rag.retrieve.sectionfind import FusionWeights, direct_sections, find_sections, rank_sections
    from legal_rag.types import NEW_ACTS, OLD_ACTS

    from bench.tuning import CachedCaseBase, choose

    tune_q = tuple(q for q in TRAIN_QUERIES if q != "AILA_Q2")
    base = Settings()
    texts = load_queries(base.corpus_path)
    conc = load_concordance(base.corpus_path)
    cb_dir = casebase_dir or work / "casebase"
    t0 = time.perf_counter()
    if casebase_dir is not None and not (cb_dir / "cases.json.gz").exists():
        raise SystemExit(f"--casebase {cb_dir}: no saved case base there (cases.json.gz)")
    if not (cb_dir / "cases.json.gz").exists():
        from legal_rag.ingest.casebase import load_casebase

        j, p, leak = load_casebase(base.corpus_path)
        CaseBase.build(j, p).save(cb_dir)
        emit(f"Case base built: {len(j)} judgments, {len(p)} paragraphs; leakage guard dropped {leak.dropped} "
             f"({leak.matches}).")
    cb = CachedCaseBase(CaseBase.open(cb_dir))
    emit(f"## Section finding (issue 13): case-base evidence + direct retrieval\n\nCase base: {len(cb)} judgments "
         f"(`{cb_dir.name}`, opened in {time.perf_counter() - t0:.0f}s); load average at start "
         f"{' / '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores.\n")
    smap = sf.aila_statute_map(base.corpus_path)
    if quoted:
        from legal_rag.eval.aila import load_statutes

        t0 = time.perf_counter()
        smap, qv = sf.quoted_text_map(smap, load_statutes(base.corpus_path), cb.cb)
        emit(f"Quoted-text identification ({time.perf_counter() - t0:.0f}s; n={sf.QUOTE_N}, shared >= "
             f"{sf.QUOTE_MIN_SHARED}, votes >= {sf.QUOTE_MIN_PARAS}, share >= {sf.QUOTE_MIN_SHARE}):\n")
        emit("| S-id | title | quoting paragraphs | top votes | taken |\n|---|---|---|---|---|")
        titles = {st.ref.section: st.title for st in load_statutes(base.corpus_path)}
        for sid, v in qv.items():
            if v.paragraphs and smap.origin.get(sid) in (None, "quoted-text"):
                top = ", ".join(f"{r} {n}" for r, n in v.votes[:4])
                emit(f"| {sid} | {titles[sid][:60]} | {len(v.paragraphs)} | {top} | "
                     f"{smap.refs[sid] if smap.origin.get(sid) == 'quoted-text' else '-'} |")
        emit()
    q2 = load_qrels(base.corpus_path, "task2")
    c_te, c_tr = sf.coverage(smap, q2, TEST_QUERIES), sf.coverage(smap, q2, TRAIN_QUERIES)
    emit(f"AILA statutes mapped to a real section: {len(smap.refs)} of {len(smap.refs) + len(smap.unmatched)} "
         f"({sum(v == 'derived_csv' for v in smap.origin.values())} from the DERIVED csv, "
         f"{sum(v in ('title', 'title+text') for v in smap.origin.values())} by exact title, "
         f"{sum(v == 'quoted-text' for v in smap.origin.values())} by quoted text); gold statutes covered: "
         f"test {c_te[0]}/{c_te[1]}, train {c_tr[0]}/{c_tr[1]} (the rest: direct retrieval only).\n")
    sa = Settings(data_dir=work / "aila-statutes")
    try:
        ia = open_index(sa, embedder=emb)
    except Exception:  # noqa: BLE001 - not built yet
        from legal_rag.eval.runners import build_aila_statutes

        ia = build_aila_statutes(sa, emb)
    if acts_dir is not None:
        sb = load_settings().model_copy(update={"data_dir": acts_dir})
        ib = open_index(sb, embedder=emb)
    else:
        from legal_rag.eval.runners import build_acts_index

        sb = Settings(data_dir=work / "acts")
        ib = build_acts_index(sb, source=Settings(), embedder=emb).index
    qs = TRAIN_QUERIES + TEST_QUERIES
    t0 = time.perf_counter()
    d_aila = {m: sf.aila_direct(ia, sa, texts, qs, m) for m in ("sparse", "dense", "hybrid")}
    d_bns = {m: sf.bns_direct(ib, sb, texts, qs, m, 400) for m in ("sparse", "hybrid")}
    bq = sf.bns_qrels(ib, sb, qs)
    emit(f"Direct rankings for 50 queries (AILA statutes: 3 modes; Acts: 2 modes, 400 chunks) in "
         f"{time.perf_counter() - t0:.0f}s.\n")

    def t2(w, p, queries):
        runs = {q: sf.task2_run(texts[q], d_aila[w.mode][q], cb, smap, w, p, conc) for q in queries}
        return score("task2", "", runs, q2, queries).metrics

    def bns(w, p, queries):
        qr = {q: v for q, v in bq.items() if q in queries}
        runs = {q: sf.bns_run(texts[q], d_bns[w.mode][q], cb, conc, w, p) for q in qr}
        return score("task2-bns", "", runs, qr, list(qr)).metrics

    def tune_value(w, p):
        return (t2(w, p, tune_q)["map"] + bns(w, p, tune_q)["map"]) / 2

    if keep_defaults:
        w2, p2 = FusionWeights(), EvidenceParams()
        v2 = tune_value(w2, p2)
        emit("### Weights: the module defaults (no grid)\n")
    else:
        t0 = time.perf_counter()
        w0 = FusionWeights(evidence=1.0, direct=0.0, mode="sparse")
        wd, pd = FusionWeights(), EvidenceParams()
        space1 = dict(alpha=[0.0, 0.5, 1.0, 2.0], gamma=[0.0, 0.5, 1.0], beta=[0.0, 1.0, 2.0],
                      top_cases=[5, 10, 20, 50], per_case=[1, 3, 5])
        space2 = dict(method=["rrf", "score"], direct=[0.0, 0.05, 0.1, 0.2, 0.3, 0.5], rrf_k=[5, 20, 60],
                      bridge=[0.0, 0.5, 1.0], mode=["sparse", "hybrid"])
        _, p1, v1, tab1 = choose(tune_value, w0, pd, space1, prefer={k: getattr(pd, k) for k in space1},
                                    log=lambda x: print(x, flush=True))
        w2, p2, v2, tab2 = choose(tune_value, replace(w0, direct=0.1), p1, space2,
                                     prefer={k: getattr(wd, k) for k in space2},
                                     log=lambda x: print(x, flush=True))
        v_def = tune_value(wd, pd)
        emit(f"### Choice on the tuning queries ({', '.join(q.split('_')[1] for q in tune_q)}), "
             f"{len(tab1) + len(tab2)} points in {time.perf_counter() - t0:.0f}s\n")
        emit("Value = mean of Task 2 MAP and BNS-era MAP on those 9 queries. Stage 1 (evidence only), best five:\n")
        emit("| point | value |\n|---|---|")
        for pt, v in sorted(tab1, key=lambda t: -t[1])[:5]:
            emit(f"| {pt} | {v:.4f} |")
        emit("\nStage 2 (fusion, evidence parameters of stage 1), best five, and evidence only for reference:\n")
        emit("| point | value |\n|---|---|")
        for pt, v in sorted(tab2, key=lambda t: -t[1])[:5]:
            emit(f"| {pt} | {v:.4f} |")
        emit(f"| evidence only (direct 0) | {v1:.4f} |")
        emit(f"\nModule defaults before this choice (`{pd}`, `{wd}`): tuning value {v_def:.4f} (Task 2 MAP "
             f"{t2(wd, pd, tune_q)['map']:.4f}, BNS-era MAP {bns(wd, pd, tune_q)['map']:.4f}).")
    emit(f"\n**Chosen**: `{p2}`, `{w2}` (tuning value {v2:.4f}: Task 2 MAP {t2(w2, p2, tune_q)['map']:.4f}, "
         f"BNS-era MAP {bns(w2, p2, tune_q)['map']:.4f}).\n")
    ev_only = replace(w2, direct=0.0)
    res = []
    for m in ("sparse", "dense", "hybrid"):
        res.append(score("task2", f"direct only ({m}, over the 197 statutes)",
                         {q: d_aila[m][q] for q in TEST_QUERIES}, q2, TEST_QUERIES))
    res.append(score("task2", "case-base evidence only (chosen parameters)",
                     {q: sf.task2_run(texts[q], d_aila[w2.mode][q], cb, smap, ev_only, p2, conc)
                      for q in TEST_QUERIES}, q2, TEST_QUERIES))
    res.append(score("task2", f"**evidence + direct ({w2.method}, chosen)**",
                     {q: sf.task2_run(texts[q], d_aila[w2.mode][q], cb, smap, w2, p2, conc) for q in TEST_QUERIES},
                     q2, TEST_QUERIES))
    bq_te = {q: v for q, v in bq.items() if q in TEST_QUERIES}
    for m in ("sparse", "hybrid"):
        for share in (0.0, 0.5):
            ww = replace(w2, evidence=0.0, mode=m, bridge=share)
            res.append(score("task2-bns", f"direct only ({m}, bridge {share})",
                             {q: sf.bns_run(texts[q], d_bns[m][q], None, conc, ww, p2) for q in bq_te}, bq_te,
                             list(bq_te)))
    res.append(score("task2-bns", "case-base evidence only (BPR&D successors)",
                     {q: sf.bns_run(texts[q], d_bns[w2.mode][q], cb, conc, ev_only, p2) for q in bq_te}, bq_te,
                     list(bq_te)))
    res.append(score("task2-bns", f"**evidence + direct ({w2.method}, chosen)**",
                     {q: sf.bns_run(texts[q], d_bns[w2.mode][q], cb, conc, w2, p2) for q in bq_te}, bq_te,
                     list(bq_te)))
    emit(f"### Test queries Q11-Q50 (Task 2: 40 queries, all 197 statutes; BNS era: {len(bq_te)} queries with a "
         "successor, pool = every BNS/BNSS/BSA section of the Acts index)\n")
    emit(format_table(res))
    emit()

    # dev set: 45 short questions, gold by the BPR&D table; new era (BNS gold) and old era (IPC gold), section level
    import re

    devset = load_devset(ROOT / "bench" / "devset.jsonl")
    emit("### Dev set (45 short questions; not used for any choice), section level\n")
    emit("| era | system | recall@5 | nDCG@10 | MRR |\n|---|---|---|---|---|")
    for era, acts in (("new", NEW_ACTS), ("old", OLD_ACTS)):
        qrels = {d["id"]: {re.sub(r"\(.*", "", g): 1 for g in d["gold"] if g.split()[0] in acts} for d in devset}
        ranked = {d["id"]: direct_sections(d["question"], ib, sb, mode=w2.mode, filters=Filters(kind="statute"),
                                           depth=w2.depth, lookup=True) for d in devset}
        ev = {d["id"]: section_evidence(d["question"], cb, concordance=conc, era=era, params=p2) for d in devset}
        for name, w in (("direct only", replace(w2, evidence=0.0)), ("evidence only", replace(w2, direct=0.0)),
                        ("evidence + direct (chosen)", w2)):
            runs = {i: [f"{s.ref.act} {s.ref.section}" for s in rank_sections(ev[i], ranked[i], conc, allowed=acts,
                                                                             weights=w)] for i in ranked}
            m = evaluate_run(qrels, runs, DEV_METRICS)
            emit(f"| {era} | {name} | {m['recall@5']:.3f} | {m['ndcg@10']:.3f} | {m['mrr']:.3f} |")
    lat_short, lat_long = [], []
    for d in devset:
        t0 = time.perf_counter()
        find_sections(d["question"], ib, cb.cb, sb, era="new", concordance=conc, weights=w2, evidence_params=p2)
        lat_short.append(time.perf_counter() - t0)
    for q in TEST_QUERIES[:20]:
        t0 = time.perf_counter()
        find_sections(texts[q], ib, cb.cb, sb, era="new", concordance=conc, weights=w2, evidence_params=p2,
                      lookup=False)
        lat_long.append(time.perf_counter() - t0)
    emit(f"\n`find_sections` latency (case base {len(cb)} judgments, Acts index, {w2.mode} direct): 45 dev questions "
         f"p50 {pct(lat_short, 50):.0f} ms / p95 {pct(lat_short, 95):.0f} ms; 20 AILA statements p50 "
         f"{pct(lat_long, 50):.0f} ms / p95 {pct(lat_long, 95):.0f} ms. Load average at the end "
         f"{' / '.join(f'{x:.1f}' for x in os.getloadavg())}.\n")


def task1_precedents_section(work: Path, casebase_dir: Path, diagnostic: bool = True) -> None:
    """AILA Task 1 by precedent search: weights chosen on Q1, Q3-Q10, then scored once on Q11-Q50
    (:func:`bench.precedents.task1.run_precedents`; caches under ``work/task1``)."""
    from legal_rag.eval.metrics import AILA_METRICS

    from bench.precedents.task1 import GRID_WEIGHTS, TERMS, describe, run_precedents

    if not (casebase_dir / "cases.json.gz").exists():
        raise SystemExit(f"--casebase {casebase_dir}: no saved case base there (cases.json.gz)")
    t0 = time.perf_counter()
    rep = run_precedents(Settings(), work / "task1", casebase_dir=casebase_dir)
    c = rep.choice
    emit("### Precedent search (issue 18): weighted CombSUM, whole judgment + paragraphs + shared sections\n")
    emit(f"Grid on the training queries Q1, Q3-Q10 only ({c.tried} settings: weights doc, para, sections in "
         f"{list(GRID_WEIGHTS)}, paragraph aggregation max / sum of top 3, query terms "
         f"{['all' if t is None else t for t in TERMS]} by idf), by MAP, ties to the simpler. **Chosen: "
         f"{describe(c.weights)}; training MAP {c.train_map:.4f}** (P@10 {rep.train.metrics['precision@10']:.4f}, "
         f"RR {rep.train.metrics['mrr']:.4f}). Q11-Q50 were read only after this choice.\n")
    emit("Best training settings: " + "; ".join(f"{describe(w)}: {v:.4f}" for w, v in c.top[:5]) + ".\n")
    emit("| system (Q11-Q50) | " + " | ".join(AILA_METRICS) + " |\n|---|" + "---|" * len(AILA_METRICS))
    for r in rep.results:
        emit(f"| {r.system} | " + " | ".join(f"{r.metrics[m]:.4f}" for m in AILA_METRICS) + " |")
    emit(f"\nTime: pool and signals {rep.seconds['load']:.0f}s (cached), grid {rep.seconds['choose']:.0f}s, text "
         f"signals p50 {rep.seconds['query_p50'] * 1000:.0f} ms per query; section {time.perf_counter() - t0:.0f}s.\n")
    if diagnostic:
        task1_diagnostic(work, casebase_dir)


def task1_diagnostic(work: Path, casebase_dir: Path) -> None:
    """Post-hoc, after the test figures: over the grid's settings with every query term, the best setting on
    Q11-Q50 (an oracle, not a result) and 5-fold cross-validation over Q1, Q3-Q50 (each query scored with weights
    chosen on the other folds)."""
    from legal_rag.eval.aila import load_qrels
    from legal_rag.eval.metrics import AILA_METRICS

    from bench.precedents.task1 import cross_validate, describe, grid, load_or_compute, per_query

    t0 = time.perf_counter()
    base = Settings()
    pool, sig = load_or_compute(base, work / "task1", casebase_dir=casebase_dir)
    qrels = load_qrels(base.corpus_path, "task1")
    qs = [f"AILA_Q{i}" for i in range(1, 51) if i != 2]
    cands = [w for w in grid() if w.terms is None]
    table = per_query(pool, sig, qrels, qs, cands)
    mean = lambda per, m: sum(per[q][m] for q in TEST_QUERIES) / len(TEST_QUERIES)  # noqa: E731
    best = max(range(len(cands)), key=lambda i: (round(mean(table[i], "map"), 12), -i))
    cv, picks = cross_validate(table, qs, folds=5)
    emit(f"Post-hoc diagnostic (run after the figures above were read; {len(cands)} settings with every query term, "
         f"{time.perf_counter() - t0:.0f}s):\n")
    emit("| diagnostic (Q11-Q50) | " + " | ".join(AILA_METRICS) + " |\n|---|" + "---|" * len(AILA_METRICS))
    emit(f"| oracle: best setting on the test queries themselves ({describe(cands[best])}) | "
         + " | ".join(f"{mean(table[best], m):.4f}" for m in AILA_METRICS) + " |")
    emit("| 5-fold cross-validation over Q1, Q3-Q50 (folds by position mod 5) | "
         + " | ".join(f"{mean(cv, m):.4f}" for m in AILA_METRICS) + " |")
    emit("\nFolds chose: " + "; ".join(describe(cands[i]) for i in picks) + ".\n")


def task1_fusion_section(work: Path, casebase_dir: Path) -> None:
    """Precedent search with the chunk-BM25 list and the citation prior as signals
    (:func:`bench.precedents.fusion.run_fusion`): each system chosen on Q1, Q3-Q10, then scored once on Q11-Q50;
    k-fold cross-validation over Q1, Q3-Q50 as a secondary figure."""
    from legal_rag.eval.metrics import AILA_METRICS

    from bench.precedents.fusion import run_fusion
    from bench.precedents.task1 import describe

    t0 = time.perf_counter()
    rep = run_fusion(Settings(), work / "task1", casebase_dir=casebase_dir)
    emit(f"Citation prior: {rep.cited[0]} of 2,914 judgments cited by another ({rep.cited[1]} citing pairs).\n")
    emit("| system (Q11-Q50) | training MAP (Q1, Q3-Q10) | " + " | ".join(AILA_METRICS) + " |\n|---|---|"
         + "---|" * len(AILA_METRICS))
    for st in rep.steps:
        emit(f"| {st.test.system} ({st.grid} settings) | {st.train['map']:.4f} | "
             + " | ".join(f"{st.test.metrics[m]:.4f}" for m in AILA_METRICS) + " |")
    emit(f"| secondary: {len(rep.cv_picks)}-fold CV over Q1, Q3-Q50 on the last grid | – | "
         + " | ".join(f"{rep.cv[m]:.4f}" for m in AILA_METRICS) + " |")
    for st in rep.steps:
        emit(f"\nBest training settings, {st.name}: " + "; ".join(f"{describe(w)}: {v:.4f}" for w, v in st.top) + ".")
    emit("\nFolds chose: " + "; ".join(describe(w) for w in rep.cv_picks) + ".")
    emit(f"\nTime: load {rep.seconds['load']:.0f}s, CV {rep.seconds['cv']:.0f}s, section "
         f"{time.perf_counter() - t0:.0f}s.\n")


def task1_prop_section(work: Path, casebase_dir: Path, kind: str = "prop") -> None:
    """Precedent search with citation propagation (or RM3 feedback) as a signal
    (:func:`bench.precedents.propagation.run_prop`): chosen on Q1, Q3-Q10, then scored once on Q11-Q50; reference
    rows, k-fold cross-validation over Q1, Q3-Q50 (secondary) and a post-hoc oracle after that."""
    from legal_rag.eval.metrics import AILA_METRICS

    from bench.precedents.propagation import describe_prop, run_prop

    t0 = time.perf_counter()
    rep = run_prop(Settings(), work / "task1", casebase_dir=casebase_dir, kind=kind)
    emit(f"Citation graph: {rep.graph[0]} of 2,914 judgments cited by another ({rep.graph[1]} citing pairs). Grid: "
         f"{rep.grid} settings. **Chosen on Q1, Q3-Q10: {describe_prop(rep.chosen)}; training MAP "
         f"{rep.train_map:.4f}.**\n")
    emit("| system (Q11-Q50) | " + " | ".join(AILA_METRICS) + " |\n|---|" + "---|" * len(AILA_METRICS))
    row = lambda r: f"| {r.system} | " + " | ".join(f"{r.metrics[m]:.4f}" for m in AILA_METRICS) + " |"  # noqa
    emit(row(rep.test))
    for r in rep.refs:
        emit(row(r))
    emit(f"| secondary: {len(rep.cv_picks)}-fold CV over Q1, Q3-Q50 (folds by position mod 5) | "
         + " | ".join(f"{rep.cv[m]:.4f}" for m in AILA_METRICS) + " |")
    emit(row(rep.oracle))
    emit("\nBest training settings: " + "; ".join(f"{describe_prop(w)}: {v:.4f}" for w, v in rep.top) + ".")
    emit("\nFolds chose: " + "; ".join(describe_prop(w) for w in rep.cv_picks) + ".")
    extra = (f"propagation p50 {rep.seconds['prop_p50_ms']:.2f} ms a query" if kind == "prop" else
             f"RM3 feedback judgments tokenised {rep.seconds.get('rm3_feedback_docs', 0):.0f}s, RM3 signals for 50 "
             f"queries x 8 variants {rep.seconds.get('rm3_queries', 0):.0f}s (cached)")
    emit(f"\nTime: load {rep.seconds['load']:.0f}s, grid on the training queries {rep.seconds['choose']:.0f}s, CV and "
         f"oracle {rep.seconds['cv_oracle']:.0f}s, {extra}; section {time.perf_counter() - t0:.0f}s.\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", default="/tmp/legal_rag_bench")
    ap.add_argument("--task1-chunks", type=int, default=1)
    ap.add_argument("--skip", default="")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results.md"))
    ap.add_argument("--only", default="", help="run only this section (sectionfind, task1: "
                                                         "precedent search, needs --casebase; task1-fusion: "
                                                         "with the chunk list and citation prior; task1-prop: "
                                                         "with citation propagation; task1-rm3: with RM3)")
    ap.add_argument("--acts-index", default=None, help="data dir of a built index of the Acts to open (sectionfind)")
    ap.add_argument("--keep-defaults", action="store_true", help="sectionfind: module default weights, no grid")
    ap.add_argument("--no-quoted", action="store_true", help="sectionfind: no quoted-text statute identification")
    ap.add_argument("--casebase", default=None, help="sectionfind: a saved case base directory to open "
                                                     "(default: WORK/casebase, built there when absent)")
    a = ap.parse_args()
    skip = set(filter(None, a.skip.split(",")))
    work = Path(a.work)
    base = Settings()
    emb = Embedder.from_settings(base)
    import torch

    if a.only == "task1":
        if not a.casebase:
            raise SystemExit("--only task1 needs --casebase DIR (a saved case base)")
        try:
            task1_precedents_section(work, Path(a.casebase))
        finally:
            Path(a.out).write_text("\n".join(OUT) + "\n")
        return
    if a.only == "task1-fusion":
        if not a.casebase:
            raise SystemExit("--only task1-fusion needs --casebase DIR (a saved case base)")
        try:
            task1_fusion_section(work, Path(a.casebase))
        finally:
            Path(a.out).write_text("\n".join(OUT) + "\n")
        return
    if a.only in ("task1-prop", "task1-rm3"):
        if not a.casebase:
            raise SystemExit(f"--only {a.only} needs --casebase DIR (a saved case base)")
        try:
            task1_prop_section(work, Path(a.casebase), a.only.split("-")[1])
        finally:
            Path(a.out).write_text("\n".join(OUT) + "\n")
        return
    if a.only == "sectionfind":
        try:
            sectionfind_section(work, Path(a.acts_index) if a.acts_index else None, emb, a.keep_defaults,
                                not a.no_quoted, Path(a.casebase) if a.casebase else None)
        finally:
            Path(a.out).write_text("\n".join(OUT) + "\n")
        return

    emit(f"# Retrieval benchmarks\n\nMachine: {os.cpu_count()} CPU cores, torch threads {torch.get_num_threads()}, "
         f"embedder `{emb.model_id}` ({emb.window}-token window); started {time.strftime('%Y-%m-%d %H:%M')}. "
         "Other jobs shared the CPU during the run, so absolute speeds are pessimistic; ratios in one run are fair.\n")

    def flush():
        Path(a.out).write_text("\n".join(OUT) + "\n")

    from legal_rag.eval.runners import (build_aila_statutes, run_bns_variant, run_devset, run_task1, run_task2)

    # ---- AILA Task 2 -----------------------------------------------------------------------------------------
    if "task2" not in skip:
        s2 = Settings(data_dir=work / "aila_task2")
        st: dict = {}
        idx2 = build_aila_statutes(s2, emb, st)
        emit(f"## AILA 2019 Task 2 (statutes), test queries Q11-Q50\n\n197 statutes -> {len(idx2.sparse)} chunks; "
             f"embedded {st['embedded']} in {st['embed_s']:.0f}s. Ranked every chunk; statute = its best chunk.\n")
        emit(format_table(run_task2(idx2, s2)))
        emit()
        flush()

    # ---- Acts index -----------------------------------------------------------------------------------------
    sa = Settings(data_dir=work / "acts")
    from collections import Counter

    from legal_rag.eval.runners import build_acts_index
    from legal_rag.index import sparse_only
    from legal_rag.types import passage_text

    built = build_acts_index(sa, source=Settings(), embedder=emb)
    idx, secs, origin, chunks, st = built.index, built.sections, built.origin, list(built.chunks), built.stats
    t_load, t_chunk, t_build = built.load_s, built.chunk_s, built.build_s
    # the embedder alone on 256 of the same passages (measured after the build; it embeds them afresh, no cache)
    raw = raw_throughput(emb, [passage_text(c) for c in chunks[:256]])
    acts = Counter(s.ref.act for s in secs)
    emit(f"## Acts index\n\nSections from `{origin}` ({t_load:.0f}s): " + ", ".join(f"{k} {v}" for k, v in sorted(acts.items()))
         + f"; {len(chunks)} chunks (chunking {t_chunk:.1f}s).\n")
    emit("| stage | figure |\n|---|---|")
    emit(f"| raw embedder, 256 passages | {raw:.1f} passages/s |")
    emit(f"| build_index (sync + embed {st['embedded']} + Chroma + bm25s) | {t_build:.0f}s, "
         f"{len(chunks) / t_build:.1f} chunks/s end to end |")
    emit(f"| of which embedding | {st['embed_s']:.0f}s ({st['embedded'] / max(st['embed_s'], 1e-9):.1f} passages/s) |")
    emit(f"| Chroma upsert ({st['dense_batches']} batches) | {st['dense_s']:.1f}s |")
    emit(f"| bm25s index | {st['sparse_s']:.1f}s |")
    t0 = time.perf_counter()
    st2: dict = {}
    build_index(chunks, sa, embedder=emb, stats=st2)
    emit(f"| re-ingest unchanged (embeds {st2['embedded']}) | {time.perf_counter() - t0:.1f}s |\n")
    flush()

    from legal_rag.eval.runners import load_devset

    dev_path = ROOT / "bench" / "devset.jsonl"
    devset = load_devset(dev_path)
    emit(f"## Dev set ({len(devset)} questions, gold from the BPR&D table), section level\n")
    emit("| system | recall@5 | nDCG@10 | MRR |\n|---|---|---|---|")
    dev = run_devset(idx, sa, dev_path)
    for mode, m in dev.items():
        emit(f"| ours {mode} | {m['recall@5']:.3f} | {m['ndcg@10']:.3f} | {m['mrr']:.3f} |")
    flush()

    if "langchain" not in skip:
        from legal_rag.eval.metrics import DEV_METRICS, evaluate_run

        ens = langchain_baseline(idx, sa, devset)
        import re

        qrels = {d["id"]: {re.sub(r"\(.*", "", g): 1 for g in d["gold"]} for d in devset}
        runs, lc_t = {}, []
        for d in devset:
            t0 = time.perf_counter()
            docs = ens.invoke(d["question"])
            lc_t.append(time.perf_counter() - t0)
            runs[d["id"]] = list(dict.fromkeys(x.metadata["ref"] for x in docs))
        m = evaluate_run(qrels, runs, DEV_METRICS)
        emit(f"| LangChain EnsembleRetriever(BM25Retriever + Chroma) | {m['recall@5']:.3f} | {m['ndcg@10']:.3f} | {m['mrr']:.3f} |")
        ours = latency(idx, sa, [d["question"] for d in devset])
        emit(f"\nQuery latency on the dev set: ours p50 {pct(ours['total'], 50):.1f} ms / p95 {pct(ours['total'], 95):.1f} ms; "
             f"LangChain ensemble p50 {pct(lc_t, 50):.1f} ms / p95 {pct(lc_t, 95):.1f} ms; ratio of p50 "
             f"{statistics.median(lc_t) / statistics.median(ours['total']):.2f}x.\n")
        flush()

    texts = load_queries(Settings().corpus_path)
    qs = [d["question"] for d in devset] + ["IPC 420", "s. 498-A", "BNS 318(4)"]
    per = latency(idx, sa, qs)
    emit(f"## Query latency per stage, Acts index ({len(chunks)} chunks), {len(qs)} short queries (ms)\n")
    emit("| stage | p50 | p95 |\n|---|---|---|")
    for k, v in per.items():
        emit(f"| {k} | {pct(v, 50):.1f} | {pct(v, 95):.1f} |")
    emit()
    rec = hnsw_recall(idx, idx.manifest.embed_model)
    emit(f"## HNSW recall@10 vs exact numpy search\n\nActs index, {len(chunks)} real MiniLM vectors, 200 perturbed "
         f"chunk vectors as queries, ef_search={sa.hnsw_ef_search}: recall@10 = {rec:.4f}\n")
    flush()

    emit("## AILA 2019 Task 2, BNS era (gold re-labelled with successors; searched in our new-code sections)\n")
    emit(format_table(run_bns_variant(idx, sa)))
    emit()
    flush()

    if "sectionfind" not in skip:
        sectionfind_section(work, work / "acts", emb)
        flush()

    # ---- AILA Task 1 -----------------------------------------------------------------------------------------
    if "task1" not in skip:
        s1 = Settings(data_dir=work / "aila_task1")
        res, st = run_task1(s1, dense_chunks_per_doc=a.task1_chunks, embedder=emb, log=print)
        if a.casebase:  # precedent search too: its chosen system as a further row
            from bench.precedents.task1 import run_precedents

            rep = run_precedents(s1, Path(s1.data_dir) / "task1", casebase_dir=Path(a.casebase), log=print)
            res.append(rep.results[0])
            st["precedents"] = rep
        emit(f"## AILA 2019 Task 1 (precedents), test queries Q11-Q50\n\n{st['docs']} judgments -> {st['chunks']} "
             f"chunks, all in BM25 (built in {st['sparse_build_s']:.0f}s); dense holds the first {a.task1_chunks} "
             f"chunk(s) of each judgment ({st['dense_chunks']} vectors, embedded in {st['build_embed_s']:.0f}s).\n")
        emit(format_table(res))
        from legal_rag.index import open_index

        i1 = open_index(s1, embedder=emb)
        per = latency(i1, s1, [texts[q][:2000] for q in TEST_QUERIES[:20]])
        emit(f"\nQuery latency over the judgment index ({st['dense_chunks']} dense / {st['dense_chunks']} sparse "
             "chunks), 20 AILA queries cut to 2,000 characters (ms): " + ", ".join(
                 f"{k} p50 {pct(v, 50):.0f} / p95 {pct(v, 95):.0f}" for k, v in per.items()))
        emit()
        flush()
    flush()


if __name__ == "__main__":
    main()
