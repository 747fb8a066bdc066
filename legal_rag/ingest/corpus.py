"""The corpus manifest (``corpora/manifest.toml``) and the ingest of every source it lists.

``load_manifest(path) -> tuple[Source, ...]`` reads the manifest; ``verify(source, corpus_path)`` checks one file's
sha256; ``load_corpus(settings, only=None, progress=True) -> Corpus`` runs the page stage and the statute / judgment
parsers over every source and returns everything in memory (nothing is written, so nothing is half-written).

A missing file, a sha256 mismatch, an unreadable PDF or a parser crash on one file becomes an ``error``
:class:`~legal_rag.types.Problem` naming the file (and page where known) and that file is listed in
``IngestReport.failed``; the batch goes on. What a statute prints after its last section (Schedules, forms, an
appendix) comes back apart from the sections, as ``Corpus.schedules`` (:mod:`legal_rag.ingest.schedule_text`). Only a missing or malformed manifest, or a corpus folder that does not exist, raises :class:`CorpusError`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import time
import tomllib
from collections import Counter
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

from ..config import Settings
from ..errors import CorpusError, corpus_missing
from ..types import IngestReport, Judgment, Page, Paragraph, Problem, ScheduleText, Section
from . import many

KINDS = ("statute", "judgment", "mapping")


@dataclass(frozen=True)
class Source:
    """One ``[[source]]`` of the manifest. ``path`` is relative to ``Settings.corpus_path``; ``meta`` keeps the
    provenance fields (year, edition, official_source, url, licence, note, court, date) as sorted pairs."""

    name: str
    kind: str
    format: str
    path: str
    sha256: str
    act: str = ""
    meta: tuple[tuple[str, str], ...] = ()

    @property
    def file_name(self) -> str:
        return Path(self.path).name


@dataclass(frozen=True)
class Corpus:
    """Everything one ingest produced, plus its report. ``schedules``: the text the statutes print after their last
    sections (never part of a section; not indexed as passages: :class:`~legal_rag.types.ScheduleText`)."""

    sections: tuple[Section, ...] = ()
    judgments: tuple[Judgment, ...] = ()
    paragraphs: tuple[Paragraph, ...] = ()
    report: IngestReport = field(default_factory=IngestReport)
    schedules: tuple[ScheduleText, ...] = ()


def load_manifest(path: Path) -> tuple[Source, ...]:
    """Read the manifest. Raises :class:`CorpusError` naming the file (and the entry) when it is missing, not TOML,
    or an entry lacks ``name``/``kind``/``path``/``sha256``, repeats a name, or has an unknown kind."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise CorpusError(f"{path}: cannot read manifest: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise CorpusError(f"{path}: not valid TOML: {exc}") from None
    out: list[Source] = []
    for i, entry in enumerate(data.get("source", []), 1):
        missing = [k for k in ("name", "kind", "path", "sha256") if not entry.get(k)]
        if missing:
            raise CorpusError(f"{path}: source #{i} lacks {', '.join(missing)}")
        if entry["kind"] not in KINDS:
            raise CorpusError(f"{path}: source {entry['name']!r}: kind {entry['kind']!r} is not one of {KINDS}")
        if any(s.name == entry["name"] for s in out):
            raise CorpusError(f"{path}: source name {entry['name']!r} appears twice")
        fmt = entry.get("format") or Path(entry["path"]).suffix.lstrip(".").lower()
        meta = tuple(sorted((k, str(v)) for k, v in entry.items()
                            if k not in {"name", "kind", "format", "path", "sha256", "act"}))
        out.append(Source(entry["name"], entry["kind"], fmt, entry["path"], entry["sha256"].lower(),
                          entry.get("act", ""), meta))
    if not out:
        raise CorpusError(f"{path}: no [[source]] entries")
    return tuple(out)


