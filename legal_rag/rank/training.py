"""``legal-rag train-ranker``: fit the models of :mod:`legal_rag.rank.model` on question sets, deterministically.

Input: JSON lines with ``question``, ``gold`` (``["BNS 303(2)", ...]``, ``[]`` for a question outside the corpus),
``act`` (``BNS``/``BNSS``/``BSA``/``OTHER``), ``source_line`` (the official source the question was written from:
paraphrases of one source share it) and ``out_of_corpus`` (the Act that governs, for ``OTHER``), in two roles
(:mod:`legal_rag.rank.examples`):

* the **source sets** (``train_*``: written source line by source line through the Acts) and the **asked sets**
  (``ask_*``: questions as clients and juniors ask them, one writer each) together are the ranker's **memory**
  (:mod:`legal_rag.rank.memory`) and the Act classifier's data;
* the models that combine the signals are fitted on the asked sets and, each at a share of an asked question's
  weight chosen by the folds, the source sets (sections and limbs: :data:`SOURCE_SHARES`, :data:`LIMB_SOURCE_SHARES`);
  the outside model on the asked sets alone. Each asked question reads the memory without its own writer's
  questions (:func:`_own`), as a user's question reads a memory none of it wrote (the memory's ``exclude`` matches a
  writer, or a source line's group, which several sets share); a source-set question reads it without its own source
  line's group. The section model is chosen on held-out asked questions and held-out source lines together
  (``sections`` below); the limb and outside models on held-out asked questions alone.

Choosing and measuring: cross-validation over the asked questions, one fold per writer when there are at least
:data:`MIN_WRITERS` writers (a new writer is what a user is), else five folds by source line (scikit-learn's
``GroupKFold``). The folds choose the logistic models' ``C`` (inverse L2 strength), the section model's size and
source share, and the thresholds from out-of-fold predictions, and give the figures stored in ``meta``; the final models are fitted on every asked question.

* ``acts``: ``LogisticRegression`` (multinomial) over the question's embedding, fitted on every question; class =
  the gold's Act or ``other:<Act>``. An asked question's ``act_logp`` and out-of-corpus share read ``P(Act)``
  predicted by a fit without its fold, never the fit of its own label.
* the **classifier** (:mod:`legal_rag.rank.classifier`) is not stored: the product fits it on the memory's
  questions at first use. Here an asked question's signals read one fitted without its writer fold's questions, a
  source-set question's one fitted without its fold of source lines (the folds of ``acts`` below), as a user's
  question reads a classifier none of it taught.
* ``sections``: LambdaMART (LightGBM's ``LGBMRanker``, objective ``lambdarank``; Burges 2010): each question's
  candidates are one query group, a gold candidate relevant (1) and the others not (0); a source-set question's
  rows weigh :data:`SOURCE_SHARES`' chosen share of an asked one's. The trees' size and the share are chosen by the
  mean of the held-out top-1 on the asked questions (one fold per writer) and on the source-set questions (folds by
  source line) over :data:`SECTION_GRID` x :data:`SOURCE_SHARES`, the fits side by side on :data:`WORKERS`
  threads; every other setting is fixed (:data:`LAMBDAMART`) and each fit is deterministic (one thread, fixed
  seeds). ``P(governs)`` is the softmax of the
  scores over the question's candidates.
* ``limbs``: over the limbs of each gold section that prints sub-sections (positive = the gold limb), fitted on the
  asked questions and the source-set questions that name a limb (a source-set one weighs
  :data:`LIMB_SOURCE_SHARES`' chosen share of an asked one), either ``StandardScaler`` + ``LogisticRegression``
  (``C`` from :data:`C_GRID`) or LambdaMART with each section's limbs one query group (size from :data:`LIMB_GRID`,
  :data:`LAMBDAMART`'s settings): the model, setting and share with the best held-out limb accuracy on the asked
  questions over the writer folds (ties: the smaller share, then the logistic model, then the size earlier in
  :data:`LIMB_GRID`).
* ``outside``: ``StandardScaler`` + ``LogisticRegression`` over :data:`OUTSIDE_FEATURES` (the share of ``P(Act)``
  outside the corpus beside how near the question is to the memory and the statutes), positive = a question outside the corpus;
  its threshold ``out_of_corpus`` is the lowest out-of-fold ``P(outside)`` that calls at most
  :data:`FALSE_OUTSIDE` of the in-corpus asked questions outside, and its ``C`` the one of :data:`C_GRID` that
  then says the most outside questions are outside (ties: fewer inside called outside, then the smaller ``C``).
  ``close``: the ratio ``p2 / p1`` above which the first candidate is shown with the next, the value with the
  best out-of-fold F1 for "the first candidate is not a gold".
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..law import analyse
from ..types import StatuteRef
from .choose import SectionRanker, in_corpus_acts
from .classifier import fit_classifier
from .examples import Example
from .features import LIMB_FEATURES, OUTSIDE_FEATURES, SECTION_FEATURES, limb_matrix, outside_vector, section_matrix
from .memory import Memory, build_memory
from .model import OTHER, WEIGHTS, Boosted, Linear, Ranker, softmax
from .signals import Signals

SEED = 0
C_GRID = (0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
#: the largest share of in-corpus asked questions the out-of-corpus threshold may call outside
FALSE_OUTSIDE = 0.02
#: writers of asked sets from which the folds are one per writer
MIN_WRITERS = 3
#: the weights of a source-set question beside an asked one (1) in the section fit, chosen by held-out top-1
SOURCE_SHARES = (0.1, 0.25, 0.5)
#: the section model's sizes tried by the cross-validation: (trees, leaves per tree)
SECTION_GRID = ((200, 7), (500, 7), (200, 15), (500, 15))
#: LightGBM's fixed settings of the section model (LightGBM's parameter names)
LAMBDAMART = {"objective": "lambdarank", "learning_rate": 0.05, "min_child_samples": 20, "subsample": 0.8,
              "subsample_freq": 1, "colsample_bytree": 0.8, "reg_lambda": 1.0, "lambdarank_truncation_level": 10,
              "random_state": SEED, "deterministic": True, "force_col_wise": True, "n_jobs": 1, "verbose": -1}
#: the limb model's LambdaMART sizes tried by the cross-validation beside the logistic model: (trees, leaves)
LIMB_GRID = ((50, 3), (100, 3), (200, 3), (100, 7), (300, 7))
#: the weights of a source-set limb question beside an asked one (1) in the limb fit (0: the asked ones alone)
LIMB_SOURCE_SHARES = (0.0, 0.5, 1.0)
#: how many of the source rows' folds (by source line) measure the section fit on source-set questions
SOURCE_FOLDS = 2
#: threads fitting the section models of the cross-validation side by side (one per core, at most four)
WORKERS = min(os.cpu_count() or 1, 4)


def folds(examples: Sequence[Example]) -> list[tuple[list[int], list[int]]]:
    """``(fit, held)`` positions of the cross-validation over ``examples`` (module docstring), in a fixed order."""
    writers = [e.writer for e in examples]
    if len(set(writers)) >= MIN_WRITERS:
        return _group_folds(writers, len(set(writers)))
    return _group_folds([e.group for e in examples])


def _scaled_fit(X: np.ndarray, y: np.ndarray, C: float, names: Sequence[str], weight: np.ndarray | None = None
                ) -> Linear:
    """``StandardScaler`` + ``LogisticRegression`` (``C``) over ``X``, each row weighted by ``weight`` (default 1)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    sc = StandardScaler().fit(X)
    scale = np.where(sc.scale_ > 0, sc.scale_, 1.0)
    lr = LogisticRegression(C=C, max_iter=5000, random_state=SEED).fit((X - sc.mean_) / scale, y, sample_weight=weight)
    return Linear(tuple(names), sc.mean_, scale, lr.coef_[0], lr.intercept_)


