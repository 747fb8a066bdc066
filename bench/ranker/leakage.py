"""The guard between the ranker's training questions and every question set it is measured or chosen on.

A training question that nearly copies an evaluation question (cosine of their embeddings above
:data:`LEAK_COSINE`, the index's query embedder) would vote for its gold through the ranker's memory
(:mod:`legal_rag.rank.memory`) and inflate the measurement, so none may stay in the training sets:
``bench/ranker/schedule_questions.py`` leaves such questions out, and ``tests/rank/test_leakage.py`` checks every
shipped training set. Questions by different writers on one provision are not copies; 0.92 is above the cosine of
paraphrases that share only the facts' nouns and below that of one sentence reworded.

A story retold is a copy whatever its words: a training question written from the same story as a measured question
(:func:`stories`: a benchmark's fact, an Illustration of a section, an AILA query, a field case, read from each row's
``source``) is left out as well (:func:`shares_a_story`; ``tests/rank/test_stories.py`` checks every shipped set).
A section's text is not a story: every section is taught.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
#: the question sets the ranker is measured on (never fitted) and the one it is chosen on
EVALUATION_SETS = (ROOT / "bench" / "ranker" / "test.jsonl", ROOT / "bench" / "devset.jsonl",
                   ROOT / "bench" / "factset.jsonl", ROOT / "bench" / "followup" / "test.jsonl", *sorted((ROOT / "legal_rag" / "rank" / "data").glob("ask_*.jsonl")))
LEAK_COSINE = 0.92
#: the measured sets only (the asked sets are training data with their own folds)
MEASURED_SETS = tuple(p for p in EVALUATION_SETS if "ask_" not in p.name)

#: a story named in a row's ``source``: (kind, pattern); each match's groups name it
_STORY = (("fact", re.compile(r"factid (\S+)")),
          ("illustration", re.compile(r"\b(BNS|BNSS|BSA) s?\.? ?(\d+[A-Z]?)[()\d]* [Ii]llustrations? ?(\([a-z]\))?")),
          ("aila", re.compile(r"AILA_Q(\d+)")),
          ("field case", re.compile(r"\bBL-(\d+)")))


def stories(source: str) -> frozenset[tuple[str, ...]]:
    """The stories a row's ``source`` names, each ``(kind, *names)``: ``("fact", "1959_N_10")`` for a benchmark's
    fact id, ``("illustration", "BNS", "318", "(a)")`` for an Illustration (``""`` for a section's only one),
    ``("aila", "3")``, ``("field case", "31")``; empty for a section's text or a table row."""
    return frozenset((kind, *(g or "" for g in m.groups())) for kind, pattern in _STORY
                     for m in pattern.finditer(source or ""))


def measured_stories() -> frozenset[tuple[str, ...]]:
    """Every story a question of :data:`MEASURED_SETS` was written from."""
    return frozenset(k for p in MEASURED_SETS for line in p.read_text(encoding="utf-8").splitlines() if line.strip()
                     for k in stories(str(json.loads(line).get("source") or "")))


def shares_a_story(rows: Sequence[dict]) -> list[int]:
    """Indexes of the ``rows`` (each with an optional ``source``) written from a story a measured question was
    written from (:func:`measured_stories`)."""
    told = measured_stories()
    return [i for i, d in enumerate(rows) if stories(str(d.get("source") or "")) & told]


def evaluation_questions() -> list[str]:
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
    :func:`evaluation_questions` (:func:`near_copies`) and retell no measured question's story
    (:func:`shares_a_story`): what a script writing a training set from the Acts keeps."""
    copies = {i for i, _, _ in near_copies([d["question"] for d in rows], evaluation_questions(), embed)}
    copies |= set(shares_a_story(rows))
    for i, d in enumerate(rows):
        if i not in copies:
            print(json.dumps(d, ensure_ascii=False))
