"""Answering a question that has been read (:class:`legal_rag.law.read.Question`): one answerer per route, chosen
from one table (:data:`ANSWERERS`), each a generator of text pieces ending with the :class:`~legal_rag.types.Answer`.

    for piece in ANSWERERS[question.route](question, Context(settings, resources, filters)): ...

Routes (:data:`legal_rag.law.read.Route`): ``language`` (:func:`refuse_language`), ``judgment``
(:func:`answer_judgment`), ``cited statute`` (:func:`answer_cited_statute`: a case citation's check, then the
statute answer), ``statute`` (:func:`answer_statute`: passages, head, generation, verification, :func:`finish`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..law import Question, Route
from ..types import Answer
from .context import Context
from .finish import finish, passage_flags
from .judgment import answer_cited_statute, answer_judgment, refuse_language
from .passages import find_passages
from .statute import answer_statute

Answerer = Callable[[Question, Context], Iterator["str | Answer"]]

#: the route table: which answerer answers each route
ANSWERERS: dict[Route, Answerer] = {
    "language": refuse_language,
    "judgment": answer_judgment,
    "cited statute": answer_cited_statute,
    "statute": answer_statute,
}

__all__ = ["ANSWERERS", "Answerer", "Context", "answer_cited_statute", "answer_judgment", "answer_statute", "find_passages", "finish",
           "passage_flags", "refuse_language"]