#: the thresholds tried on out-of-fold probabilities (the outside model's, the follow-up reading's)
THRESHOLDS = tuple(round(float(x), 2) for x in np.arange(0.05, 1.0, 0.05))


def out_of_fold(X: np.ndarray, y: np.ndarray, cv, C: float, names: Sequence[str],
                fitted: np.ndarray | None = None) -> np.ndarray:
    """``P(positive)`` of each row of ``X`` from ``StandardScaler`` + ``LogisticRegression`` (``C``) fitted on the
    other folds of ``cv``, only on the rows ``fitted`` marks (default all); a row not marked gets 0."""
    fitted = np.ones(len(y), dtype=bool) if fitted is None else np.asarray(fitted, dtype=bool)
    pv = np.zeros(len(y))
    for a, b in cv:
        a, b = np.asarray(a), np.asarray(b)
        a = a[fitted[a]]
        pv[b] = np.where(fitted[b], _scaled_fit(X[a], y[a], C, names).proba(X[b]), 0.0)
    return pv


def lambdamart_fit(groups: Sequence[tuple[np.ndarray, np.ndarray]], size: tuple[int, int], names: Sequence[str],
                   weights: Sequence[float] | None = None) -> Boosted:
    """The section model (module docstring) over ``groups`` of ``(X, y)`` (one question's candidates' features and
    gold flags; a group with no gold teaches nothing and is left out), each group's rows weighted by ``weights``
    (default 1); ``size`` = (trees, leaves per tree). Raises ``ValueError`` with no group holding a gold."""
    import lightgbm

    keep = [k for k, (_, y) in enumerate(groups) if np.any(y)]
    if not keep:
        raise ValueError("no question with a gold among its candidates to fit the section model on")
    X = np.vstack([groups[k][0] for k in keep])
    y = np.concatenate([np.asarray(groups[k][1], dtype=int) for k in keep])
    w = np.concatenate([np.full(len(groups[k][1]), 1.0 if weights is None else float(weights[k])) for k in keep])
    trees, leaves = size
    m = lightgbm.LGBMRanker(n_estimators=trees, num_leaves=leaves, **LAMBDAMART)
    m.fit(X, y, group=[len(groups[k][1]) for k in keep], sample_weight=w)
    return Boosted(tuple(names), m.booster_.model_to_string())


