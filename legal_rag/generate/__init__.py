"""Generation: retrieved passages -> a :class:`~legal_rag.types.Draft` with ``[n]`` markers (front door
:func:`generate`). Citations are resolved by :mod:`legal_rag.cite` and every claim is checked by
:mod:`legal_rag.verify`; nothing a generator writes is shipped unchecked.

Order of work in :func:`generate`:

1. flag passages that contain instructions (:mod:`.injection`; they stay data);
2. abstain, without calling any model, when the question names a judgment that is not in the sources or no
   passage clears the relevance floor (:mod:`.abstain`);
3. ``extractive``: quote the best sentences (:mod:`.extractive`); an LLM: build the prompt from
   ``prompts/``, dropping whole passages from the bottom until it fits the model's context (:mod:`.prompt`),
   generate (streaming to ``on_token``), and, with ``settings.attribution``, weigh the passages by the
   RAG-Sequence posterior (:mod:`.attribute`).
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..config import Settings
from ..text import normalise
from ..law import chunk_layout
from ..types import EXTRACTIVE, Chunk, Draft, HeadLine, Hit, StatuteRef
from .abstain import (NOT_IN_SOURCES, CaseReference, case_references, is_abstention_sentence, missing_case_message,
                      missing_cases, relevant)
from .attribute import Attribution, attribute, retrieval_prior, sequence_posterior
from .extractive import compose
from .hyde import hypothetical_passage, search_text
from ..injection import contains_instructions, flag_instructions, instruction_spans
from .backends import ChatBackend, Generation, get_backend
from .grammar import cited_sentences
from .prompt import assemble, build_prompt, head_refs, load_template, render

if TYPE_CHECKING:
    from ..law import QuestionAnalysis

__all__ = ["generate", "Draft", "NOT_IN_SOURCES", "CaseReference", "case_references", "missing_cases",
           "Attribution", "retrieval_prior", "sequence_posterior", "hypothetical_passage", "search_text",
           "contains_instructions", "flag_instructions", "instruction_spans", "ChatBackend", "Generation",
           "get_backend", "build_prompt", "load_template", "render"]


def _abstain(question: str, text: str, flagged: tuple[str, ...], generator: str, t0: float,
             problems: tuple[str, ...] = ()) -> Draft:
    return Draft(question, text, abstained=True, generator=generator, flagged=flagged, problems=problems,
                 total_s=time.perf_counter() - t0, found_nothing=text == NOT_IN_SOURCES)


def prints_sub(chunk: Chunk, ref: StatuteRef) -> bool:
    """True when statute ``chunk`` is of ``ref``'s section and prints the marker of its sub-section ``ref.sub[0]``
    ("(4)"; :func:`legal_rag.law.pinpoint.chunk_layout`), where the sub-section's words and punishment begin; a
    chunk that only continues it does not count."""
    if chunk.ref is None or not ref.sub or (chunk.ref.act, chunk.ref.section) != (ref.act, ref.section):
        return False
    return any(d.sub == ref.sub[0] for d in chunk_layout(chunk).subs)


def llm_passages(passages: Sequence[Hit], head: Sequence[HeadLine], limit: int,
                 head_chunks: Sequence[Chunk] = ()) -> tuple[Hit, ...]:
    """The passages a language model is given: with a composed head, those of the head's provisions
    and their BPR&D counterparts (same Act and section) when any was retrieved, else the best ones; at most
    ``limit``, in retrieval order. Then, for each provision of the head that names a sub-section
    (:func:`~.prompt.head_refs`, in order) when none of the first ``limit`` prints it (:func:`prints_sub`): the
    retrieved passage that does, else the chunk of ``head_chunks`` (the head's sections as stored, given by the
    pipeline) that does, as a ``lookup`` hit, takes the place of the section's first passage, which moves to the
    end; or comes first when none of the section was retrieved (ahead of the best passages when none of the
    head's was). So "BNS 318(4)" is given the chunk printing (4) and its punishment, not the retrieved chunk of
    the section's illustrations (a model cites what it is given).
    Fewer passages, fewer prompt tokens to prefill (``bench/results_answers.md``)."""
    refs = head_refs(head)
    secs = {(r.act, r.section) for r in refs}
    own = [h for h in passages if h.chunk.ref is not None and (h.chunk.ref.act, h.chunk.ref.section) in secs]
    ordered = own or list(passages)
    looked = [Hit(c, 0.0, "lookup", i) for i, c in enumerate(head_chunks, 1)]
    for r in (r for r in refs if r.sub):
        if any(prints_sub(h.chunk, r) for h in ordered[:limit]):
            continue
        src = next((h for h in ordered if prints_sub(h.chunk, r)), None) or \
            next((h for h in looked if prints_sub(h.chunk, r)), None)
        if src is None:
            continue
        ordered = [h for h in ordered if h is not src]
        slot = next((i for i, h in enumerate(ordered)
                     if h.chunk.ref is not None and (h.chunk.ref.act, h.chunk.ref.section) == (r.act, r.section)), None)
        if slot is None:
            ordered.insert(0, src)
        else:
            ordered = [*ordered[:slot], src, *ordered[slot + 1:], ordered[slot]]
    return tuple(ordered[:limit])


def generate(question: QuestionAnalysis | str, hits: Sequence[Hit], settings: Settings, *,
             backend: ChatBackend | None = None, on_token: Callable[[str], None] | None = None,
             known_case: Callable[[CaseReference], bool] | None = None,
             head: Sequence[HeadLine] = (), head_chunks: Sequence[Chunk] = ()) -> Draft:
    """Answer ``question`` from ``hits`` (best first; at most ``settings.top_k`` are used).

    ``question``: the question's analysis (:func:`legal_rag.law.question.analyse`), which every step reads (the
    judgments and sections it names, the words it asks with); a question's text is analysed first (the tables of
    ``settings.corpus_path``). ``Draft.question`` is the question's text.

    ``head``: the answer's composed head (:func:`legal_rag.generate.head.compose_head`); a language model is given
    it and the passages of its provisions when ``settings.generator_head`` (:func:`llm_passages`); with
    ``settings.generator_grammar`` a backend that can (``supports_grammar``) decodes under the
    :mod:`.grammar` of ``[n]``-cited sentences. ``head_chunks``: the stored chunks of the head's sections, from which
    the model is given the one printing the head's sub-section when retrieval did not rank it
    (``settings.generator_head_passages``; :func:`llm_passages`).

    ``backend`` overrides the one ``settings.generator`` names (tests, a shared warm model). ``on_token``
    receives text as it is produced (lines for ``extractive``). ``known_case`` lets the pipeline say whether
    the whole index holds a judgment the question names (see :mod:`.abstain`).

    Raises :class:`~legal_rag.errors.ConfigError` for a bad template, an unknown generator or a model that
    cannot be loaded; a server failure raises :class:`~legal_rag.errors.LegalRagError`.
    """
    t0 = time.perf_counter()
    analysis = question
    if isinstance(analysis, str):
        from ..law import analyse, load_concordance

        analysis = analyse(analysis, concordance=load_concordance(settings.corpus_path))
    question = analysis.question
    hits = tuple(hits)[: settings.top_k]
    flagged = flag_instructions(hits)
    name = backend.name if backend is not None else settings.generator
    missing = missing_cases(analysis, hits, known_case)
    if missing:
        return _abstain(question, " ".join(missing_case_message(r) for r in missing), flagged, name, t0,
                        tuple(f"judgment not in the indexed sources: {r.text}" for r in missing))
    invalid = analysis.invalid_notes
    if invalid:
        return _abstain(question, "; ".join(invalid) + ". " + NOT_IN_SOURCES, flagged, name, t0,
                        tuple(f"section that does not exist: {n}" for n in invalid))
    passages = relevant(analysis, hits, settings.relevance_floor)
    if not passages:
        return _abstain(question, NOT_IN_SOURCES, flagged, name, t0,
                        (f"no passage cleared the relevance floor ({len(hits)} retrieved)",))

    if backend is None and settings.generator == "extractive":
        text = compose(question, passages)
        if not text:
            return _abstain(question, NOT_IN_SOURCES, flagged, "extractive", t0, ("no quotable sentence",))
        ttft = time.perf_counter() - t0
        if on_token:
            for line in text.splitlines(keepends=True):
                on_token(line)
        return Draft(question, text, passages=passages, generator="extractive", flagged=flagged, ttft_s=ttft,
                     total_s=time.perf_counter() - t0)

    backend = backend or get_backend(settings)
    head = tuple(head) if settings.generator_head else ()
    passages = llm_passages(passages, head, settings.generator_passages,
                            head_chunks if head and settings.generator_head_passages else ())
    problems: list[str] = []
    if settings.generator_prompt_tokens:
        kept = list(passages)
        while len(kept) > 1 and backend.count_tokens(assemble(
                analysis, kept, settings.prompts_dir, compact=settings.generator_compact, head=head)) \
                > settings.generator_prompt_tokens:
            kept.pop()
        if len(kept) < len(passages):
            problems.append(f"{len(passages) - len(kept)} passage(s) left out to keep the prompt within "
                            f"generator_prompt_tokens={settings.generator_prompt_tokens}")
        passages = tuple(kept)
    budget = min(backend.context_tokens, settings.generator_context_tokens) - settings.generator_max_new_tokens
    build = build_prompt(analysis, passages, settings.prompts_dir, count_tokens=backend.count_tokens,
                         budget=budget, counter="tokenizer" if backend.exact_tokens else "estimate",
                         compact=settings.generator_compact, head=head)
    if build.counter == "estimate":
        problems.append("prompt tokens estimated (no tokenizer for this model); passages dropped conservatively")
    if build.repeats:
        problems.append(f"{len(build.repeats)} passage(s) left out: another passage of the same section shows all "
                        "they would (chunk overlap): " + ", ".join(h.chunk.id for h in build.repeats))
    if build.dropped:
        problems.append(f"{len(build.dropped)} passage(s) dropped to fit {budget} prompt tokens: "
                        + ", ".join(h.chunk.id for h in build.dropped))
    if not build.passages:
        return _abstain(question, NOT_IN_SOURCES, flagged, backend.name, t0,
                        (*problems, f"the prompt without passages needs {build.tokens} tokens > {budget}"))
    extra = {}
    if settings.generator_grammar and getattr(backend, "supports_grammar", False):
        extra["grammar"] = cited_sentences(build.numbers)
    gen = backend.chat(build.messages, max_new_tokens=settings.generator_max_new_tokens, on_token=on_token, **extra)
    text = without_stray_abstention(gen.text)
    if text != gen.text:
        problems.append(f"{backend.name} wrote the abstention sentence beside an answer; that sentence was dropped")
        gen = dataclasses.replace(gen, text=text)
    if gen.finish_reason == "length":
        problems.append(f"generation stopped at {settings.generator_max_new_tokens} new tokens")
        whole = finished_sentences(gen.text)
        if whole and whole != gen.text.strip():  # none finished: the verifier judges what there is
            problems.append("its unfinished last sentence was dropped")
            gen = dataclasses.replace(gen, text=whole)
    weights: tuple[float, ...] = ()
    if settings.attribution:
        att = attribute(gen.text, build.passages, build.numbers,
                        lambda h, n: assemble(analysis, [h], settings.prompts_dir, [n],
                                              compact=settings.generator_compact, head=head),
                        backend.sequence_logprob)
        if att is not None:
            weights = att.posterior
        else:
            problems.append(f"no passage weights: {backend.name} exposes no token log-probabilities")
    if is_abstention_sentence(gen.text):
        # A small model may answer "not in the sources" although passages cleared the relevance floor
        # (bench/results_answers.md). The reader gets the passages' own sentences instead, each quoted and cited, and is told so.
        quoted = compose(question, build.passages)
        if quoted:
            problems.append(f"{backend.name} answered that the sources do not contain the answer although "
                            f"{len(build.passages)} passage(s) cleared the relevance floor; the answer quotes them "
                            "instead (extractive)")
            return Draft(question, quoted, passages=build.passages, dropped=build.dropped,
                         generator=f"{backend.name}+{EXTRACTIVE}", prompt=build.text, prompt_tokens=build.tokens,
                         cached_tokens=gen.cached_tokens,
                         flagged=flagged, problems=tuple(problems), ttft_s=gen.ttft_s,
                         total_s=time.perf_counter() - t0)
    return Draft(question, gen.text, passages=build.passages, dropped=build.dropped, generator=backend.name,
                 prompt=build.text, prompt_tokens=build.tokens, cached_tokens=gen.cached_tokens, flagged=flagged,
                 weights=weights, problems=tuple(problems), ttft_s=gen.ttft_s, total_s=time.perf_counter() - t0,
                 found_nothing=is_abstention_sentence(gen.text))


_STRAY = re.compile(r"\s*" + re.escape(NOT_IN_SOURCES.rstrip(".")) + r"\.?\s*(?:\[\d+\]\s*)*\.?", re.I)


def without_stray_abstention(text: str) -> str:
    """``text`` without the abstention sentence (``prompts/system.txt`` rule 3) when it stands beside other
    sentences ("... [1]. The indexed sources do not contain the answer to this question. [3]"): an answer either
    abstains, whole, or answers; the cited sentences are kept and still verified. Unchanged when the abstention is
    the whole reply or absent."""
    rest = _STRAY.sub(" ", text).strip()
    return rest if rest and rest != text.strip() else text


_SENTENCE_END = re.compile(r"(?:\[\d+\]\s*\.|\.\s*(?:\[\d+\])+)")


def finished_sentences(text: str) -> str:
    """``text`` up to the end of its last cited sentence (``... fine [1].`` or ``... fine. [1]``, the forms of
    :mod:`.grammar`): a reply cut at ``max_new_tokens`` ends in an unfinished sentence, which states nothing whole and
    carries no marker. ``""`` when no sentence was finished."""
    ends = list(_SENTENCE_END.finditer(text))
    return text[: ends[-1].end()].strip() if ends else ""
