"""The fitted ranker: three linear models and a boosted section model read from one JSON file (and the trees' file
beside it), and the ranking of one question.

``weights.json`` (beside this module; written by ``legal-rag train-ranker``, :mod:`legal_rag.rank.training`) holds:

* ``acts``: a multinomial logistic regression over the question's embedding -> ``P(class | question)``, the classes
  ``BNS``, ``BNSS``, ``BSA`` and one class per Act the corpus does not hold (``"other:Negotiable Instruments Act,
  1881"``); the question kind by Act, learned, not read from keyword lists;
* ``sections``: a LambdaMART ranker (gradient-boosted trees fitted to the LambdaRank objective; Burges 2010,
  "From RankNet to LambdaRank to LambdaMART", as implemented by LightGBM) over
  :data:`legal_rag.rank.features.SECTION_FEATURES` (:class:`Boosted`): its score is a candidate's score, and
  ``P(governs)`` is the softmax of the scores over the question's candidates (:func:`softmax`). The trees are
  LightGBM's own text format in a file beside the JSON (``weights.sections.txt`` for ``weights.json``), which the
  JSON names with its sha256;
* ``limbs``: over :data:`legal_rag.rank.features.LIMB_FEATURES`, the limb the facts make out (the highest score
  among a section's limbs): a logistic regression (:class:`Linear`) or a LambdaMART model (:class:`Boosted`, its
  trees in ``weights.limbs.txt``), whichever the training's folds chose;
* ``outside``: a logistic regression over :data:`legal_rag.rank.features.OUTSIDE_FEATURES` -> ``P(the question
  is about law the corpus does not hold)``;
* ``thresholds``: ``out_of_corpus`` (the ``P(outside)`` at or above which the question is said to be outside the
  sources) and ``close`` (a second candidate whose ``P`` is at least this share of the
  first's is shown beside it as a candidate).

Each linear model (:class:`Linear`) is ``sigma(((x - mean) / scale) . coef + intercept)`` (``softmax`` for the classes), the
standardisation and the coefficients those of scikit-learn's ``StandardScaler`` and ``LogisticRegression``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cached_property, lru_cache
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


def trees_path(path: Path, model: str = "sections") -> Path:
    """Where the trees of the boosted ``model`` (``"sections"``, ``"limbs"``) of the weights at ``path`` lie:
    ``weights.sections.txt`` for ``weights.json``."""
    path = Path(path)
    return path.with_name(f"{path.stem}.{model}.txt")


@dataclass(frozen=True)
class Boosted:
    """A LambdaMART model (of sections or of limbs): ``names`` the features in order, ``text`` the LightGBM model
    (its text format). :meth:`decision` gives one score per row (higher: more likely to govern, or the limb the facts
    make out); :meth:`importance` the total gain of each feature's splits."""

    names: tuple[str, ...]
    text: str

    @cached_property
    def _booster(self):
        import lightgbm

        return lightgbm.Booster(model_str=self.text)

    def decision(self, x: np.ndarray) -> np.ndarray:
        x = np.atleast_2d(np.asarray(x, dtype=np.float64))
        if not len(x):
            return np.zeros(0)
        return np.asarray(self._booster.predict(x, num_threads=1), dtype=np.float64).reshape(-1)

    def importance(self) -> dict[str, float]:
        return dict(zip(self.names, map(float, self._booster.feature_importance("gain"))))

    def to_json(self, trees: Path) -> dict:
        return {"kind": "lambdamart", "names": list(self.names), "trees": trees.name,
                "sha256": hashlib.sha256(self.text.encode()).hexdigest()}

    @classmethod
    def from_json(cls, d: dict, base: Path) -> "Boosted":
        """The model ``d`` names, its trees read from ``base``'s folder; raises ``ValueError`` when they are not
        the trees the JSON was written with (sha256)."""
        text = (Path(base).parent / d["trees"]).read_text()
        if hashlib.sha256(text.encode()).hexdigest() != d["sha256"]:
            raise ValueError(f"{d['trees']} is not the file these weights were fitted with (sha256 differs)")
        return cls(tuple(d["names"]), text)


@dataclass(frozen=True)
class Ranker:
    """The fitted models and their thresholds (module docstring); ``meta`` records what they were fitted on."""

    acts: Linear
    sections: Boosted
    limbs: Linear | Boosted
    out_of_corpus: float
    close: float
    meta: dict
    outside: Linear

    def act_probs(self, vector: np.ndarray) -> dict[str, float]:
        """Class -> ``P(class | question)``; the three in-corpus Acts under their codes."""
        p = self.acts.proba(vector)[0]
        return dict(zip(self.acts.classes, map(float, p)))

    def to_json(self, path: Path = WEIGHTS) -> dict:
        limbs = self.limbs.to_json(trees_path(path, "limbs")) if isinstance(self.limbs, Boosted) \
            else self.limbs.to_json()
        return {"acts": self.acts.to_json(), "sections": self.sections.to_json(trees_path(path)),
                "limbs": limbs, "outside": self.outside.to_json(),
                "thresholds": {"out_of_corpus": self.out_of_corpus, "close": self.close}, "meta": self.meta}

    @classmethod
    def from_json(cls, d: dict, path: Path = WEIGHTS) -> "Ranker":
        """The ranker of the JSON ``d`` read from ``path`` (its section trees lie beside it)."""
        t = d["thresholds"]
        limbs = Boosted.from_json(d["limbs"], path) if d["limbs"].get("kind") == "lambdamart" \
            else Linear.from_json(d["limbs"])
        return cls(Linear.from_json(d["acts"]), Boosted.from_json(d["sections"], path), limbs,
                   float(t["out_of_corpus"]), float(t["close"]), dict(d.get("meta", {})), Linear.from_json(d["outside"]))

    def save(self, path: Path = WEIGHTS) -> None:
        """Write the JSON at ``path`` and the boosted models' trees beside it (:func:`trees_path`)."""
        path = Path(path)
        trees_path(path).write_text(self.sections.text)
        if isinstance(self.limbs, Boosted):
            trees_path(path, "limbs").write_text(self.limbs.text)
        path.write_text(json.dumps(self.to_json(path), indent=1, sort_keys=True) + "\n")


@lru_cache(maxsize=4)
def load_ranker(path: Path = WEIGHTS) -> Ranker:
    """The ranker stored at ``path``; raises :class:`~legal_rag.errors.ConfigError` when the file is missing or its
    feature names are not the code's (weights fitted for other features)."""
    from .features import LIMB_FEATURES, OUTSIDE_FEATURES, SECTION_FEATURES

    try:
        r = Ranker.from_json(json.loads(Path(path).read_text()), Path(path))
    except (OSError, ValueError, KeyError, ImportError) as e:
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


__all__ = ["OTHER", "WEIGHTS", "Boosted", "Linear", "Ranked", "Ranker", "Ranking", "load_ranker", "softmax",
           "trees_path"]
