"""Messages that stand alone, written from the marginal notes of the indexed Acts: a section's title is what a person
looking a provision up types ("Punishment for murder", "Attempt to commit offences"), a short message with legal
matter of its own, never a follow-up. Usage::

    LEGAL_RAG_DATA_DIR=DIR .venv/bin/python bench/ranker/title_messages.py > legal_rag/rank/data/followup_titles.jsonl

One message per distinct title (lower-cased, stripped of its final full stop) of every section in force, in the
order of the index's sections (:meth:`legal_rag.index.Index.sections`), so the file is the same on every run. A
title that nearly copies a question of a set something is measured or chosen on (:mod:`bench.ranker.leakage`) is left out.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.ranker.leakage import print_kept  # noqa: E402
from legal_rag.config import load_settings  # noqa: E402
from legal_rag.resources import Resources  # noqa: E402


def main() -> int:
    res = Resources(load_settings())
    seen, rows = set(), []
    for ref, s in res.sections().items():
        title = re.sub(r"\s+", " ", s.title).strip().rstrip(".").strip()
        key = title.lower()
        if s.status != "in_force" or len(key.split()) < 2 or key in seen:
            continue
        seen.add(key)
        rows.append({"id": f"TITLE-{ref.act}-{ref.section}", "previous": "", "question": key, "followup": False})
    print_kept(rows, res.index.embed_query)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
