"""Query latency with the case base in the index, against LangChain's EnsembleRetriever (issue 13). Usage::

    HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 nice -n 10 .venv/bin/python bench/latency.py \
        [--casebase-dir .legal_rag/bench-casebase] [--out bench/results_latency.md] [--no-profile] [--limit N]

Needs the bench extra (``pip install -e .[bench]``: langchain-classic, langchain-community, langchain-chroma,
rank-bm25).

One run, one machine state, both sides over the same questions (interleaved, so load changes hit both alike):

* **index**: the real index the tests cache (``tests/conftest.py::_real_settings()``: the six Acts and the corpus
  judgments, embedded); opened, never built or re-embedded here (exits 2 when the tests have not built it).
* **case base**: the FULL case base (every AILA judgment, ``casebase_limit=None``) built once by
  :func:`legal_rag.retrieve.casebase_build.ensure_casebase` under ``--casebase-dir`` and reopened on later runs.
* **ours**: the product path for a question: :func:`legal_rag.retrieve.search.search` (hybrid + look-up, default
  settings) then :func:`legal_rag.retrieve.sectionfind.find_sections` over the index and the case base. Stage
  times come from timers wrapped around the components (query embedding, Chroma, bm25s, question analysis, the
  case base's BM25, the evidence aggregation); "other" is the rest (fusion, look-up, hygiene, bridging).
* **LangChain**: ``EnsembleRetriever([BM25Retriever, Chroma retriever], weights=[0.5, 0.5])``, k=50 each, over the
  same chunks: every index chunk plus every case-base paragraph as a Document in the BM25Retriever ("the case
  base in the index"); Chroma holds the index chunks with OUR stored vectors (copied from the store, never
  re-embedded; the query is embedded by our embedder). The case base has no vectors on either side.
* **quality**: recall@5 and MRR at section level on the 45 dev questions (gold keyed as
  :func:`legal_rag.eval.runners.run_devset`: ``"BNS 318(4)"`` -> ``"BNS 318"``), and on the fact-pattern set
  when ``bench/factset.jsonl`` exists. A LangChain case-base paragraph carries no section, so it counts nothing.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

OUT: list[str] = []
STAGES = ("embed", "dense", "sparse", "analyse", "casebase_bm25", "evidence_agg", "other", "search", "find_sections",
          "total")


def emit(text: str = "") -> None:
    print(text, flush=True)
    OUT.append(text)


def pct(xs, p) -> float:
    """The ``p``-th percentile of ``xs`` (seconds) in milliseconds."""
    return float(np.percentile(np.asarray(xs, dtype=float) * 1000, p)) if len(xs) else float("nan")


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, timeout=5).stdout.strip()
    except OSError:
        return "load average: %.2f, %.2f, %.2f" % os.getloadavg()


def real_settings():
    """The settings of the index the tests cache (``tests/conftest.py::_real_settings``, imported, not copied)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from conftest import _real_settings  # noqa: E402

    return _real_settings()


class Timers:
    """Seconds per stage for the current query; wraps the components every search path goes through."""

    def __init__(self) -> None:
        self.cur: dict[str, float] = {}

    def wrap(self, fn, stage: str):
        def timed(*a, **kw):
            t0 = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                self.cur[stage] = self.cur.get(stage, 0.0) + time.perf_counter() - t0
        return timed


def instrument(index, casebase, timers: Timers) -> None:
    """Install stage timers on the index's embedder/dense/sparse, the case base's BM25, the question analysis and
    the evidence aggregation (module attributes are looked up at call time, so the wrappers see every call)."""
    import importlib

    # importlib, not "import a.b as m": the package re-exports a function named ``search`` over its submodule
    search_mod = importlib.import_module("legal_rag.retrieve.search")
    sf_mod = importlib.import_module("legal_rag.retrieve.sectionfind")

    index.embed_query = timers.wrap(index.embed_query, "embed")
    index.dense.search = timers.wrap(index.dense.search, "dense")
    index.sparse.search = timers.wrap(index.sparse.search, "sparse")
    casebase.search = timers.wrap(casebase.search, "casebase_bm25")
    search_mod.analyse_question = timers.wrap(search_mod.analyse_question, "analyse")
    sf_mod.section_evidence = timers.wrap(sf_mod.section_evidence, "evidence_all")
    sf_mod.find_sections = timers.wrap(sf_mod.find_sections, "find_call")


