"""What every retrieval signal says about one question, computed once (:func:`gather`).

``Signals`` holds, per section (section level, every Act): the best dense cosine and BM25 score of its chunks among
the statute chunks retrieved (``depth`` each), their ranks, the BM25 score of the question in each field of the new
codes' sections (:mod:`legal_rag.rank.fields`), the case-base evidence (:func:`legal_rag.retrieve.evidence.
section_evidence`) with its **lift** over the base rate and the judgments behind it, the nearest training questions' golds
and their k-nearest-neighbour vote (:mod:`legal_rag.rank.memory`), ``P(section | question)`` of the classifier fitted on
those questions (:mod:`legal_rag.rank.classifier`), how much of each section's title the question states
(:meth:`legal_rag.rank.fields.FieldIndex.title_cover`), and the question's embedding and length.

Lift (pointwise mutual information, Church & Hanks 1990): ``log((n_s / K + e) / (df_s / N + e))``, ``n_s`` the
number of the ``K`` judgments most similar to the question that cite section ``s`` (an old-code cite counts for its
official successors), ``df_s`` the number of the ``N`` judgments of the case base that cite it (or its official
predecessors), ``e`` = :data:`LIFT_SMOOTHING`. A section every murder appeal cites has a large ``df`` and gains
nothing by being cited by similar judgments too; a section the similar judgments cite far more often than judgments
at large gains.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from ..kept import Kept
from ..types import StatuteRef
from .fields import FIELDS, FieldIndex

#: the smoothing ``e`` of the lift (module docstring)
LIFT_SMOOTHING = 0.01
#: statute chunks each retriever returns for the signals
DEPTH = 200


@dataclass(frozen=True)
class Signals:
    """One question's signals (module docstring). Scores are in [0, 1] unless said; ranks 1-based."""

    words: int
    vector: np.ndarray
    dense: Mapping[StatuteRef, float] = field(default_factory=dict)       # best cosine
    dense_rank: Mapping[StatuteRef, int] = field(default_factory=dict)
    sparse: Mapping[StatuteRef, float] = field(default_factory=dict)      # best BM25 / the list's best
    sparse_rank: Mapping[StatuteRef, int] = field(default_factory=dict)
    limb_dense: Mapping[StatuteRef, float] = field(default_factory=dict)  # sub-section -> best cosine of its chunks
    fields: Mapping[str, Mapping[StatuteRef, float]] = field(default_factory=dict)
    evidence: Mapping[StatuteRef, float] = field(default_factory=dict)    # score / the best
    lift: Mapping[StatuteRef, float] = field(default_factory=dict)        # log ratio (may be negative)
    named: StatuteRef | None = None                                       # First Schedule name in the question
    memory: Mapping[StatuteRef, float] = field(default_factory=dict)      # best cosine to a training question
    memory_limbs: Mapping[StatuteRef, float] = field(default_factory=dict)
    kind: str = ""                                                        # the question's kind (law.analyse)
    summary: Mapping[StatuteRef, float] = field(default_factory=dict)     # cosine to the section's summary
    ranks: Mapping[str, Mapping[StatuteRef, int]] = field(default_factory=dict)  # "memory"/"summary" -> 1-based
    memory_vote: Mapping[StatuteRef, float] = field(default_factory=dict)  # share of the k-NN vote (sums to 1)
    cases: Mapping[StatuteRef, tuple[str, ...]] = field(default_factory=dict)  # the judgments behind evidence
    top_cases: int = 0                                                    # how many similar judgments voted
    classifier: Mapping[StatuteRef, float] = field(default_factory=dict)  # P(section | question), sums to 1
    title_cover: Mapping[StatuteRef, tuple[float, float]] = field(default_factory=dict)  # (title, question) shares
    _tops: dict = field(default_factory=dict, init=False, compare=False, repr=False)

    def top(self, name: str) -> float:
        """The largest value of the table ``name`` (``"dense"``, ``"summary"``, ``"memory"``: an attribute
        holding a mapping of floats), 0.0 when it is empty; computed once per signals."""
        got = self._tops.get(name)
        if got is None:
            got = self._tops[name] = max(getattr(self, name).values(), default=0.0)
        return got


class Ranks(Mapping):
    """Key -> 1-based rank by value in ``table``, best first; ties share the better rank (one plus the number of
    keys with a larger value). A key's rank is read when it is asked for (a question's ranks are read for its
    candidates, a few of the table's keys); iteration goes best first, ties in ``table``'s order. ``table`` is
    read, never copied: it must not change."""

    __slots__ = ("_table", "_neg")

    def __init__(self, table: Mapping[StatuteRef, float]):
        self._table = table
        self._neg = sorted(-v for v in table.values())

    def __getitem__(self, key: StatuteRef) -> int:
        return bisect_left(self._neg, -self._table[key]) + 1

    def get(self, key: StatuteRef, default=None):
        v = self._table.get(key)
        return default if v is None else bisect_left(self._neg, -v) + 1

    def __contains__(self, key: object) -> bool:
        return key in self._table

    def __iter__(self):
        return iter(sorted(self._table, key=lambda k: -self._table[k]))

    def __len__(self) -> int:
        return len(self._table)


