"""The memory's questions as a fitted classifier: ``P(section | question)`` from their words and embeddings.

The memory (:mod:`legal_rag.rank.memory`) reads a question by its nearest training questions; this module fits one
linear model on all of them: a multinomial logistic regression (scikit-learn's ``LogisticRegression``, L2, lbfgs)
over the question's TF-IDF word unigrams and bigrams (:func:`legal_rag.index.legal_tokenize`, stemmed; a term in at
least :data:`MIN_DF` questions, or in any when none is; sublinear tf) beside its embedding (unit length, times :data:`EMBEDDING_WEIGHT`).
Each class is a gold section (section level); a question with several golds is one sample per gold, each weighted
``1 / n_golds``. The words a client uses for an offence ("snatched", "took the advance and vanished") weigh
towards the sections whose questions use them, across every writer's questions at once, where the nearest
neighbour sees one question at a time.

The ranker reads ``P`` as features (:data:`legal_rag.rank.features.SECTION_FEATURES` ``classifier*``). At fitting
time an asked question's ``P`` comes from a classifier fitted without its writer's questions and a source-set
question's from one fitted without its fold of source lines (:mod:`legal_rag.rank.training`), as a user's question
meets a classifier none of it taught.

The fit is deterministic (lbfgs from zeros, numpy's BLAS on one thread: :func:`legal_rag.rank.memory.
one_blas_thread`) and takes about half a minute on two cores for 3,141 questions, so :func:`build_classifier` keeps
it under the data directory's cache (or the one :data:`CACHE_ENV` names), keyed by the questions, their embeddings,
their golds and the settings.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..types import StatuteRef
from .memory import one_blas_thread

#: the inverse L2 strength of the classifier (scikit-learn's ``C``; its choice: ``bench/results_ranker.md``)
CLASSIFIER_C = 10.0
#: the scale of the embedding's columns beside the TF-IDF columns (each block has unit-length rows)
EMBEDDING_WEIGHT = 2.0
#: the fewest questions a word or bigram must occur in to be a column
MIN_DF = 2
#: lbfgs iterations at most
MAX_ITER = 300
#: the environment variable naming a classifier cache shared by every data directory (:func:`cache_dir_for`)
CACHE_ENV = "LEGAL_RAG_CLASSIFIER_CACHE"


@dataclass(frozen=True)
class SectionClassifier:
    """A fitted classifier (module docstring): ``vectorizer`` (scikit-learn's ``TfidfVectorizer``), ``model``
    (``LogisticRegression``) and its ``classes`` as references, in the model's class order."""

    vectorizer: object
    model: object
    classes: tuple[StatuteRef, ...]

    def proba(self, question: str, vector: np.ndarray) -> dict[StatuteRef, float]:
        """Section -> ``P(section | question)`` (sums to 1 over :attr:`classes`); ``vector`` is the question's
        embedding (``d``, unit length, the embedder the classifier was fitted with)."""
        X = _design(self.vectorizer.transform([question]), np.asarray(vector, dtype=np.float64).reshape(1, -1))
        with one_blas_thread():
            p = self.model.predict_proba(X)[0]
        return dict(zip(self.classes, map(float, p)))


def _design(words, vectors: np.ndarray):
    from scipy import sparse

    return sparse.hstack([words, sparse.csr_matrix(vectors * EMBEDDING_WEIGHT)]).tocsr()


def fit_classifier(questions: Sequence[str], vectors: np.ndarray, golds: Sequence[Sequence[StatuteRef]],
                   C: float = CLASSIFIER_C) -> SectionClassifier | None:
    """The classifier of ``questions`` (``vectors``: their embeddings, ``n x d`` unit rows; ``golds``: each one's
    gold references, any level; a question without a gold is left out). ``None`` when fewer than two sections
    are gold (nothing to tell apart); raises ``ValueError`` when the questions hold no word."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    from ..index import legal_tokenize

    keep = [i for i, g in enumerate(golds) if g]
    bases = [sorted({g.base for g in golds[i]}, key=str) for i in keep]
    if len({b for bs in bases for b in bs}) < 2:
        return None
    texts = [questions[i] for i in keep]
    for min_df in (MIN_DF, 1):
        vectorizer = TfidfVectorizer(tokenizer=legal_tokenize, lowercase=False, token_pattern=None,
                                     ngram_range=(1, 2), min_df=min_df, sublinear_tf=True)
        try:
            words = vectorizer.fit_transform(texts)
            break
        except ValueError:          # no term in MIN_DF questions: every term is a column
            if min_df == 1:
                raise ValueError("the questions hold no words to fit the classifier on") from None
    X = _design(words, np.asarray(vectors, dtype=np.float64)[keep])
    rows = [k for k, bs in enumerate(bases) for _ in bs]
    y = [str(b) for bs in bases for b in bs]
    w = np.array([1.0 / len(bs) for bs in bases for _ in bs])
    model = LogisticRegression(C=C, max_iter=MAX_ITER)
    with one_blas_thread():
        model.fit(X[rows], y, sample_weight=w)
    by_name = {str(b): b for bs in bases for b in bs}
    return SectionClassifier(vectorizer, model, tuple(by_name[c] for c in model.classes_))


def classifier_key(questions: Sequence[str], vectors: np.ndarray, golds: Sequence[Sequence[StatuteRef]],
                   C: float = CLASSIFIER_C) -> str:
    """A cache key for the classifier of ``questions``, their ``vectors`` (the bytes of their float32 values) and
    ``golds``, and the settings and scikit-learn version it is fitted with."""
    import sklearn

    h = hashlib.sha256(np.ascontiguousarray(vectors, dtype=np.float32).tobytes())
    h.update(json.dumps([C, EMBEDDING_WEIGHT, MIN_DF, MAX_ITER, sklearn.__version__, list(questions),
                         [[str(g) for g in gs] for gs in golds]]).encode())
    return h.hexdigest()[:16]


def cache_dir_for(data_cache: Path | None) -> Path | None:
    """Where the classifier is kept: the directory in ``$LEGAL_RAG_CLASSIFIER_CACHE`` when set (shared by every
    data directory: the classifier depends on the questions and their embeddings only), else ``data_cache``."""
    shared = os.environ.get(CACHE_ENV)
    return Path(shared) if shared else data_cache


def build_classifier(questions: Sequence[str], vectors: np.ndarray, golds: Sequence[Sequence[StatuteRef]],
                     cache_dir: Path | None = None) -> SectionClassifier | None:
    """:func:`fit_classifier`, kept in ``cache_dir`` as ``rank-classifier-<key>.joblib`` (:func:`classifier_key`)
    and read back from there when present (None: not kept). A cache file that cannot be read is fitted again."""
    import joblib

    path = Path(cache_dir) / f"rank-classifier-{classifier_key(questions, vectors, golds)}.joblib" \
        if cache_dir is not None else None
    if path is not None and path.is_file():
        try:
            kept = joblib.load(path)
            if isinstance(kept, SectionClassifier):
                return kept
        except (OSError, EOFError, ValueError, KeyError, AttributeError, ImportError, pickle.UnpicklingError):
            pass
    clf = fit_classifier(questions, vectors, golds)
    if path is not None and clf is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        joblib.dump(clf, tmp)
        tmp.replace(path)
    return clf


__all__ = ["CACHE_ENV", "CLASSIFIER_C", "EMBEDDING_WEIGHT", "SectionClassifier", "build_classifier", "cache_dir_for",
           "classifier_key", "fit_classifier"]
