"""Training questions written from the First Schedule's rows: what is asked of an offence (its punishment, whether it
is bailable or cognizable, which court tries it), with the row's own division as the gold. Usage::

    LEGAL_RAG_DATA_DIR=DIR .venv/bin/python bench/ranker/schedule_questions.py > legal_rag/rank/data/train_schedule.jsonl

One question per BNS row that names an offence (column 2, at least three words, not a further case of the row
above, not a condition such as "If ..."), its template chosen by the row's number so the file is the same on every
run. The offence's words are the schedule's, lower-cased: these teach the ranker the limb a punishment or
classification question about a named offence points to, not a client's own words (the helper-written sets do).
Each row is its own source line (``source`` "BNSS First Schedule, BNS <ref>"). A question that nearly copies a
question of a set the ranker is measured or chosen on (:mod:`bench.ranker.leakage`) is left out (its number kept
unused).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.ranker.leakage import print_kept  # noqa: E402
from legal_rag.config import load_settings  # noqa: E402
from legal_rag.generate.head import names_an_offence  # noqa: E402
from legal_rag.resources import Resources  # noqa: E402

#: (template, the question's kind)
TEMPLATES = (
    ("what is the punishment for {o}", "punishment"),
    ("is {o} a bailable offence", "bail"),
    ("how many years of jail for {o}", "punishment"),
    ("which court will try a case of {o}", "procedure"),
    ("is {o} cognizable, can police arrest without warrant", "offence"),
    ("what sentence can the court give for {o}", "punishment"),
)


def main() -> int:
    res = Resources(load_settings())
    seen = set()
    n = 0
    rows = []
    for r in res.schedule.rows:
        if r.act != "BNS" or not names_an_offence(r):
            continue
        offence = re.sub(r"\s+", " ", r.offence.strip().rstrip(".")).lower()
        if len(offence.split()) < 3 or (r.ref, offence) in seen:
            continue
        seen.add((r.ref, offence))
        n += 1
        template, kind = TEMPLATES[n % len(TEMPLATES)]
        q = template.format(o=offence)
        rows.append({"id": f"TR-SCH-{n:04d}", "question": q, "gold": [str(r.ref)], "act": "BNS", "kind": kind,
                     "source": f"BNSS First Schedule, {r.ref}", "source_line": str(r.ref.base), "out_of_corpus": None})
    print_kept(rows, res.index.embed_query)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