def fit_acts(X: np.ndarray, labels: Sequence[str], C: float) -> Linear:
    """The Act classifier over embeddings ``X`` (rows, no standardisation beyond the embedder's own)."""
    from sklearn.linear_model import LogisticRegression

    lr = LogisticRegression(C=C, max_iter=5000, random_state=SEED).fit(X, list(labels))
    d = X.shape[1]
    return Linear(tuple(f"e{i}" for i in range(d)), np.zeros(d), np.ones(d), lr.coef_, lr.intercept_,
                  tuple(map(str, lr.classes_)))


@dataclass(frozen=True)
class Row:
    """One asked question ready to fit or score: its example, signals, candidates, their features ``X`` and gold
    flags ``y`` (none gold for a question outside the corpus)."""

    example: Example
    signals: Signals
    refs: tuple[StatuteRef, ...]
    X: np.ndarray
    y: np.ndarray

    @property
    def outside(self) -> bool:
        return self.example.label.startswith(OTHER)


def _row(sr: SectionRanker, ex: Example, s: Signals, acts: dict[str, float]) -> Row:
    refs = sr.candidates(s)
    X = section_matrix(s, refs, in_corpus_acts(acts), sr.predecessors(refs))
    bases = {g.base for g in ex.gold}
    return Row(ex, s, refs, X, np.array([r in bases for r in refs], dtype=int))


def top1(model: Boosted | Linear, rows: Sequence[Row]) -> float:
    """Share of the in-corpus ``rows`` whose first candidate under ``model`` is a gold (no candidate: a miss)."""
    rows = [r for r in rows if not r.outside]
    hit = sum(int(r.y[int(np.argmax(model.decision(r.X)))]) for r in rows if len(r.refs))
    return hit / max(len(rows), 1)


def memory_of(examples: Sequence[Example], sr: SectionRanker) -> Memory:
    """The memory of ``examples`` embedded by ``sr``'s index (no cache: made once per fit)."""
    return build_memory(examples, lambda texts: np.vstack([sr.index.embed_query(t) for t in texts]))


def _signals(sr: SectionRanker, ex: Example, classifier) -> Signals:
    """``ex``'s signals as a user's question would get them: the memory without its own writer's questions
    (:func:`_own`) and ``classifier``, one fitted without them (set as ``sr.classifier``)."""
    sr.classifier = classifier
    return sr.signals(ex.question, exclude=_own(ex), kind=analyse(ex.question, concordance=sr.concordance).kind)


