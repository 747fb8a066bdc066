"""Building the index: ingest the corpus named by the manifest, chunk it, embed it and publish a new build, then the
case base and the First Schedules (DESIGN.md, "Storage and scale").

``build(settings, only=None, progress=True) -> (IngestReport, stats)`` is what ``legal-rag index`` runs. One writer
at a time (:func:`legal_rag.index.manifest.writer_lock`, taken before any work); ingest is incremental (unchanged
files are skipped by hash, embeddings are cached by chunk content). The chunks of sources the manifest marks
``dense = false`` are kept out of the dense index (:func:`legal_rag.index.mark_sparse_only`) unless
``Settings.dense_all``. Only manifest sources are served from the corpus
index; users' uploads live apart (:mod:`legal_rag.uploads`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from pathlib import Path

from .config import Settings
from .errors import CorpusError
from .injection import instruction_problems
from .types import IngestReport


def build(settings: Settings, only: str | Iterable[str] | None = None, progress: bool = True,
          stats: dict | None = None, embed_progress: Callable[[int, int], None] | None = None,
          on_report: Callable[[IngestReport], None] | None = None) -> tuple[IngestReport, dict]:
    """Ingest the corpus (manifest, sha256 checks), chunk it and build or update the index incrementally.

    ``progress`` shows the ingest's progress; ``embed_progress(done, total)`` is called as chunks are embedded
    (``legal-rag index`` passes a tqdm bar); ``on_report(report)`` is given the ingest report as soon as the corpus
    is read and chunked, before the embedding (``legal-rag index`` prints it then). Returns the ingest report and the
    index build stats
    (added/removed/unchanged/embedded chunks, seconds). Raises :class:`~legal_rag.errors.IndexLockedError` when
    another writer holds the index.
    """
    from .index import Embedder, build_index, mark_sparse_only
    from .index.manifest import writer_lock
    from .index.served import served_chunks
    from .ingest import load_corpus, load_manifest
    from .ingest.chunk import chunk_corpus
    from .ingest.corpus import dense

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
        listed = load_manifest(settings.manifest_path)
        manifest = {src.file_name for src in listed}
        # A manifest file that cannot be read today keeps what the index served yesterday instead of silently
        # vanishing from it: files that failed this run and, with --only X, every source not selected. Only
        # manifest sources are served from the corpus index; users' uploads live apart (legal_rag.uploads).
        kept = served_chunks(settings, lambda src: src in manifest and (src in keep or (bool(only) and src not in done)),
                             {c.id for c in chunks})
        chunks = [*chunks, *kept]
        # the bulk judgment sources (manifest: dense = false) are searched by BM25 and the case base, not embedded
        chunks = mark_sparse_only(chunks, set() if settings.dense_all else
                                  {src.file_name for src in listed if not dense(src)})
        legacy = sorted({c.source for c in served_chunks(settings, lambda src: src not in manifest, set())})
        if legacy:
            from .types import Problem

            note = Problem(", ".join(legacy[:5]) + (" ..." if len(legacy) > 5 else ""), "legacy_upload",
                           f"{len(legacy)} earlier upload(s) were served to every user from the corpus index and are "
                           "no longer: each user uploads their own, or the operator adds them to the shared library "
                           "(`legal-rag uploads add --shared FILE`)", severity="warning")
            report = dataclasses.replace(report, problems=(*report.problems, note))
        if on_report is not None:
            on_report(report)
        served = {c.source for c in chunks}
        chosen = (done & manifest) | (served & manifest)
        build_index(chunks, settings, embedder=embedder, progress=embed_progress, stats=stats, held=held,
                    sources=sorted(chosen), failed=sorted(chosen - served))
    stats["chunks"] = len(chunks)
    if settings.casebase:  # the case base for section finding: opened when built for these inputs
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


__all__ = ["build"]
