"""Every field of the answers to a fixed set of questions, as JSON lines, to compare two checkouts answer by answer.

The questions: the dev set (``bench/devset.jsonl``), the fact set (``bench/factset.jsonl``) and :data:`ROUTES` (one
question for each other way a question is read: a follow-up, an impossible date, a question in Hindi read in part
and one refused, a fabricated citation, a citation beside a section, a plain number, a court filter, a date inside
the facts, a holding question). Each line holds the answer as shown (notices, then text), the question as asked,
problems, model, citations, flags, head, suggestions and the passages with their scores and ranks; a question the
pipeline refuses holds the error instead.

    PYTHONHASHSEED=0 PYTHONPATH=<checkout> python bench/answers_dump.py --data-dir DIR --out before.jsonl
    python bench/answers_dump.py --compare before.jsonl after.jsonl

Run both checkouts on the same index files (an index rebuilt builds another HNSW graph) and the same hash seed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

BENCH = Path(__file__).resolve().parent
#: (id, question, previous question, filters)
ROUTES = (
    ("X1", "Is it bailable?", "What is the punishment for cheating under IPC 420?", None),
    ("X2", "and what about the punishment?", "What does BNS 318(4) say?", None),
    ("X3", "On 31.02.2024 my client was booked for theft. Which section applies?", None, None),
    ("X4", "IPC 420 की सजा क्या है?", None, None),
    ("X5", "धारा क्या है सजा बताइए कृपया", None, None),
    ("X6", "What did the Supreme Court hold in (2019) 5 SCC 9999?", None, None),
    ("X7", "Is section 302 IPC discussed in 2019 INSC 100 and what is its punishment?", None, None),
    ("X8", "Which court tries 103?", None, None),
    ("X9", "What is the punishment for murder?", None, {"court": "Supreme Court of India"}),
    ("X10", "What is the punishment for cheating?", None, None),
    ("X11", "The accused took money entrusted to him on 15.06.2024 and spent it. Which offence?", None, None),
    ("X12", "Which judgment held that a dying declaration can be the sole basis of conviction?", None, None),
)


def questions() -> list[tuple]:
    out = []
    for name in ("devset", "factset"):
        for line in (BENCH / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            out.append((r["id"], r["question"], None, None))
    return out + list(ROUTES)


def row(pipe, qid: str, question: str, previous, filters) -> dict:
    """One question's line (module docstring)."""
    from legal_rag.errors import LegalRagError

    try:
        a = pipe.ask(question, previous=previous, filters=filters)
    except LegalRagError as exc:
        return {"id": qid, "error": f"{type(exc).__name__}: {exc}"}
    shown = "\n\n".join((*(n.text for n in getattr(a, "notices", ())), a.text))
    return {"id": qid, "text": shown, "query": a.query, "problems": list(a.problems), "model": a.model,
            "citations": [repr(c) for c in a.citations], "flags": [repr(f) for f in a.flags],
            "head": [repr(h) for h in a.head], "suggestions": [repr(s) for s in a.suggestions],
            "passages": [(h.chunk.id, round(h.score, 6), h.stage, h.rank) for h in a.passages]}


def compare(before: Path, after: Path) -> int:
    """Print each question whose line differs and the fields that differ; the count last. 0 when none differ."""
    a = {r["id"]: r for r in map(json.loads, before.read_text(encoding="utf-8").splitlines())}
    b = {r["id"]: r for r in map(json.loads, after.read_text(encoding="utf-8").splitlines())}
    differ = 0
    for qid in a.keys() | b.keys():
        x, y = a.get(qid, {}), b.get(qid, {})
        if x != y:
            differ += 1
            print(qid, sorted(k for k in x.keys() | y.keys() if x.get(k) != y.get(k)))
    print(f"{len(a)} / {len(b)} answers, {differ} differ")
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", type=Path, help="a built index (legal-rag index)")
    ap.add_argument("--casebase-limit", type=int, default=300, help="as the index was built (tests: 300)")
    ap.add_argument("--out", type=Path, help="the JSON lines written")
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = ap.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if not args.data_dir or not args.out:
        ap.error("--data-dir and --out are needed (or --compare BEFORE AFTER)")
    from legal_rag.config import Settings
    from legal_rag.pipeline import Pipeline

    pipe = Pipeline(Settings(data_dir=args.data_dir, casebase_limit=args.casebase_limit))
    with open(args.out, "w", encoding="utf-8") as f:
        for q in questions():
            f.write(json.dumps(row(pipe, *q), ensure_ascii=False) + "\n")
    print(f"{len(questions())} answers written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
