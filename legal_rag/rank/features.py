"""The features of a (question, section) and a (question, limb) pair, one named function each, in two tables.

Every feature reads :class:`legal_rag.rank.signals.Signals` (computed once per question) and returns a float; the
tables :data:`SECTION_FEATURES` and :data:`LIMB_FEATURES` give their names and order, which the fitted weights
(:mod:`legal_rag.rank.model`) are stored against. ``act_probs`` is the Act classifier's ``P(Act | question)``.

Candidates (:func:`candidates`): the new-code sections any signal ranks among its first :data:`PER_SIGNAL`, and the
official successors of the old-code sections the dense or sparse list ranks that high (IPC text bridges to BNS).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from collections.abc import Set as AbstractSet

import numpy as np

from ..types import NEW_ACTS, StatuteRef
from .fields import FIELDS, Limb
from .signals import Signals

#: how many of each signal's best sections become candidates
PER_SIGNAL = 25
#: a question of more than this many words is a statement of facts (the ``long`` interactions)
LONG = 25

Feature = Callable[[Signals, StatuteRef, Mapping[str, float], Mapping[StatuteRef, tuple[StatuteRef, ...]]], float]


def _long(s: Signals) -> float:
    return 1.0 if s.words > LONG else 0.0


def _pred(s: Signals, ref, preds, table) -> float:
    return max((table.get(p, 0.0) for p in preds.get(ref, ())), default=0.0)


def _gap(s: Signals, name: str, ref: StatuteRef) -> float:
    """How far ``ref``'s value in the signal table ``name`` (``"dense"``) is below the table's best (0 for the
    best; absent counts as 0; the best read once per question: :meth:`Signals.top`)."""
    return getattr(s, name).get(ref, 0.0) - s.top(name)


def _rr(s: Signals, name: str, ref: StatuteRef) -> float:
    """``5 / (5 + rank)`` of ``ref`` in the signal ``name``'s ranking (0 when it is not ranked)."""
    rank = s.ranks.get(name, {}).get(ref)
    return 5.0 / (5 + rank) if rank else 0.0


def _field(name: str) -> Feature:
    return lambda s, ref, acts, preds: s.fields.get(name, {}).get(ref, 0.0)


#: name -> feature of a (question, section) pair, in the stored order
SECTION_FEATURES: dict[str, Feature] = {
    "dense": lambda s, ref, acts, preds: s.dense.get(ref, 0.0),
    "dense_gap": lambda s, ref, acts, preds: _gap(s, "dense", ref),
    "dense_rr": lambda s, ref, acts, preds: 5.0 / (5 + s.dense_rank[ref]) if ref in s.dense_rank else 0.0,
    "sparse": lambda s, ref, acts, preds: s.sparse.get(ref, 0.0),
    "sparse_rr": lambda s, ref, acts, preds: 5.0 / (5 + s.sparse_rank[ref]) if ref in s.sparse_rank else 0.0,
    "predecessor_dense": lambda s, ref, acts, preds: _pred(s, ref, preds, s.dense),
    "predecessor_sparse": lambda s, ref, acts, preds: _pred(s, ref, preds, s.sparse),
    **{f"field_{name}": _field(name) for name in FIELDS},
    "evidence": lambda s, ref, acts, preds: s.evidence.get(ref, 0.0),
    "evidence_lift": lambda s, ref, acts, preds: s.lift.get(ref, 0.0),
    "evidence_lift_long": lambda s, ref, acts, preds: _long(s) * s.lift.get(ref, 0.0),
    "dense_long": lambda s, ref, acts, preds: _long(s) * s.dense.get(ref, 0.0),
    "act_logp": lambda s, ref, acts, preds: math.log(max(acts.get(ref.act, 0.0), 1e-4)),
    "schedule_name": lambda s, ref, acts, preds: 1.0 if s.named == ref else 0.0,
    "summary_dense": lambda s, ref, acts, preds: s.summary.get(ref, 0.0),
    "summary_gap": lambda s, ref, acts, preds: _gap(s, "summary", ref),
    "summary_rr": lambda s, ref, acts, preds: _rr(s, "summary", ref),
    "memory": lambda s, ref, acts, preds: s.memory.get(ref, 0.0),
    "memory_gap": lambda s, ref, acts, preds: _gap(s, "memory", ref),
    "memory_rr": lambda s, ref, acts, preds: _rr(s, "memory", ref),
    "memory_vote": lambda s, ref, acts, preds: s.memory_vote.get(ref, 0.0),
    "classifier": lambda s, ref, acts, preds: s.classifier.get(ref, 0.0),
    "classifier_share": lambda s, ref, acts, preds: s.classifier.get(ref, 0.0) / (s.top("classifier") or 1.0),
    "classifier_rr": lambda s, ref, acts, preds: _rr(s, "classifier", ref),
    "title_cover": lambda s, ref, acts, preds: s.title_cover.get(ref, (0.0, 0.0))[0],
    "question_in_title": lambda s, ref, acts, preds: s.title_cover.get(ref, (0.0, 0.0))[1],
}

LimbFeature = Callable[[Signals, Limb, int, int, Mapping[StatuteRef, float]], float]

