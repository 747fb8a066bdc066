"""The statute answerer: passages, the composed head, generation (streamed), verification, then :func:`finish`
(DESIGN.md, "The flow", statute route)."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator

from ..law import Question
from ..types import Answer, Draft, Notice
from .context import Context
from .finish import finish
from .head import bare_notices, bare_of, compose, head_chunks
from .passages import find_passages, lead_of

_DONE = object()


def streamed(run, *args, **kwargs) -> Iterator[str | Draft]:
    """The text pieces ``run(*args, on_token=..., **kwargs)`` emits while it runs on a worker thread, then the
    :class:`Draft` it returns. An exception raised by ``run`` is raised here, in the caller's thread."""
    pieces: queue.Queue = queue.Queue()
    result: dict = {}

    def work() -> None:
        try:
            result["draft"] = run(*args, on_token=pieces.put, **kwargs)
        except BaseException as exc:  # re-raised in the caller's thread
            result["error"] = exc
        finally:
            pieces.put(_DONE)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    while (piece := pieces.get()) is not _DONE:
        yield piece
    worker.join()
    if "error" in result:
        raise result["error"]
    yield result["draft"]


def outside_notice(act: str) -> str:
    """What an answer says of a question the section ranker reads as governed by ``act``, an Act the sources do
    not hold."""
    law = f"the {act}" if act else "an Act"
    return (f"This question appears to be governed by {law}, which the sources do not include; no provision of "
            "the BNS, BNSS or BSA is offered in its place.")


def answer_statute(question: Question, ctx: Context, found: tuple[Notice, ...] = ()) -> Iterator[str | Answer]:
    """Pieces of the draft as they are generated, then the verified :class:`Answer`, opened by the question's
    notices and then ``found`` (notices found before answering, e.g. a case citation's check)."""
    from ..generate import generate, search_text
    from ..generate.abstain import reference_found
    from ..verify import verify

    res, settings = ctx.resources, ctx.settings
    text, analysis = question.text, question.analysis
    bare = bare_of(res, analysis)  # a number written without its Act: its readings, ordered, and a notice each
    found = (*found, *bare_notices(res, bare))
    yield from (n.text + "\n\n" for n in (*question.notices, *found))
    hits, suggestions, ranking = find_passages(res, settings, text, analysis, ctx.filters,
                                               dense_query=search_text(text, settings) if settings.hyde else None,
                                               followup=question.followup)
    if ranking is not None and ranking.outside:
        note = Notice("scope", outside_notice(ranking.other_act))
        found = (*found, note)
        yield note.text + "\n\n"
    lead = lead_of(suggestions, ranking, res.section_ranker.ranker.close) if suggestions else ()
    head = compose(res, analysis, lead, bare)  # before generation: a language model is given it
    draft = None
    for piece in streamed(generate, analysis, hits, settings,
                          known_case=lambda ref: reference_found(ref, res.case_heads),
                          head=head, head_chunks=head_chunks(res, head, ctx.filters)):
        if isinstance(piece, Draft):
            draft = piece
        else:
            yield piece
    ver = verify(draft, on_unsupported=settings.unsupported_claims, reattribute=settings.reattribute_citations,
                 sections=res.index.by_ref)
    yield finish(draft, ver, question, head, suggestions, ctx, found)


__all__ = ["answer_statute", "outside_notice", "streamed"]
