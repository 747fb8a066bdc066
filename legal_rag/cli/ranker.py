"""``legal-rag train-ranker`` / ``train-followup``: fit the section ranker (or the follow-up reading) on the
training question sets and write its weights.

Registered by ``legal_rag.cli`` with ``app.command("train-ranker")(train_ranker_command)``. Holds no logic: it calls
:func:`legal_rag.rank.training.train` over the served index (``legal-rag index`` first).

    legal-rag train-ranker                    # legal_rag/rank/data/{train,ask}_*.jsonl -> legal_rag/rank/weights.json
    legal-rag train-ranker --data src.jsonl --asked a1.jsonl --asked a2.jsonl --asked a3.jsonl --out w.json
    legal-rag train-followup                  # data/followup_*.jsonl -> legal_rag/rank/weights.followup.json
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..errors import LegalRagError
from .common import fail


def train_ranker_command(
    data: Optional[list[Path]] = typer.Option(None, "--data", help="source sets (JSON lines; default: the "
                                              "shipped legal_rag/rank/data/train_*.jsonl)"),
    asked: Optional[list[Path]] = typer.Option(None, "--asked", help="asked sets, one writer each (default: the "
                                               "shipped legal_rag/rank/data/ask_*.jsonl)"),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="weights file (default: legal_rag/rank/weights.json)"),
) -> None:
    """Fit the section ranker (Act classifier, section, limb and outside models, thresholds) on the source and asked
    sets, chosen by cross-validation over the asked sets' writers."""
    from ..config import load_settings
    from ..rank import WEIGHTS, SectionRanker, asked_files, read_examples, training_files
    from ..rank.training import train
    from ..resources import Resources

    try:
        settings = load_settings()
        paths, asked_paths = data or training_files(), asked or asked_files()
        if not asked_paths:
            raise LegalRagError("no asked question sets: pass --asked FILE")
        sources, questions = read_examples(paths), read_examples(asked_paths)
        res = Resources(settings)
        sr = SectionRanker(res.index, res.field_index, casebase=res.casebase, concordance=res.concordance,
                           schedule=res.schedule)
        train(sr, sources, questions, out=out or WEIGHTS, log=typer.echo)
    except (LegalRagError, ValueError, OSError) as exc:
        fail(exc)


def train_followup_command(
    messages: Optional[list[Path]] = typer.Option(None, "--messages", help="follow-up message sets (JSON lines: "
                                                  "previous, question, followup; default: the shipped "
                                                  "legal_rag/rank/data/followup_*.jsonl)"),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="weights file (default: "
                                       "legal_rag/rank/weights.followup.json)"),
) -> None:
    """Fit the follow-up reading (:mod:`legal_rag.rank.followup`) on the follow-up message sets, with every question
    of the ranker's source and asked sets as a question that stands alone."""
    from ..config import load_settings
    from ..rank import asked_files, read_examples, training_files
    from ..rank.followup import FOLLOWUP_WEIGHTS, followup_files, read_messages, train
    from ..resources import Resources

    try:
        settings = load_settings()
        res = Resources(settings)
        train(res.index, res.concordance, read_messages(messages or followup_files()),
              [e.question for e in read_examples([*training_files(), *asked_files()])], out or FOLLOWUP_WEIGHTS,
              log=typer.echo)
    except (LegalRagError, ValueError, OSError) as exc:
        fail(exc)

