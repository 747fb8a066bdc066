"""The dev set's gold sections come from the official BPR&D correspondence table (row named in each item)."""

from __future__ import annotations

import re
from pathlib import Path

from legal_rag.config import Settings
from legal_rag.eval.runners import load_devset

DEVSET = Path(__file__).resolve().parents[2] / "bench" / "devset.jsonl"


def test_every_gold_pair_is_the_cited_table_row():
    items = load_devset(DEVSET)
    assert len(items) >= 40 and len({d["id"] for d in items}) == len(items)
    root = Settings().corpus_path
    for d in items:
        file, _, row = d["source_row"].partition("#")
        line = (root / file).read_text(encoding="utf-8").splitlines()[int(row) - 1]
        bns = next(g for g in d["gold"] if g.startswith("BNS "))[4:]
        ipc = next(g for g in d["gold"] if g.startswith("IPC "))[4:]
        cells = next(iter(__import__("csv").reader([line])))
        assert re.sub(r"\s", "", cells[0]).startswith(re.sub(r"\s", "", bns)), (d["id"], cells[0])
        assert re.match(rf"\s*{re.escape(ipc)}\b", cells[2]), (d["id"], cells[2])
        assert not re.search(r"\b\d{1,3}[A-Z]?\b", d["question"].replace("seven", "")), d  # no section number given
