"""The fitted ranker: three linear models read from one JSON file, and the ranking of one question.

``weights.json`` (beside this module; written by ``legal-rag train-ranker``, :mod:`legal_rag.rank.training`) holds:

* ``acts``: a multinomial logistic regression over the question's embedding -> ``P(class | question)``, the classes
  ``BNS``, ``BNSS``, ``BSA`` and one class per Act the corpus does not hold (``"other:Negotiable Instruments Act,
  1881"``); the question kind by Act, learned, not read from keyword lists;
* ``sections``: a pairwise logistic regression over :data:`legal_rag.rank.features.SECTION_FEATURES`: its
  decision is a candidate's score, and ``P(governs)`` is the softmax of the scores over the question's candidates
  (:func:`softmax`);
* ``limbs``: a logistic regression over :data:`legal_rag.rank.features.LIMB_FEATURES` -> the limb the facts make out;
* ``outside``: a logistic regression over :data:`legal_rag.rank.features.OUTSIDE_FEATURES` -> ``P(the question
  is about law the corpus does not hold)``;
* ``thresholds``: ``out_of_corpus`` (the ``P(outside)`` at or above which the question is said to be outside the
  sources) and ``close`` (a second candidate whose ``P`` is at least this share of the
  first's is shown beside it as a candidate).

Each linear model is ``sigma(((x - mean) / scale) . coef + intercept)`` (``softmax`` for the classes), the
standardisation and the coefficients those of scikit-learn's ``StandardScaler`` and ``LogisticRegression``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..errors import ConfigError
from ..types import StatuteRef

WEIGHTS = Path(__file__).with_name("weights.json")
#: the prefix of a class the corpus does not hold
OTHER = "other:"


def softmax(scores) -> np.ndarray:
    """``exp(s_i) / sum_j exp(s_j)`` over a 1-d array of scores (shifted by the maximum); empty in, empty out."""
    s = np.asarray(scores, dtype=np.float64).reshape(-1)
    if not len(s):
        return s
    e = np.exp(s - s.max())
    return e / e.sum()


@dataclass(frozen=True)
class Linear:
    """A standardised linear model; ``coef`` is ``(features,)`` (binary) or ``(classes, features)``."""

    names: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: np.ndarray
    classes: tuple[str, ...] = ()

    def decision(self, x: np.ndarray) -> np.ndarray:
        z = (np.asarray(x, dtype=np.float64) - self.mean) / self.scale
        return z @ self.coef.T + self.intercept

    def proba(self, x: np.ndarray) -> np.ndarray:
        """``P(positive)`` per row (binary) or the class probabilities per row (multinomial)."""
        d = self.decision(np.atleast_2d(x))
        if not self.classes:
            return 1.0 / (1.0 + np.exp(-d.reshape(-1)))
        d = d - d.max(axis=1, keepdims=True)
        e = np.exp(d)
        return e / e.sum(axis=1, keepdims=True)

    def to_json(self) -> dict:
        return {"names": list(self.names), "classes": list(self.classes), "mean": self.mean.tolist(),
                "scale": self.scale.tolist(), "coef": np.round(self.coef, 6).tolist(),
                "intercept": np.round(np.atleast_1d(self.intercept), 6).tolist()}

    @classmethod
    def from_json(cls, d: dict) -> "Linear":
        coef = np.asarray(d["coef"], dtype=np.float64)
        return cls(tuple(d["names"]), np.asarray(d["mean"], dtype=np.float64),
                   np.asarray(d["scale"], dtype=np.float64), coef, np.asarray(d["intercept"], dtype=np.float64),
                   tuple(d.get("classes", ())))


@dataclass(frozen=True)
class Ranker:
    """The fitted models and their thresholds (module docstring); ``meta`` records what they were fitted on."""

    acts: Linear
    sections: Linear
    limbs: Linear
    out_of_corpus: float
    close: float
    meta: dict
    outside: Linear

    def act_probs(self, vector: np.ndarray) -> dict[str, float]:
        """Class -> ``P(class | question)``; the three in-corpus Acts under their codes."""
        p = self.acts.proba(vector)[0]
        return dict(zip(self.acts.classes, map(float, p)))

    def to_json(self) -> dict:
        return {"acts": self.acts.to_json(), "sections": self.sections.to_json(), "limbs": self.limbs.to_json(),
                "outside": self.outside.to_json(), "thresholds": {"out_of_corpus": self.out_of_corpus, "close": self.close}, "meta": self.meta}

    @classmethod
    def from_json(cls, d: dict) -> "Ranker":
        t = d["thresholds"]
        return cls(Linear.from_json(d["acts"]), Linear.from_json(d["sections"]), Linear.from_json(d["limbs"]),
                   float(t["out_of_corpus"]), float(t["close"]), dict(d.get("meta", {})), Linear.from_json(d["outside"]))

    def save(self, path: Path = WEIGHTS) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1, sort_keys=True) + "\n")


@lru_cache(maxsize=4)
def load_ranker(path: Path = WEIGHTS) -> Ranker:
    """The ranker stored at ``path``; raises :class:`~legal_rag.errors.ConfigError` when the file is missing or its
    feature names are not the code's (weights fitted for other features)."""
    from .features import LIMB_FEATURES, OUTSIDE_FEATURES, SECTION_FEATURES

    try:
        r = Ranker.from_json(json.loads(Path(path).read_text()))
    except (OSError, ValueError, KeyError) as e:
        raise ConfigError(f"no usable ranker weights at {path} ({e}); run `legal-rag train-ranker`") from e
    if (r.sections.names, r.limbs.names, r.outside.names) != (tuple(SECTION_FEATURES), tuple(LIMB_FEATURES),
                                                               OUTSIDE_FEATURES):
        raise ConfigError(f"the ranker weights at {path} were fitted for other features; run `legal-rag train-ranker`")
    return r


@dataclass(frozen=True)
class Ranked:
    """One candidate section: ``ref`` (section level), ``p`` = ``P(governs)`` (softmax over the candidates), ``limb`` the sub-section chosen
    inside it (None: the section prints none), ``dense_rank`` its best chunk's rank in the dense list, ``cases`` the
    ids of the judgments among the ``top_cases`` most similar to the question that cite it (most similar first)."""

    ref: StatuteRef
    p: float
    limb: StatuteRef | None = None
    dense_rank: int | None = None
    cases: tuple[str, ...] = ()
    top_cases: int = 0

    @property
    def cited_as(self) -> StatuteRef:
        return self.limb or self.ref


@dataclass(frozen=True)
class Ranking:
    """A question's ranking: ``sections`` best first; ``other`` the share of ``P(Act)`` on Acts the corpus does not
    hold, ``other_act`` the likeliest of them; ``outside``: the question is said to be outside the sources
    (``P(outside)`` at or above the ranker's threshold)."""

    sections: tuple[Ranked, ...]
    other: float = 0.0
    other_act: str = ""
    outside: bool = False


__all__ = ["OTHER", "WEIGHTS", "Linear", "Ranked", "Ranker", "Ranking", "load_ranker", "softmax"]