#: ``--path``: "product" (default) times what a user's question costs, ``Pipeline.search_with_suggestions``:
#: hybrid search with look-up and routing, and section finding only for a fact pattern (an offence or punishment
#: question naming no section, :func:`legal_rag.retrieve.suggest.is_fact_pattern`), its suggestions leading;
#: "upper" times the earlier upper bound: search, then find_sections on EVERY question.
PATH = {"path": "product", "pipeline": None}
sys.path.insert(0, str(ROOT / "bench"))
from factset_eval import fit  # noqa: E402  (the fact-set runner's cut of a long statement)


def ours(question: str, index, casebase, settings, cur: dict | None = None):
    """The product path (see :data:`PATH`): ``(hits, suggestions)``; ``cur["search_call"]`` gets the seconds spent
    outside find_sections."""
    from legal_rag.retrieve.search import search
    from legal_rag.retrieve.sectionfind import find_sections

    from legal_rag.retrieve.filters import Filters

    if PATH["path"] == "product":
        p = PATH["pipeline"]
        if p is None or p.index is not index:
            from legal_rag.pipeline import Pipeline
            from legal_rag.resources import Resources

            p = Pipeline(settings, Resources(settings, index=index, casebase=casebase))
            PATH["pipeline"] = p
        t0 = time.perf_counter()
        before = (cur or {}).get("find_call", 0.0)
        hits, sugg = p.search_with_suggestions(question)
        if cur is not None:
            cur["search_call"] = time.perf_counter() - t0 - (cur.get("find_call", 0.0) - before)
        return hits, sugg
    t0 = time.perf_counter()
    hits = search(question, index, settings)
    if cur is not None:
        cur["search_call"] = time.perf_counter() - t0
    # an empty Filters(), not None: find_sections at eddfb05 reads ``Filters.of(None).act`` (None) and raises
    sugg = find_sections(question, index, casebase, settings, filters=Filters())
    return hits, sugg


class NoCases:
    """A case base with no judgments: LangChain's side is built over the index chunks alone."""

    cases: tuple = ()