def _fold_classifiers(sources, asked, W, V, cv, src_cv, log) -> list:
    """Per question (the source sets', then the asked sets'), the classifier (:func:`legal_rag.rank.classifier.
    fit_classifier`) fitted on every question but those of its fold: an asked question's writer fold (``cv``), a
    source-set question's fold of source lines (``src_cv``, beside every asked question)."""
    out: list = [None] * (len(sources) + len(asked))
    questions = [e.question for e in [*sources, *asked]]
    golds = [e.gold for e in [*sources, *asked]]
    X = np.vstack([W, V]) if len(sources) else V
    n = len(sources)
    for a, b in cv:
        pos = [*range(n), *(n + i for i in a)]
        c = fit_classifier([questions[i] for i in pos], X[pos], [golds[i] for i in pos])
        for i in b:
            out[n + i] = c
        log(f"classifier without {asked[b[0]].writer or 'a fold'}: {len(c.classes) if c else 0} sections")
    for a, b in src_cv:
        pos = [*a, *range(n, n + len(asked))]
        c = fit_classifier([questions[i] for i in pos], X[pos], [golds[i] for i in pos])
        for i in b:
            out[i] = c
    return out


def _own(ex: Example) -> set[str]:
    """What of the memory never votes for an asked question: its writer's questions (its own group's when it has
    no writer). Another writer's questions from the same source line do vote, as they do for a user's question."""
    return {ex.writer} if ex.writer else {ex.group}


def _choose(name: str, fit, score, cv, log):
    """The ``C`` of :data:`C_GRID` with the best mean held-out ``score(model, held)`` over ``cv`` (ties: the smaller
    ``C``), and that mean."""
    best = None
    for C in C_GRID:
        s = float(np.mean([score(fit(a, C), b) for a, b in cv]))
        log(f"{name}: C={C} held-out {s:.3f}")
        if best is None or s > best[1]:
            best = (C, s)
    return best