def rank_of(table: Mapping[StatuteRef, float]) -> Ranks:
    """Key -> 1-based rank by value, best first (ties share the better rank): :class:`Ranks` of ``table``."""
    return Ranks(table)


#: chunk id -> (the chunk, its section, its sub-sections' refs): what :func:`_best` reads of a chunk, kept for
#: the last :data:`_PARTS_KEPT` chunks met (checked by identity, so a chunk of another build is read again)
_PARTS_KEPT = 20000
_PARTS: Kept[str, tuple] = Kept(_PARTS_KEPT)


def _parts(c) -> tuple[StatuteRef, tuple[StatuteRef, ...]]:
    kept = _PARTS.get(c.id)
    if kept is None or kept[0] is not c:
        ref = c.ref.base
        limbs = tuple(StatuteRef(ref.act, ref.section, (sub,))
                      for sub in filter(None, dict(c.meta).get("subs", "").split(",")))
        kept = _PARTS.put(c.id, (c, ref, limbs))
    return kept[1], kept[2]


def _best(pairs, index) -> tuple[dict[StatuteRef, float], dict[StatuteRef, int], dict[StatuteRef, float]]:
    chunks = index.get([cid for cid, _ in pairs])
    best: dict[StatuteRef, float] = {}
    limb: dict[StatuteRef, float] = {}
    for cid, score in pairs:
        c = chunks.get(cid)
        if c is None or c.ref is None:
            continue
        ref, limbs = _parts(c)
        best.setdefault(ref, score)
        for r in limbs:
            limb.setdefault(r, score)
    return best, {r: i + 1 for i, r in enumerate(best)}, limb


def lifts(evidence, casebase, concordance, top_n: int) -> dict[StatuteRef, float]:
    """Section -> lift of ``evidence`` (:class:`legal_rag.retrieve.evidence.SectionEvidence`, new-code refs) over
    the case base's base rate (module docstring); ``{}`` without a case base."""
    if casebase is None or not evidence or not top_n:
        return {}
    n_all = max(len(casebase), 1)
    out = {}
    for e in evidence:
        refs = {e.ref, *(concordance.counterparts(e.ref, level="section") if concordance is not None else ())}
        df = min(sum(casebase.section_df(r) for r in refs), n_all)
        out[e.ref] = math.log((e.n_cases / top_n + LIFT_SMOOTHING) / (df / n_all + LIFT_SMOOTHING))
    return out


def gather(question: str, index, fields: FieldIndex, *, casebase=None, concordance=None, schedule=None,
           evidence_params=None, depth: int = DEPTH, memory=None, exclude=(), kind: str = "",
           classifier=None) -> Signals:
    """The signals of ``question`` (normal form) over ``index``'s statute chunks, ``fields``, ``casebase`` (None: no
    evidence) and the training questions' ``memory`` (:class:`legal_rag.rank.memory.Memory`, None: none; the
    ``exclude`` groups do not vote), the ``classifier`` fitted on them (:class:`legal_rag.rank.classifier.
    SectionClassifier`, None: none); ``kind``: the question's (:data:`legal_rag.types.QuestionKind`). Each retriever
    runs once."""
    from ..generate.head import offence_named
    from ..retrieve import Filters
    from ..retrieve.evidence import EvidenceParams, section_evidence

    statutes = Filters(kind="statute")
    vector = index.embed_query(question)
    dense, dense_rank, limb = _best(index.dense_search(vector, depth, statutes), index)
    sparse_pairs = index.sparse_search(question, depth, statutes)
    top = sparse_pairs[0][1] if sparse_pairs else 1.0
    sparse, sparse_rank, _ = _best([(c, s / top) for c, s in sparse_pairs], index)
    per_field = {name: fields.search(name, question) for name in FIELDS}
    ev_norm: dict[StatuteRef, float] = {}
    lift: dict[StatuteRef, float] = {}
    cases: dict[StatuteRef, tuple[str, ...]] = {}
    top_cases = 0
    if casebase is not None:
        params = evidence_params or EvidenceParams()
        ev = section_evidence(question, casebase, concordance=concordance, era="new", params=params)
        best = max((e.score for e in ev), default=1.0) or 1.0
        ev_norm = {e.ref: e.score / best for e in ev}
        lift = lifts(ev, casebase, concordance, params.top_cases)
        cases = {e.ref: tuple(c for c, _ in e.cases) for e in ev}
        top_cases = params.top_cases
    named = offence_named(question, schedule, "BNS") if schedule is not None else None
    mem, mem_limbs, vote = memory.read(vector, exclude) if memory is not None else ({}, {}, {})
    summary = fields.summary_scores(vector)
    p = classifier.proba(question, vector) if classifier is not None else {}
    return Signals(len(question.split()), vector, dense, dense_rank, sparse, sparse_rank, limb, per_field, ev_norm,
                   lift, named.base if named is not None else None, mem, mem_limbs, kind, summary,
                   {"memory": rank_of(mem), "summary": rank_of(summary), "classifier": rank_of(p)}, vote, cases,
                   top_cases, p, fields.title_cover(question))


__all__ = ["DEPTH", "LIFT_SMOOTHING", "Ranks", "Signals", "gather", "lifts", "rank_of"]
