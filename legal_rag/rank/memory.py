"""The training questions as a memory: how close a question is to the questions whose gold is each section.

A client's words for an offence recur ("took my phone and ran", "police not writing my complaint"); the training
questions (:func:`legal_rag.rank.examples.training_files`, written from the Acts' text, their Illustrations, the First Schedule and the
BPR&D subjects; :mod:`legal_rag.rank.training`) say which provision each set of words meant. ``Memory.scores`` gives,
per gold provision, the largest cosine between the question's embedding and a training question with that gold
(a nearest-neighbour vote, Cover & Hart 1967), at section level and at limb level; the ranker reads them as
features beside the section's own text.

``Memory.votes`` is the k-nearest-neighbour vote proper: the :data:`VOTE_K` nearest questions, each weighted by
``exp((cos - cos_best) / VOTE_TAU)`` and the weights normalised to sum to 1, summed per gold section (a soft
k-NN, Hastie, Tibshirani & Friedman, *Elements of Statistical Learning*, 2nd ed., s.13.3).

Leakage: a memory question never votes for a question of its own group (``exclude``: paraphrases of one official
source share a group), nor, when the ranker is fitted, for a question of its own writer (the question set it came
from): a user is a new writer, so the features of a training question are those another writer's question would
get.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

from ..types import StatuteRef

#: how many nearest memory questions vote (:meth:`Memory.votes`)
VOTE_K = 10
#: the vote's temperature in cosine units (:meth:`Memory.votes`): a neighbour 0.05 less similar weighs 1/e as much
VOTE_TAU = 0.05


@lru_cache(maxsize=1)
def _blas_controller():
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def one_blas_thread():
    """A context in which numpy's BLAS runs on one thread (threadpoolctl), for the memory's product of one
    question vector: its cosines are then the same bits whatever the machine's core count (OpenBLAS splits a
    larger product over its threads, and the rows at each split are summed by another kernel path), and a busy
    machine never makes the product wait for a second thread (times: ``bench/results_ranker.md``)."""
    return _blas_controller().limit(limits=1, user_api="blas")


@dataclass(frozen=True)
class Memory:
    """``vectors`` (``n x d``, unit length), the ``golds``, ``groups`` and ``writers`` of the ``n`` memory
    questions (``writers`` empty: one writer each, never excluded)."""

    vectors: np.ndarray
    golds: tuple[tuple[StatuteRef, ...], ...]
    groups: tuple[str, ...]
    writers: tuple[str, ...] = ()
    _by_group: dict = field(default_factory=dict, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.golds)

    def read(self, vector: np.ndarray, exclude: Collection[str] = (), k: int | None = None,
             tau: float | None = None) -> tuple[dict[StatuteRef, float], dict[StatuteRef, float],
                                                dict[StatuteRef, float]]:
        """``(sections, limbs, votes)`` of one question in one pass over the memory: :meth:`scores` and
        :meth:`votes` (their contracts); questions of the ``exclude`` groups or writers do not vote.

        Each of ``sections`` and ``limbs`` is keyed in the order the keys first appear among the memory's questions
        taken most similar first (a question's golds in their order), and holds the cosine of that question (the
        largest of the key's). Computed with numpy over the memory's (question, gold) pairs
        (:attr:`_pairs`), one sort of the cosines per question. The cosines are one BLAS product on one thread
        (:func:`one_blas_thread`)."""
        if not len(self):
            return {}, {}, {}
        with one_blas_thread():
            sims = self.vectors @ np.asarray(vector, dtype=np.float32)
        order = np.argsort(-sims)
        if exclude:
            order = order[self._kept(exclude)[order]]
        n = len(self)
        pos = np.full(n, n, dtype=np.int64)  # a question's place in ``order``; ``n``: excluded
        pos[order] = np.arange(len(order))
        sections = self._firsts(self._pairs[0], pos, sims)
        limbs = self._firsts(self._pairs[1], pos, sims)
        near = order[:VOTE_K if k is None else k].tolist()
        votes: dict[StatuteRef, float] = {}
        if near:
            w = np.exp((sims[near] - sims[near[0]]) / (VOTE_TAU if tau is None else tau))
            w = w / w.sum()
            bases = self._pairs[2]
            for i, wi in zip(near, w):
                for g in bases[i]:
                    votes[g] = votes.get(g, 0.0) + float(wi)
        return sections, limbs, votes

    @cached_property
    def _pairs(self):
        """``(sections, limbs, bases)``: the (question, gold) pairs at section level and at limb level (a gold's
        first sub-section; golds without one are left out), each as ``(question index per pair, key index per
        pair, keys)`` in question order and each question's golds' order; and each question's gold sections as a
        tuple in the order of the set :meth:`read` sums their votes in."""
        def pairs(key):
            qs, ids, keys = [], [], {}
            for i, golds in enumerate(self.golds):
                for g in golds:
                    ref = key(g)
                    if ref is not None:
                        qs.append(i)
                        ids.append(keys.setdefault(ref, len(keys)))
            return np.asarray(qs, dtype=np.int64), np.asarray(ids, dtype=np.int64), tuple(keys)

        return (pairs(lambda g: g.base),
                pairs(lambda g: StatuteRef(g.act, g.section, g.sub[:1]) if g.sub else None),
                tuple(tuple({g.base for g in golds}) for golds in self.golds))

    @staticmethod
    def _firsts(pairs, pos: np.ndarray, sims: np.ndarray) -> dict[StatuteRef, float]:
        """Key -> the cosine of the first of its pairs' questions in the order ``pos`` (a question's place; at
        least ``len(pos)``: excluded), keys in order of that first appearance."""
        qs, ids, keys = pairs
        if not len(qs):
            return {}
        at = pos[qs]
        seq = np.argsort(at, kind="stable")  # pairs in the order the questions come, each question's golds in order
        seq = seq[at[seq] < len(pos)]
        _, first = np.unique(ids[seq], return_index=True)
        first = seq[np.sort(first)]
        return dict(zip([keys[k] for k in ids[first].tolist()], sims[qs[first]].tolist()))

    def _kept(self, exclude: Collection[str]) -> np.ndarray:
        """A boolean mask over the memory's questions: True for those of no ``exclude`` group or writer."""
        ex = set(exclude)
        return np.fromiter((not (g in ex or (bool(self.writers) and self.writers[i] in ex))
                            for i, g in enumerate(self.groups)), dtype=bool, count=len(self))

    def scores(self, vector: np.ndarray, exclude: Collection[str] = ()) -> tuple[dict[StatuteRef, float],
                                                                                 dict[StatuteRef, float]]:
        """``(sections, limbs)``: gold section -> the largest cosine of ``vector`` to a memory question with that
        gold (its base), and gold sub-section -> the same for questions whose gold names it; questions of the
        ``exclude`` groups or writers do not vote."""
        return self.read(vector, exclude)[:2]

    def votes(self, vector: np.ndarray, exclude: Collection[str] = (), k: int | None = None,
              tau: float | None = None) -> dict[StatuteRef, float]:
        """Gold section -> its share of the soft vote of the ``k`` nearest memory questions (module docstring;
        defaults :data:`VOTE_K`, :data:`VOTE_TAU`); the shares sum to 1 over the sections (to more when a question
        names two golds); ``{}`` for an empty memory. Questions of the ``exclude`` groups or writers do not vote."""
        return self.read(vector, exclude, k, tau)[2]