def corpus_file(name: str, settings: Settings) -> Path:
    """The file a user may open by ``name``: a statute or judgment of the manifest whose file name is ``name``
    (under ``settings.corpus_path``). Raises :class:`CorpusError` (a :class:`~legal_rag.errors.LegalRagError`)
    for anything else, so no path from a caller reaches other files: ``name`` must be a bare file name (no ``/``,
    ``\\``, NUL, ``.`` or ``..``) and is only ever compared with the manifest's names (a source holding many
    decisions, an archive or a day's log, is not served: it opens at no one decision). Users' uploads are served
    to their owners only (:meth:`legal_rag.pipeline.Pipeline.upload_file`), never by name here."""
    if not name or "\x00" in name or "/" in name or "\\" in name or name in (".", ".."):
        raise CorpusError("not a corpus file")  # a bare file name, or nothing (NUL: ValueError)
    for src in load_manifest(settings.manifest_path):
        if src.file_name == name and src.kind in ("statute", "judgment") and src.format not in many.READERS:
            path = (settings.corpus_path / src.path).resolve()
            if path.is_file():
                return path
    raise CorpusError("not a corpus file")


def sha256_of(path: Path) -> str:
    """Hex sha256 of a file's bytes (read in 1 MiB blocks)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def verify(source: Source, corpus_path: Path) -> Problem | None:
    """``None`` when ``corpus_path/source.path`` exists and its sha256 is the manifest's; else an ``error``
    Problem: kind ``missing`` or ``sha256_mismatch`` (message ``expected <hex>, got <hex>``)."""
    path = Path(corpus_path) / source.path
    if not path.is_file():
        return Problem(source.path, "missing", f"file not found under {corpus_path}", severity="error")
    got = sha256_of(path)
    if got != source.sha256:
        return Problem(source.path, "sha256_mismatch", f"expected {source.sha256}, got {got}", severity="error")
    return None


def select(sources: Iterable[Source], only: str | Iterable[str] | None) -> tuple[Source, ...]:
    """Sources whose name, act or kind matches ``only`` (case-insensitive; several names allowed). Raises
    :class:`CorpusError` listing the known names when nothing matches."""
    sources = tuple(sources)
    if only is None:
        return sources
    wanted = {only.lower()} if isinstance(only, str) else {o.lower() for o in only}
    picked = tuple(s for s in sources if {s.name.lower(), s.act.lower(), s.kind.lower()} & wanted)
    if not picked:
        names = ", ".join(s.name for s in sources[:12]) + (", ..." if len(sources) > 12 else "")
        raise CorpusError(f"--only {', '.join(sorted(wanted))}: no such source, act or kind (known: {names})")
    return picked


def hint_rows(src: Source, settings: Settings) -> tuple[dict[str, dict[str, str]], list[Problem]]:
    """The rows of the derived index the manifest names beside ``src`` (``hints`` path, ``hints_sha256``), by their
    ``file`` column; ``{}`` when none is named. A named index that is missing or whose sha256 differs is not read: a
    ``warning`` Problem says so (the source is read without its hints)."""
    import csv
    import io

    meta = dict(src.meta)
    if not meta.get("hints"):
        return {}, []
    hint = Source(f"{src.name} hints", "mapping", "csv", meta["hints"], meta.get("hints_sha256", ""))
    bad = verify(hint, settings.corpus_path)
    if bad is not None:
        return {}, [dataclasses.replace(bad, severity="warning", message=f"{bad.message}; read without its hints")]
    text = (Path(settings.corpus_path) / hint.path).read_text(encoding="utf-8", errors="replace")
    return {r.get("file", ""): r for r in csv.DictReader(io.StringIO(text))}, []


def dense(src: Source) -> bool:
    """Whether the chunks of ``src`` are embedded: every source but those the manifest marks ``dense = false`` (the
    bulk judgment sources; their chunks are searched by BM25, their decisions by the case base, unless
    ``Settings.dense_all``)."""
    return dict(src.meta).get("dense", "true").strip().lower() not in ("false", "0", "no")


def _ingest_one(src: Source, settings: Settings, seen: _Seen | None = None
                ) -> tuple[list[Section], list[Judgment], list[Paragraph], list[Problem], int, list[ScheduleText]]:
    """Parse one verified source; returns sections, judgments, paragraphs, problems, the page count and the text a
    statute prints after its last section (:func:`legal_rag.ingest.statutes.parse_act`). A source
    holding many decisions (:data:`legal_rag.ingest.many.READERS`) is read by its reader, told what the sources
    before it hold (``seen``, a :class:`_Seen`), and its :class:`~legal_rag.ingest.many.ManyRead` is kept in
    ``seen.reads`` (a fresh one when ``seen`` is None: the source alone)."""
    from . import doctype, judgments, pdf

    path = Path(settings.corpus_path) / src.path
    name = src.file_name
    if src.format in many.READERS:
        seen = _Seen() if seen is None else seen
        hints, probs = hint_rows(src, settings)
        got = many.READERS[src.format](path, name, hints, settings, seen)
        seen.reads[name] = got
        return [], list(got.judgments), list(got.paragraphs), probs + list(got.problems), 0, []
    pages: tuple[Page, ...] = ()
    problems: list[Problem] = []
    if src.format == "pdf":
        res = pdf.extract_pages(path, timeout_s=settings.pdf_timeout_s, max_pages=settings.max_pages,
                                cache_dir=None if os.environ.get(pdf.CACHE_ENV) else settings.data_dir / "cache" / "pages")
        pages, problems = res.pages, list(res.problems)
        if not res.ok and not pages:
            return [], [], [], problems, 0, []
    if src.kind == "statute":
        from . import statutes  # imported here: a judgments-only ingest does not need the statute parser

        if src.format == "json":
            return list(statutes.load_iea_json(path)), [], [], problems, 0, []
        act = statutes.parse_act(src.act, pages, name)
        return list(act.sections), [], [], problems + list(act.problems), len(pages), list(act.schedules)
    if src.format in {"txt", "text"}:
        pages, probs = judgments.pages_from_text(name, path.read_text(encoding="utf-8", errors="replace"))
        problems += list(probs)
    j, paras, probs = doctype.read_document(pages, name, "text" if src.format in {"txt", "text"} else None)
    if j.kind != "judgment" and paras:  # listed as a judgment, read as another document: say so, label it so
        probs += (Problem(name, "not_a_judgment", f"listed as a judgment in the manifest but read as "
                          f"{doctype.DOCUMENT_LABEL}; cited as a document", severity="warning"),)
    return [], [j], list(paras), problems + list(probs), len(pages), []


def _progress(enabled: bool, total: int):
    if not enabled:
        return nullcontext(None)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn("[bold]ingest[/] {task.description:<48}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), transient=False)


def load_corpus(settings: Settings, only: str | Iterable[str] | None = None, progress: bool = True) -> Corpus:
    """Verify and parse every source of ``settings.manifest_path`` (or those ``only`` names; see :func:`select`).

    Statute PDFs go through ``pdf.extract_pages`` then ``statutes.parse_statute``; the IEA JSON through
    ``statutes.load_iea_json``; judgment PDFs and texts through ``doctype.read_document`` (the judgment parser, then
    classified: a text that is no court's judgment is a ``document``, reported and labelled so); a source holding
    many decisions (an Indian Kanoon archive, the Supreme Court's orders of the day) through its reader of
    :mod:`legal_rag.ingest.many`, in manifest order, each told what the sources before it hold (so a decision is
    taken once); ``mapping`` sources are only checked (the law module reads them). Each file's failure is a Problem
    and the batch continues. ``report.extra`` holds ``seconds`` (total) and ``per_file`` seconds;
    ``report.skipped`` what the many-decision sources held and did not take, with the reason; ``report.counts`` the
    decisions read and taken by source, court, year and form (:func:`decision_counts`). Raises
    :class:`CorpusError` only for the manifest itself (and an ``only`` that matches nothing), and for a corpus folder that does not exist at all (every
    file would be "missing": the message names the folder and the setting that moves it).
    """
    sources = select(load_manifest(settings.manifest_path), only)
    if sources and not Path(settings.corpus_path).is_dir():
        raise corpus_missing(settings.corpus_path)
    sections: list[Section] = []
    judgs: list[Judgment] = []
    paras: list[Paragraph] = []
    schedules: list[ScheduleText] = []
    problems: list[Problem] = []
    failed: list[str] = []
    files: list[str] = []
    pages_total = 0
    per_file: dict[str, float] = {}
    seen = _Seen()
    t0 = time.perf_counter()
    with _progress(progress, len(sources)) as bar:
        task = bar.add_task("", total=len(sources)) if bar else None
        for src in sources:
            if bar:
                bar.update(task, description=src.name[:48])
            t = time.perf_counter()
            files.append(src.path)
            bad = verify(src, settings.corpus_path)
            if bad:
                problems.append(bad)
                failed.append(src.path)
            elif src.kind != "mapping":
                try:
                    s, j, p, probs, n, sch = _ingest_one(src, settings, seen)
                except Exception as exc:  # a parser bug on one file must not lose the batch; keep the reason
                    s, j, p, n, sch = [], [], [], 0, []
                    probs = [Problem(src.file_name, "parser_error", f"{type(exc).__name__}: {exc}", severity="error")]
                if not (s or p) and any(pr.severity == "error" for pr in probs):
                    j = []  # nothing usable came out of this file
                sections += s
                schedules += sch
                judgs += j
                paras += p
                problems += probs
                pages_total += n
                for one in j:
                    seen.add(one)
                if src.kind == "judgment" and src.format not in many.READERS and p:
                    seen.texts[Path(src.path).stem] = "\n".join(x.text for x in p)
                if not (s or j) and src.file_name not in seen.reads:
                    failed.append(src.path)
            per_file[src.path] = round(time.perf_counter() - t, 3)
            if bar:
                bar.advance(task)
    per_act = Counter(sec.ref.act for sec in sections)
    report = IngestReport(
        files=tuple(files), pages=pages_total, sections=tuple(sorted(per_act.items())),
        judgments=sum(j.kind == "judgment" for j in judgs), documents=sum(j.kind == "document" for j in judgs),
        paragraphs=len(paras), problems=tuple(problems), failed=tuple(failed),
        schedules=tuple(sorted(Counter(u.act for u in schedules).items())),
        extra={"seconds": round(time.perf_counter() - t0, 3), "per_file": per_file},
        skipped=tuple((name, reason, n) for name, got in seen.reads.items() for reason, n in got.skipped),
        counts=decision_counts(judgs, {name: got.read for name, got in seen.reads.items()}),
    )
    return Corpus(tuple(sections), tuple(judgs), tuple(paras), report, tuple(schedules))


class _Seen(many.Seen):
    """:class:`legal_rag.ingest.many.Seen` plus what each many-decision source gave (``reads``: file name ->
    :class:`~legal_rag.ingest.many.ManyRead`)."""

    def __init__(self) -> None:
        super().__init__()
        self.reads: dict[str, many.ManyRead] = {}


def decision_counts(judgments: Iterable[Judgment], read: dict[str, int] | None = None
                    ) -> tuple[tuple[str, str, int], ...]:
    """The court decisions (``kind == "judgment"``) counted by facet: ``("read", file, n)`` for each source holding
    many (decisions found in it, copies included; ``read``), then ``("source", file, n)`` taken, ``("court", name,
    n)``, ``("year", "2024", n)`` (``"undated"`` when the date is unknown) and ``("decision", "judgment" | "order",
    n)``; each facet's values by count, most first, then by name."""
    decided = [j for j in judgments if j.kind == "judgment"]
    out: list[tuple[str, str, int]] = [("read", name, n) for name, n in sorted((read or {}).items())]
    for facet, of in (("source", lambda j: Path(j.source).name), ("court", lambda j: j.court or "unknown court"),
                      ("year", lambda j: j.year or "undated"), ("decision", lambda j: j.decision)):
        counted = Counter(of(j) for j in decided)
        out += [(facet, value, n) for value, n in sorted(counted.items(), key=lambda kv: (-kv[1], kv[0]))]
    return tuple(out)


def iter_problems(report: IngestReport, severity: str | None = None) -> Iterator[Problem]:
    """The report's problems, optionally only those of one severity (``info``, ``warning``, ``error``)."""
    return (p for p in report.problems if severity is None or p.severity == severity)


def report_dict(report: IngestReport) -> dict:
    """The report as plain JSON-able data: counts, ``sections`` as ``{act: n}``, problems as dicts."""
    counts: dict[str, dict[str, int]] = {}
    for facet, value, n in report.counts:
        counts.setdefault(facet, {})[value] = n
    return {
        "files": list(report.files), "pages": report.pages, "sections": dict(report.sections),
        "judgments": report.judgments, "documents": report.documents, "paragraphs": report.paragraphs,
        "schedules": dict(report.schedules),
        "failed": list(report.failed), "decisions": counts,
        "skipped": [{"source": s, "reason": r, "count": n} for s, r, n in report.skipped],
        "problems": [{"source": p.source, "page": p.page, "severity": p.severity, "kind": p.kind, "message": p.message}
                     for p in report.problems],
        **{k: v for k, v in report.extra.items()},
    }
