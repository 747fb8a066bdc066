"""``legal-rag train-ranker``: fit the section ranker on the training question sets and write its weights.

Registered by ``legal_rag.cli`` with ``app.command("train-ranker")(train_ranker_command)``. Holds no logic: it calls
:func:`legal_rag.rank.training.train` over the served index (``legal-rag index`` first).

    legal-rag train-ranker                          # legal_rag/rank/data/train_*.jsonl -> legal_rag/rank/weights.json
    legal-rag train-ranker --data my.jsonl --out w.json
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..errors import LegalRagError
from .common import fail


def train_ranker_command(
    data: Optional[list[Path]] = typer.Option(None, "--data", help="question sets (JSON lines; default: the "
                                              "shipped legal_rag/rank/data/train_*.jsonl)"),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="weights file (default: legal_rag/rank/weights.json)"),
) -> None:
    """Fit the section ranker (Act classifier, section and limb models, thresholds), split by source line."""
    from ..config import load_settings
    from ..rank import WEIGHTS, SectionRanker, read_examples, training_files
    from ..rank.training import train
    from ..resources import Resources

    try:
        settings = load_settings()
        paths = data or training_files()
        if not paths:
            raise LegalRagError("no training question sets: pass --data FILE")
        examples = read_examples(paths)
        res = Resources(settings)
        sr = SectionRanker(res.index, res.field_index, casebase=res.casebase, concordance=res.concordance,
                           schedule=res.schedule)
        train(sr, examples, out=out or WEIGHTS, log=typer.echo)
    except (LegalRagError, ValueError) as exc:
        fail(exc)
