"""Which provision governs a question: candidates from every signal, scored by the fitted ranker, the limb chosen
inside each, and the question's Act (in the corpus or not).

``SectionRanker(index, fields, casebase=..., concordance=..., schedule=..., ranker=...).rank(question)`` ->
:class:`legal_rag.rank.model.Ranking`: the signals once (:func:`legal_rag.rank.signals.gather`), ``P(Act)`` from
the question's embedding, the candidates (:func:`legal_rag.rank.features.candidates`) scored by ``P(governs)``
(the softmax of the section model's scores over the candidates) best first (ties by reference), each with its limb
(the sub-section the limb model scores highest among the section's printed sub-sections). ``outside`` is set when
the outside model's ``P(outside)`` (:func:`legal_rag.rank.features.outside_vector`: the share of ``P(Act)`` on
Acts the corpus does not hold beside how near the question is to the memory's questions and the statutes) reaches the ranker's ``out_of_corpus``
threshold.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..types import StatuteRef
from .features import candidates, limb_matrix, outside_vector, section_matrix
from .fields import FieldIndex, Limb
from .classifier import SectionClassifier
from .memory import Memory
from .model import OTHER, Ranked, Ranker, Ranking, softmax
from .signals import Signals, gather

#: how many candidates a ranking keeps
KEEP = 10


def in_corpus_acts(probs: dict[str, float]) -> dict[str, float]:
    """``P(Act)`` of the Acts the corpus holds (the classes without the :data:`~legal_rag.rank.model.OTHER`
    prefix)."""
    return {k: v for k, v in probs.items() if not k.startswith(OTHER)}


@dataclass
class SectionRanker:
    """A question's ranking over ``index`` (module docstring)."""

    index: object
    fields: FieldIndex
    ranker: Ranker | None = None
    casebase: object = None
    concordance: object = None
    schedule: object = None
    memory: Memory | None = None
    classifier: SectionClassifier | None = None

    def signals(self, question: str, exclude=(), kind: str | None = None) -> Signals:
        """The question's signals (:func:`legal_rag.rank.signals.gather`); memory questions of the ``exclude``
        groups do not vote; ``kind``: the question's kind (None: read by :func:`legal_rag.law.analyse`)."""
        if kind is None:
            from ..law import analyse

            kind = analyse(question, concordance=self.concordance).kind
        return gather(question, self.index, self.fields, casebase=self.casebase, concordance=self.concordance,
                      schedule=self.schedule, memory=self.memory, exclude=exclude, kind=kind,
                      classifier=self.classifier)

    def predecessors(self, refs) -> dict[StatuteRef, tuple[StatuteRef, ...]]:
        if self.concordance is None:
            return {}
        return {r: self.concordance.counterparts(r, level="section") for r in refs}

    def candidates(self, s: Signals) -> tuple[StatuteRef, ...]:
        succ = (lambda r: self.concordance.counterparts(r, level="section")) if self.concordance is not None \
            else (lambda r: ())
        return candidates(s, succ, self.fields.fields.keys())

    def limb(self, question: str, s: Signals, ref: StatuteRef) -> StatuteRef | None:
        limbs: tuple[Limb, ...] = self.fields.fields[ref].limbs if ref in self.fields.fields else ()
        if not limbs:
            return None
        x = limb_matrix(s, limbs, self.fields.limb_scores(question, limbs))
        return limbs[int(np.argmax(self.ranker.limbs.decision(x)))].ref

    def rank(self, question: str, s: Signals | None = None, keep: int = KEEP, kind: str | None = None) -> Ranking:
        """The ranking of ``question`` (module docstring); ``s``: its signals when already gathered; ``kind``: its
        kind when already read."""
        s = s or self.signals(question, kind=kind)
        if len(s.vector) != len(self.ranker.acts.mean):  # an index embedded by another model: nothing is chosen
            return Ranking(())
        probs = self.ranker.act_probs(s.vector)
        acts = in_corpus_acts(probs)
        other = {k[len(OTHER):]: v for k, v in probs.items() if k.startswith(OTHER)}
        share = sum(other.values())
        refs = self.candidates(s)
        out: tuple[Ranked, ...] = ()
        if refs:
            p = softmax(self.ranker.sections.decision(section_matrix(s, refs, acts, self.predecessors(refs))))
            order = sorted(range(len(refs)), key=lambda i: (-p[i], str(refs[i])))[:keep]
            out = tuple(Ranked(refs[i], float(p[i]), self.limb(question, s, refs[i]), s.dense_rank.get(refs[i]),
                               s.cases.get(refs[i], ()), s.top_cases) for i in order)
        other_act = max(other, key=other.get) if other else ""
        p_out = float(self.ranker.outside.proba(outside_vector(s, share))[0])
        return Ranking(out, share, other_act, p_out >= self.ranker.out_of_corpus)


__all__ = ["KEEP", "SectionRanker", "in_corpus_acts"]