def memory_key(texts: Sequence[str], model_id: str) -> str:
    """A cache key for the embeddings of ``texts`` by ``model_id``."""
    return hashlib.sha256(json.dumps([model_id, list(texts)]).encode()).hexdigest()[:16]


def embed_cached(texts: Sequence[str], embed, cache_dir: Path | None, model_id: str, name: str) -> np.ndarray:
    """``embed(texts) -> n x d`` as unit rows (float32), kept in ``cache_dir`` as ``<name>-<key>.npy``
    (:func:`memory_key`) and read back from there when present (None: not kept)."""
    if not texts:
        return np.zeros((0, 0), dtype=np.float32)
    path = Path(cache_dir) / f"{name}-{memory_key(texts, model_id)}.npy" if cache_dir is not None else None
    if path is not None and path.is_file():
        return np.load(path)
    vectors = np.asarray(embed(list(texts)), dtype=np.float32).reshape(len(texts), -1)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    vectors = vectors / np.where(norms > 0, norms, 1.0)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.save(path, vectors)
    return vectors


def build_memory(examples, embed, cache_dir: Path | None = None, model_id: str = "") -> Memory:
    """The memory of ``examples`` (:class:`legal_rag.rank.examples.Example`, in-corpus ones only), each question
    embedded by ``embed(texts) -> n x d`` (the index's query embedder, so question meets question), kept in
    ``cache_dir`` (:func:`embed_cached`)."""
    kept = [e for e in examples if e.gold]
    vectors = embed_cached([e.question for e in kept], embed, cache_dir, model_id, "rank-memory")
    return Memory(vectors, tuple(e.gold for e in kept), tuple(e.group for e in kept), tuple(e.writer for e in kept))


__all__ = ["VOTE_K", "VOTE_TAU", "Memory", "build_memory", "embed_cached", "memory_key", "one_blas_thread"]
