"""Whether a change to the retrieval path left its results as they were: the section ranker's ranking, its
candidates' feature rows and ``find_passages``' hits, per question, written to a JSON file and compared with an
earlier one. Usage::

    HF_HUB_OFFLINE=1 .venv/bin/python bench/ranker_same.py --data-dir DIR --dump before.json \
        [--set bench/devset.jsonl --set bench/ranker/test.jsonl]
    ... change the code ...
    HF_HUB_OFFLINE=1 .venv/bin/python bench/ranker_same.py --data-dir DIR --dump after.json --compare before.json

Per question (each set's questions in order, the query cache cleared before each, as ``bench/ranker_eval.py``
times them): the ranking (``Ranking.sections``: ref, limb, ``p``, dense rank, cases; ``other``, ``other_act``,
``outside``), the candidates of the section model in order with their :data:`legal_rag.rank.SECTION_FEATURES` rows,
and ``find_passages``' hits (chunk id, stage, score) and suggestions. ``--compare`` reports every question where
an order, a reference, an id or a flag differs, or a number differs by more than ``--tol`` (default 1e-9), and
exits 1 if any does.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from legal_rag.config import Settings  # noqa: E402
from legal_rag.errors import InputTooLongError  # noqa: E402
from legal_rag.pipeline import Pipeline  # noqa: E402

SETS = (ROOT / "bench" / "devset.jsonl", ROOT / "bench" / "ranker" / "test.jsonl")


def record(pipe: Pipeline, item: dict) -> dict | None:
    """What the retrieval path gives ``item``'s question (module docstring); None when it is refused as too long."""
    from legal_rag.answer.passages import chooses_provision, find_passages, section_ranker_for
    from legal_rag.rank import in_corpus_acts, section_matrix

    res = pipe.resources
    try:
        q = pipe.read_question(item["question"], offence_date=item.get("offence_date"))
    except InputTooLongError:
        return None
    res.index.clear_query_cache()
    hits, suggestions, ranking = find_passages(res, pipe.settings, q.text, q.analysis, followup=q.followup)
    out = {"id": item["id"],
           "hits": [[h.chunk.id, h.stage, h.score] for h in hits],
           "suggestions": [[str(s.ref), str(s.cited_as), s.score] for s in suggestions]}
    if ranking is not None:
        out["ranking"] = {"sections": [[str(r.ref), str(r.limb) if r.limb else None, r.p, r.dense_rank, list(r.cases),
                                        r.top_cases] for r in ranking.sections],
                          "other": ranking.other, "other_act": ranking.other_act, "outside": ranking.outside}
    if chooses_provision(q.analysis, followup=q.followup):
        sr = section_ranker_for(res)
        s = sr.signals(q.text, kind=q.analysis.kind)
        refs = sr.candidates(s)
        acts = in_corpus_acts(sr.ranker.act_probs(s.vector))
        x = section_matrix(s, refs, acts, sr.predecessors(refs))
        out["candidates"] = [str(r) for r in refs]
        out["features"] = x.tolist()
    return out


def differences(a, b, tol: float, path: str = "") -> list[str]:
    """Where ``a`` and ``b`` (JSON values) differ: numbers by more than ``tol``, anything else at all."""
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None or isinstance(a, str):
        return [] if a == b else [f"{path}: {a!r} != {b!r}"]
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        same = (math.isnan(a) and math.isnan(b)) or abs(a - b) <= tol
        return [] if same else [f"{path}: {a!r} != {b!r}"]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: length {len(a)} != {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, tol, f"{path}[{i}]")]
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return [f"{path}: keys {sorted(a)} != {sorted(b)}"]
        return [d for k in a for d in differences(a[k], b[k], tol, f"{path}.{k}")]
    return [f"{path}: {type(a).__name__} != {type(b).__name__}"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", type=Path, required=True)
    ap.add_argument("--set", type=Path, action="append", default=None)
    ap.add_argument("--dump", type=Path, required=True, help="write the per-question records here (JSON)")
    ap.add_argument("--compare", type=Path, default=None, help="an earlier dump to compare with")
    ap.add_argument("--tol", type=float, default=1e-9)
    args = ap.parse_args(argv)
    pipe = Pipeline(Settings().model_copy(update={"data_dir": args.data_dir}))
    pipe.ask("warm up: what is theft")
    rows = {}
    for path in args.set or SETS:
        items = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
        rows[path.name] = [r for r in (record(pipe, it) for it in items) if r is not None]
    args.dump.write_text(json.dumps(rows, ensure_ascii=False))
    n = sum(map(len, rows.values()))
    if args.compare is None:
        print(f"{n} questions written to {args.dump.name}")
        return 0
    before = json.loads(args.compare.read_text())
    diffs = differences(before, rows, args.tol)
    for d in diffs[:50]:
        print(d)
    print(f"{n} questions; {len(diffs)} differences (numbers beyond {args.tol:g}, or any order, id or flag)")
    return 1 if diffs else 0


if __name__ == "__main__":
    raise SystemExit(main())
