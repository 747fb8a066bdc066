"""``legal-rag eval``: run an evaluation and print its table. Holds no logic: the runners
(:mod:`legal_rag.eval.runners`, including :func:`~legal_rag.eval.runners.build_acts_index`) do the work.
Registered by ``legal_rag.cli`` as ``app.command("eval")(eval_cmd)``."""

from __future__ import annotations

from pathlib import Path

import typer

from ..config import load_settings
from ..errors import LegalRagError
from .common import fail


def eval_cmd(
    task: str = typer.Argument("task2", help="task2 | task1 | bns | dev"),
    work: Path = typer.Option(None, help="directory for evaluation indexes (default: <data_dir>/eval)"),
    task1_chunks: int = typer.Option(1, help="Task 1: judgment chunks embedded per document"),
) -> None:
    """Run an evaluation and print its table (AILA 2019 beside the best 2019 runs; the dev set)."""
    from ..config import Settings
    from ..eval.aila import format_table
    from ..eval.runners import (build_acts_index, build_aila_statutes, load_devset, run_bns_variant, run_devset,
                                run_task1, run_task2)

    try:
        s = load_settings()
        root = Path(work) if work else Path(s.data_dir) / "eval"
        sub = lambda name: Settings(**{**s.model_dump(), "data_dir": root / name})  # noqa: E731
        if task == "task2":
            idx = build_aila_statutes(sub("aila_task2"))
            typer.echo(format_table(run_task2(idx, sub("aila_task2"))))
        elif task == "task1":
            res, _ = run_task1(sub("aila_task1"), dense_chunks_per_doc=task1_chunks, log=typer.echo)
            typer.echo(format_table(res))
        elif task in ("bns", "dev"):
            sa = sub("acts")
            acts = build_acts_index(sa, source=s)
            idx = acts.index
            typer.echo(f"sections from {acts.origin}: {len(acts.sections)}; chunks {len(acts.chunks)}")
            if task == "bns":
                typer.echo(format_table(run_bns_variant(idx, sa)))
            else:
                path = Path(__file__).resolve().parents[2] / "bench" / "devset.jsonl"
                for mode, m in run_devset(idx, sa, path).items():
                    typer.echo(f"{mode}: " + ", ".join(f"{k} {v:.3f}" for k, v in m.items()) + f" ({len(load_devset(path))} questions)")
        else:
            raise typer.BadParameter(f"unknown task {task!r}")
    except LegalRagError as exc:
        fail(exc)


__all__ = ["eval_cmd"]
