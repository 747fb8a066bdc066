"""The First Schedules ("Classification of offences") of the BNSS and the CrPC, parsed into :class:`ScheduleRow`.

Front doors::

    parse_schedule(path)          -> SchedulePrint(rows=(ScheduleRow(schedule="BNSS", act="BNS", section="49", ...), ...))
    load_schedules(settings)      -> Schedule (legal_rag.law.classify) of both schedules' rows, cached on disk

Sources (``corpora/manifest.toml``; provenance in the corpus's SOURCES.md): the BNSS Gazette print (Act 46 of
2023, First Schedule, Part I "Offences under the Bharatiya Nyaya Sanhita") and the CrPC's India Code print (Act 2 of
1974 as amended up to Act 22 of 2018, First Schedule, Part I "Offences under the Indian Penal Code"). Only Part I is
read; Part II ("Classification of offences against other laws") ends it.

The schedule is found by its headings ("THE FIRST SCHEDULE" / "CLASSIFICATION OF OFFENCES" and the Part I heading on
one page), never by page number; its table is read line by line with pdfplumber
(:mod:`legal_rag.ingest.schedule_table`: why pdfplumber's table finder needs help with these prints, and what
help it gets) and the lines are grouped into rows, with "Ditto" resolved, by :mod:`legal_rag.ingest.schedule_rows`.

Parsing both schedules takes a minute on two cores, so :func:`load_schedules` keeps the rows as JSON under
``<data_dir>/cache/schedules`` (or ``$LEGAL_RAG_SCHEDULE_CACHE``), keyed by the PDF's sha256 and
:data:`PARSER_VERSION`: a changed file or parser parses again, never a stale cache.
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass
from pathlib import Path

from ..config import Settings
from ..errors import CorpusError
from ..law import Schedule
from ..types import Problem, ScheduleRow, StatuteRef
from .corpus import load_manifest, sha256_of
from .schedule_rows import build, group
from .schedule_table import PART_ONE, PART_TWO, SCHEDULE_HEADING, TableLine, table_lines

#: bump when the parse changes: cached rows of an older version are parsed again
PARSER_VERSION = 2
CACHE_ENV = "LEGAL_RAG_SCHEDULE_CACHE"
#: the Act a Part I heading names -> its short code ("I.—OFFENCES UNDER THE BHARATIYA NYAYA SANHITA")
PART_ONE_ACTS = {"BHARATIYA NYAYA SANHITA": "BNS", "INDIAN PENAL CODE": "IPC"}
#: the procedure codes whose First Schedule classifies offences (the manifest's ``act`` of their PDFs)
SCHEDULE_ACTS = ("BNSS", "CrPC")



@dataclass(frozen=True)
class SchedulePrint:
    """One schedule as parsed: its rows, the PDF pages of Part I (1-based, first and last), how each page's
    columns were found (``(page, "rule joints" | "gutters")``), and the problems met (a row number that names no
    section, a "Ditto" with no row above, a page whose first line continues a row)."""

    schedule: str
    act: str
    source: str
    rows: tuple[ScheduleRow, ...]
    pages: tuple[int, int]
    methods: tuple[tuple[int, str], ...]
    problems: tuple[Problem, ...] = ()


def find_part_one(pdf) -> tuple[int, int, str]:
    """``(first, last, act)``: the 1-based pages of Part I of the First Schedule of an open pdfplumber ``pdf``, found
    by the headings (searched from the back, where the schedules are), and the short code of the Act it lists.
    Raises CorpusError when the headings are not found."""
    texts: dict[int, str] = {}

    def text(n: int) -> str:
        if n not in texts:
            texts[n] = pdf.pages[n - 1].extract_text() or ""
        return texts[n]

    n_pages = len(pdf.pages)
    first = next((n for n in range(n_pages, 0, -1) if SCHEDULE_HEADING.search(text(n)) and PART_ONE.search(text(n))),
                 None)
    if first is None:
        raise CorpusError("no page with the headings THE FIRST SCHEDULE / CLASSIFICATION OF OFFENCES / I.-OFFENCES UNDER")
    line = text(first)[PART_ONE.search(text(first)).end():].splitlines()[0]
    act = next((code for name, code in PART_ONE_ACTS.items() if name in line.upper()), None)
    if act is None:
        raise CorpusError(f"p.{first}: Part I names an Act this project does not know: {line.strip()!r}")
    last = next((n for n in range(first, n_pages + 1) if PART_TWO.search(text(n))), None)
    if last is None:
        raise CorpusError(f"p.{first}: no 'II.-CLASSIFICATION OF OFFENCES AGAINST OTHER LAWS' heading after Part I")
    return first, last, act


def parse_schedule(path: Path, schedule: str) -> SchedulePrint:
    """Parse Part I of the First Schedule of the procedure code ``schedule`` ("BNSS" or "CrPC") printed in the PDF
    at ``path``. Raises CorpusError when the file cannot be opened or the schedule's headings are not in it."""
    import pdfplumber  # the PDF table stack loads only when a schedule is parsed

    source = Path(path).name
    try:
        pdf = pdfplumber.open(path)
    except Exception as exc:  # pdfminer raises many types for a file that is not a PDF
        raise CorpusError(f"{path}: cannot open: {exc}") from None
    with pdf:
        first, last, act = find_part_one(pdf)
        lines: list[TableLine] = []
        methods = []
        for n in range(first, last + 1):
            table = table_lines(pdf.pages[n - 1], n)
            if table is None:
                continue
            methods.append((n, table.method))
            lines += table.lines
            if table.ends_part_one:
                break
    grouped, problems = group(lines, source)
    rows, more = build(grouped, schedule, act, source)
    return SchedulePrint(schedule, act, source, tuple(rows), (first, last), tuple(methods), tuple(problems + more))


