"""Section suggestions ahead of the passages (issue 13): how many to put ahead, scored on the 45-question dev set
(bench/devset.jsonl) and the 63-question fact-pattern set (bench/factset.jsonl) in one pass (each question searched
once; every lead rule re-orders the same hits). Results: bench/results_factset.md, "Section suggestions ahead".

    .venv/bin/python bench/suggest_lead_eval.py <case base directory>   # e.g. a full case base built by
                                                                        # legal_rag.retrieve.casebase_build.ensure_casebase
Opens the real test index as tests/conftest.py does (nothing rebuilt).
"""
import sys, json, re, os, time
from pathlib import Path
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests")); sys.path.insert(0, str(ROOT / "bench"))
os.environ["HF_HUB_OFFLINE"] = "1"
from pathlib import Path
from conftest import _real_settings
from legal_rag.pipeline import Pipeline
from legal_rag.index.casebase import CaseBase
import legal_rag.retrieve.suggest as sg
from legal_rag.retrieve.route import analyse_question
from legal_rag.eval.factset import run_factset, format_factset
from legal_rag.eval.metrics import DEV_METRICS, evaluate_run
from factset_eval import fit

s = _real_settings()
p = Pipeline(s)
cb_dir = sys.argv[1]
p.__dict__["casebase"] = CaseBase.open(Path(cb_dir)) if cb_dir != "none" else None
sg.lead_for = lambda suggestions, question: 0  # the product's own rule off: every rule below re-orders the same hits
cache = {}
def compute(q, od):
    key = (q, od)
    if key not in cache:
        q2 = fit(q, s.question_max_chars)
        a = analyse_question(p.read_input(q2), od, concordance=p.concordance)
        hits, sug = p.search_with_suggestions(q2, analysis=a)
        lead = sg.suggestion_hits(sug, p.index, p.casebase, p.concordance, lead=2)
        cache[key] = (hits, lead, sug, len(q2.split()))
    return cache[key]
def ranking(q, od, n):
    hits, lead, sug, words = compute(q, od)
    if callable(n): n = n(sug, words)
    lead = lead[:n]; seen = {h.chunk.id for h in lead}
    hs = [*lead, *(h for h in hits if h.chunk.id not in seen)]
    return [f"{h.chunk.ref.act} {h.chunk.ref.section}" for h in hs if h.chunk.ref is not None]
dev = [json.loads(l) for l in open(ROOT / "bench" / "devset.jsonl") if l.strip()]
fs = [json.loads(l) for l in open(ROOT / "bench" / "factset.jsonl") if l.strip()]
t0 = time.time()
ok = lambda x, d=5, c=3: x.n_cases >= c and x.direct_rank is not None and x.direct_rank <= d
V = {"lead0": 0,
     "a_n3_d5": lambda sug, w: 1 if sug and ok(sug[0]) else 0,
     "b_n3_d3": lambda sug, w: 1 if sug and ok(sug[0], 3) else 0,
     "c_n3_d5_w15": lambda sug, w: 1 if w >= 15 and sug and ok(sug[0]) else 0,
     "e_a_or_long2": lambda sug, w: 2 if w > 40 else (1 if sug and ok(sug[0]) else 0),
     "f_n5_d5": lambda sug, w: 1 if sug and ok(sug[0], 5, 5) else 0,
     "g_n3_d10": lambda sug, w: 1 if sug and ok(sug[0], 10) else 0,
     "chosen (lead_for)": lambda sug, w: 2 if w > 40 else (1 if w >= 15 and sug and ok(sug[0]) else 0),
     "lead1": 1, "lead2": 2,
}
for name, n in V.items():
    qrels = {d["id"]: {re.sub(r"\(.*", "", g): 1 for g in d["gold"]} for d in dev}
    runs = {d["id"]: list(dict.fromkeys(ranking(d["question"], None, n))) for d in dev}
    m = evaluate_run(qrels, runs, DEV_METRICS)
    r = run_factset(lambda q, od: ranking(q, od, n), fs)
    print(f"{name} dev R@5 {m['recall@5']:.3f} nDCG@10 {m['ndcg@10']:.3f} MRR {m['mrr']:.3f}", flush=True)
    print("\n".join(l for l in format_factset({name: r}).splitlines() if "| all |" in l or "| short |" in l or "| long |" in l), flush=True)
print("secs", time.time() - t0, "fact patterns", sum(1 for v in cache.values() if v[2]))
