"""Should the case-base evidence prefer recent or higher-court decisions? A grid over the prior of
:func:`legal_rag.retrieve.evidence.case_prior`, chosen on the ranker's training questions, measured on sets it never saw.

    python bench/evidence_priors.py --casebase DIR [--corpus DIR] [--markdown]

``DIR``: a saved case base (``<data_dir>/casebase/<key>``, written by ``legal-rag index``; the default corpus's, with
the bulk decisions). For each question with a gold in the new codes, the evidence (``era="new"``: an IPC-era cite
counts for its BPR&D successors) ranks sections; the figures are the mean reciprocal rank of the first gold section
(0 when the evidence does not name it; ``MRR``) and the share with a gold among the first five (``hit@5``), over
questions whose golds are sections of the BNS, BNSS or BSA (section level; out-of-corpus questions are skipped).

* **fit**: the ranker's own training questions (``legal_rag/rank/data/*.jsonl``: the asked and the source sets);
  the grid point with the best fit MRR is chosen, the neutral point (1, 1) kept on a tie or a gain under
  :data:`MIN_GAIN`;
* **held**: the dev set (``bench/devset.jsonl``), the fact-pattern set (``bench/factset.jsonl``) and the held-apart
  test set (``bench/ranker/test.jsonl``) -- measured at every point, never used to choose.

Each question's paragraph search runs once (``bench.tuning.CachedCaseBase``; the prior only reweighs the judgments it
found).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from legal_rag.index.casebase import CaseBase  # noqa: E402
from legal_rag.law import load_concordance  # noqa: E402
from legal_rag.retrieve.evidence import EvidenceParams, section_evidence  # noqa: E402
from legal_rag.types import NEW_ACTS, StatuteRef  # noqa: E402

from bench.tuning import CachedCaseBase, grid  # noqa: E402

LOWER_COURT = (0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 4.0)
RECENT = (0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 4.0)
#: the fit MRR a non-neutral point must gain over (1, 1) to be chosen
MIN_GAIN = 0.005
FIT = sorted((ROOT / "legal_rag" / "rank" / "data").glob("*.jsonl"))
HELD = {"dev": ROOT / "bench" / "devset.jsonl", "fact": ROOT / "bench" / "factset.jsonl",
        "test": ROOT / "bench" / "ranker" / "test.jsonl"}


def section_of(text: str) -> StatuteRef:
    """``StatuteRef("BNS", "303")`` from ``"BNS 303(2)"`` (section level)."""
    act, rest = text.split(" ", 1)
    return StatuteRef(act, rest.split("(", 1)[0])


def questions(path: Path) -> list[tuple[str, frozenset[StatuteRef]]]:
    """``(question, gold sections of the new codes)`` of a JSON-lines set, questions without such a gold left out."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        it = json.loads(line)
        golds = frozenset(section_of(g) for g in it.get("gold_new") or it.get("gold") or [])
        golds = frozenset(g for g in golds if g.act in NEW_ACTS)
        if golds:
            out.append((it["question"], golds))
    return out


def score(items, cb, concordance, params: EvidenceParams) -> dict:
    """``{"n", "mrr", "hit5"}`` of the evidence over ``items`` (module docstring), and the same for the questions
    whose golds are offences (``"BNS"``) and for those whose golds are procedure or evidence (``"BNSS+BSA"``)."""
    rrs: dict[str, list[float]] = {"all": [], "BNS": [], "BNSS+BSA": []}
    hits: dict[str, list[bool]] = {k: [] for k in rrs}
    for question, golds in items:
        refs = [e.ref for e in section_evidence(question, cb, concordance=concordance, era="new", params=params)]
        first = next((i for i, r in enumerate(refs) if r in golds), None)
        group = "BNS" if any(g.act == "BNS" for g in golds) else "BNSS+BSA"
        for k in ("all", group):
            rrs[k].append(0.0 if first is None else 1.0 / (first + 1))
            hits[k].append(first is not None and first < 5)
    out = {}
    for k in rrs:
        n = max(len(rrs[k]), 1)
        pre = "" if k == "all" else k + " "
        out.update({pre + "n": len(rrs[k]), pre + "mrr": sum(rrs[k]) / n, pre + "hit5": sum(hits[k]) / n})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--casebase", type=Path, required=True)
    ap.add_argument("--corpus", type=Path, default=None, help="corpus folder (default: Settings().corpus_path)")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    cb = CachedCaseBase(CaseBase.open(args.casebase))
    concordance = load_concordance(args.corpus)  # None: Settings().corpus_path
    fit = [q for p in FIT for q in questions(p)]
    held = {name: questions(p) for name, p in HELD.items()}
    base = EvidenceParams()
    rows = []
    for point in grid({"lower_court": LOWER_COURT, "recent": RECENT}):
        p = replace(base, **point)
        row = {**point, "fit": score(fit, cb, concordance, p)}
        row.update({name: score(items, cb, concordance, p) for name, items in held.items()})
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
    neutral = next(r for r in rows if r["lower_court"] == 1.0 and r["recent"] == 1.0)
    best = max(rows, key=lambda r: (r["fit"]["mrr"], r is neutral))
    chosen = best if best["fit"]["mrr"] >= neutral["fit"]["mrr"] + MIN_GAIN else neutral
    cols = [("fit", ""), ("fit", "BNS "), ("fit", "BNSS+BSA "), *((name, "") for name in held)]
    if args.markdown:
        print("| lower court | recent | " + " | ".join(f"{s} {g}MRR / hit@5" for s, g in cols) + " |")
        print("|---|---|" + "---|" * len(cols))
        for r in rows:
            mark = " **(chosen)**" if r is chosen else ""
            print(f"| {r['lower_court']:g} | {r['recent']:g}{mark} | "
                  + " | ".join(f"{r[s][g + 'mrr']:.4f} / {r[s][g + 'hit5']:.3f}" for s, g in cols) + " |")
        print("\nquestions: " + ", ".join(f"{s} {g}{neutral[s][g + 'n']}" for s, g in cols))
    print(json.dumps({"chosen": {"lower_court": chosen["lower_court"], "recent": chosen["recent"]},
                      "neutral": neutral, "best": best}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
