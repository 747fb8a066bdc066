"""Everything a question is answered from, loaded once on first use and shared: the served index, the official
correspondence tables, the First Schedules, the case base, the reranker, the Supreme Court's judgment index, the
users' uploads, and the catalogues made from the index.

``Resources(settings)`` loads nothing until an attribute is read. The served build is the one ``legal-rag index``
published last (:meth:`Resources.fresh`: when ``CURRENT`` names another build, everything made from the old build
is dropped and opened again on first use; the build retired at the previous switch is closed then).
:meth:`Resources.for_owner` gives one owner's view: the same loaded resources, an index that searches the served
build and that owner's uploads together (:class:`legal_rag.uploads.IndexView`), and the catalogues of that index.
"""

from __future__ import annotations

import threading
from functools import cached_property
from typing import TYPE_CHECKING

from .config import Settings
from .errors import CorpusError
from .kept import Kept
from .types import Hit, StatuteRef

if TYPE_CHECKING:
    from collections.abc import Callable

    from .index import Index
    from .index.casebase import CaseBase
    from .law import Concordance, Schedule
    from .law import QuestionAnalysis
    from .rank import FieldIndex, SectionRanker
    from .rerank import Reranker
    from .uploads import Owner, UploadLibrary

#: what is made from the served build (dropped when a new build is published, and made anew for each owner's view)
PER_BUILD = ("index", "case_heads", "judgment_chunks", "case_records", "casebase", "field_index", "section_ranker",
             "reads_followup")
#: owners' views kept at once (:meth:`Resources.for_owner`)
VIEWS = 16


