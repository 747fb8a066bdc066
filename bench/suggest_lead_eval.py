"""Section suggestions ahead of the passages (issue 13): how many lead, chosen on the tuning split only.

Every candidate rule is the product's own :func:`legal_rag.retrieve.suggest.lead_for` with its module constants
set (``LONG_WORDS``, ``LEAD``, ``SHORT_WORDS``, ``MIN_CASES``, ``MAX_DIRECT_RANK``), so the chosen row is exactly
what the product runs. Each question is searched once through ``Pipeline.search_with_suggestions`` with the
product's lead switched off; every rule re-orders the same hits (its suggestion chunks first).

* **Choice**: on ``bench/leadtune.jsonl`` only (built by ``bench/build_factset.py --leadtune``: sources neither dev
  set, nor the fact set, nor AILA Q11-Q50, nor any test uses). Criterion fixed before the run: section-level MRR
  over all tuning questions (:func:`legal_rag.eval.factset.run_factset`); ties go to the simpler rule, i.e. the
  earlier one in :data:`RULES` (listed from simple to compound).
* **Held-out figures**, printed after the choice for the chosen rule (and, for reference only, ``lead0``, no
  suggestion ahead, and the session-4 rule that had been chosen on the dev sets themselves): the 45-question dev
  set (``bench/devset.jsonl``: recall@5, nDCG@10, MRR at section level) and the 63-question fact set
  (``bench/factset.jsonl``: recall@5, MRR, gold first). They are never used to choose.

    .venv/bin/python bench/suggest_lead_eval.py <case base directory> [--out FILE]

``<case base directory>``: a full saved case base (e.g. ``.legal_rag/h7/casebase``, or the one
:func:`legal_rag.retrieve.casebase_build.ensure_casebase` keeps); ``none`` for no case base. Opens the real test
index as tests/conftest.py does (nothing rebuilt). Results: ``bench/results_factset.md``, "Section suggestions
ahead".
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / "tests")); sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

#: (name, LONG_WORDS, LEAD, SHORT_WORDS, MIN_CASES, MAX_DIRECT_RANK), simple to compound. LONG_WORDS None: no
#: statement is long; SHORT_WORDS None: no one-ahead branch; MAX_DIRECT_RANK None: the text rank is not asked.
RULES = [
    ("lead0 (none ahead)", None, 2, None, 3, 5),
    ("lead1 (always one)", None, 2, 0, 0, None),
    ("lead2 (always two)", 0, 2, None, 3, 5),
    ("one if >= 15 words", None, 2, 15, 0, None),
    ("one if >= 20 words", None, 2, 20, 0, None),
    ("two if > 40 words", 40, 2, None, 3, 5),
    ("one if > 40 words", 40, 1, None, 3, 5),
    ("one if agree (n>=3, text<=5)", None, 2, 0, 3, 5),
    ("one if agree (n>=3, text<=3)", None, 2, 0, 3, 3),
    ("one if agree (n>=5, text<=5)", None, 2, 0, 5, 5),
    ("one if agree (n>=3, text<=10)", None, 2, 0, 3, 10),
    ("one if >= 15 words and agree (n>=3, text<=5)", None, 2, 15, 3, 5),
    ("two if > 40; one if agree (n>=3, text<=5)", 40, 2, 0, 3, 5),
    ("session 4: two if > 40; one if >= 15 and agree (n>=3, text<=5)", 40, 2, 15, 3, 5),
    ("two if > 40; one if >= 15", 40, 2, 15, 0, None),
    ("two if > 40; one if >= 15 and agree (n>=3, text<=3)", 40, 2, 15, 3, 3),
    ("two if > 40; one if >= 15 and agree (n>=5, text<=5)", 40, 2, 15, 5, 5),
    ("two if > 40; one if >= 15 and agree (n>=3, text<=10)", 40, 2, 15, 3, 10),
    ("one if > 40; one if >= 15 and agree (n>=3, text<=5)", 40, 1, 15, 3, 5),
    ("two if > 25; one if >= 15 and agree (n>=3, text<=5)", 25, 2, 15, 3, 5),
    ("two if > 60; one if >= 15 and agree (n>=3, text<=5)", 60, 2, 15, 3, 5),
]
CONSTS = ("LONG_WORDS", "LEAD", "SHORT_WORDS", "MIN_CASES", "MAX_DIRECT_RANK")


def load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("casebase", help="saved case base directory, or 'none'")
    ap.add_argument("--tune", type=Path, default=ROOT / "bench" / "leadtune.jsonl")
    ap.add_argument("--out", type=Path, default=None, help="also write the printed tables here")
    a = ap.parse_args()

    from conftest import _real_settings
    from factset_eval import fit

    import legal_rag.retrieve.suggest as sg
    from legal_rag.eval.factset import run_factset
    from legal_rag.eval.metrics import DEV_METRICS, evaluate_run
    from legal_rag.index.casebase import CaseBase
    from legal_rag.pipeline import Pipeline
    from legal_rag.resources import Resources
    from legal_rag.retrieve.route import analyse_question

    lines: list[str] = []

    def emit(text: str = "") -> None:
        print(text, flush=True)
        lines.append(text)

    s = _real_settings()
    p = Pipeline(s, Resources(s, casebase=CaseBase.open(Path(a.casebase)) if a.casebase != "none" else None))
    lead_for = sg.lead_for
    saved = {c: getattr(sg, c) for c in CONSTS}
    sg.lead_for = lambda suggestions, question: 0  # the product's own lead off: every rule re-orders the same hits
    cache: dict = {}

    def compute(q: str, od: str | None):
        if (q, od) not in cache:
            q2 = fit(q, s.question_max_chars)
            an = analyse_question(p.read_input(q2), od, concordance=p.concordance)
            hits, sug = p.search_with_suggestions(q2, analysis=an)
            lead = sg.suggestion_hits(sug, p.index, p.casebase, p.concordance, lead=2)
            cache[(q, od)] = (hits, lead, sug, q2)
        return cache[(q, od)]

    def ranking(q: str, od: str | None, rule) -> list[str]:
        hits, lead, sug, q2 = compute(q, od)
        for c, v in zip(CONSTS, rule[1:]):
            setattr(sg, c, v)
        n = lead_for(sug, q2) if sug else 0
        lead = lead[:n]
        seen = {h.chunk.id for h in lead}
        hs = [*lead, *(h for h in hits if h.chunk.id not in seen)]
        return [f"{h.chunk.ref.act} {h.chunk.ref.section}" for h in hs if h.chunk.ref is not None]

    tune, dev, fs = load(a.tune), load(ROOT / "bench" / "devset.jsonl"), load(ROOT / "bench" / "factset.jsonl")
    t0 = time.time()
    emit(f"## Choice on {a.tune.name} ({len(tune)} questions), section level\n")
    emit("| rule | R@5 | MRR | gold first | short MRR | long MRR | lay short MRR | title MRR | questions led |")
    emit("|---|---|---|---|---|---|---|---|---|")
    lay = [d for d in tune if d["length"] == "short" and d["origin"] != "bprd_title"]
    titles = [d for d in tune if d["origin"] == "bprd_title"]
    scores = []
    for rule in RULES:
        fn = lambda q, od, r=rule: ranking(q, od, r)  # noqa: E731
        r = run_factset(fn, tune)["section"]
        m_lay = run_factset(fn, lay)["section"]["all"]["mrr"] if lay else float("nan")
        m_tit = run_factset(fn, titles)["section"]["all"]["mrr"] if titles else float("nan")
        led = 0
        for d in tune:
            _, _, sug, q2 = compute(d["question"], d.get("offence_date"))
            for c, v in zip(CONSTS, rule[1:]):
                setattr(sg, c, v)
            led += bool(sug) and lead_for(sug, q2) > 0
        al = r["all"]
        scores.append(al["mrr"])
        emit(f"| {rule[0]} | {al['recall@5']:.3f} | {al['mrr']:.3f} | {al['gold_first']:.3f} | "
             f"{r['short']['mrr']:.3f} | {r['long']['mrr']:.3f} | {m_lay:.3f} | {m_tit:.3f} | {led} |")
    best = max(range(len(RULES)), key=lambda i: (scores[i], -i))  # ties: the earlier (simpler) rule
    chosen = RULES[best]
    emit(f"\n**Chosen on {a.tune.name}** (MRR {scores[best]:.3f}): {chosen[0]} -> "
         + ", ".join(f"{c}={v}" for c, v in zip(CONSTS, chosen[1:])))
    emit(f"Product constants at the run: " + ", ".join(f"{c}={v}" for c, v in saved.items())
         + (" (the chosen rule)" if tuple(saved.values()) == tuple(chosen[1:]) else " (NOT the chosen rule)"))

    emit("\n## Held-out figures (never used to choose)\n")
    emit("| rule | dev R@5 | dev nDCG@10 | dev MRR | fact R@5 | fact MRR | fact gold first | fact short MRR | "
         "fact long MRR |")
    emit("|---|---|---|---|---|---|---|---|---|")
    qrels = {d["id"]: {re.sub(r"\(.*", "", g): 1 for g in d["gold"]} for d in dev}
    session4 = next(r for r in RULES if r[0].startswith("session 4"))
    for rule in dict.fromkeys((RULES[0], session4, chosen)):
        runs = {d["id"]: list(dict.fromkeys(ranking(d["question"], None, rule))) for d in dev}
        m = evaluate_run(qrels, runs, DEV_METRICS)
        r = run_factset(lambda q, od, rr=rule: ranking(q, od, rr), fs)["section"]
        emit(f"| {rule[0]} | {m['recall@5']:.3f} | {m['ndcg@10']:.3f} | {m['mrr']:.3f} | {r['all']['recall@5']:.3f} | "
             f"{r['all']['mrr']:.3f} | {r['all']['gold_first']:.3f} | {r['short']['mrr']:.3f} | "
             f"{r['long']['mrr']:.3f} |")
    for c, v in saved.items():
        setattr(sg, c, v)
    emit(f"\n{len(cache)} questions searched in {time.time() - t0:.0f}s; fact patterns with suggestions: "
         f"{sum(1 for v in cache.values() if v[2])}; load average {' / '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if a.out:
        a.out.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
