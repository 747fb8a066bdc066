"""Score section finding on the fact-pattern dev set (``bench/factset.jsonl``) and print markdown tables.

    .venv/bin/python bench/factset_eval.py                      # today's product retrieval
    .venv/bin/python bench/factset_eval.py --system product --system statutes --details

Systems (``SYSTEMS``; add one by writing a factory ``(settings) -> search_fn`` and registering it):

* ``product``: ``Pipeline(settings).search(question)`` as the chat calls it (hybrid retrieval over statutes and
  judgments, look-up of named sections, official successors, reranker as configured); the statute hits give the
  section ranking (a section at its best chunk; judgment hits carry no section and are skipped). The product
  refuses questions over ``settings.question_max_chars``: longer statements are cut at the last sentence end
  within the limit (the count is printed).
* ``statutes``: the same call with the filter ``kind=statute`` (only statute chunks compete for the 30 places).
* ``sectionfind``: :func:`legal_rag.retrieve.sectionfind.find_sections` (the new section finder), era from the
  offence date (before 1 July 2024 -> old codes; on/after -> new; none -> new and old interleaved, new first),
  with the case base opened from ``--casebase`` when given (else direct retrieval only).

The index is the real test index (``tests/conftest.py::_real_settings()``, already built under
``.legal_rag-test/index-*``); nothing is built here: a missing index is an error.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "bench" / "factset.jsonl"
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def real_settings(index: Path | None = None):
    """Settings of the real test index, exactly as tests/conftest.py computes them (``index``: another data
    directory holding the same index, e.g. to score an older checkout of the code on it)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from conftest import _real_settings  # noqa: E402

    s = _real_settings()
    if index is not None:
        s = s.model_copy(update={"data_dir": Path(index)})
    if not (Path(s.data_dir) / "CURRENT").exists():
        raise SystemExit(f"no built index at {s.data_dir}: build it through the test fixtures first")
    return s


def fit(question: str, limit: int) -> str:
    """``question`` cut at the last sentence end within ``limit`` characters (whole when it fits)."""
    if len(question) <= limit:
        return question
    cut = question[:limit]
    end = max(cut.rfind(". "), cut.rfind("? "), cut.rfind("! "))
    return cut[:end + 1] if end > limit // 2 else cut.rsplit(" ", 1)[0]


STATS = {"cut": 0}


def _pipeline_system(filters=None) -> Callable:
    def factory(settings):
        from legal_rag.pipeline import Pipeline

        pipe = Pipeline(settings)

        def search(question: str, offence_date: str | None) -> list[str]:
            q = fit(question, settings.question_max_chars)
            STATS["cut"] += q != question
            hits = pipe.search(q, filters=filters)
            return [f"{h.chunk.ref.act} {h.chunk.ref.section}" for h in hits if h.chunk.ref is not None]
        return search
    return factory


def _sectionfind_factory(casebase_path: str | None):
    def factory(settings):
        from legal_rag.pipeline import Pipeline
        from legal_rag.retrieve.sectionfind import find_sections

        index = Pipeline(settings).index
        casebase = None
        if casebase_path:
            from legal_rag.index.casebase import CaseBase

            casebase = CaseBase.open(Path(casebase_path))
        from legal_rag.eval.factset import era

        def search(question: str, offence_date: str | None) -> list[str]:
            e = era(offence_date)
            run = lambda which: [str(s.ref) for s in find_sections(question, index, casebase, settings, era=which,
                                                                        filters={})]
            if e != "none":
                return run(e)
            new, old = run("new"), run("old")
            return [k for pair in zip(new, old) for k in pair] + new[len(old):] + old[len(new):]
        return search
    return factory


SYSTEMS: dict[str, Callable] = {
    "product": _pipeline_system(),
    "statutes": _pipeline_system({"kind": "statute"}),
}


def machine_state() -> str:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    up = os.popen("uptime").read().strip()
    return f"load average {load} (`uptime`: {up}); {os.cpu_count()} CPUs"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--system", action="append", choices=sorted([*SYSTEMS, "sectionfind"]),
                    help="system(s) to score (repeatable; default: product)")
    ap.add_argument("--set", type=Path, default=DEFAULT, help="the dev set (JSONL)")
    ap.add_argument("--casebase", help="case base directory for --system sectionfind")
    ap.add_argument("--details", action="store_true", help="print each item's top 3 and first gold rank")
    ap.add_argument("--json", type=Path, help="also write the full results as JSON here")
    ap.add_argument("--index", type=Path, help="data directory of the index (default: the real test index)")
    a = ap.parse_args(argv)
    from legal_rag.eval.factset import format_factset, run_factset

    items = [json.loads(line) for line in a.set.read_text(encoding="utf-8").splitlines() if line.strip()]
    settings = real_settings(a.index)
    systems = {**SYSTEMS, "sectionfind": _sectionfind_factory(a.casebase)}
    results, timing = {}, {}
    for name in a.system or ["product"]:
        STATS["cut"] = 0
        fn = systems[name](settings)
        t0 = time.perf_counter()
        results[name] = run_factset(fn, items)
        timing[name] = (time.perf_counter() - t0, STATS["cut"])
    print(f"# fact-pattern dev set: {len(items)} items ({a.set.name}); {machine_state()}\n")
    print(f"index: {settings.data_dir.name}; rerank_model: {settings.rerank_model}; top_k: {settings.top_k}")
    for name, (sec, cut) in timing.items():
        print(f"- {name}: {sec:.0f} s for {len(items)} questions ({sec / len(items) * 1000:.0f} ms each); "
              f"{cut} questions cut to {settings.question_max_chars} characters")
    print("\n## section level (\"BNS 318\")\n")
    print(format_factset(results, "section"))
    print("\n## sub-section level (\"BNS 318(4)\"; a bare section matches only a gold key without sub-section)\n")
    print(format_factset(results, "subsection"))
    if a.details:
        by_id = {d["id"]: d for d in items}
        for name, res in results.items():
            print(f"\n## {name}: per item (top 3 at section level; first gold rank)\n")
            print("| id | length | date | relevant | top 3 | first gold |\n|---|---|---|---|---|---|")
            for r in res["items"]:
                d = by_id[r["id"]]
                print(f"| {r['id']} | {d['length']} | {d['offence_date'] or '–'} | {', '.join(r['relevant'])} | "
                      f"{', '.join(r['top3']) or '–'} | {r['first_gold_rank'] or '–'} |")
    if a.json:
        a.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
