"""Which provision is chosen: the section ranker and the answer's first line on question sets, side by side with
LangChain's EnsembleRetriever over the same chunks (bench/results_ranker.md). Usage::

    HF_HUB_OFFLINE=1 .venv/bin/python bench/ranker_eval.py --data-dir DIR \
        --set bench/ranker/test.jsonl --set bench/devset.jsonl --set bench/factset.jsonl [--langchain] [--dump F]

One run per set, every question once, interleaved (ours, then LangChain's, for each question), on the index at
``--data-dir`` (built by ``legal-rag index``; never rebuilt here) and its full case base:

* **first line**: the answer's first line (``Pipeline.ask``, extractive) names a gold at its section (loose), at the
  gold's own division (strict: a sub-section where the gold names one, as ``bench/head_eval.py`` counts), and, over
  the questions whose gold names a sub-section, at that sub-section (sub) (``bench/head_eval.names``);
* **ranker**: the section ranker's first candidate and first three (section level), its limb at the gold's
  sub-section;
* **outside the corpus** (gold ``[]``, ``out_of_corpus`` set): the answer carries the ``scope`` notice and opens
  with no provision (no head line);
* **top 5** (section level): our retrieval path's first five distinct sections (``answer.passages.find_passages``:
  the ranker's lead, then the fused hits) against LangChain's ``EnsembleRetriever([BM25Retriever, Chroma],
  weights=[0.5, 0.5])`` over every index chunk (our stored vectors; no case base: what a user builds), and each
  side's time per question (p50, p90, p95; ours timed with no query vector kept of it), the ratio of the p50s
  (LangChain's over ours) and the machine's 1-minute load average when the set ends.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.head_eval import gold_ref, names  # noqa: E402
from legal_rag.config import Settings  # noqa: E402
from legal_rag.errors import InputTooLongError  # noqa: E402
from legal_rag.pipeline import Pipeline  # noqa: E402


def langchain(pipe, work: Path):
    from bench.latency import NoCases, build_langchain

    ens, _ = build_langchain(pipe.resources.index, NoCases(), work)
    return ens


def sections_of(refs, n=5) -> list[str]:
    return list(dict.fromkeys(r for r in refs if r))[:n]


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0.0


def evaluate(pipe: Pipeline, items: list[dict], ens=None, log=print) -> dict:
    from legal_rag.answer.passages import find_passages

    res = pipe.resources
    sr = res.section_ranker
    c = {k: 0 for k in ("n", "refused", "in", "out", "loose", "strict", "sub_n", "sub", "rank1", "rank3", "limb_n",
                        "limb", "out_said", "out_no_head", "ours5", "lc5")}
    t_ours, t_lc, rows = [], [], []
    for it in items:
        c["n"] += 1
        golds = [gold_ref(g) for g in it.get("gold", [])]
        bases = {str(g.base) for g in golds}
        try:
            a = pipe.ask(it["question"], offence_date=it.get("offence_date"))
        except InputTooLongError:  # over Settings.question_max_chars: refused, counted apart
            c["refused"] += 1
            continue
        first = a.text.strip().splitlines()[0] if a.text.strip() else ""
        q = pipe.read_question(it["question"], offence_date=it.get("offence_date"))
        res.index.clear_query_cache()  # timed cold: the answer above embedded and searched this question
        t0 = time.perf_counter()
        hits, _, ranking = find_passages(res, pipe.settings, q.text, q.analysis, followup=q.followup)
        t_ours.append(time.perf_counter() - t0)
        ours = sections_of(str(h.chunk.ref.base) if h.chunk.ref else "" for h in hits)
        row = {"id": it["id"], "first": first[:160], "ours5": ours,
               "ranked": [str(r.cited_as) for r in ranking.sections[:3]] if ranking else [],
               "outside": bool(ranking and ranking.outside), "notices": [n.kind for n in a.notices]}
        if ens is not None:
            t0 = time.perf_counter()
            docs = ens.invoke(it["question"])
            t_lc.append(time.perf_counter() - t0)
            row["lc5"] = sections_of(d.metadata.get("ref", "") for d in docs)
        if not golds:
            c["out"] += 1
            c["out_said"] += "scope" in row["notices"]
            c["out_no_head"] += not a.head
        else:
            c["in"] += 1
            c["loose"] += any(names(first, g, False) for g in golds)
            c["strict"] += any(names(first, g, True) for g in golds)
            subs = [g for g in golds if g.sub]
            if subs:
                c["sub_n"] += 1
                c["sub"] += any(names(first, g, True) for g in subs)
            secs = [r.ref for r in ranking.sections] if ranking else []
            c["rank1"] += bool(secs) and str(secs[0]) in bases
            c["rank3"] += any(str(r) in bases for r in secs[:3])
            if subs and secs and str(secs[0]) in {str(g.base) for g in subs}:
                c["limb_n"] += 1
                c["limb"] += ranking.sections[0].limb is not None and any(
                    ranking.sections[0].limb.sub[:1] == g.sub[:1] for g in subs if g.base == secs[0])
            c["ours5"] += any(s in bases for s in ours)
            c["lc5"] += any(s in bases for s in row.get("lc5", []))
        rows.append(row)
        log(json.dumps(row, ensure_ascii=False))
    c["ours_p50_ms"] = round(1000 * statistics.median(t_ours), 1) if t_ours else None
    c["ours_p90_ms"] = round(1000 * pct(t_ours, 0.90), 1) if t_ours else None
    c["ours_p95_ms"] = round(1000 * pct(t_ours, 0.95), 1) if t_ours else None
    if t_lc:
        c["lc_p50_ms"] = round(1000 * statistics.median(t_lc), 1)
        c["lc_p90_ms"] = round(1000 * pct(t_lc, 0.90), 1)
        c["lc_p95_ms"] = round(1000 * pct(t_lc, 0.95), 1)
        c["ratio_p50"] = round(statistics.median(t_lc) / statistics.median(t_ours), 2) if t_ours else None
    c["load_avg_1min"] = round(os.getloadavg()[0], 2)
    c["rows"] = rows
    return c


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", type=Path, required=True)
    ap.add_argument("--set", type=Path, action="append", required=True)
    ap.add_argument("--langchain", action="store_true")
    ap.add_argument("--dump", type=Path, default=None, help="write the per-question rows here (JSON)")
    args = ap.parse_args(argv)
    pipe = Pipeline(Settings().model_copy(update={"data_dir": args.data_dir}))
    pipe.ask("warm up: what is theft")
    ens = langchain(pipe, Path(tempfile.mkdtemp(prefix="lc_ranker_"))) if args.langchain else None
    out = {}
    for path in args.set:
        items = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
        r = evaluate(pipe, items, ens, log=lambda s: print(s, file=sys.stderr, flush=True))
        out[path.name] = r
        print(path.name, json.dumps({k: v for k, v in r.items() if k != "rows"}), flush=True)
    if args.dump:
        args.dump.write_text(json.dumps(out, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
