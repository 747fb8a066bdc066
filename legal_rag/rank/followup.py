"""Reading a message as a follow-up, learned from data: whether it can be answered without the previous turn.

A follow-up asks about the provision, offence or facts of the previous turn without naming them ("is it
bailable?", "what if he was a government servant?"); a message that carries its own legal matter stands alone,
however short, and whatever pronouns or openers it uses ("he slashed my hand with a blade, 4 stitches"). A follow-up
is answered for the previous turn's provision (:func:`legal_rag.law.followup.resolve_followup`); one read wrongly
either answers a client's own facts about the wrong provision or, with no previous turn, answers nothing.

* ``followup_vector(analysis, vector)``: the cues of :func:`legal_rag.law.followup.cues` (opener, pointer, offence
  noun, procedure, aspect, length) beside the question's embedding (the index's query vector), ``(len(CUES) + d,)``.
* :class:`FollowupModel`: ``StandardScaler`` + ``LogisticRegression`` over that vector (a
  :class:`~legal_rag.rank.model.Linear`) and its threshold; ``reads(analysis, embed)`` is ``False`` for a
  question with legal matter of its own (:func:`legal_rag.law.followup.own_matter`: a provision, case or citation
  it names, an offence noun, a procedure of its own), else ``P(follow-up) >= threshold``. The model reads what the
  rules' rule 3 read (a short message opening like a continuation or pointing back).
* ``fit_followup(X, y, own, ...)``: the fit, on the rows without matter of their own (``own`` False); rows with it
  count as read "alone" when the threshold is chosen. The rows: chat messages each marked follow-up or not
  (``legal_rag/rank/data/followup_*.jsonl``: ``previous``, ``question``, ``followup``: written by writers who saw
  neither the code nor any test, and the marginal notes of the Acts, which stand alone), and every question of the
  ranker's source and asked sets (each stands alone). ``C`` from :data:`legal_rag.rank.training.C_GRID` and the
  threshold (the best F1 of "follow-up" over the grid 0.05 ... 0.95, ties to the higher) are chosen on out-of-fold
  predictions (five stratified folds, fixed seed); the model is then fitted on every row it reads.

Stored in ``weights.followup.json`` beside the ranker's weights (``legal-rag train-followup``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..errors import ConfigError
from ..law import CUES, QuestionAnalysis, cues, own_matter
from .examples import DATA
from .model import Linear

FOLLOWUP_WEIGHTS = Path(__file__).with_name("weights.followup.json")
SEED = 0


def followup_files() -> list[Path]:
    """The shipped follow-up message sets (``legal_rag/rank/data/followup_*.jsonl``), sorted."""
    return sorted(DATA.glob("followup_*.jsonl"))


@dataclass(frozen=True)
class Message:
    """One chat message of a follow-up set: ``question`` after ``previous``, ``followup`` its mark."""

    id: str
    previous: str
    question: str
    followup: bool


def read_messages(paths: Sequence[Path]) -> list[Message]:
    """The messages of JSON-lines ``paths`` (``id``, ``previous``, ``question``, ``followup``); raises
    ``ValueError`` naming the file and line of a malformed one."""
    out = []
    for path in paths:
        for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                d = json.loads(line)
                out.append(Message(str(d["id"]), str(d.get("previous", "")), str(d["question"]),
                                   bool(d["followup"])))
            except (ValueError, KeyError, TypeError) as e:
                raise ValueError(f"{path}:{n}: not a follow-up message ({e})") from None
    return out


def followup_vector(analysis: QuestionAnalysis, vector: np.ndarray) -> np.ndarray:
    """The cues of ``analysis`` (:data:`legal_rag.law.followup.CUES`) then ``vector``, as float64."""
    return np.concatenate([np.asarray(cues(analysis), dtype=np.float64), np.asarray(vector, dtype=np.float64)])


def feature_names(dim: int) -> tuple[str, ...]:
    return (*CUES, *(f"e{i}" for i in range(dim)))


@dataclass(frozen=True)
class FollowupModel:
    """The fitted reading (module docstring): ``model`` gives ``P(follow-up)``, read as one at ``threshold`` or
    above; ``meta`` the data and held-out figures of the fit."""

    model: Linear
    threshold: float
    meta: dict

    @property
    def dim(self) -> int:
        """The embedding dimension the model was fitted on."""
        return len(self.model.names) - len(CUES)

    def p(self, analysis: QuestionAnalysis, vector: np.ndarray) -> float:
        return float(self.model.proba(followup_vector(analysis, vector))[0])

    def reads(self, analysis: QuestionAnalysis, embed: Callable[[str], np.ndarray]) -> bool:
        """Whether the question of ``analysis`` is a follow-up (module docstring); ``embed`` gives its vector and
        is called only for a question without legal matter of its own."""
        return not own_matter(analysis) and self.p(analysis, embed(analysis.question)) >= self.threshold

    def save(self, path: Path = FOLLOWUP_WEIGHTS) -> None:
        d = {"model": self.model.to_json(), "threshold": self.threshold, "meta": self.meta}
        Path(path).write_text(json.dumps(d, indent=1, sort_keys=True) + "\n")


@lru_cache(maxsize=4)
def load_followup(path: Path = FOLLOWUP_WEIGHTS) -> FollowupModel:
    """The model stored at ``path``; raises :class:`~legal_rag.errors.ConfigError` when the file is missing,
    unreadable or fitted for other cues."""
    try:
        d = json.loads(Path(path).read_text())
        m = FollowupModel(Linear.from_json(d["model"]), float(d["threshold"]), dict(d.get("meta", {})))
    except (OSError, ValueError, KeyError) as e:
        raise ConfigError(f"no usable follow-up weights at {path} ({e}); run `legal-rag train-followup`") from e
    if m.model.names[:len(CUES)] != CUES:
        raise ConfigError(f"the follow-up weights at {path} were fitted for other cues; run `legal-rag train-followup`")
    return m


def fit_followup(X: np.ndarray, y: np.ndarray, own: np.ndarray, names: Sequence[str], meta: dict | None = None,
                 log: Callable[[str], None] = print) -> FollowupModel:
    """Fit the model (module docstring) on rows ``X`` (:func:`followup_vector`) marked ``y`` (1: a follow-up), those
    whose ``own`` is True (legal matter of their own) read as alone and left out of the fit; raises ``ValueError``
    without 5 rows of each kind to fit on."""
    from sklearn.model_selection import StratifiedKFold

    from .training import C_GRID, THRESHOLDS, _scaled_fit, out_of_fold

    y, own = np.asarray(y, dtype=int), np.asarray(own, dtype=bool)
    if y[~own].sum() < 5 or (1 - y[~own]).sum() < 5:
        raise ValueError("the follow-up fit needs at least 5 follow-ups and 5 messages that stand alone")
    cv = list(StratifiedKFold(n_splits=5, shuffle=True, random_state=SEED).split(X, y))

    def f1(pv, t):
        pred = pv >= t
        tp = float(np.sum(pred & (y == 1)))
        return 2 * tp / max(float(pred.sum() + y.sum()), 1.0)

    best = None
    for C in C_GRID:
        pv = out_of_fold(X, y, cv, C, names, fitted=~own)
        t = max(THRESHOLDS, key=lambda t: (f1(pv, t), t))
        log(f"follow-up: C={C} held-out F1 {f1(pv, t):.3f} at {t}")
        if best is None or f1(pv, t) > best[0]:
            best = (f1(pv, t), C, t, pv)
    score, C, t, pv = best
    pred = pv >= t
    meta = {**(meta or {}), "C": C, "held_out_f1": round(score, 4),
            "held_out_recall": round(float(np.mean(pred[y == 1])), 4),
            "held_out_false_followup": round(float(np.mean(pred[y == 0])), 4),
            "followups": int(y.sum()), "standalone": int((1 - y).sum()),
            "own_matter": {"followups": int(y[own].sum()), "standalone": int((1 - y[own]).sum())}, "seed": SEED}
    log(f"follow-up: chosen C={C}, threshold {t}: {json.dumps(meta)}")
    return FollowupModel(_scaled_fit(X[~own], y[~own], C, names), float(t), meta)


def train(index, concordance, messages: Sequence[Message], standalone: Sequence[str], out: Path = FOLLOWUP_WEIGHTS,
          log: Callable[[str], None] = print) -> FollowupModel:
    """Fit (:func:`fit_followup`) on ``messages`` and ``standalone`` questions, each read with ``concordance``
    (:func:`legal_rag.law.analyse`) and embedded by ``index`` (``embed_query``), and save the model at ``out``."""
    import hashlib

    from ..law import analyse

    texts = [m.question for m in messages] + list(standalone)
    y = np.array([m.followup for m in messages] + [False] * len(standalone), dtype=int)
    analyses = [analyse(t, concordance=concordance) for t in texts]
    X = np.vstack([followup_vector(a, index.embed_query(t)) for a, t in zip(analyses, texts)])
    own = np.array([own_matter(a) for a in analyses])
    digest = hashlib.sha256("\n".join(f"{t}\t{v}" for t, v in zip(texts, y)).encode()).hexdigest()[:16]
    model = fit_followup(X, y, own, feature_names(X.shape[1] - len(CUES)),
                         {"messages": len(messages), "data_sha256_16": digest, "embedder": index.embedder.model_id},
                         log=log)
    model.save(out)
    log(f"wrote {out}")
    return model


__all__ = ["FOLLOWUP_WEIGHTS", "FollowupModel", "Message", "feature_names", "fit_followup", "followup_files",
           "followup_vector", "load_followup", "read_messages", "train"]