def train(sr: SectionRanker, sources: Sequence[Example], asked: Sequence[Example], *, out: Path = WEIGHTS,
          log=print) -> Ranker:
    """Fit and save the ranker (module docstring) from the source sets' and the asked sets' examples; ``sr`` gives
    the signals (its ``ranker``, ``memory`` and ``classifier`` are replaced, not read; ``classifier`` is left
    None). Raises ``ValueError`` without asked
    questions inside and outside the corpus."""
    asked = list(asked)
    if not any(e.gold for e in asked) or not any(not e.gold for e in asked):
        raise ValueError("the asked sets need questions inside and outside the corpus")
    everything = [*sources, *asked]
    unknown = sorted({str(g.base) for e in everything for g in e.gold if g.base not in sr.fields.fields})
    if unknown:
        log(f"{len(unknown)} gold sections are not among the index's sections: {', '.join(unknown[:20])}")
    sr.memory = memory_of(everything, sr)
    cv = folds(asked)
    V = np.vstack([sr.index.embed_query(e.question) for e in asked])
    W = np.vstack([sr.index.embed_query(e.question) for e in sources]) if sources else np.zeros((0, V.shape[1]))
    clf_cv = _group_folds([e.group for e in sources]) if len({e.group for e in sources}) > 1 \
        else [([], list(range(len(sources))))]
    clf = _fold_classifiers(sources, asked, W, V, cv, clf_cv, log)
    sig = [_signals(sr, e, clf[len(sources) + i]) for i, e in enumerate(asked)]
    labels = [e.label for e in asked]
    src_labels = [e.label for e in sources]

    # acts: every question; an asked question's P(Act) from a fit without its fold
    def fit_acts_on(pos, C):
        return fit_acts(np.vstack([W, V[pos]]), [*src_labels, *(labels[i] for i in pos)], C)

    def act_score(m, held):
        return float(np.mean([m.classes[int(np.argmax(p))] == labels[i] for i, p in zip(held, m.proba(V[held]))]))

    act_C, act_acc = _choose("acts", fit_acts_on, act_score, cv, log)
    acts = fit_acts_on(list(range(len(asked))), act_C)
    probs: list[dict[str, float]] = [{}] * len(asked)
    for a, b in cv:
        m = fit_acts_on(a, act_C)
        for i, p in zip(b, m.proba(V[b])):
            probs[i] = dict(zip(m.classes, map(float, p)))
    rows = [_row(sr, e, s, p) for e, s, p in zip(asked, sig, probs)]

    src_probs = _source_act_probs(W, src_labels, [e.group for e in sources], V, labels, act_C)
    src_rows = [_row(sr, e, _signals(sr, e, clf[i]), p) for i, (e, p) in enumerate(zip(sources, src_probs)) if e.gold]
    src_rows = [r for r in src_rows if r.y.any()]
    sr.classifier = None
    src_cv = _group_folds([r.example.group for r in src_rows])[:SOURCE_FOLDS]

    def fit_sections(pos, size, share, src=range(len(src_rows))):
        fit = [rows[i] for i in pos if rows[i].y.any()] + [src_rows[i] for i in src] * bool(share)
        n_asked = sum(1 for i in pos if rows[i].y.any())
        return lambdamart_fit([(r.X, r.y) for r in fit], size, tuple(SECTION_FEATURES),
                              [1.0] * n_asked + [share] * (len(fit) - n_asked))

    every = list(range(len(rows)))
    grid = [(share, size) for share in SOURCE_SHARES for size in SECTION_GRID]

    def held_out(task) -> float:
        """Held-out top-1 of one grid point on one fold: an asked fold (fit without it) or a source fold (fit on
        every asked question and the other source folds)."""
        share, size, kind, fit_on, held = task
        if kind == "asked":
            return top1(fit_sections(fit_on, size, share), [rows[i] for i in held])
        return top1(fit_sections(every, size, share, fit_on), [src_rows[i] for i in held])

    held = _parallel(held_out, [(share, size, kind, a, b) for share, size in grid
                                for kind, folds_ in (("asked", cv), ("source", src_cv)) for a, b in folds_])
    best = None
    per = len(cv) + len(src_cv)
    for k, (share, size) in enumerate(grid):
        asked_s = float(np.mean(held[k * per:k * per + len(cv)]))
        src_s = float(np.mean(held[k * per + len(cv):(k + 1) * per]))
        log(f"sections: source share {share}, trees x leaves {size}: held-out top-1 asked {asked_s:.3f}, "
            f"source {src_s:.3f}")
        if best is None or (asked_s + src_s) / 2 > best[0]:
            best = ((asked_s + src_s) / 2, share, size, asked_s, src_s)
    _, src_share, sec_size, sec_acc, src_acc = best
    sections, *fold_models = _parallel(lambda pos: fit_sections(pos, sec_size, src_share), [every, *(a for a, _ in cv)])
    scores = [np.zeros(0)] * len(rows)                       # out-of-fold section scores
    for m, (_, b) in zip(fold_models, cv):
        for i in b:
            scores[i] = m.decision(rows[i].X) if len(rows[i].refs) else np.zeros(0)
    inside = [i for i, r in enumerate(rows) if not r.outside]
    by_fold = {}
    for _, b in cv:
        held = [i for i in b if not rows[i].outside]
        name = asked[b[0]].writer or f"fold {len(by_fold) + 1}"
        by_fold[name] = round(float(np.mean([rows[i].y[int(np.argmax(scores[i]))] if len(rows[i].refs) else 0
                                             for i in held])), 4) if held else 0.0
    recall = float(np.mean([bool(rows[i].y.any()) for i in inside]))

    limbs, limb_choice, limb_acc, n_limb = _fit_limbs(sr, rows, src_rows, cv, log)
    outside, ooc_t, said, out_C = _fit_outside(rows, probs, cv, log)
    close = _close(rows, scores)
    digest = hashlib.sha256("\n".join(f"{e.id}\t{e.question}\t{e.label}" for e in everything).encode()
                            ).hexdigest()[:16]
    meta = {"source_questions": len(sources), "asked_questions": len(asked),
            "asked_writers": sorted({e.writer for e in asked}), "folds": len(cv), "data_sha256_16": digest,
            "golds_not_indexed": len(unknown),
            "held_out_top1_section": round(sec_acc, 4), "held_out_top1_by_fold": by_fold,
            "held_out_top1_section_source": round(src_acc, 4),
            "source_share": src_share, "held_out_candidate_recall": round(recall, 4),
            "held_out_act_accuracy": round(act_acc, 4), "held_out_limb_accuracy": round(limb_acc, 4),
            "held_out_limb_questions": n_limb, "held_out_outside_said": round(said, 4),
            "C": {"acts": act_C, "outside": out_C}, "limb_model": limb_choice,
            "section_trees_leaves": list(sec_size), "seed": SEED}
    ranker = Ranker(acts, sections, limbs, float(ooc_t), float(close), meta, outside)
    ranker.save(out)
    log(f"wrote {out}: {json.dumps(meta)}")
    return ranker


