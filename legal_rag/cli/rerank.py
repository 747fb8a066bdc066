"""``legal-rag train-reranker``: build the training groups from the real corpus and fine-tune our cross-encoder.

Registered by ``legal_rag.cli`` with ``app.command("train-reranker")(train_reranker_command)``. Holds no logic:
it calls :func:`legal_rag.rerank.training.train_reranker`.

    legal-rag train-reranker                     # into <data_dir>/models/legal-reranker (~10 min on 2 cores)
    legal-rag train-reranker --if-missing        # what `make run` does before serving with rerank_model=legal
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Optional

import typer

from ..errors import LegalRagError
from .common import fail


def train_reranker_command(
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="model directory (default: <data_dir>/models/"
                                       "legal-reranker, where rerank_model=legal reads it)"),
    seed: int = typer.Option(13, help="seed for sampling, shuffling and initialisation"),
    max_seconds: float = typer.Option(600.0, help="stop training after this many seconds (recorded if hit)"),
    epochs: int = typer.Option(1, min=1, help="passes over the training groups"),
    trainable_layers: int = typer.Option(3, min=0, max=6, help="top transformer layers trained (the rest frozen)"),
    lr: float = typer.Option(5e-5, help="learning rate of the trained layers"),
    max_length: int = typer.Option(192, min=32, max=512, help="tokens per training pair (query + passage)"),
    dense_negatives: bool = typer.Option(True, help="also mine hard negatives with the dense encoder"),
    if_missing: bool = typer.Option(False, "--if-missing", help="do nothing when a trained model is there"),
) -> None:
    """Fine-tune the legal reranker (MiniLM cross-encoder) on AILA Q1-Q10, charge facts, section titles,
    illustrations and BPR&D subjects; AILA Q11-Q50 and the dev sets are never used."""
    from ..config import load_settings
    from ..rerank.training import TrainConfig, default_dir, train_reranker

    try:
        settings = load_settings()
        path = out or default_dir(settings)
        if if_missing and (path / "config.json").is_file():
            typer.echo(f"reranker present at {path}")
            return
        cfg = replace(TrainConfig(), seed=seed, max_seconds=max_seconds, epochs=epochs,
                      trainable_layers=trainable_layers, lr=lr, train_max_length=max_length)
        rep = train_reranker(settings, out_dir=path, cfg=cfg,
                             dense_negatives=dense_negatives, log_fn=typer.echo)
    except LegalRagError as exc:
        fail(exc)
    typer.echo(f"saved {rep.name}@{rep.fingerprint[:8]} to {rep.path}: {rep.steps}/{rep.planned_steps} steps, "
               f"{rep.groups} groups {rep.by_source}, {rep.seconds:.0f}s ({rep.pairs_per_s} pairs/s)"
               + (" - STOPPED EARLY at the time limit" if rep.stopped_early else ""))