class Resources:
    """The loaded resources (module docstring). ``preloaded``: attributes given instead of loaded (a test's or a
    benchmark's own index or case base)."""

    def __init__(self, settings: Settings, **preloaded):
        self.settings = settings
        self._lock = threading.Lock()
        self._views: Kept[tuple, Resources] = Kept(VIEWS)
        self._retired: list = []
        self.__dict__.update(preloaded)

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
        """The case base built by :func:`legal_rag.build.build` (judgments with the sections each paragraph cites,
        BM25 over paragraphs); ``None`` when none was built for these inputs or ``settings.casebase`` is off. Never
        builds."""
        from .retrieve.casebase_build import open_casebase

        return open_casebase(self.settings)

    @cached_property
    def field_index(self) -> FieldIndex:
        """The served build's new-code sections in separate searchable fields (:class:`legal_rag.rank.FieldIndex`):
        their text, First Schedule rows and BPR&D rows (the BNSS rows' subjects read from the BPR&D table too), and
        their summaries embedded (cached under ``data_dir/cache``)."""
        from .law import read_bnss_subjects
        from .rank import FieldIndex, section_fields

        subjects = read_bnss_subjects(self.settings.corpus_path / "mappings")
        fields = FieldIndex(section_fields(self.sections(), self.schedule, self.concordance, subjects))
        embedder = self.index.embedder
        fields.embed_summaries(embedder.embed_passages, self.settings.data_dir / "cache", embedder.model_id)
        return fields

    @cached_property
    def section_ranker(self) -> SectionRanker:
        """The fitted section ranker (:class:`legal_rag.rank.SectionRanker`) over :attr:`field_index`, the memory
        of the shipped question sets (:func:`legal_rag.rank.memory_files`) and the classifier fitted on them
        (:mod:`legal_rag.rank.classifier`), their embeddings and the classifier cached under ``data_dir/cache`` (the
        classifier where :func:`legal_rag.rank.classifier.cache_dir_for` says);
        raises :class:`~legal_rag.errors.ConfigError` when the weights are missing or were fitted for other
        features."""
        import numpy as np

        from .rank import SectionRanker, build_memory, load_ranker, memory_files, read_examples
        from .rank.classifier import build_classifier, cache_dir_for

        index, cache = self.index, self.settings.data_dir / "cache"
        examples = [e for e in read_examples(memory_files()) if e.gold]
        memory = build_memory(examples, lambda texts: np.vstack([index.embed_query(t) for t in texts]),
                              cache_dir=cache, model_id=index.embedder.model_id)
        classifier = build_classifier([e.question for e in examples], memory.vectors, [e.gold for e in examples],
                                      cache_dir=cache_dir_for(cache))
        return SectionRanker(index, self.field_index, load_ranker(), casebase=self.casebase,
                             concordance=self.concordance, schedule=self.schedule, memory=memory,
                             classifier=classifier)

    @cached_property
    def reads_followup(self) -> Callable[[QuestionAnalysis], bool]:
        """Whether a question's analysis reads as a follow-up: the fitted model
        (:func:`legal_rag.rank.followup.load_followup`) over the question's query vector, or the rules of
        :func:`legal_rag.law.is_followup` where the index's embedder is not the one the model was fitted on (its
        dimension differs). Raises :class:`~legal_rag.errors.ConfigError` when the weights are missing."""
        from .law import is_followup
        from .rank.followup import load_followup

        model, index = load_followup(), self.index
        if model.dim != index.manifest.dim:
            return is_followup
        return lambda analysis: model.reads(analysis, index.embed_query)

    @cached_property
    def reranker(self) -> Reranker:
        from .rerank import Reranker

        return Reranker.from_settings(self.settings)

    @cached_property
    def sc_metadata(self):
        """The Supreme Court's judgment index (:func:`legal_rag.ingest.sc_metadata.load_sc_metadata`), or ``None``."""
        from .ingest.sc_metadata import load_sc_metadata

        return load_sc_metadata(self.settings)

    @cached_property
    def uploads(self) -> UploadLibrary:
        """The users' uploads (:class:`legal_rag.uploads.UploadLibrary`), kept apart from the corpus index."""
        from .uploads import UploadLibrary

        return UploadLibrary(self.settings)

    @cached_property
    def case_heads(self) -> tuple[Hit, ...]:
        """The first chunk of every judgment in the index, as pseudo-hits for the judgment-exists check."""
        heads = {}
        for c in self.index.chunks().values():
            if c.kind == "judgment" and (c.case not in heads or c.part < heads[c.case].part):
                heads[c.case] = c
        return tuple(Hit(c, 0.0, "catalog", i + 1) for i, c in enumerate(heads.values()))

    @cached_property
    def judgment_chunks(self) -> dict:
        """case id -> its chunks in reading order (:func:`legal_rag.retrieve.judgment_lookup.judgments_of`)."""
        from .retrieve.judgment_lookup import judgments_of

        return judgments_of(self.index.chunks().values())

    @cached_property
    def case_records(self) -> tuple:
        """The indexed judgments' catalogue (:func:`legal_rag.retrieve.judgment_lookup.case_records`: title, court,
        date, citations, with the case base's parsed citations), built once per served index."""
        from .retrieve.judgment_lookup import case_records

        cb, by_case = self.casebase, self.judgment_chunks
        known = set(cb.cases) if cb else set()
        return case_records(by_case, {c: cb.judgment(c) for c in by_case if c in known} if cb else None)

    @property
    def has_index(self) -> bool:
        """Whether an index was built. One that was built but cannot be opened (another model, a broken build)
        is not "no index": opening it raises and says how to rebuild."""
        from .index import current_build

        return "index" in self.__dict__ or current_build(self.settings) is not None

    def sections(self) -> dict:
        """The indexed sections (:meth:`legal_rag.index.Index.sections`), ``{}`` with no index."""
        return self.index.sections() if self.has_index else {}

    def derived_division(self, ref: StatuteRef):
        """The division of the new code the texts align ``ref`` to where the official table stops at a section
        (IPC 376(2)(n) -> BNS 64(2)(m), "derived from the texts", not official: :func:`legal_rag.law.align.align`
        over the indexed sections), or None."""
        from .law import align

        return align(ref, self.concordance, self.sections())

    def title_of(self, ref: StatuteRef) -> str:
        """The indexed title of ``ref``'s section, "" when it is not indexed."""
        chunks = self.index.by_ref(ref.act, ref.section) if self.has_index else []
        return chunks[0].title if chunks else ""

    def fresh(self) -> None:
        """Serve the build ``legal-rag index`` published last (module docstring); a question still reading the
        build just retired keeps it."""
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
            for k in PER_BUILD:
                self.__dict__.pop(k, None)
            self._views.clear()
            retired, self._retired = self._retired, [open_]
        for old in retired:
            old.close()

    def for_owner(self, owner: Owner) -> Resources:
        """The resources that answer ``owner``: these when the owner has no uploads (nor the shared library any),
        else a view sharing every loaded resource and searching the owner's uploads with the build. Views are kept
        for the last :data:`VIEWS` owners whose uploads are unchanged."""
        from .uploads import IndexView

        self.fresh()
        owners = self.uploads.owners_for(owner)
        if not owners or not self.has_index:
            return self
        key = (self.index.id, tuple(o.key for o in owners), self.uploads.version(owners))
        got = self._views.get(key)
        if got is not None:
            return got
        chunks, vecs = self.uploads.chunks(owners, self.index.embedder.model_id)
        if not chunks:
            return self
        return self._views.put(key, _OwnerView(self, IndexView(self.index, chunks, vecs)))


class _OwnerView(Resources):
    """One owner's view (:meth:`Resources.for_owner`): the parent's loaded resources, its own index view and the
    catalogues that depend on the chunks searched."""

    def __init__(self, parent: Resources, index):
        super().__init__(parent.settings, index=index)
        self._parent = parent

    concordance = property(lambda self: self._parent.concordance)
    schedule = property(lambda self: self._parent.schedule)
    casebase = property(lambda self: self._parent.casebase)
    reranker = property(lambda self: self._parent.reranker)
    field_index = property(lambda self: self._parent.field_index)
    section_ranker = property(lambda self: self._parent.section_ranker)
    reads_followup = property(lambda self: self._parent.reads_followup)
    sc_metadata = property(lambda self: self._parent.sc_metadata)
    uploads = property(lambda self: self._parent.uploads)

    def for_owner(self, owner: Owner) -> Resources:
        return self._parent.for_owner(owner)

    def fresh(self) -> None:
        """A view is made for one build; the parent makes a new one after a switch."""


__all__ = ["PER_BUILD", "Resources", "VIEWS"]
