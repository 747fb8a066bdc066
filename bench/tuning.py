"""Choosing section-finding weights on the AILA training queries (``bench/run.py --only sectionfind``): a grid over
the fields of :class:`legal_rag.retrieve.sectionfind.FusionWeights` and :class:`legal_rag.retrieve.evidence.
EvidenceParams` (:func:`choose`, ties to the current defaults), and a case base that answers each search once for a
whole grid (:class:`CachedCaseBase`). The figures are in ``bench/results.md``, "Section finding".
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Callable, Collection, Mapping, Sequence

from legal_rag.retrieve.evidence import EvidenceParams
from legal_rag.retrieve.sectionfind import FusionWeights


class CachedCaseBase:
    """A case base whose ``search`` results are kept per ``(query, exclude)`` at the deepest ``k`` asked, so a grid
    over evidence parameters searches each query once. Every other call goes to the wrapped case base."""

    def __init__(self, casebase):
        self.cb = casebase
        self.hits: dict = {}

    def __len__(self) -> int:
        return len(self.cb)

    def __getattr__(self, name):
        return getattr(self.cb, name)

    def search(self, query: str, k: int, exclude: Collection[str] = ()) -> list:
        key = (query, tuple(sorted(exclude)))
        have = self.hits.get(key)
        if have is None or have[0] < k:
            have = (k, self.cb.search(query, k, exclude))
            self.hits[key] = have
        return have[1][:k]


def grid(space: Mapping[str, Sequence]) -> list[dict]:
    """Every combination of ``space`` (``{"alpha": [0, 1], ...}``), in a fixed order."""
    keys = list(space)
    return [dict(zip(keys, vals)) for vals in itertools.product(*(space[k] for k in keys))]


def choose(evaluate: Callable[[FusionWeights, EvidenceParams], float], weights: FusionWeights,
           params: EvidenceParams, space: Mapping[str, Sequence], log: Callable[[str], None] | None = None,
           prefer: Mapping | None = None) -> tuple[FusionWeights, EvidenceParams, float, list[tuple[dict, float]]]:
    """Coordinate-free grid search: every point of ``space`` (keys are fields of FusionWeights or EvidenceParams)
    evaluated by ``evaluate`` (a training-query metric); the best point wins. Ties (values within 1e-12) go to
    ``prefer`` (a point of ``space``, e.g. the current defaults: a re-choice moves only when the training value
    says so) when it is among the best, else to the first best point in grid order. Returns the chosen weights and
    params, the best value and every ``(point, value)``.

    ``choose(f, w, p, {"rrf_k": [5, 60]}, prefer={"rrf_k": 60})`` keeps ``rrf_k=60`` when both score the same."""
    wf, pf = set(FusionWeights.__dataclass_fields__), set(EvidenceParams.__dataclass_fields__)
    table = []
    for point in grid(space):
        w = replace(weights, **{k: v for k, v in point.items() if k in wf})
        p = replace(params, **{k: v for k, v in point.items() if k in pf})
        v = evaluate(w, p)
        table.append((point, v))
        if log:
            log(f"  {point} -> {v:.4f}")
    top = max(v for _, v in table)
    best = [pt for pt, v in table if v >= top - 1e-12]
    pick = dict(prefer) if prefer is not None and dict(prefer) in best else best[0]
    w = replace(weights, **{k: v for k, v in pick.items() if k in wf})
    p = replace(params, **{k: v for k, v in pick.items() if k in pf})
    return w, p, top, table


__all__ = ["CachedCaseBase", "choose", "grid"]