#: name -> feature of a (question, limb) pair: the limb's position ``i`` of ``n`` in its section and the BM25 of the
#: question against each limb of the section (``bm25``)
LIMB_FEATURES: dict[str, LimbFeature] = {
    "limb_bm25": lambda s, lb, i, n, bm25: bm25.get(lb.ref, 0.0),
    "limb_dense": lambda s, lb, i, n, bm25: s.limb_dense.get(lb.ref, 0.0),
    "limb_memory": lambda s, lb, i, n, bm25: s.memory_limbs.get(lb.ref, 0.0),
    "limb_first": lambda s, lb, i, n, bm25: 1.0 if i == 0 else 0.0,
    "limb_position": lambda s, lb, i, n, bm25: i / max(n - 1, 1),
    "limb_punishes": lambda s, lb, i, n, bm25: 1.0 if "shall be punished" in lb.text else 0.0,
    "limb_scheduled": lambda s, lb, i, n, bm25: 1.0 if lb.schedule else 0.0,
    "limb_punishes_asked": lambda s, lb, i, n, bm25: 1.0 if s.kind == "punishment" and "shall be punished" in lb.text
    else 0.0,
    "limb_first_defined": lambda s, lb, i, n, bm25: 1.0 if s.kind == "definition" and i == 0 else 0.0,
}


#: the features of "is this question outside the corpus" (:func:`outside_vector`), in the stored order
OUTSIDE_FEATURES: tuple[str, ...] = ("outside_share", "outside_logit", "best_memory", "best_vote", "best_dense")


def outside_vector(s: Signals, share: float) -> np.ndarray:
    """:data:`OUTSIDE_FEATURES` of one question: ``share``, the Act classifier's share of ``P`` on Acts the corpus
    does not hold, and its log-odds (clipped to +-9); how near the question is to the memory's questions on
    provisions the corpus holds (the best cosine, the largest share of the k-NN vote); its best dense cosine to a
    statute chunk (each 0 with none)."""
    share = float(share)
    q = min(max(share, 1e-4), 1 - 1e-4)
    return np.array([share, max(-9.0, min(9.0, math.log(q / (1 - q)))), max(s.memory.values(), default=0.0),
                     max(s.memory_vote.values(), default=0.0), max(s.dense.values(), default=0.0)], dtype=np.float64)


def best_keys(table: Mapping[StatuteRef, float], n: int) -> list[StatuteRef]:
    """The ``n`` keys of ``table`` with the largest values, largest first, ties by ``str(key)``: what
    ``sorted(table, key=lambda r: (-table[r], str(r)))[:n]`` gives, without ordering the keys that cannot place
    (those below the ``n``-th largest value)."""
    if len(table) > n > 0:
        values = np.fromiter(table.values(), dtype=np.float64, count=len(table))
        cut = np.partition(values, len(values) - n)[len(values) - n]
        table = {r: v for r, v in table.items() if v >= cut}
    return sorted(table, key=lambda r: (-table[r], str(r)))[:n]


def candidates(s: Signals, successors: Callable[[StatuteRef], tuple[StatuteRef, ...]], known: Collection[StatuteRef]
               ) -> tuple[StatuteRef, ...]:
    """The candidate sections (module docstring), each once, in a fixed order (first seen); only ``known``
    sections (the index's new-code sections with fields; a set or a mapping's keys is read as it is)."""
    keep = known if isinstance(known, (AbstractSet, Mapping)) else set(known)
    out: dict[StatuteRef, None] = {}

    def add(refs):
        for r in refs:
            if r.act in NEW_ACTS:
                if r in keep:
                    out.setdefault(r)
            else:
                for t in successors(r):
                    if t in keep:
                        out.setdefault(t)

    for ranked in (s.dense, s.sparse, s.evidence, s.memory, s.summary, *s.fields.values()):
        add(best_keys(ranked, PER_SIGNAL))
    if s.named is not None:
        add([s.named])
    return tuple(out)


def section_matrix(s: Signals, refs: Sequence[StatuteRef], acts: Mapping[str, float],
                   preds: Mapping[StatuteRef, tuple[StatuteRef, ...]]) -> np.ndarray:
    """``len(refs) x len(SECTION_FEATURES)`` features."""
    return np.array([[f(s, r, acts, preds) for f in SECTION_FEATURES.values()] for r in refs], dtype=np.float64
                    ).reshape(len(refs), len(SECTION_FEATURES))


def limb_matrix(s: Signals, limbs: Sequence[Limb], bm25: Mapping[StatuteRef, float]) -> np.ndarray:
    """``len(limbs) x len(LIMB_FEATURES)`` features of the limbs of one section, in printed order."""
    n = len(limbs)
    return np.array([[f(s, lb, i, n, bm25) for f in LIMB_FEATURES.values()] for i, lb in enumerate(limbs)],
                    dtype=np.float64).reshape(n, len(LIMB_FEATURES))


__all__ = ["LIMB_FEATURES", "LONG", "OUTSIDE_FEATURES", "PER_SIGNAL", "SECTION_FEATURES", "best_keys", "candidates",
           "limb_matrix", "outside_vector", "section_matrix"]
