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
* ``build(settings, only=None, progress=True) -> (IngestReport, stats)``: ingest the corpus and (re)build the index
  (:mod:`legal_rag.build`, re-exported here).

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

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, get_args

from .build import build
from .config import Settings, load_settings
from .errors import ConfigError
from .injection import instruction_problems
from .resources import Resources
from .types import Answer, GeneratorName, Hit, IngestReport, SectionSuggestion

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from .law import LookupResult, Previous, Question, QuestionAnalysis
    from .retrieve import Filters

    FilterArg = Filters | Mapping[str, Any] | None


def _resource(name: str) -> property:
    return property(lambda self: getattr(self.resources, name), doc=f"``resources.{name}`` (:mod:`legal_rag.resources`)")


class Pipeline:
    """The public API (module docstring) over one :class:`legal_rag.resources.Resources`."""

    def __init__(self, settings: Settings | None = None, resources: Resources | None = None):
        self.settings = settings or load_settings()
        self.resources = resources or Resources(self.settings)

    index = _resource("index")
    concordance = _resource("concordance")
    schedule = _resource("schedule")
    casebase = _resource("casebase")
    reranker = _resource("reranker")
    sc_metadata = _resource("sc_metadata")
    uploads = _resource("uploads")

    # ---- the flow ---------------------------------------------------------------------------------
    def ask(self, question: str, offence_date: dt.date | str | None = None, filters: FilterArg = None,
            generator: str | None = None, previous: Previous = None) -> Answer:
        """:meth:`ask_stream`'s final :class:`Answer`."""
        answer = None
        for piece in self.ask_stream(question, offence_date=offence_date, filters=filters, generator=generator,
                                     previous=previous):
            if isinstance(piece, Answer):
                answer = piece
        assert answer is not None
        return answer

    def ask_stream(self, question: str, offence_date: dt.date | str | None = None, filters: FilterArg = None,
                   generator: str | None = None, previous: Previous = None) -> Iterator[str | Answer]:
        """Read the question once, then the answerer of its route (DESIGN.md, "The flow"): text pieces as they are
        generated, then the verified ``Answer`` last.

        ``previous``: the previous turn of a conversation (its ``Answer``, ``QuestionAnalysis``, question text or
        :class:`legal_rag.law.followup.Turn`); the pipeline keeps no state. A follow-up with no legal words of its
        own ("and what about the punishment?") is answered for the provision of the previous turn, and the answer
        says which (a ``follow-up`` notice).

        Raises before any work: :class:`LegalRagError` for an empty question,
        :class:`~legal_rag.errors.InputTooLongError`, :class:`~legal_rag.errors.FilterError` for an unknown filter
        key or value, :class:`~legal_rag.errors.ConfigError` for an unknown generator."""
        from .answer import ANSWERERS, Context

        self.resources.fresh()
        settings = self._settings_for(generator)
        ctx = Context(settings, self.resources, self.resolve_filters(filters))
        read = self.read_question(question, offence_date, previous)
        yield from ANSWERERS[read.route](read, ctx)

    def read_question(self, question: str, offence_date: dt.date | str | None = None,
                      previous: Previous = None) -> Question:
        """``question`` as sent, read once (:func:`legal_rag.law.read.read_question`)."""
        from .ingest.citations_meta import find_citations
        from .law import read_question

        return read_question(question, concordance=self.concordance, schedule=self.schedule,
                             limit=self.settings.question_max_chars, offence_date=offence_date, previous=previous,
                             citation_finder=find_citations, followup=self.resources.reads_followup)

    def search(self, query: str, filters: FilterArg = None, dense_query: str | None = None,
               analysis: QuestionAnalysis | None = None) -> tuple[Hit, ...]:
        """The passages a statute question is answered from (:func:`legal_rag.answer.find_passages`). ``dense_query``
        (HyDE) feeds the dense retriever only; everything else reads ``query`` (normalised, :meth:`read_input`).
        ``analysis``: the question's (:func:`legal_rag.law.question.analyse`), made here from ``query`` when not
        given."""
        return self.search_with_suggestions(query, filters, dense_query, analysis)[0]

    def search_with_suggestions(self, query: str, filters: FilterArg = None, dense_query: str | None = None,
                                analysis: QuestionAnalysis | None = None
                                ) -> tuple[tuple[Hit, ...], tuple[SectionSuggestion, ...]]:
        """:meth:`search`, and the sections suggested by precedents for a fact pattern (``()`` for any other
        question): ``(hits, suggestions)``."""
        from .answer import find_passages

        self.resources.fresh()
        query, filters = self.read_input(query), self.resolve_filters(filters)
        if analysis is None:
            from .ingest.citations_meta import find_citations
            from .law import analyse

            analysis = analyse(query, concordance=self.concordance, citation_finder=find_citations)
        return find_passages(self.resources, self.settings, query, analysis, filters, dense_query,
                             followup=self.resources.reads_followup(analysis))[:2]

    # ---- look-up, input, filters ------------------------------------------------------------------
    def generators(self) -> tuple[GeneratorName, ...]:
        """Generators usable here: ``extractive`` always, others when their package/model is installed."""
        from .generate.backends import available_generators

        return available_generators(self.settings)

    def lookup(self, text: str) -> LookupResult:
        """Section look-up: the correspondence row(s), the First Schedule rows that classify the section and its
        counterparts and, when an index is built, the sections' texts. ``text`` is normalised first
        ("IPC ४२०", "आईपीसी 420" -> "IPC 420")."""
        from .law import lookup

        self.resources.fresh()
        res, text = self.resources, self.read_input(text)
        return lookup(text, res.concordance, sections=res.sections() if res.has_index else None,
                      schedule=res.schedule, order=self._reading_order(text))

    def _reading_order(self, text: str):
        """How a look-up orders the readings of a number that names no Act: as an answer to ``text`` does (rules
        "cases" and "tie" of :data:`legal_rag.law.bare.RULES`, counted in the case base when one is built)."""
        from .ingest.citations_meta import find_citations
        from .law import BARE_RULE, analyse, order_readings

        cb = self.resources.casebase
        analysis = analyse(text, concordance=self.concordance, citation_finder=find_citations)

        def order(refs):
            readings = order_readings(refs, analysis, cb.section_df if cb is not None else None)
            if cb is None:
                return tuple(r.ref for r in readings), f"ordered by the tie rule ({BARE_RULE['tie']}): no case base"
            counts = "; ".join(f"{r.ref}: {r.cites}" for r in readings)
            return tuple(r.ref for r in readings), f"ordered by how many judgments of the case base cite each ({counts})"
        return order

    def derived_division(self, ref):
        """:meth:`legal_rag.resources.Resources.derived_division`."""
        return self.resources.derived_division(ref)

    def resolve_filters(self, filters: FilterArg) -> Filters | None:
        """``filters`` read (:meth:`legal_rag.retrieve.filters.Filters.of`) and checked against the index
        (:func:`legal_rag.retrieve.filters.resolve`: a court matched regardless of case; a filter that can match
        no indexed passage raises :class:`~legal_rag.errors.FilterError` saying why)."""
        from .retrieve.filters import Filters, resolve

        f = Filters.of(filters)
        if f is None or f.is_empty() or not self.resources.has_index:
            return f
        return resolve(f, self.index.metadata(), allowed=self.index.allowed_ids)

    def read_input(self, text: str) -> str:
        """``text`` in the one normal form of user text (:func:`legal_rag.law.read.read_input`); raises
        :class:`~legal_rag.errors.InputTooLongError` above ``settings.question_max_chars`` characters."""
        from .law import read_input

        return read_input(text, self.settings.question_max_chars)

    def source_file(self, name: str) -> Path:
        from .ingest import corpus_file

        return corpus_file(name, self.settings)

    # ---- uploads ----------------------------------------------------------------------------------
    def for_owner(self, owner) -> Pipeline:
        """The pipeline that answers ``owner`` (module docstring): this one when the owner has no uploads (nor the
        shared library any), else one over that owner's view (:meth:`legal_rag.resources.Resources.for_owner`)."""
        view = self.resources.for_owner(owner)
        return self if view is self.resources else Pipeline(self.settings, view)

    def add_upload(self, owner, path: Path, name: str | None = None, progress=None, cancelled=None
                   ) -> tuple[IngestReport, object]:
        """Ingest a user's PDF into ``owner``'s uploads (:meth:`legal_rag.uploads.UploadLibrary.add`: the same PDF
        stage and judgment parser as the corpus, classified; an Act's print refused with the reason; limits
        ``upload_max_mb`` and ``upload_max_pages``). The corpus index is not written. ``path`` must be a file the
        caller has checked is the user's (never a path a client named). Returns ``(report, doc)``; ``doc`` is
        None when nothing could be indexed (the report says why)."""
        embedder = self.index.embedder if self.resources.has_index else None
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

    # ---- internals --------------------------------------------------------------------------------
    def _settings_for(self, generator: str | None) -> Settings:
        """The settings of one answer: these, with ``generator`` when one is named."""
        if not generator or generator == self.settings.generator:
            return self.settings
        if generator not in get_args(GeneratorName):  # model_copy does not validate
            raise ConfigError(f"generator={generator!r}: must be one of {', '.join(get_args(GeneratorName))}")
        return self.settings.model_copy(update={"generator": generator})


def ask(question: str, settings: Settings | None = None, offence_date: dt.date | str | None = None,
        filters: FilterArg = None) -> Answer:
    return Pipeline(settings).ask(question, offence_date=offence_date, filters=filters)


__all__ = ["Pipeline", "ask", "build", "instruction_problems"]
