"""The only module that wires the stages together (DESIGN.md, "The flow").

``Pipeline(settings)`` is cheap to build: no model, index or table is loaded until first use.

Public API (used by ``legal_rag.cli``, ``legal_rag.ui`` and any HTTP API; they hold no logic of their own):

* ``Pipeline.ask(question, offence_date=None, filters=None, generator=None, previous=None) -> Answer`` (``previous``:
  the previous turn, for a follow-up question; see :meth:`Pipeline.ask_stream`)
* ``Pipeline.ask_stream(...) -> Iterator[str | Answer]``: text pieces as they are generated, then the final
  verified ``Answer`` last. What streams is the *draft*; the ``Answer`` is what survived verification.
* ``Pipeline.search(query, filters=None, dense_query=None) -> tuple[Hit, ...]`` (fused, reranked when a reranker
  is set; ``dense_query`` (HyDE) feeds the dense retriever only)
* ``Pipeline.lookup(text) -> LookupResult`` (correspondence tables + First Schedule classification + section texts;
  no model)
* ``Pipeline.source_file(name) -> Path``: the corpus file whose manifest file name is ``name``
  (:func:`legal_rag.ingest.corpus_file`); raises ``LegalRagError`` for anything else.
* ``Pipeline.for_owner(owner) -> Pipeline``: the pipeline that answers ``owner`` (:class:`legal_rag.uploads.Owner`)
  from the corpus and that owner's uploads (and the shared library when ``uploads_shared`` is on); the same
  pipeline when there are none. Nobody else's uploads are ever searched.
* ``Pipeline.add_upload(owner, path, name=None, progress=None, cancelled=None) -> (IngestReport, UploadDoc | None)``,
  ``list_uploads(owner)``, ``remove_upload(owner, doc_id)``, ``upload_file(owner, doc_id)``: the owner's uploads
  (:mod:`legal_rag.uploads`); ``ingest_upload(path, owner=None) -> IngestReport`` is ``add_upload``'s report, for
  the command line's own owner by default.
* The served build is re-read when ``legal-rag index`` publishes a new one (checked at each question and look-up);
  the build served before it is closed at the next switch.
* ``build(settings, only=None, progress=True) -> (IngestReport, stats)``: ingest the corpus and (re)build the index.

``filters`` is a :class:`legal_rag.retrieve.Filters` or a dict with optional keys ``act`` (str or list), ``code``
("old" | "new"; ``codes`` is accepted too, "both" means no filter), ``kind`` ("statute" | "judgment"), ``court``,
``year_from``, ``year_to`` (``year``: both); any other key raises :class:`~legal_rag.errors.FilterError` naming it
before any work is done. ``offence_date`` is a ``datetime.date`` or ISO string.

User text enters here: every question, search and look-up is put in one normal form first
(:func:`legal_rag.law.normalise.normalise_input`: ASCII digits, no control characters, NFKC, straight quotes and
dashes, Hindi Act names read) and refused above ``Settings.question_max_chars`` characters
(:class:`~legal_rag.errors.InputTooLongError`). A question in a script the sources are not written in is answered
with a plain statement that its language is not supported, never a bare "not in the sources".
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import queue
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, get_args

from .config import Settings, load_settings
from .errors import ConfigError, CorpusError, InputTooLongError, LegalRagError
from .injection import instruction_problems
from .types import (OLD_ACTS, Answer, Chunk, GeneratorName, HeadLine, Hit, IngestReport, SectionSuggestion,
                    SupersessionFlag)

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from .generate import CaseReference
    from .index import Index
    from .index.casebase import CaseBase
    from .law import Concordance, LookupResult, Schedule
    from .law.followup import Turn
    from .law.question import QuestionAnalysis
    from .rerank import Reranker
    from .retrieve import Filters

    FilterArg = Filters | Mapping[str, Any] | None
    Previous = Answer | QuestionAnalysis | Turn | str | None

_DONE = object()


#: what is cached per served build (dropped when a new build is published, and made anew for each owner's view)
_PER_BUILD = ("index", "_case_heads", "_judgment_chunks", "_case_records", "casebase")
#: owners' views kept at once (:meth:`Pipeline.for_owner`)
_VIEWS = 16


class Pipeline:
    def __init__(self, settings: Settings | None = None):
        self.settings = settings or load_settings()
        self._lock = threading.Lock()
        self._views: dict[tuple, Pipeline] = {}
        self._retired: list = []

    # ---- lazily loaded stages -------------------------------------------------------------------
    @cached_property
    def index(self) -> Index:
        from .index import open_index

        return open_index(self.settings)

    @cached_property
    def concordance(self) -> Concordance:
        from .law import load_concordance

        return load_concordance(self.settings.corpus_path)

    @cached_property
    def schedule(self) -> Schedule:
        """The First Schedules' rows (offence classification: BNSS for the BNS, CrPC for the IPC), parsed from the
        corpus PDFs once and cached on disk (:func:`legal_rag.ingest.schedules.load_schedules`); empty when the
        corpus has neither PDF or a schedule cannot be read (a look-up then shows no classification)."""
        from .ingest.schedules import load_schedules
        from .law import Schedule

        try:
            return load_schedules(self.settings)
        except CorpusError:
            return Schedule(())

    @cached_property
    def casebase(self) -> CaseBase | None:
        """The case base built by :func:`build` (judgments with the sections each paragraph cites, BM25 over
        paragraphs); ``None`` when none was built for these inputs or ``settings.casebase`` is off. Never builds."""
        from .retrieve.casebase_build import open_casebase

        return open_casebase(self.settings)

    @cached_property
    def reranker(self) -> Reranker:
        from .rerank import Reranker

        return Reranker.from_settings(self.settings)

    @cached_property
    def _case_heads(self) -> tuple[Hit, ...]:
        """The first chunk of every judgment in the index, as pseudo-hits for the judgment-exists check."""
        heads = {}
        for c in self.index.chunks().values():
            if c.kind == "judgment" and (c.case not in heads or c.part < heads[c.case].part):
                heads[c.case] = c
        return tuple(Hit(c, 0.0, "catalog", i + 1) for i, c in enumerate(heads.values()))

    # ---- public API -----------------------------------------------------------------------------
    def generators(self) -> tuple[GeneratorName, ...]:
        """Generators usable here: ``extractive`` always, others when their package/model is installed."""
        from .generate.backends import available_generators

        return available_generators(self.settings)

    def search(self, query: str, filters: FilterArg = None, dense_query: str | None = None,
               analysis: QuestionAnalysis | None = None) -> tuple[Hit, ...]:
        """Hybrid retrieval with look-up and official successors, then the reranker. ``dense_query`` (HyDE)
        feeds the dense retriever only; everything else reads ``query`` (normalised, :meth:`read_input`).
        ``analysis`` (:func:`legal_rag.retrieve.route.analyse_question`, made once per question by
        :meth:`ask_stream`) routes the search to its ``acts_first`` and resolves its section idioms; it is made
        here from ``query`` when not given. For a fact pattern the sections suggested by precedents lead
        (:meth:`search_with_suggestions`)."""
        return self.search_with_suggestions(query, filters, dense_query, analysis)[0]

    def search_with_suggestions(self, query: str, filters: FilterArg = None, dense_query: str | None = None,
                                analysis: QuestionAnalysis | None = None
                                ) -> tuple[tuple[Hit, ...], tuple[SectionSuggestion, ...]]:
        """:meth:`search`, and the section suggestions for a fact-pattern question (issue 13): an offence or
        punishment question that names no section (:func:`legal_rag.retrieve.suggest.is_fact_pattern`) is
        answered from the sections the most similar judgments cite, fused with the statute text
        (:func:`legal_rag.retrieve.sectionfind.find_sections`); the first chunks of the best suggestions (stage
        ``evidence``; how many: :func:`legal_rag.retrieve.suggest.lead_for`) lead the hits. ``((), ...)``
        shapes: (hits, suggestions); suggestions are ``()`` for any other question."""
        from .retrieve import Filters, with_successors
        from .retrieve.route import analyse_question
        from .retrieve.search import search
        from .retrieve.suggest import lead_for, statutes_first, suggest, suggestion_hits

        self._fresh()
        query, filters = self.read_input(query), self.resolve_filters(filters)
        if analysis is None:
            analysis = analyse_question(query, concordance=self.concordance)
        hits = with_successors(query, search(query, self.index, self.settings, filters=filters,
                                             dense_query=dense_query, analysis=analysis),
                               self.index, self.concordance, filters, derived=self.derived_division)
        suggestions = suggest(query, analysis, self.index, self.casebase, self.settings,
                              concordance=self.concordance, filters=filters)
        lead = suggestion_hits(suggestions, self.index, self.casebase, self.concordance, filters,
                               lead=lead_for(suggestions, query)) if suggestions else []
        seen = {h.chunk.id for h in lead}
        hits = tuple(dataclasses.replace(h, rank=i + 1) for i, h in enumerate(
            [*lead, *statutes_first([h for h in hits if h.chunk.id not in seen], analysis)]))
        if self.reranker.enabled:
            hits = self.reranker.rerank(query, hits, top_k=max(self.settings.top_k, len(hits)),
                                        rerank_candidates=self.settings.rerank_candidates)
        return tuple(hits), suggestions

    def lookup(self, text: str) -> LookupResult:
        """Section look-up: the correspondence row(s), the First Schedule rows that classify the section and its
        counterparts (:attr:`schedule`) and, when an index is built, the sections' texts.
        ``text`` is normalised first ("IPC ४२०", "आईपीसी 420" -> "IPC 420")."""
        from .law import lookup

        self._fresh()
        return lookup(self.read_input(text), self.concordance,
                      sections=self.index.sections() if self._has_index else None, schedule=self.schedule)

    def derived_division(self, ref):
        """The division of the new code the texts align ``ref`` to where the official table stops at a section
        (IPC 376(2)(n) -> BNS 64(2)(m), "derived from the texts", not official: :func:`legal_rag.law.align.align`
        over the indexed sections), or None."""
        from .law.align import align

        return align(ref, self.concordance, self.index.sections() if self._has_index else {})

    def resolve_filters(self, filters: FilterArg) -> "Filters | None":
        """``filters`` read (:meth:`legal_rag.retrieve.filters.Filters.of`) and checked against the index
        (:func:`legal_rag.retrieve.filters.resolve`: a court matched regardless of case; a filter that can match
        no indexed passage raises :class:`~legal_rag.errors.FilterError` saying why)."""
        from .retrieve.filters import Filters, resolve

        f = Filters.of(filters)
        if f is None or f.is_empty() or not self._has_index:
            return f
        return resolve(f, self.index.metadata(), allowed=self.index.allowed_ids)

    def read_input(self, text: str) -> str:
        """``text`` in the one normal form of user text (:func:`legal_rag.law.normalise.normalise_input`).
        Raises :class:`InputTooLongError` above ``settings.question_max_chars`` characters (as sent, checked before
        it is normalised, and once normalised), stating the limit."""
        from .law.normalise import normalise_input, too_long

        limit = self.settings.question_max_chars
        if len(text) > limit:  # as sent, before any work on it
            raise InputTooLongError(too_long(text, limit))
        text = normalise_input(text)
        if len(text) > limit:
            raise InputTooLongError(too_long(text, limit))
        return text

    def ask(self, question: str, offence_date: dt.date | str | None = None, filters: FilterArg = None,
            generator: str | None = None, previous: Previous = None) -> Answer:
        answer = None
        for piece in self.ask_stream(question, offence_date=offence_date, filters=filters, generator=generator,
                                     previous=previous):
            if isinstance(piece, Answer):
                answer = piece
        assert answer is not None
        return answer

    def ask_stream(self, question: str, offence_date: dt.date | str | None = None, filters: FilterArg = None,
                   generator: str | None = None, previous: Previous = None) -> Iterator[str | Answer]:
        """Look-up, retrieval, rerank, generation (streamed), citations, verification and supersession flags.

        ``previous``: the previous turn of a conversation (its ``Answer``, ``QuestionAnalysis``, question text or
        :class:`legal_rag.law.followup.Turn`); the pipeline keeps no state. A follow-up with no legal words of its
        own ("and what about the punishment?", :func:`legal_rag.law.followup.is_followup`) is answered for the
        provision of the previous turn, and the answer opens by saying which ("Taking this as a question about
        BNS 318(4), from your previous question:").

        Raises before any work: :class:`LegalRagError` for an empty question, :class:`InputTooLongError`,
        :class:`~legal_rag.errors.FilterError` for an unknown filter key or value."""
        from .generate import generate, search_text
        from .law import dedupe_flags, find_refs, flag_superseded
        from .law.normalise import language_notice, unread_script
        from .retrieve import Filters
        from .generate.abstain import NOT_IN_SOURCES
        from .retrieve.filters import describe, judgments_only
        from .retrieve.route import analyse_question
        from .verify import answer_refs, verify, to_answer

        self._fresh()
        settings = self.settings
        if generator and generator != settings.generator:
            if generator not in get_args(GeneratorName):  # model_copy does not validate
                raise ConfigError(f"generator={generator!r}: must be one of {', '.join(get_args(GeneratorName))}")
            settings = settings.model_copy(update={"generator": generator})
        asked = self.read_input(question)
        if not asked:
            raise LegalRagError("empty question")
        filters = self.resolve_filters(filters)
        question, notice = asked, ""
        from .law.dates import impossible_dates

        if bad := impossible_dates(asked):  # "31.02.2024": said, never guessed or dropped in silence
            notice = "Not read as a date (no such calendar date): " + ", ".join(f'"{d}"' for d in bad) + "."
            yield notice + "\n\n"
        unread = unread_script(asked)
        if unread is not None:  # words in a script the sources are not written in (a Hindi sentence)
            readable = [f for f in find_refs(unread.rest) if f.status == "ok"] if unread.rest else []
            if not readable and unread.share >= 0.5:
                notice = language_notice(unread, answered=False)
                yield notice
                yield Answer(asked, notice, problems=(notice,), model=settings.generator,
                             index_id=self.index.id if self._has_index else "")
                return
            lang = language_notice(unread, answered=True)
            question, notice = unread.rest, "\n\n".join(filter(None, (notice, lang)))
            yield lang + "\n\n"
        conc = self.concordance
        if previous is not None:  # a follow-up is asked about the previous turn's provision (BL-60)
            from .law.followup import resolve_followup, turn_of

            def read(q: str) -> QuestionAnalysis:
                return analyse_question(self.read_input(q), offence_date, concordance=conc)

            follow = resolve_followup(read(question), turn_of(previous, read))
            if follow is not None:
                question, notice = follow.question, "\n\n".join(filter(None, (notice, follow.note)))
                yield follow.note + "\n\n"
        # the question is read once (issue 13): refs, idioms, dates (an offence_date argument wins over the text)
        analysis = analyse_question(question, offence_date, concordance=conc)
        from .law.classify import read_plain_number  # "Which court tries 103?": BNS 103, the head says so (issue 14)

        analysis = read_plain_number(analysis, self.schedule, conc)
        offence_date, proceeding_date = analysis.offence_date, analysis.proceeding_date
        judged, note = self._judgment_answer(question, analysis, filters) if self._has_index else (None, "")
        if note:  # a citation named beside a statute question: its check opens the statute answer (issue 18)
            notice = "\n\n".join(filter(None, (notice, note)))
            yield note + "\n\n"
        if judged is not None:  # a citation to look up, a quotation to check, "which judgment held X" (issue 18)
            if notice:
                judged = dataclasses.replace(judged, text=f"{notice}\n\n{judged.text}",
                                             problems=(notice, *judged.problems))
            yield judged.text
            yield dataclasses.replace(judged, query=asked)
            return
        flags: list[SupersessionFlag] = list(flag_superseded(analysis.flag_refs(), "query", offence_date,
                                                             proceeding_date=proceeding_date, concordance=conc))
        hits, suggestions = self.search_with_suggestions(
            question, filters, dense_query=search_text(question, settings) if settings.hyde else None,
            analysis=analysis)
        known = self._known_case
        # composed before generation (structured data only), so a language model is given it (issue 17)
        head = self._compose_head(analysis, suggestions)
        pieces: queue.Queue = queue.Queue()
        result: dict = {}

        def run() -> None:
            try:
                result["draft"] = generate(question, hits, settings, on_token=pieces.put, known_case=known,
                                           head=head, head_chunks=self._head_chunks(head, filters))
            except BaseException as exc:  # re-raised in the caller's thread
                result["error"] = exc
            finally:
                pieces.put(_DONE)

        worker = threading.Thread(target=run, daemon=True)
        worker.start()
        while (piece := pieces.get()) is not _DONE:
            yield piece
        worker.join()
        if "error" in result:
            raise result["error"]
        draft = result["draft"]
        ver = verify(draft, on_unsupported=settings.unsupported_claims,
                     reattribute=settings.reattribute_citations, sections=self.index.by_ref)
        for h in draft.passages:
            flags += self._passage_flags(h, offence_date, proceeding_date)
        flags += flag_superseded(answer_refs(ver.text, draft.passages), "answer", offence_date,
                                 proceeding_date=proceeding_date, concordance=conc)
        answer = to_answer(draft, ver, flags=dedupe_flags(flags), index_id=self.index.id)
        if judgments_only(filters) and answer.text.startswith(NOT_IN_SOURCES):  # say what the filter left out
            note = f"The filters ({describe(filters)}) keep judgments only: no statute was searched."
            answer = dataclasses.replace(answer, text=f"{answer.text} {note}", problems=(*answer.problems, note))
        if draft.abstained:  # nothing answered: no case-base suggestions beside it (a follow-up sent alone, issue 14)
            if suggestions:  # nor a head suggested from them
                head = self._compose_head(analysis, ())
            suggestions = ()
        if suggestions:
            answer = dataclasses.replace(answer, suggestions=suggestions)
        answer = self._with_head(answer, analysis, head)
        if notice:
            answer = dataclasses.replace(answer, query=asked, text=f"{notice}\n\n{answer.text}",
                                         problems=(notice, *answer.problems))
        yield answer

    def source_file(self, name: str) -> Path:
        from .ingest import corpus_file

        return corpus_file(name, self.settings)

    # ---- uploads ----------------------------------------------------------------------------------
    @cached_property
    def uploads(self):
        """The users' uploads (:class:`legal_rag.uploads.UploadLibrary`), kept apart from the corpus index."""
        from .uploads import UploadLibrary

        return UploadLibrary(self.settings)

    def for_owner(self, owner) -> "Pipeline":
        """The pipeline that answers ``owner`` (module docstring): this one when the owner has no uploads (nor
        the shared library any), else a view sharing every loaded resource and searching the owner's uploads
        with the build (:class:`legal_rag.uploads.IndexView`). Views are kept for the last 16 owners whose
        uploads are unchanged."""
        from .uploads import IndexView

        self._fresh()
        owners = self.uploads.owners_for(owner)
        if not owners or not self._has_index:
            return self
        key = (self.index.id, tuple(o.key for o in owners), self.uploads.version(owners))
        with self._lock:
            got = self._views.get(key)
        if got is not None:
            return got
        chunks, vecs = self.uploads.chunks(owners, self.index.embedder.model_id)
        if not chunks:
            return self
        view = _OwnerPipeline(self, IndexView(self.index, chunks, vecs))
        with self._lock:
            self._views[key] = view
            while len(self._views) > _VIEWS:
                self._views.pop(next(iter(self._views)))
        return view

    def add_upload(self, owner, path: Path, name: str | None = None, progress=None, cancelled=None
                   ) -> tuple[IngestReport, object]:
        """Ingest a user's PDF into ``owner``'s uploads (:meth:`legal_rag.uploads.UploadLibrary.add`: the same PDF
        stage and judgment parser as the corpus, classified; an Act's print refused with the reason; limits
        ``upload_max_mb`` and ``upload_max_pages``). The corpus index is not written. ``path`` must be a file the
        caller has checked is the user's (never a path a client named). Returns ``(report, doc)``; ``doc`` is
        None when nothing could be indexed (the report says why)."""
        embedder = self.index.embedder if self._has_index else None
        if embedder is None:
            from .index import Embedder

            embedder = Embedder.from_settings(self.settings)
        return self.uploads.add(owner, Path(path), name or Path(path).name, embedder, progress=progress,
                                cancelled=cancelled)

    def ingest_upload(self, path: Path, owner=None) -> IngestReport:
        """:meth:`add_upload`'s report, for ``owner`` (default: the command line's own,
        :func:`legal_rag.uploads.local_owner`)."""
        from .uploads import local_owner

        return self.add_upload(owner or local_owner(), path)[0]

    def list_uploads(self, owner) -> tuple:
        """``owner``'s uploaded documents (:class:`legal_rag.uploads.UploadDoc`), newest first; with
        ``uploads_shared`` on, the shared library's follow (``shared=True``)."""
        return tuple(d for o in self.uploads.owners_for(owner) for d in self.uploads.list(o))

    def remove_upload(self, owner, doc_id: str):
        """Delete ``owner``'s document ``doc_id``; :class:`legal_rag.uploads.UploadError` when it is not theirs."""
        return self.uploads.remove(owner, doc_id)

    def upload_file(self, owner, doc_id: str) -> Path:
        """The file of ``doc_id`` if ``owner`` may read it (theirs, or the shared library's when it is on);
        :class:`legal_rag.uploads.UploadError` otherwise."""
        return self.uploads.file(self.uploads.owners_for(owner), doc_id)

    def _fresh(self) -> None:
        """Serve the build ``legal-rag index`` published last: when ``CURRENT`` names another build than the one
        open, everything cached for the old build is dropped (it is opened again on first use) and the build
        retired at the previous switch is closed (a question still reading the one just retired keeps it)."""
        from .index import current_build

        open_ = self.__dict__.get("index")
        if open_ is None:
            return
        cur = current_build(self.settings)
        if cur is None or cur.name == open_.id:
            return
        with self._lock:
            if self.__dict__.get("index") is not open_:
                return
            for k in _PER_BUILD:
                self.__dict__.pop(k, None)
            self._views.clear()
            retired, self._retired = self._retired, [open_]
        for old in retired:
            old.close()

    # ---- internals ------------------------------------------------------------------------------
    @cached_property
    def _judgment_chunks(self) -> dict:
        """case id -> its chunks in reading order (:func:`legal_rag.retrieve.judgment_lookup.judgments_of`)."""
        from .retrieve.judgment_lookup import judgments_of

        return judgments_of(self.index.chunks().values())

    @cached_property
    def _case_records(self) -> tuple:
        """The indexed judgments' catalogue (:func:`legal_rag.retrieve.judgment_lookup.case_records`: title, court,
        date, citations, with the case base's parsed citations), built once per served index, not per question."""
        from .retrieve.judgment_lookup import case_records

        cb, by_case = self.casebase, self._judgment_chunks
        known = set(cb.cases) if cb else set()
        return case_records(by_case, {c: cb.judgment(c) for c in by_case if c in known} if cb else None)

    @cached_property
    def sc_metadata(self):
        """The Supreme Court's judgment index (:func:`legal_rag.ingest.sc_metadata.load_sc_metadata`), or ``None``."""
        from .ingest.sc_metadata import load_sc_metadata

        return load_sc_metadata(self.settings)

    def _judgment_answer(self, question: str, analysis: QuestionAnalysis,
                         filters: "Filters | None") -> tuple[Answer | None, str]:
        """``(answer, note)``: the answer read from the judgments themselves
        (:mod:`legal_rag.generate.judgment_answer`) for a citation, quotation or holding question
        (:func:`legal_rag.law.judgment_questions.judgment_task`), ``(None, "")`` for any other question; a
        citation named in a question that also names a section gives ``(None, the citation's check)``: the
        statute question is answered as usual, opened by that note."""
        from .generate.judgment_answer import judgment_answer
        from .law.judgment_questions import judgment_task
        from .retrieve.judgment_lookup import rank_for_holding

        task = judgment_task(question, analysis.citations)
        if task is None:
            return None, ""
        ranked: list = []
        if task.kind == "holding":  # whole judgments ranked by their passages, never single sentences
            ranked = [(r.case, r.hits)
                      for r in rank_for_holding(question, self.index, self.settings, filters, analysis)]
        meta = self.sc_metadata
        got = judgment_answer(task, question, analysis.citations, self._case_records, self._judgment_chunks,
                              meta=meta.by_citation if meta else None, meta_covers=meta.covers if meta else None,
                              meta_titles=meta.by_title if meta else None,
                              ranked=ranked, top_k=self.settings.top_k)
        if task.kind == "citation" and any(r.how != "bare" for r in analysis.refs):
            # an absent citation is left to the answer's own abstention (generate.abstain.missing_cases)
            return None, " ".join(c.message for c in got.checks if c.status != "absent")
        return Answer(question, got.text, citations=got.citations, problems=got.problems,
                      passages=got.passages, model="judgment-lookup", index_id=self.index.id), ""

    def _compose_head(self, analysis: QuestionAnalysis,
                      suggestions: tuple[SectionSuggestion, ...]) -> tuple[HeadLine, ...]:
        """The answer's composed head (:func:`legal_rag.generate.head.compose_head`: the governing provisions,
        their First Schedule classification and the date rule, from structured data); ``()`` when none governs."""
        from .generate.head import compose_head
        from .retrieve.suggest import is_fact_pattern, lead_for

        def title_of(ref):
            chunks = self.index.by_ref(ref.act, ref.section) if self._has_index else []
            return chunks[0].title if chunks else ""

        # the top suggestion governs only where it leads the passages (lead_for: precedents and text agree, or a
        # long statement of facts); a short question naming an offence in words is left to the statute text
        lead = suggestions if is_fact_pattern(analysis) and lead_for(suggestions, analysis.question) else ()
        def exists(ref):  # "IPC 316(2)": the section prints no (2) and no table row names it
            from .law.lookup import missing_division

            sections = self.index.sections() if self._has_index else {}
            return not missing_division(ref, sections.get(ref.base), self.concordance)

        return compose_head(analysis, lead, concordance=self.concordance, schedule=self.schedule, title_of=title_of,
                            exists=exists, derived=self.derived_division)

    def _head_chunks(self, head: Sequence[HeadLine], filters: "Filters | None" = None) -> tuple[Chunk, ...]:
        """The chunks of this build of the sections whose sub-section the head names (``BNS 318(4)``: every chunk
        of BNS 318) that ``filters`` keep, for :func:`legal_rag.generate.llm_passages`; ``()`` with no such head or
        no index."""
        from .generate.prompt import head_refs

        if not head or not self._has_index:
            return ()
        secs = dict.fromkeys((r.act, r.section) for r in head_refs(head) if r.sub)
        chunks = [c for act, sec in secs for c in self.index.by_ref(act, sec)]
        if filters is not None:
            allowed = self.index.allowed_ids(filters)
            chunks = [c for c in chunks if c.id in allowed]
        return tuple(chunks)

    def _with_head(self, answer: Answer, analysis: QuestionAnalysis, head: tuple[HeadLine, ...]) -> Answer:
        """``answer`` opened by its composed ``head`` (:meth:`_compose_head`), kept in ``Answer.head``, its cited
        provisions arranged against it (:func:`legal_rag.verify.relevant`). Added after verification: the head is
        not generated, so the verifier never removes it."""
        from .generate.head import head_text
        from .verify import relevant  # the provisions that answer lead, in the head's order; the rest are related

        answer = relevant(answer, head, analysis, self.concordance)
        if not head:
            return answer
        return dataclasses.replace(answer, head=head, text=f"{head_text(head)}\n\n{answer.text}")

    def _passage_flags(self, hit: Hit, offence_date: dt.date | str | None,
                       proceeding_date: dt.date | str | None = None) -> list[SupersessionFlag]:
        from .injection import without_instructions
        from .law import find_refs, flag_superseded

        c = hit.chunk
        where = f"passage:{c.id}"
        if c.ref is not None:  # a statute passage: the section itself, if it is an old code
            return list(flag_superseded([c.ref], where, offence_date, proceeding_date=proceeding_date,
                                        concordance=self.concordance)) \
                if c.ref.act in OLD_ACTS else []
        # a sentence addressed to a model is data, not the judgment's own citation: it raises no flag (issue 8)
        found = [f for f in find_refs(without_instructions(c.text)) if f.status == "ok" and f.ref.act in OLD_ACTS]
        return list(flag_superseded(found, where, offence_date, proceeding_date=proceeding_date,
                                    concordance=self.concordance))

    def _known_case(self, ref: CaseReference) -> bool:
        from .generate.abstain import reference_found

        return reference_found(ref, self._case_heads)

    @property
    def _has_index(self) -> bool:
        """Whether an index was built. One that was built but cannot be opened (another model, a broken build)
        is not "no index": opening it raises and says how to rebuild."""
        from .index import current_build

        return "index" in self.__dict__ or current_build(self.settings) is not None


class _OwnerPipeline(Pipeline):
    """One owner's view (:meth:`Pipeline.for_owner`): the parent's loaded resources, its own index view and the
    caches that depend on the chunks searched."""

    def __init__(self, parent: Pipeline, index):
        self.settings = parent.settings
        self._lock = threading.Lock()
        self._views = {}
        self._retired = []
        self._parent = parent
        self.__dict__["index"] = index

    concordance = property(lambda self: self._parent.concordance)
    schedule = property(lambda self: self._parent.schedule)
    casebase = property(lambda self: self._parent.casebase)
    reranker = property(lambda self: self._parent.reranker)
    sc_metadata = property(lambda self: self._parent.sc_metadata)
    uploads = property(lambda self: self._parent.uploads)

    def for_owner(self, owner) -> Pipeline:
        return self._parent.for_owner(owner)

    def _fresh(self) -> None:
        """A view is made for one build; the parent makes a new one after a switch."""


def build(settings: Settings, only: str | Iterable[str] | None = None, progress: bool = True,
          stats: dict | None = None, embed_progress: Callable[[int, int], None] | None = None
          ) -> tuple[IngestReport, dict]:
    """Ingest the corpus (manifest, sha256 checks), chunk it and build or update the index incrementally.

    ``progress`` shows the ingest's progress; ``embed_progress(done, total)`` is called as chunks are embedded
    (``legal-rag index`` passes a tqdm bar). Returns the ingest report and the index build stats
    (added/removed/unchanged/embedded chunks, seconds). Raises :class:`~legal_rag.errors.IndexLockedError` when
    another writer holds the index.
    """
    from .index import Embedder, build_index
    from .index.manifest import writer_lock
    from .index.served import served_chunks
    from .ingest import load_corpus, load_manifest
    from .ingest.chunk import chunk_corpus

    stats = {} if stats is None else stats
    # the lock first: a second writer is told at once, before any work, and this build's view of the store is the
    # store as it is once the lock is taken
    with writer_lock(settings) as held:
        corpus = load_corpus(settings, only=only, progress=progress)
        embedder = Embedder.from_settings(settings)
        chunks = chunk_corpus(corpus.sections, corpus.paragraphs, embedder,
                              judgments={j.case_id: j for j in corpus.judgments},
                              chunk_tokens=settings.chunk_tokens, overlap=settings.chunk_overlap)
        report = dataclasses.replace(corpus.report, problems=corpus.report.problems + instruction_problems(chunks))
        keep = {Path(f).name for f in corpus.report.failed}
        done = {Path(f).name for f in corpus.report.files}
        manifest = {src.file_name for src in load_manifest(settings.manifest_path)}
        # A manifest file that cannot be read today keeps what the index served yesterday instead of silently
        # vanishing from it: files that failed this run and, with --only X, every source not selected. Only
        # manifest sources are served from the corpus index; users' uploads live apart (legal_rag.uploads).
        kept = served_chunks(settings, lambda src: src in manifest and (src in keep or (bool(only) and src not in done)),
                             {c.id for c in chunks})
        chunks = [*chunks, *kept]
        legacy = sorted({c.source for c in served_chunks(settings, lambda src: src not in manifest, set())})
        if legacy:
            from .types import Problem

            note = Problem(", ".join(legacy[:5]) + (" ..." if len(legacy) > 5 else ""), "legacy_upload",
                           f"{len(legacy)} earlier upload(s) were served to every user from the corpus index and are "
                           "no longer: each user uploads their own, or the operator adds them to the shared library "
                           "(`legal-rag uploads add --shared FILE`)", severity="warning")
            report = dataclasses.replace(report, problems=(*report.problems, note))
        served = {c.source for c in chunks}
        chosen = (done & manifest) | (served & manifest)
        build_index(chunks, settings, embedder=embedder, progress=embed_progress, stats=stats, held=held,
                    sources=sorted(chosen), failed=sorted(chosen - served))
    stats["chunks"] = len(chunks)
    if settings.casebase:  # the case base for section finding (issue 13): opened when built for these inputs
        from .retrieve.casebase_build import ensure_casebase

        try:
            _, stats["casebase"] = ensure_casebase(
                settings, progress, others=(corpus.judgments, corpus.paragraphs) if only is None else None)
        except FileNotFoundError as exc:  # a corpus without the AILA judgments: the index stands, no case base
            stats["casebase"] = {"skipped": f"no case base: {exc.filename or exc} not found"}
        except CorpusError as exc:  # e.g. no correspondence tables to read the citations with
            stats["casebase"] = {"skipped": f"no case base: {exc}"}
    if only is None:  # the First Schedules parsed now (30-60 s once, then cached), not on the first look-up
        import time

        from .ingest.schedules import load_schedules

        t0 = time.perf_counter()
        try:
            rows = len(load_schedules(settings))
            stats["schedules"] = {"rows": rows, "seconds": time.perf_counter() - t0}
        except Exception as exc:  # noqa: BLE001 - the index stands without the classification; the reason is shown
            stats["schedules"] = {"skipped": f"no offence classification: {type(exc).__name__}: {exc}"}
    return report, stats


def ask(question: str, settings: Settings | None = None, offence_date: dt.date | str | None = None,
        filters: FilterArg = None) -> Answer:
    return Pipeline(settings).ask(question, offence_date=offence_date, filters=filters)


__all__ = ["Pipeline", "ask", "build", "instruction_problems"]
