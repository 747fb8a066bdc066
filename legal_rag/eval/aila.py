"""AILA 2019 (FIRE 2019, Bhattacharya et al.): Task 1 precedent retrieval over 2,914 Supreme Court judgments and
Task 2 statute retrieval over 197 statutes, on the test queries Q11-Q50 (Q1-Q10 are the training queries: for
tuning only, never reported as test figures).

Data: ``corpus_path/benchmarks/aila2019`` (``Query_doc.txt``, ``relevance_judgments_*.txt``,
``Object_statutes.tar.gz``) and ``corpus_path/judgments/aila2019_Object_casedocs_SC_2914.tar.gz``.
Chunk hits are turned into a document ranking by first occurrence (max-passage), then scored with
:mod:`legal_rag.eval.metrics`. Best 2019 runs (overview paper, Tables 2 and 3): :data:`BEST_2019`.
"""

from __future__ import annotations

import re
import tarfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence

from ..types import Judgment, Paragraph, Section, StatuteRef

TEST_QUERIES = tuple(f"AILA_Q{i}" for i in range(11, 51))
TRAIN_QUERIES = tuple(f"AILA_Q{i}" for i in range(1, 11))
#: best 2019 submissions (AILA 2019 overview paper): task -> {metric: value}
BEST_2019 = {"task1": {"map": 0.1492, "precision@10": 0.07}, "task2": {"map": 0.1566, "precision@10": 0.0975}}


def aila_dir(corpus_path: Path) -> Path:
    return Path(corpus_path) / "benchmarks" / "aila2019"


def load_queries(corpus_path: Path) -> dict[str, str]:
    """``{"AILA_Q1": text, ...}`` from ``Query_doc.txt`` (one ``AILA_Qn||text`` per line)."""
    out = {}
    for line in (aila_dir(corpus_path) / "Query_doc.txt").read_text(encoding="utf-8").splitlines():
        if "||" in line:
            q, _, text = line.partition("||")
            out[q.strip()] = text.strip()
    return out


def load_qrels(corpus_path: Path, task: str) -> dict[str, dict[str, int]]:
    """TREC qrels ``{qid: {doc: 0|1}}``; ``task`` is ``task1`` (prior cases) or ``task2`` (statutes)."""
    name = {"task1": "relevance_judgments_priorcases.txt", "task2": "relevance_judgments_statutes.txt"}[task]
    out: dict[str, dict[str, int]] = {}
    for line in (aila_dir(corpus_path) / name).read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) == 4:
            out.setdefault(parts[0], {})[parts[2]] = int(parts[3])
    return out


def _members(tar_path: Path) -> Iterable[tuple[str, str]]:
    with tarfile.open(tar_path, "r:gz") as tf:
        for m in tf:
            if m.isfile() and m.name.endswith(".txt"):
                yield Path(m.name).stem, tf.extractfile(m).read().decode("utf-8", errors="replace")


def _num_key(name: str) -> int:
    return int(re.sub(r"\D", "", name) or 0)


def load_statutes(corpus_path: Path) -> tuple[Section, ...]:
    """The 197 AILA statutes as sections of a pseudo-Act ``AILA`` (``StatuteRef("AILA", "S20")``): the Act and
    section they come from are not given by the dataset."""
    out = []
    for name, text in _members(aila_dir(corpus_path) / "Object_statutes.tar.gz"):
        title = re.search(r"^Title:\s*(.*)$", text, re.M)
        desc = re.search(r"^Desc:\s*(.*)", text, re.M | re.S)
        out.append(Section(StatuteRef("AILA", name), title.group(1).strip() if title else "",
                           (desc.group(1) if desc else text).strip(), f"{name}.txt", (0, 0)))
    return tuple(sorted(out, key=lambda s: _num_key(s.ref.section)))


def load_casedocs(corpus_path: Path, limit: int | None = None) -> tuple[tuple[Judgment, ...], tuple[Paragraph, ...]]:
    """The 2,914 judgments: header (title, court, date) and one :class:`Paragraph` per non-empty body line
    (the files hold one paragraph per line). Read by :func:`legal_rag.ingest.casebase.read_aila_casedocs`
    (``cites`` left empty here, as before; the case base fills them)."""
    from ..ingest.casebase import read_aila_casedocs

    return read_aila_casedocs(corpus_path, limit, cites=False)


def doc_of_hit(chunk) -> str:
    """AILA document id of a chunk: ``S20`` for statutes, ``C12`` for judgments."""
    return chunk.ref.section if chunk.ref is not None else chunk.case


def doc_ranking(chunk_ids_or_hits: Sequence, key: Callable = doc_of_hit) -> list[str]:
    """Documents in order of their first (best) chunk."""
    return list(dict.fromkeys(key(h.chunk if hasattr(h, "chunk") else h) for h in chunk_ids_or_hits))


@dataclass(frozen=True)
class AilaResult:
    task: str
    system: str
    metrics: Mapping[str, float]
    queries: int


def score(task: str, system: str, runs: Mapping[str, Sequence[str]], qrels: Mapping[str, Mapping[str, int]],
          queries: Sequence[str] = TEST_QUERIES) -> AilaResult:
    from .metrics import AILA_METRICS, evaluate_run

    q = {k: v for k, v in qrels.items() if k in set(queries)}
    return AilaResult(task, system, evaluate_run(q, runs, AILA_METRICS), len(q))


def format_table(results: Sequence[AilaResult]) -> str:
    """Markdown table of results beside the best 2019 run of each task."""
    from .metrics import AILA_METRICS

    head = "| task | system | " + " | ".join(AILA_METRICS) + " |\n|---|---|" + "---|" * len(AILA_METRICS)
    rows = []
    for task in dict.fromkeys(r.task for r in results):
        best = BEST_2019.get(task.split("-")[0], {})
        if best:
            rows.append(f"| {task} | best AILA 2019 run | " + " | ".join(
                f"{best[m]:.4f}" if m in best else "–" for m in AILA_METRICS) + " |")
        for r in results:
            if r.task == task:
                rows.append(f"| {task} | {r.system} | " + " | ".join(f"{r.metrics[m]:.4f}" for m in AILA_METRICS)
                            + " |")
    return head + "\n" + "\n".join(rows)