# ---- cache ------------------------------------------------------------------------------------------------------
def _to_json(sp: SchedulePrint) -> dict:
    return {"version": PARSER_VERSION, "schedule": sp.schedule, "act": sp.act, "source": sp.source,
            "pages": list(sp.pages), "methods": [list(m) for m in sp.methods],
            "problems": [dataclasses.asdict(p) for p in sp.problems],
            "rows": [dataclasses.asdict(r) for r in sp.rows]}


def _from_json(d: dict) -> SchedulePrint:
    rows = []
    for r in d["rows"]:
        ref = r.pop("ref")
        rows.append(ScheduleRow(**{**r, "ref": StatuteRef(ref["act"], ref["section"], tuple(ref["sub"])),
                                   "ditto": tuple(r["ditto"])}))
    return SchedulePrint(d["schedule"], d["act"], d["source"], tuple(rows), tuple(d["pages"]),
                         tuple(tuple(m) for m in d["methods"]), tuple(Problem(**p) for p in d["problems"]))


def cached_schedule(path: Path, schedule: str, cache_dir: Path | None) -> SchedulePrint:
    """:func:`parse_schedule`, read from ``cache_dir`` when this file (by sha256) was parsed by this
    :data:`PARSER_VERSION` before; written there (atomically) otherwise. ``cache_dir`` None: no cache."""
    if cache_dir is None:
        return parse_schedule(path, schedule)
    cache = Path(cache_dir) / f"{schedule}-{sha256_of(Path(path))[:16]}-v{PARSER_VERSION}.json"
    if cache.is_file():
        try:
            return _from_json(json.loads(cache.read_text(encoding="utf-8")))
        except (ValueError, KeyError, TypeError):
            pass  # unreadable: parse again and overwrite
    sp = parse_schedule(path, schedule)
    cache.parent.mkdir(parents=True, exist_ok=True)
    tmp = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(_to_json(sp), ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, cache)
    return sp


def schedule_paths(settings: Settings) -> dict[str, Path]:
    """``{"BNSS": path, "CrPC": path}``: the PDFs of the procedure codes in the manifest (``format = "pdf"``, ``act``
    BNSS / CrPC) that exist under ``settings.corpus_path``; an Act with no such file is left out."""
    out = {}
    for src in load_manifest(settings.manifest_path):
        path = Path(settings.corpus_path) / src.path
        if src.act in SCHEDULE_ACTS and src.format == "pdf" and src.act not in out and path.is_file():
            out[src.act] = path
    return out


def load_schedule_prints(settings: Settings) -> tuple[SchedulePrint, ...]:
    """Both schedules as parsed (cached: see the module docstring), BNSS first; a schedule whose PDF is not in
    the corpus is left out. Raises CorpusError when a PDF is there but its schedule cannot be read."""
    env = os.environ.get(CACHE_ENV)
    cache_dir = Path(env) if env else Path(settings.data_dir) / "cache" / "schedules"
    paths = schedule_paths(settings)
    return tuple(cached_schedule(paths[s], s, cache_dir) for s in SCHEDULE_ACTS if s in paths)


def load_schedules(settings: Settings) -> Schedule:
    """The rows of both schedules as one :class:`~legal_rag.law.classify.Schedule` (empty when the corpus has
    neither PDF)."""
    return Schedule(tuple(r for sp in load_schedule_prints(settings) for r in sp.rows))


__all__ = ["PARSER_VERSION", "SchedulePrint", "find_part_one", "parse_schedule",
           "cached_schedule", "schedule_paths", "load_schedule_prints", "load_schedules"]
