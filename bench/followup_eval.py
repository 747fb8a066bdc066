"""Reading a message as a follow-up: the rules (``legal_rag.law.is_followup``) against the fitted reading
(``legal_rag.rank.followup``), on messages neither was fitted on.

* ``bench/followup/test.jsonl``: chat messages, each after a previous one, marked follow-up or standing alone, by a
  writer who saw neither the code nor the training messages (never fitted or chosen on);
* the question sets the section ranker is measured on (``bench/ranker/test.jsonl``, ``bench/devset.jsonl``,
  ``bench/factset.jsonl``): every question there stands alone, so each one read as a follow-up is a false one (and
  gets no provision chosen).

Prints precision, recall and F1 of "follow-up" on the first and the false follow-ups on the others, as a markdown
table. Run on the served index (``legal-rag index`` first):

    HF_HUB_OFFLINE=1 python bench/followup_eval.py [--data-dir DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TEST = ROOT / "bench" / "followup" / "test.jsonl"
STANDALONE = (ROOT / "bench" / "ranker" / "test.jsonl", ROOT / "bench" / "devset.jsonl",
              ROOT / "bench" / "factset.jsonl")


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def scores(pred: list[bool], gold: list[bool]) -> dict:
    """Precision, recall and F1 of the positive class, with the counts."""
    tp = sum(p and g for p, g in zip(pred, gold))
    fp = sum(p and not g for p, g in zip(pred, gold))
    fn = sum(g and not p for p, g in zip(pred, gold))
    prec, rec = tp / max(tp + fp, 1), tp / max(tp + fn, 1)
    return {"tp": tp, "fp": fp, "fn": fn, "precision": prec, "recall": rec,
            "f1": 2 * prec * rec / max(prec + rec, 1e-9)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", type=Path, default=None, help="the served index's data directory")
    args = ap.parse_args(argv)
    if args.data_dir is not None:
        os.environ["LEGAL_RAG_DATA_DIR"] = str(args.data_dir)
    from legal_rag.config import load_settings
    from legal_rag.law import analyse, is_followup
    from legal_rag.resources import Resources

    res = Resources(load_settings())
    learned = res.reads_followup

    def read(q: str):
        return analyse(q, concordance=res.concordance)

    test = _rows(TEST)
    gold = [bool(r["followup"]) for r in test]
    analyses = [read(r["question"]) for r in test]
    print(f"| messages | reading | precision | recall | F1 | false follow-ups | follow-ups missed |")
    print("|---|---|---|---|---|---|---|")
    for name, f in (("rules", is_followup), ("fitted", learned)):
        s = scores([f(a) for a in analyses], gold)
        print(f"| {TEST.relative_to(ROOT)} ({sum(gold)} follow-ups, {len(gold) - sum(gold)} alone) | {name} | "
              f"{s['precision']:.3f} | {s['recall']:.3f} | {s['f1']:.3f} | {s['fp']} | {s['fn']} |")
    for path in STANDALONE:
        qs = [read(r["question"]) for r in _rows(path)]
        for name, f in (("rules", is_followup), ("fitted", learned)):
            fp = sum(f(a) for a in qs)
            print(f"| {path.relative_to(ROOT)} ({len(qs)}, all alone) | {name} | | | | {fp} | |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
