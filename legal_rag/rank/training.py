"""``legal-rag train-ranker``: fit the three models of :mod:`legal_rag.rank.model` on question sets, deterministically.

Input: JSON lines with ``question``, ``gold`` (``["BNS 303(2)", ...]``, ``[]`` for a question outside the corpus),
``act`` (``BNS``/``BNSS``/``BSA``/``OTHER``), ``source_line`` (the official source the question was written from:
paraphrases of one source share it) and ``out_of_corpus`` (the Act that governs, for ``OTHER``). The questions are
split train/validation by ``source_line`` (scikit-learn's ``GroupShuffleSplit``, a fixed seed), so paraphrases of
one source never straddle the split; the validation part chooses each model's ``C`` (inverse L2 strength) and the
thresholds, and gives the figures stored in ``meta``.

* ``memory``: the training part's questions (:mod:`legal_rag.rank.memory`); a training question's features read the
  memory without its own group's questions.
* ``acts``: ``LogisticRegression`` (multinomial) over the question's embedding; class = the gold's Act or
  ``other:<Act>``.
* ``sections``: ``StandardScaler`` + ``LogisticRegression`` over the candidates' features; positive = a gold
  section. The ``act_logp`` feature of a training question reads ``P(Act)`` predicted out of fold
  (``cross_val_predict`` over five groups), never the fit of its own label.
* ``limbs``: the same over the limbs of each gold section that prints sub-sections; positive = the gold limb.
* ``out_of_corpus``: the lowest threshold on the share of ``P`` outside the corpus that says at most
  :data:`FALSE_OUTSIDE` of the in-corpus validation questions are outside; ``close``: the ratio ``p2 / p1`` above which the first candidate is shown with the next, the value
  with the best F1 on validation for "the first candidate is not a gold".
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..law import analyse
from ..types import StatuteRef
from .choose import SectionRanker, in_corpus_acts
from .features import LIMB_FEATURES, SECTION_FEATURES, limb_matrix, section_matrix
from .model import OTHER, WEIGHTS, Linear, Ranker
from .examples import Example, parse_ref, read_examples
from .memory import Memory, build_memory
from .signals import Signals

SEED = 0
C_GRID = (0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
VALIDATION = 0.2
#: the largest share of in-corpus validation questions the out-of-corpus threshold may call outside
FALSE_OUTSIDE = 0.02


def split(examples: Sequence[Example]) -> tuple[list[int], list[int]]:
    """Train and validation positions, by group (module docstring)."""
    from sklearn.model_selection import GroupShuffleSplit

    gss = GroupShuffleSplit(n_splits=1, test_size=VALIDATION, random_state=SEED)
    tr, va = next(gss.split(np.zeros(len(examples)), groups=[e.group for e in examples]))
    return sorted(tr.tolist()), sorted(va.tolist())


def _scaled_fit(X: np.ndarray, y: np.ndarray, C: float, names: Sequence[str]) -> Linear:
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    sc = StandardScaler().fit(X)
    scale = np.where(sc.scale_ > 0, sc.scale_, 1.0)
    lr = LogisticRegression(C=C, max_iter=5000, random_state=SEED).fit((X - sc.mean_) / scale, y)
    return Linear(tuple(names), sc.mean_, scale, lr.coef_[0], lr.intercept_)


def fit_acts(X: np.ndarray, labels: Sequence[str], C: float) -> Linear:
    """The Act classifier over embeddings ``X`` (rows, no standardisation beyond the embedder's own)."""
    from sklearn.linear_model import LogisticRegression

    lr = LogisticRegression(C=C, max_iter=5000, random_state=SEED).fit(X, list(labels))
    d = X.shape[1]
    return Linear(tuple(f"e{i}" for i in range(d)), np.zeros(d), np.ones(d), lr.coef_, lr.intercept_,
                  tuple(map(str, lr.classes_)))


def oof_act_probs(X: np.ndarray, labels: Sequence[str], groups: Sequence[str], C: float) -> list[dict[str, float]]:
    """``P(Act)`` of each row predicted by a classifier that did not see its group (five group folds)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GroupKFold, cross_val_predict

    lr = LogisticRegression(C=C, max_iter=5000, random_state=SEED)
    p = cross_val_predict(lr, X, list(labels), groups=list(groups), cv=GroupKFold(n_splits=5), method="predict_proba")
    classes = sorted(set(labels))
    return [dict(zip(classes, map(float, row))) for row in p]


@dataclass
class Prepared:
    """Per example: its signals, its candidates and their features (for in-corpus examples)."""

    signals: list[Signals]
    refs: list[tuple[StatuteRef, ...]]


def _section_rows(sr: SectionRanker, ex: Example, s: Signals, refs, acts) -> tuple[np.ndarray, np.ndarray]:
    X = section_matrix(s, refs, in_corpus_acts(acts), sr.predecessors(refs))
    bases = {g.base for g in ex.gold}
    return X, np.array([r in bases for r in refs], dtype=int)


def top1(sr: SectionRanker, model: Linear, items) -> float:
    """Share of ``items`` ``(example, signals, refs, acts)`` whose first candidate under ``model`` is a gold."""
    hit = 0
    for ex, s, refs, acts in items:
        if not refs:
            continue
        X, y = _section_rows(sr, ex, s, refs, acts)
        p = model.proba(X)
        hit += int(y[int(np.argmax(p))])
    return hit / max(len(items), 1)


def memory_of(examples: Sequence[Example], sr: SectionRanker) -> Memory:
    """The memory of ``examples`` embedded by ``sr``'s index (no cache: a split's memory is made once)."""
    return build_memory(examples, lambda texts: np.vstack([sr.index.embed_query(t) for t in texts]))


def train(sr: SectionRanker, examples: Sequence[Example], *, out: Path = WEIGHTS, log=print) -> Ranker:
    """Fit and save the ranker (module docstring); ``sr`` gives the signals (its ``ranker`` is not read)."""
    unknown = sorted({str(g.base) for e in examples for g in e.gold if g.base not in sr.fields.fields})
    if unknown:
        log(f"{len(unknown)} gold sections are not among the index's sections: {', '.join(unknown[:20])}")
    tr, va = split(examples)
    # the memory holds the training part only; a training question's own group never votes for it
    sr.memory = memory_of([examples[i] for i in tr], sr)
    kinds = [analyse(e.question, concordance=sr.concordance).kind for e in examples]
    sig = [sr.signals(e.question, exclude={e.group}, kind=k) for e, k in zip(examples, kinds)]
    refs = [sr.candidates(s) if not e.label.startswith(OTHER) else () for e, s in zip(examples, sig)]
    V = np.vstack([s.vector for s in sig])
    labels = [e.label for e in examples]
    groups = [e.group for e in examples]

    # acts: C by validation accuracy
    best = None
    for C in C_GRID:
        m = fit_acts(V[tr], [labels[i] for i in tr], C)
        acc = float(np.mean([m.classes[int(np.argmax(p))] == labels[i] for i, p in zip(va, m.proba(V[va]))]))
        if best is None or acc > best[0]:
            best = (acc, C, m)
    act_acc, act_C, acts = best
    log(f"acts: C={act_C} validation accuracy {act_acc:.3f}")
    oof = oof_act_probs(V[tr], [labels[i] for i in tr], [groups[i] for i in tr], act_C)
    oof_by = dict(zip(tr, oof))
    va_probs = {i: dict(zip(acts.classes, map(float, p))) for i, p in zip(va, acts.proba(V[va]))}

    def items(pos, probs):
        return [(examples[i], sig[i], refs[i], probs[i]) for i in pos if not examples[i].label.startswith(OTHER)]

    train_items, val_items = items(tr, oof_by), items(va, va_probs)
    Xs, ys = [], []
    for ex, s, rs, a in train_items:
        if rs:
            X, y = _section_rows(sr, ex, s, rs, a)
            Xs.append(X)
            ys.append(y)
    X, y = np.vstack(Xs), np.concatenate(ys)
    best = None
    for C in C_GRID:
        m = _scaled_fit(X, y, C, tuple(SECTION_FEATURES))
        acc = top1(sr, m, val_items)
        log(f"sections: C={C} validation top-1 {acc:.3f}")
        if best is None or acc > best[0]:
            best = (acc, C, m)
    sec_acc, sec_C, sections = best
    recall = float(np.mean([any(r in {g.base for g in ex.gold} for r in rs) for ex, _, rs, _ in val_items]))

    # limbs
    def limb_rows(pos):
        Xs, ys, owners = [], [], []
        for i in pos:
            ex = examples[i]
            g = next((g for g in ex.gold if g.sub), None)
            f = sr.fields.fields.get(g.base) if g is not None else None
            if f is None or not f.limbs:
                continue
            Xl = limb_matrix(sig[i], f.limbs, sr.fields.limb_scores(ex.question, f.limbs))
            Xs.append(Xl)
            ys.append(np.array([lb.ref.sub[:1] == g.sub[:1] for lb in f.limbs], dtype=int))
            owners.append(i)
        return Xs, ys, owners

    lX, ly, _ = limb_rows(tr)
    vX, vy, _ = limb_rows(va)
    best = None
    for C in C_GRID:
        m = _scaled_fit(np.vstack(lX), np.concatenate(ly), C, tuple(LIMB_FEATURES))
        acc = float(np.mean([yy[int(np.argmax(m.proba(xx)))] for xx, yy in zip(vX, vy)])) if vX else 0.0
        if best is None or acc > best[0]:
            best = (acc, C, m)
    limb_acc, limb_C, limbs = best
    log(f"limbs: C={limb_C} validation accuracy {limb_acc:.3f} ({len(vX)} questions)")

    # thresholds
    share = {i: sum(v for k, v in va_probs[i].items() if k.startswith(OTHER)) for i in va}
    is_out = {i: labels[i].startswith(OTHER) for i in va}

    def balanced(t):
        pos = [i for i in va if is_out[i]]
        neg = [i for i in va if not is_out[i]]
        tpr = np.mean([share[i] >= t for i in pos]) if pos else 0.0
        tnr = np.mean([share[i] < t for i in neg]) if neg else 0.0
        return (tpr + tnr) / 2

    # the lowest threshold (most questions outside said so) whose share of in-corpus validation questions said to be
    # outside is at most FALSE_OUTSIDE: refusing law the corpus holds costs more than answering a question it does
    # not (then the nearest provision is still shown with its Act named)
    grid = [round(x, 2) for x in np.arange(0.05, 1.0, 0.05)]
    neg = [i for i in va if not is_out[i]]
    ok = [t for t in grid if np.mean([share[i] >= t for i in neg]) <= FALSE_OUTSIDE] if neg else grid
    ooc_t = min(ok) if ok else 1.0
    wrong, ratio = [], []
    for ex, s, rs, a in val_items:
        if len(rs) < 2:
            continue
        Xv, yv = _section_rows(sr, ex, s, rs, a)
        p = sections.proba(Xv)
        order = np.argsort(-p)
        wrong.append(not yv[order[0]])
        ratio.append(p[order[1]] / max(p[order[0]], 1e-9))

    def f1(t):
        pred = [r >= t for r in ratio]
        tp = sum(p and w for p, w in zip(pred, wrong))
        prec = tp / max(sum(pred), 1)
        rec = tp / max(sum(wrong), 1)
        return 2 * prec * rec / max(prec + rec, 1e-9)

    close = max([round(x, 2) for x in np.arange(0.3, 0.96, 0.05)], key=lambda t: (f1(t), t))
    log(f"thresholds: out_of_corpus {ooc_t} (balanced accuracy {balanced(ooc_t):.3f}); close {close} (F1 {f1(close):.3f})")
    digest = hashlib.sha256("\n".join(f"{e.id}\t{e.question}\t{e.label}" for e in examples).encode()).hexdigest()[:16]
    meta = {"examples": len(examples), "train": len(tr), "validation": len(va), "data_sha256_16": digest,
            "golds_not_indexed": len(unknown),
            "validation_top1_section": round(sec_acc, 4), "validation_candidate_recall": round(recall, 4),
            "validation_act_accuracy": round(act_acc, 4), "validation_limb_accuracy": round(limb_acc, 4),
            "C": {"acts": act_C, "sections": sec_C, "limbs": limb_C}, "seed": SEED}
    ranker = Ranker(acts, sections, limbs, float(ooc_t), float(close), meta)
    ranker.save(out)
    log(f"wrote {out}: {json.dumps(meta)}")
    return ranker


__all__ = ["C_GRID", "SEED", "memory_of", "split", "train"]