def _parallel(fn, items) -> list:
    """``[fn(x) for x in items]`` on :data:`WORKERS` threads (LightGBM fits release the GIL; each fit is one
    thread and deterministic, so the results do not depend on the order they finish in)."""
    from concurrent.futures import ThreadPoolExecutor

    items = list(items)
    if WORKERS < 2 or len(items) < 2:
        return [fn(x) for x in items]
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        return list(pool.map(fn, items))


def _group_folds(groups: Sequence[str], k: int = 5) -> list[tuple[list[int], list[int]]]:
    from sklearn.model_selection import GroupKFold

    k = min(k, len(set(groups)))
    return [(sorted(a.tolist()), sorted(b.tolist()))
            for a, b in GroupKFold(n_splits=k).split(np.zeros(len(groups)), groups=list(groups))]


def _source_act_probs(W, src_labels, groups, V, labels, C) -> list[dict[str, float]]:
    """``P(Act)`` of each source-set question from a fit without its fold (five folds by source line) and with
    every asked question."""
    out: list[dict[str, float]] = [{}] * len(src_labels)
    if len(src_labels) < 2:
        m = fit_acts(V, labels, C)
        return [dict(zip(m.classes, map(float, p))) for p in m.proba(W)] if len(src_labels) else []
    for a, b in _group_folds(groups):
        m = fit_acts(np.vstack([W[a], V]), [*(src_labels[i] for i in a), *labels], C)
        for i, p in zip(b, m.proba(W[b])):
            out[i] = dict(zip(m.classes, map(float, p)))
    return out


def _limb_rows(sr: SectionRanker, rows: Sequence[Row]) -> list[tuple[np.ndarray, np.ndarray] | None]:
    """Each row's limb question: the features of the limbs of its first gold section that names a limb and the gold
    flags, or None (no gold at a limb, a section printing no limbs, or a gold at a clause the section prints no limb
    for, "305(d)", which says nothing of limbs)."""
    out: list[tuple[np.ndarray, np.ndarray] | None] = []
    for r in rows:
        g = next((g for g in r.example.gold if g.sub), None)
        f = sr.fields.fields.get(g.base) if g is not None else None
        y = np.array([lb.ref.sub[:1] == g.sub[:1] for lb in f.limbs], dtype=int) if f is not None and f.limbs \
            else np.zeros(0, dtype=int)
        out.append((limb_matrix(r.signals, f.limbs, sr.fields.limb_scores(r.example.question, f.limbs)), y)
                   if y.any() else None)
    return out


