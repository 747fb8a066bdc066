"""After verification: the :class:`~legal_rag.types.Answer` that ships (:func:`to_answer`), the sections its text
states for the supersession flags (:func:`answer_refs`), and its provisions arranged against the question
(:func:`relevant`, :func:`arrange_answer`; :mod:`legal_rag.generate.relevance`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ..cite import cite
from ..law import FoundRef, find_refs_within, quote_regions
from ..types import ACTS, Answer, Draft, Hit, SupersessionFlag, is_extractive
from .result import Verification


def answer_refs(text: str, passages: Sequence[Hit]) -> tuple[FoundRef, ...]:
    """The sections an answer ``text`` states (for supersession flags), with every quote read as the passage it
    quotes reads it: inside a quote of a sentence that cites statute passages of one Act only, an unqualified
    "section 306" is that Act's (:func:`legal_rag.law.refs.find_refs_within`), so a cross-reference inside a quoted
    section never raises a "names no Act" flag; a reference qualified by another Act stays that Act's. Inside a
    quote of a sentence that cites judgment passages only, nothing is read: the sections a quoted judgment names
    (its FIR's list, the charges below) are the court's mentions, not sections the answer relies on. Outside
    quotes (and in quotes of passages of several Acts) the citation grammar reads as usual."""
    regions = []
    for s in cite(text, passages).sentences:
        acts = {passages[n - 1].chunk.ref.act if passages[n - 1].chunk.ref is not None else None for n in s.markers}
        if acts == {None}:  # a judgment's words: blanked, same length, so offsets hold
            for a, b in quote_regions(s.text):
                text = text[:s.start + a] + " " * (b - a) + text[s.start + b:]
            continue
        if len(acts) != 1 or not acts <= set(ACTS):
            continue
        act = next(iter(acts))
        regions += [(s.start + a, s.start + b, act) for a, b in quote_regions(s.text)]
    return find_refs_within(text, regions)


def to_answer(draft: Draft, verification: Verification, *, flags: Sequence[SupersessionFlag] = (),
              index_id: str = "") -> Answer:
    """The :class:`~legal_rag.types.Answer` that ships: verified text and citations, the draft's passages and
    prompt, and the problems of both stages (a passage holding instructions addressed to a model is named: field
    case BL-41)."""
    marked = tuple(f"passage {cid} contains instructions addressed to a model; treated as data, never as an "
                   "instruction or as evidence" for cid in draft.flagged)
    return Answer(query=draft.question, text=verification.text, citations=verification.citations,
                  flags=tuple(flags), problems=(*draft.problems, *marked, *verification.problems),
                  passages=draft.passages,
                  model=draft.generator, prompt=draft.prompt, index_id=index_id,
                  prompt_tokens=draft.prompt_tokens, cached_tokens=draft.cached_tokens)


def relevant(answer: Answer, head: Sequence = (), analysis=None, concordance=None) -> Answer:
    """``answer`` (verified, before its head is prepended) with each cited provision judged against the question
    (:mod:`legal_rag.generate.relevance`): the body arranged so the provisions that answer lead in the head's order
    and the rest stand under "Related provisions" (an extractive answer's related quotes withheld, their headings
    kept), and ``Citation.related`` set on the citations of that part. The citations are those of the arranged text
    (:func:`~legal_rag.cite.cite`), each keeping the support and weight verification gave it. Unchanged when the
    question gives nothing to judge against (no head, no section named) or the answer abstained."""
    from ..generate.relevance import anchors

    return arrange_answer(answer, anchors(analysis, head, concordance))


def arrange_answer(answer: Answer, marks) -> Answer:
    """``answer`` arranged by the :class:`~legal_rag.generate.relevance.Anchors` ``marks`` (see :func:`relevant`);
    an answer of the extractive generator (:func:`~legal_rag.types.is_extractive` of ``answer.model``) is arranged
    as quotes under headings."""
    from ..generate.relevance import arrange

    if not marks.refs or not answer.citations:
        return answer
    arranged = arrange(answer.text, answer.passages, marks, extractive=is_extractive(answer.model))
    if arranged.text == answer.text:
        return answer
    old = {(c.marker, c.sentence): c for c in answer.citations}
    cited = cite(arranged.text, answer.passages)
    citations, k = [], 0
    for s in cited.sentences:
        for c in cited.citations[k:k + len(s.markers)]:
            was = old.get((c.marker, c.sentence)) or next(
                (o for (m, t), o in old.items() if m == c.marker and c.sentence.startswith(t)), None)
            citations.append(dataclasses.replace(
                c, support=was.support if was else "unchecked", weight=was.weight if was else None,
                related=s.start >= arranged.related_from))
        k += len(s.markers)
    return dataclasses.replace(answer, text=arranged.text, citations=tuple(citations))
