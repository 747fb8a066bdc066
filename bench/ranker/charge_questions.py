"""Training questions written from the charge-identification benchmark's **training** facts (``Train-Sent.jsonl``,
Paul et al.), with gold sections from the facts' own charge labels. Usage::

    LEGAL_RAG_DATA_DIR=DIR .venv/bin/python bench/ranker/charge_questions.py > bench/ranker/train_charges.jsonl

The set is kept beside the builder; it joins the ranker's source sets (``legal_rag/rank/data/``, then ``legal-rag
train-ranker``) only with a fit that keeps the asked writers' held-out section top-1 (``bench/results_ranker.md``).

Two kinds of question, both grouped by their fact (``source`` "charge_identification Train-Sent factid <id>", the
group :mod:`legal_rag.rank.examples` keeps in one fold, as ``train_bns.jsonl`` names the facts it retells):

* each fact **as printed** (its sentences joined): a long statement in a judgment's words, as a lawyer pastes one;
  left out when its own judgment is in the case base (``bench/build_factset.py``'s ``CASEBASE_COPIES``: the
  evidence would find the very judgment the facts were copied from, which no real question does);
* each fact **retold** in a client's or a junior's words (``bench/ranker/charge_retellings.jsonl``: ``factid``,
  ``length`` "short" (<= 40 words) or "medium", ``question``; written by two writers who saw only
  ``Train-Sent.jsonl``), except the facts of :data:`NOT_RETOLD`.

The gold of a fact: its ``doc_labels`` turned into IPC sections by ``bench/build_factset.py``'s rules (the IPC
section whose text best covers the label's statutory text in ``Labels.jsonl``, and the section titled "Punishment
for <its title>"), then into their BNS successors by the BPR&D tables (:mod:`legal_rag.law.concordance`). A label
``Labels.jsonl`` does not define is left out of the gold (the row's ``note`` says which); a fact left with no gold is
left out. Facts that near-copy an AILA 2019 query (word 8-grams, as the fact set's builder) are never used, and a
question that nearly copies a measured question or retells a measured story is left out
(:func:`bench.ranker.leakage.print_kept`). Deterministic: the same sources give the same file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench.ranker.leakage import print_kept  # noqa: E402
from build_factset import CASEBASE_COPIES, _Sources, aila_overlap, successors  # noqa: E402

RETELLINGS = ROOT / "bench" / "ranker" / "charge_retellings.jsonl"
#: facts whose retellings are not used: their writers found that the printed facts do not make out a charge the
#: labels give (the printed fact is still used: its label is the benchmark's)
NOT_RETOLD = {
    "2012_T_29": "labelled murder; the facts describe a man driven to hang himself",
    "2009_S_476": "labelled murder; the facts describe a suicide",
    "2004_S_370": "labelled murder; the facts do not say the stabbed man died",
    "1998_S_404": "labelled murder; the facts are the victim's own report and do not say he died",
    "2008_S_335": "labelled a marriage offence; the facts say the first marriage was dissolved before the second",
}
TRAIN = "Train-Sent.jsonl"
SHORT_WORDS = 40


def gold_of(src: _Sources, record: dict) -> tuple[list[str], list[str]]:
    """(BNS gold refs, labels left out) of one Train-Sent record."""
    olds, missing = [], []
    for label in record["doc_labels"]:
        if label in src.lab:
            olds += [f"IPC {s}" for s in src.lab[label][0]]
        else:
            missing.append(label)
    return (successors(src.conc, list(dict.fromkeys(olds))) if olds else []), missing


def rows(src: _Sources, retellings: list[dict]) -> list[dict]:
    """The training rows (module docstring), facts in file order, each fact's printed text first."""
    facts = {fid: rec for (name, fid), rec in src.facts.items() if name == TRAIN}
    told: dict[str, list[dict]] = {}
    for d in retellings:
        if d["factid"] not in facts:
            raise SystemExit(f"retelling of {d['factid']!r}: no such training fact")
        if d["length"] == "short" and len(d["question"].split()) > SHORT_WORDS:
            raise SystemExit(f"{d['factid']}: a short retelling has {len(d['question'].split())} words")
        told.setdefault(d["factid"], []).append(d)
    out: list[dict] = []
    for fid, (_, rec) in sorted(facts.items(), key=lambda kv: kv[1][0]):
        text = " ".join(rec["text"])
        if aila_overlap(text, src.queries):
            continue
        gold, missing = gold_of(src, rec)
        if not gold:
            continue
        note = "labels " + ", ".join(rec["doc_labels"]) + (f"; not in Labels.jsonl: {', '.join(missing)}"
                                                            if missing else "")
        questions = ([] if fid in CASEBASE_COPIES else [("printed", text)]) + \
            [(d["length"], d["question"]) for d in told.get(fid, ()) if fid not in NOT_RETOLD]
        for length, q in questions:
            out.append({"id": f"TR-CHG-{len(out) + 1:04d}", "question": q, "gold": gold, "act": "BNS",
                        "kind": "offence", "source": f"charge_identification Train-Sent factid {fid}",
                        "source_line": gold[0].split("(")[0], "out_of_corpus": None, "length": length, "note": note})
    return out


def main() -> int:
    from legal_rag.config import load_settings
    from legal_rag.resources import Resources

    retellings = [json.loads(x) for x in RETELLINGS.read_text(encoding="utf-8").splitlines() if x.strip()]
    src = _Sources()
    res = Resources(load_settings())
    print_kept(rows(src, retellings), res.index.embed_query)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