def build_langchain(index, casebase, work: Path, k_each: int = 50):
    """(EnsembleRetriever, stats): BM25Retriever over index chunks + case-base paragraphs (none for
    :class:`NoCases`), Chroma over the embedded index chunks with our stored vectors (the BM25-only bulk chunks are
    left out, as our index leaves them); Chroma persists under ``work/lc_chroma``, made afresh."""
    from langchain_chroma import Chroma
    from langchain_classic.retrievers import EnsembleRetriever
    from langchain_community.retrievers import BM25Retriever
    from langchain_core.documents import Document
    from langchain_core.embeddings import Embeddings

    from legal_rag.index import sparse_only
    from legal_rag.types import passage_text

    st: dict = {}
    t0 = time.perf_counter()
    chunks = index.store.all_chunks()
    model = index.manifest.embed_model
    embedded = [c for c in chunks if not sparse_only(c)]  # the bulk decisions are BM25-only, as in our index
    vecs = index.store.vectors(model, [c.id for c in embedded])
    cache = {passage_text(c): v for c, v in zip(embedded, vecs)}
    embedder = index.embedder

    class Cached(Embeddings):
        def embed_documents(self, texts):
            return [cache[t].tolist() if t in cache else embedder.embed_passages([t])[0].tolist() for t in texts]

        def embed_query(self, text):
            return embedder.embed_query(text).tolist()

    docs = [Document(page_content=passage_text(c), metadata={"ref": f"{c.ref.act} {c.ref.section}" if c.ref else ""},
                     id=c.id) for c in chunks]
    para_docs = [Document(page_content=p.text, metadata={"ref": ""}, id=f"cb:{case}#{i}")
                 for case in casebase.cases for i, p in enumerate(casebase.paragraphs(case))]
    st["docs_prepare_s"] = time.perf_counter() - t0
    st["chunks"], st["paragraphs"] = len(docs), len(para_docs)
    t0 = time.perf_counter()
    bm25 = BM25Retriever.from_documents(docs + para_docs, k=k_each)
    st["bm25_build_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    persist = work / "lc_chroma"
    shutil.rmtree(persist, ignore_errors=True)
    vs = Chroma(collection_name="lc_latency", embedding_function=Cached(), persist_directory=str(persist))
    dense_docs = [d for d, c in zip(docs, chunks) if not sparse_only(c)]
    for i in range(0, len(dense_docs), 2000):
        vs.add_documents(dense_docs[i:i + 2000], ids=[d.id for d in dense_docs[i:i + 2000]])
    st["chroma_build_s"] = time.perf_counter() - t0
    ens = EnsembleRetriever(retrievers=[bm25, vs.as_retriever(search_kwargs={"k": k_each})], weights=[0.5, 0.5])
    return ens, st


def snapshot_index(settings, dest: Path):
    """Copy the served build of ``settings.data_dir`` (its ``CURRENT`` build directory, and the store through
    SQLite's backup API) to ``dest`` and return the settings pointing there. Nothing is rebuilt or re-embedded."""
    import sqlite3

    src = Path(settings.data_dir)
    build = (src / "CURRENT").read_text().strip()
    if not (dest / "builds" / build).is_dir():
        shutil.rmtree(dest, ignore_errors=True)
        (dest / "builds").mkdir(parents=True)
        shutil.copytree(src / "builds" / build, dest / "builds" / build)
        with sqlite3.connect(src / "store.sqlite") as a, sqlite3.connect(dest / "store.sqlite") as b:
            a.backup(b)
        (dest / "CURRENT").write_text(build)
    return settings.model_copy(update={"data_dir": dest})


def load_jsonl(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def qrels_of(items: list[dict]) -> dict[str, dict[str, int]]:
    """Section-level gold as :func:`legal_rag.eval.runners.run_devset` keys it (sub-section dropped)."""
    return {d["id"]: {re.sub(r"\(.*", "", g): 1 for g in d["gold"]} for d in items}


def timed_pass(sets, index, casebase, settings, ens, timers: Timers, section_ranking):
    """One interleaved pass over every question (ours then LangChain, alternating which goes first):
    ``(per-stage seconds of ours per set, LangChain seconds per set, section rankings per set and system)``."""
    per: dict[str, dict[str, list[float]]] = {s: {k: [] for k in STAGES} for s in sets}
    lc_t: dict[str, list[float]] = {s: [] for s in sets}
    runs: dict[str, dict[str, dict[str, list[str]]]] = {s: {"search": {}, "find": {}, "lc": {}} for s in sets}
    i = 0
    for name, items in sets.items():
        for d in items:
            q = d["question"]
            if PATH["path"] == "product":  # the product refuses a question above question_max_chars: both sides
                q = fit(q, settings.question_max_chars)  # get what a user would have to send, cut at a sentence
            for side in (("ours", "lc") if i % 2 == 0 else ("lc", "ours")):
                if side == "lc":
                    t0 = time.perf_counter()
                    docs = ens.invoke(q)
                    lc_t[name].append(time.perf_counter() - t0)
                    runs[name]["lc"][d["id"]] = [r for r in dict.fromkeys(x.metadata["ref"] for x in docs) if r]
                    continue
                timers.cur = {}
                t0 = time.perf_counter()
                hits, sugg = ours(q, index, casebase, settings, timers.cur)
                t2 = time.perf_counter()
                t1 = t0 + timers.cur.pop("search_call")
                c = timers.cur
                c.pop("find_call", None)
                c["evidence_agg"] = c.get("evidence_all", 0.0) - c.get("casebase_bm25", 0.0)
                c["search"], c["find_sections"], c["total"] = t1 - t0, t2 - t1, t2 - t0
                c["other"] = c["total"] - sum(c.get(k, 0.0) for k in
                                              ("embed", "dense", "sparse", "analyse", "casebase_bm25", "evidence_agg"))
                for k in STAGES:
                    per[name][k].append(c.get(k, 0.0))
                runs[name]["search"][d["id"]] = section_ranking(hits)
                runs[name]["find"][d["id"]] = [f"{s.ref.act} {s.ref.section}" for s in sugg]
            i += 1
    return per, lc_t, runs


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--casebase-dir", default=str(ROOT / ".legal_rag" / "bench-casebase"))
    ap.add_argument("--out", default=str(ROOT / "bench" / "results_latency.md"))
    ap.add_argument("--limit", type=int, default=0, help="only the first N questions of each set (a smoke run)")
    ap.add_argument("--no-profile", action="store_true")
    ap.add_argument("--no-snapshot", action="store_true", help="open the test cache in place (a concurrent test "
                    "session may rebuild it and delete the build under us)")
    ap.add_argument("--threads", default="1,default",
                    help="torch intra-op thread settings, one timed pass each (the query embedder is shared by both "
                         "sides); 'default' is torch's own choice, what the product runs with")
    ap.add_argument("--path", choices=("product", "upper"), default="product",
                    help="product: Pipeline.search_with_suggestions (section finding for fact patterns only); "
                         "upper: search + find_sections on every question (the earlier upper bound)")
    a = ap.parse_args()
    PATH["path"] = a.path
    load_before = uptime()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())

    from legal_rag.eval.metrics import evaluate_run
    from legal_rag.eval.runners import section_ranking
    from legal_rag.index import open_index
    from legal_rag.law import load_concordance
    from legal_rag.retrieve.casebase_build import ensure_casebase

    settings = real_settings()
    if not (Path(settings.data_dir) / "CURRENT").is_file():
        print(f"no cached test index at {settings.data_dir}: run the real-index tests first", file=sys.stderr)
        return 2
    work = Path(a.casebase_dir)
    src_build = (Path(settings.data_dir) / "CURRENT").read_text().strip()
    if not a.no_snapshot:  # the tests rebuild and prune that directory while we run: read a copy of the build
        settings = snapshot_index(settings, work / "index-snapshot")
    t0 = time.perf_counter()
    index = open_index(settings)
    index.metadata()
    t_open = time.perf_counter() - t0
    cb_settings = settings.model_copy(update={"casebase_limit": None, "data_dir": work})
    t0 = time.perf_counter()
    casebase, cb_stats = ensure_casebase(cb_settings)
    t_cb = time.perf_counter() - t0
    load_concordance(settings.corpus_path)  # loaded once per process, as in the served pipeline

    dev = load_jsonl(ROOT / "bench" / "devset.jsonl")
    fact_path = ROOT / "bench" / "factset.jsonl"
    fact = load_jsonl(fact_path) if fact_path.is_file() else []
    if a.limit:
        dev, fact = dev[:a.limit], fact[:a.limit]
    sets = {"dev": dev, "fact": fact}

    ens, lc_st = build_langchain(index, casebase, work)

    import torch

    timers = Timers()
    instrument(index, casebase, timers)
    default_threads = torch.get_num_threads()
    thread_settings = [default_threads if t == "default" else int(t) for t in a.threads.split(",")]
    prof_text = ""

    def write_report() -> None:
        OUT.clear()
        load_after = uptime()
        runs = passes[0][3]
        # ---- report -------------------------------------------------------------------------------------------------
        emit("# Query latency with the case base in the index: ours vs LangChain EnsembleRetriever (issue 13)\n")
        emit(f"Run {started}, command `HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 nice -n 10 .venv/bin/python bench/latency.py"
             f"{' --limit %d' % a.limit if a.limit else ''}{' --path upper' if a.path == 'upper' else ''}{' --threads ' + a.threads if a.threads != '1,default' else ''}`. Machine: {os.cpu_count()} CPU cores SHARED with other "
             "workers' jobs (absolute times are pessimistic and noisy; the two sides ran interleaved per question in "
             "one process, so their ratio is the fair figure).\n")
        emit(f"- load before: `{load_before}`\n- load after: `{load_after}`\n")
        emit(f"Index: `{settings.data_dir}` (copy of build `{src_build}` of the tests' cache, "
             f"`tests/conftest.py::_real_settings()`; {len(index.metadata())} chunks: six Acts + corpus judgments, MiniLM), "
             f"opened in {t_open:.1f}s. Case base: {cb_stats['cases']:,} judgments, {cb_stats['paragraphs']:,} "
             f"paragraphs, {cb_stats.get('cites', 0):,} cites (all AILA judgments, casebase_limit=None), "
             f"{'opened from cache' if cb_stats['cached'] else 'built'} in {t_cb:.0f}s"
             f"{'' if cb_stats['cached'] else ' (' + ', '.join(f'{k} {v:.0f}s' for k, v in cb_stats['seconds'].items()) + ')'}.\n")
        emit("## Build time (not part of query latency)\n")
        emit("| side | what | seconds |\n|---|---|---|")
        emit(f"| ours | open index (bm25s + Chroma + store) | {t_open:.1f} |")
        emit(f"| ours | case base ({'open' if cb_stats['cached'] else 'build'}) | {t_cb:.1f} |")
        emit(f"| LangChain | Documents ({lc_st['chunks']:,} chunks + {lc_st['paragraphs']:,} paragraphs) | "
             f"{lc_st['docs_prepare_s']:.1f} |")
        emit(f"| LangChain | BM25Retriever.from_documents (rank-bm25) | {lc_st['bm25_build_s']:.1f} |")
        emit(f"| LangChain | Chroma add_documents (our vectors, no embedding) | {lc_st['chroma_build_s']:.1f} |\n")

        for n_threads, per, lc_t, _, load_end in passes:
            emit(f"## Query latency (ms), torch threads {n_threads}"
                 f"{' (the product default)' if n_threads == default_threads else ''}: warm-up 3 queries, then every "
                 f"question once per side (load at the end of this pass: `{load_end}`)\n")
            emit("| questions | n | ours p50 | ours p95 | LangChain p50 | LangChain p95 | ratio p50 | ratio p95 |")
            emit("|---|---|---|---|---|---|---|---|")
            allo = {k: sum((per[s][k] for s in sets), []) for k in STAGES}
            alll = sum(lc_t.values(), [])
            rows = [(f"{n} set", per[n]["total"], lc_t[n]) for n in sets if lc_t[n]] + [("all", allo["total"], alll)]
            for label, o, t in rows:
                emit(f"| {label} | {len(o)} | {pct(o, 50):.0f} | {pct(o, 95):.0f} | {pct(t, 50):.0f} | {pct(t, 95):.0f} | "
                     f"{pct(t, 50) / pct(o, 50):.2f}x | {pct(t, 95) / pct(o, 95):.2f}x |")
            emit("\nRatio = LangChain / ours (> 1: ours faster).\n")
            emit(f"### Ours per stage, all questions, torch threads {n_threads} (ms)\n")
            emit("| stage | p50 | p95 | mean | share of mean total |\n|---|---|---|---|---|")
            mean_total = float(np.mean(allo["total"]))
            for k in STAGES:
                v = allo[k]
                emit(f"| {k} | {pct(v, 50):.1f} | {pct(v, 95):.1f} | {np.mean(v) * 1000:.1f} | "
                     f"{np.mean(v) / mean_total:.0%} |")
            emit("\nembed/dense/sparse/analyse sum over BOTH calls (search, and the search find_sections makes for its "
                 "direct ranking); `search` and `find_sections` are the two calls' wall times; other = total - the named "
                 "stages (fusion, look-up, hygiene incl. injection.instruction_only, bridging).\n")

        emit("## Quality, section level (recall@5, MRR)\n")
        emit("| questions | system | recall@5 | MRR |\n|---|---|---|---|")
        for n, items in sets.items():
            if not items:
                continue
            qr = qrels_of(items)
            product = a.path == "product"
            for key, label in (("search", "ours: the product's passages (suggestions leading; section of each chunk)"
                                if product else "ours: search hits (section of each chunk)"),
                               ("find", "ours: suggestions (fact patterns only; BNS, or IPC for an earlier offence)"
                                if product else "ours: find_sections (era new, BNS/BNSS/BSA only)"),
                               ("lc", "LangChain EnsembleRetriever (case-base paragraphs count nothing)")):
                m = evaluate_run(qr, runs[n][key], ("recall@5", "mrr"))
                emit(f"| {n} ({len(items)}) | {label} | {m['recall@5']:.3f} | {m['mrr']:.3f} |")
        if not fact:
            emit("\nbench/factset.jsonl was missing: dev set only.")
        emit("\nGold: both eras (`gold`, e.g. BNS 318(4) and IPC 420, keyed at section level). find_sections returns "
             "new-code sections only (era=\"new\"), so the old-code half of the gold is out of its reach.\n")
        if prof_text:
            emit(f"## cProfile of ours (one more pass over the first 15 questions of each set, torch threads {thread_settings[-1]})\n")
            emit("```\n" + prof_text.strip() + "\n```\n")
        Path(a.out).write_text("\n".join(OUT) + "\n", encoding="utf-8")

    passes = []
    for n_threads in thread_settings:
        torch.set_num_threads(n_threads)
        for q in [fit(d["question"], settings.question_max_chars) for d in (dev + fact)[:3]]:  # warm-up, not counted
            ours(q, index, casebase, settings)
            ens.invoke(q)
        # the warm-up questions are timed again below: forget what ours kept of them (query vectors, the
        # instruction check), so no timed question starts with its own answers cached
        index.clear_query_cache()
        from legal_rag.injection import clear_cache

        clear_cache()
        passes.append((n_threads, *timed_pass(sets, index, casebase, settings, ens, timers, section_ranking),
                       uptime()))
        print(f"pass with {n_threads} torch threads done: {passes[-1][-1]}", flush=True)
        write_report()
    prof_text = ""
    if not a.no_profile:
        torch.set_num_threads(thread_settings[-1])
        pr = cProfile.Profile()
        pr.enable()
        for d in dev[:15] + fact[:15]:
            ours(fit(d["question"], settings.question_max_chars), index, casebase, settings)
        pr.disable()
        s = io.StringIO()
        ps = pstats.Stats(pr, stream=s)
        ps.sort_stats("cumulative").print_stats(35)
        s.write("\n---- by own time ----\n")
        ps.sort_stats("tottime").print_stats(25)
        prof_text = re.sub(r"/\S*/site-packages/", "", s.getvalue()).replace(str(ROOT) + "/", "")
    write_report()
    return 0


if __name__ == "__main__":
    sys.exit(main())