def _fit_limbs(sr, rows, src_rows, cv, log):
    """The limb model (module docstring), what was chosen (``{"kind": "logistic", "C": .., "source_share": ..}`` or
    ``{"kind": "lambdamart", "trees_leaves": [..], "source_share": ..}``), its held-out accuracy on the asked limb
    questions and their number."""
    asked = _limb_rows(sr, rows)
    src = [x for x in _limb_rows(sr, src_rows) if x is not None]

    def data(pos, share):
        fit = [asked[i] for i in pos if asked[i] is not None]
        return fit + src * bool(share), [1.0] * len(fit) + [share] * (len(src) * bool(share))

    def logistic(pos, C, share):
        groups, w = data(pos, share)
        return _scaled_fit(np.vstack([x for x, _ in groups]), np.concatenate([y for _, y in groups]), C,
                           tuple(LIMB_FEATURES), np.concatenate([np.full(len(y), v) for (_, y), v in zip(groups, w)]))

    def boosted(pos, size, share):
        groups, w = data(pos, share)
        return lambdamart_fit(groups, size, tuple(LIMB_FEATURES), w)

    def score(m, held):
        held = [asked[i] for i in held if asked[i] is not None]
        return float(np.mean([y[int(np.argmax(m.decision(x)))] for x, y in held])) if held else 0.0

    best = None
    for share in LIMB_SOURCE_SHARES:
        C, acc = _choose(f"limbs, logistic, source share {share}", lambda pos, C: logistic(pos, C, share), score, cv,
                         log)
        tried = [(acc, {"kind": "logistic", "C": C}, lambda pos, C=C, share=share: logistic(pos, C, share))]
        for size in LIMB_GRID:
            s = float(np.mean([score(boosted(a, size, share), b) for a, b in cv]))
            log(f"limbs, lambdamart, source share {share}: trees x leaves {size} held-out {s:.3f}")
            tried.append((s, {"kind": "lambdamart", "trees_leaves": list(size)},
                          lambda pos, size=size, share=share: boosted(pos, size, share)))
        for acc, choice, fit in tried:
            if best is None or acc > best[0]:
                best = (acc, {**choice, "source_share": share}, fit)
    acc, choice, fit = best
    return fit(list(range(len(rows)))), choice, acc, sum(x is not None for x in asked)


def _fit_outside(rows, probs, cv, log) -> tuple[Linear, float, float, float]:
    """The out-of-corpus model, its threshold from out-of-fold ``P(outside)`` (module docstring), the share of
    outside questions said so at it, and its ``C``."""
    X = np.array([outside_vector(r.signals, sum(v for k, v in p.items() if k.startswith(OTHER)))
                  for r, p in zip(rows, probs)])
    y = np.array([r.outside for r in rows], dtype=int)
    best = None
    for C in C_GRID:
        pv = out_of_fold(X, y, cv, C, OUTSIDE_FEATURES)
        # the lowest threshold (most questions outside said so) whose share of in-corpus questions said to be
        # outside is at most FALSE_OUTSIDE: refusing law the corpus holds costs more than answering a question it
        # does not (then the nearest provision is still shown with its Act named)
        neg = pv[y == 0]
        ok = [t for t in THRESHOLDS if np.mean(neg >= t) <= FALSE_OUTSIDE]
        t = min(ok) if ok else 1.0
        said, false = float(np.mean(pv[y == 1] >= t)), float(np.mean(neg >= t))
        log(f"outside: C={C} threshold {t}; held out: {said:.3f} of {int(y.sum())} outside said so, "
            f"{false:.3f} of {len(neg)} inside")
        if best is None or (said, -false) > (best[2], -best[3]):
            best = (C, t, said, false)
    C, t, said, _ = best
    return _scaled_fit(X, y, C, OUTSIDE_FEATURES), t, said, C


def _close(rows, scores) -> float:
    wrong, ratio = [], []
    for r, sc in zip(rows, scores):
        if r.outside or len(r.refs) < 2:
            continue
        p = softmax(sc)
        order = np.argsort(-p)
        wrong.append(not r.y[order[0]])
        ratio.append(p[order[1]] / max(p[order[0]], 1e-9))

    def f1(t):
        pred = [x >= t for x in ratio]
        tp = sum(a and w for a, w in zip(pred, wrong))
        prec = tp / max(sum(pred), 1)
        rec = tp / max(sum(wrong), 1)
        return 2 * prec * rec / max(prec + rec, 1e-9)

    return max([round(x, 2) for x in np.arange(0.3, 0.96, 0.05)], key=lambda t: (f1(t), t))


__all__ = ["C_GRID", "FALSE_OUTSIDE", "LAMBDAMART", "LIMB_GRID", "LIMB_SOURCE_SHARES", "MIN_WRITERS", "SECTION_GRID", "SEED", "SOURCE_SHARES",
           "THRESHOLDS", "Row", "folds", "lambdamart_fit", "memory_of", "out_of_fold", "train"]
