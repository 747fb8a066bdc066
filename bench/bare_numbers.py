"""Bare section numbers on an index: for each question, the readings the answer gives in order and the
case-base counts behind the order (:mod:`legal_rag.law.bare`), as a Markdown table.

    LEGAL_RAG_DATA_DIR=/work/idx python -m bench.bare_numbers > table.md

Reads the index only (``Pipeline.read_question`` and ``legal_rag.answer.head.bare_of``: no generation, nothing
written).
"""

from __future__ import annotations

import sys

#: questions that write a number without its Act (several numbers, each code pair, one with a date)
QUESTIONS: tuple[tuple[str, str | None], ...] = (
    ("Is 323 cognizable?", None),
    ("Is 304 bailable?", None),
    ("Which court tries 324?", None),
    ("What is the punishment under section 302?", None),
    ("Is 406 bailable?", None),
    ("Is section 376 bailable?", None),
    ("What is the procedure under section 161?", None),
    ("What is the punishment under section 103?", None),
    ("Which court tries 323?", "2023-05-01"),
)


def rows(pipe) -> list[tuple[str, str, str]]:
    """``(question, readings in order, counts)`` per question of :data:`QUESTIONS`."""
    from legal_rag.answer.head import bare_of

    out = []
    for q, when in QUESTIONS:
        read = pipe.read_question(q, offence_date=when)
        bare = bare_of(pipe.resources, read.analysis)
        asked = q + (f" (offence date {when})" if when else "")
        order = "; ".join(" > ".join(map(str, b.refs)) + ("" if b.ambiguous else " (one reading)") for b in bare)
        counts = "; ".join(", ".join(f"{r.ref}: {r.cites}" for r in b.readings) for b in bare)
        out.append((asked, order or "(no bare number)", counts))
    return out


def main() -> int:
    from legal_rag.pipeline import Pipeline

    pipe = Pipeline()
    print(f"Case base: {len(pipe.casebase)} judgments ({pipe.settings.data_dir}).\n")
    print("| question | readings in order | judgments of the case base citing each |")
    print("|---|---|---|")
    for r in rows(pipe):
        print("| " + " | ".join(r) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
