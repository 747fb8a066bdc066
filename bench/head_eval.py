"""The governing provision in the first line (issue 14): does an answer's first line name a gold section?

For each question of ``bench/devset.jsonl`` (45 questions, a BNS and an IPC gold from one BPR&D table row) the
extractive answer is asked once through ``Pipeline.ask``. The composed head is prepended after verification and
changes nothing below it, so one run gives both sides:

* **before** -- the first line of the answer body (``Answer.text`` after the head: what the answer opened with
  before the head existed);
* **after** -- the first line of ``Answer.text`` (the head's first line when there is a head).

A line *names* a gold when a reference the project's citation grammar reads in it (``legal_rag.law.find_refs``)
has the gold's Act and section (**loose**) and, **strict**, also the gold's sub-section path as far as the gold
goes (``BNS 318(4)`` meets the gold ``BNS 318(4)``, ``BNS 318`` does not). Either gold (BNS or IPC) counts; the
BNS-only figure is given too.

    python bench/head_eval.py --data-dir .legal_rag-test/index-<key> --casebase-limit 300 [--set bench/factset.jsonl]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from legal_rag.config import Settings  # noqa: E402
from legal_rag.errors import InputTooLongError  # noqa: E402
from legal_rag.law import find_refs  # noqa: E402
from legal_rag.pipeline import Pipeline  # noqa: E402
from legal_rag.types import StatuteRef  # noqa: E402


def names(line: str, gold: StatuteRef, strict: bool) -> bool:
    """Whether ``line`` names ``gold`` (module docstring)."""
    for f in find_refs(line):
        r = f.ref
        if f.status != "ok" or r is None or (r.act, r.section) != (gold.act, gold.section):
            continue
        if not strict or r.sub[:len(gold.sub)] == gold.sub:
            return True
    return False


def gold_ref(text: str) -> StatuteRef:
    act, rest = text.split(" ", 1)
    section = rest.split("(", 1)[0]
    subs = tuple(s.rstrip(")") for s in rest.split("(")[1:])
    return StatuteRef(act, section, subs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", type=Path, default=None)
    ap.add_argument("--casebase-limit", type=int, default=None)
    ap.add_argument("--set", type=Path, default=ROOT / "bench" / "devset.jsonl",
                    help="a question set with id, question, gold (and optional offence_date): devset or factset")
    ap.add_argument("--dump", type=Path, default=None, help="write one JSON line per question here")
    args = ap.parse_args(argv)
    base = Settings()
    update = {}
    if args.data_dir:
        update["data_dir"] = args.data_dir
    if args.casebase_limit is not None:
        update["casebase_limit"] = args.casebase_limit
    pipe = Pipeline(base.model_copy(update=update))
    items = [json.loads(x) for x in args.set.read_text().splitlines() if x.strip()]
    counts = {k: 0 for k in ("before_loose", "before_strict", "after_loose", "after_strict", "before_bns_strict",
                             "after_bns_strict", "head", "refused")}
    rows = []
    for it in items:
        try:
            a = pipe.ask(it["question"], offence_date=it.get("offence_date"))
        except InputTooLongError as exc:  # over Settings.question_max_chars: refused, counted apart
            counts["refused"] += 1
            print(f"{it['id']}: refused ({exc})", flush=True)
            continue
        golds = [gold_ref(g) for g in it["gold"]]
        body = a.text.split("\n\n", 1)[1] if a.head and "\n\n" in a.text else a.text
        first_before, first_after = body.strip().splitlines()[0], a.text.strip().splitlines()[0]
        r = {"id": it["id"], "gold": it["gold"], "head": bool(a.head), "before": first_before, "after": first_after}
        for side, line in (("before", first_before), ("after", first_after)):
            for strict in (False, True):
                hit = any(names(line, g, strict) for g in golds)
                counts[f"{side}_{'strict' if strict else 'loose'}"] += hit
            counts[f"{side}_bns_strict"] += any(names(line, g, True) for g in golds if g.act == "BNS")
        counts["head"] += bool(a.head)
        rows.append(r)
        print(f"{it['id']}: head={r['head']} before={r['before'][:70]!r} after={r['after'][:70]!r}", flush=True)
    n = len(items)
    print(json.dumps({"n": n, **counts}))
    if args.dump:
        args.dump.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
