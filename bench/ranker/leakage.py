"""The guard between the ranker's training questions and every question set it is measured or chosen on.

A training question that nearly copies an evaluation question (cosine of their embeddings above
:data:`LEAK_COSINE`, the index's query embedder) would vote for its gold through the ranker's memory
(:mod:`legal_rag.rank.memory`) and inflate the measurement, so none may stay in the training sets:
``bench/ranker/schedule_questions.py`` leaves such questions out, and ``tests/rank/test_leakage.py`` checks every
shipped training set. Questions by different writers on one provision are not copies; 0.92 is above the cosine of
paraphrases that share only the facts' nouns and below that of one sentence reworded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
#: the question sets the ranker is measured on (never fitted) and the one it is chosen on
EVALUATION_SETS = (ROOT / "bench" / "ranker" / "test.jsonl", ROOT / "bench" / "devset.jsonl",
                   ROOT / "bench" / "factset.jsonl", ROOT / "bench" / "followup" / "test.jsonl", *sorted((ROOT / "legal_rag" / "rank" / "data").glob("ask_*.jsonl")))
LEAK_COSINE = 0.92


def evaluation_questions() -> list[str]:
    import json

    return [json.loads(line)["question"] for p in EVALUATION_SETS for line in p.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def near_copies(texts: Sequence[str], against: Sequence[str], embed: Callable[[str], np.ndarray]
                ) -> list[tuple[int, int, float]]:
    """``(i, j, cosine)`` for each ``texts[i]`` whose best match ``against[j]`` is above :data:`LEAK_COSINE`."""
    def unit(xs):
        m = np.vstack([embed(x) for x in xs]).astype(np.float64)
        return m / np.linalg.norm(m, axis=1, keepdims=True)

    if not texts or not against:
        return []
    S = unit(texts) @ unit(against).T
    best = S.argmax(axis=1)
    return [(i, int(best[i]), float(S[i, best[i]])) for i in range(len(texts)) if S[i, best[i]] > LEAK_COSINE]


def print_kept(rows: Sequence[dict], embed: Callable[[str], np.ndarray]) -> None:
    """Print as JSON lines, in order, the ``rows`` (each with a ``question``) that nearly copy no question of
    :func:`evaluation_questions` (:func:`near_copies`): what a script writing a training set from the Acts keeps."""
    import json

    copies = {i for i, _, _ in near_copies([d["question"] for d in rows], evaluation_questions(), embed)}
    for i, d in enumerate(rows):
        if i not in copies:
            print(json.dumps(d, ensure_ascii=False))
