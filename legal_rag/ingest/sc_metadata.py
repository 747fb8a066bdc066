"""The Supreme Court's judgment index: which judgments exist, with their neutral citations, beyond the
texts we index.

Source: ``../shared/corpora/judgments/metadata/sc_judgments_index_citecase_projectsci_1950-2026.tar.gz``, markdown
tables (one file per year or range of years) listing every judgment on the Supreme Court's site (sci.gov.in): serial
number, diary number, case number, "PETITIONER VS RESPONDENT", advocates, bench, author, and a "Judgment" cell
such as ``[05-08-2020(English) ,2020 INSC 476(English)](https://api.sci.gov.in/...pdf)``. It is read in place
(never copied) with :mod:`tarfile`, on first use, and a compact parsed form is cached under
``data_dir/sc_metadata/`` keyed by the archive's size and modification time.

``load_sc_metadata(settings) -> ScMetadata | None`` (``None`` when the corpus has no such archive):

* ``by_citation(citation)``: the row (:class:`legal_rag.law.citation_lookup.MetaRecord`) whose neutral citation is
  ``citation`` (canonical, "2020 INSC 476"), or ``None``;
* ``by_title(title)``: the rows whose parties agree with a title ("A v. B"), latest first;
* ``covers(citation)``: True for a neutral citation of a year the index lists neutral citations for
  (:data:`MIN_YEAR_CITATIONS`) (so a missing
  one is no such judgment); False for a law-report citation (SCR/SCC/AIR), which the index does not list.

Dates are ISO ``YYYY-MM-DD`` (the index prints ``DD-MM-YYYY``); parties are as listed ("A VS B"). The archive
holds files for 1950, 2006-2007 and 2010-2026 only (20,598 rows; 9,923 neutral citations, 2017-2026 nearly all): a
judgment of the years between is "not listed", never "no such judgment".
"""

from __future__ import annotations

import gzip
import json
import re
import tarfile
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..config import Settings
from ..law import MetaRecord, citation_key, names_agree
from .citations_meta import find_citations

#: the archive's name pattern under ``corpus_path/judgments/metadata``
ARCHIVE_GLOB = "sc_judgments_index*.tar.gz"
#: bump when the parsed form changes (part of the cache key)
FORMAT_VERSION = 2

#: a year counts as covered (a neutral citation it lacks is no judgment) when the index lists at least this many
#: neutral citations of it (2014-2016 list 1-12, 2017-2025 between 716 and 1,434)
MIN_YEAR_CITATIONS = 100

_DATE = re.compile(r"\b(\d{2})-(\d{2})-((?:19|20)\d{2})\b")
_NEUTRAL = re.compile(r"^((?:19|20)\d{2}) INSC \d+$")


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def parse_table(text: str) -> Iterator[MetaRecord]:
    """The rows of one markdown file of the index, in order. A row needs the parties and a judgment cell; the
    header is found by its column names ("Petitioner / Respondent", "Judgment"), so a reordered table reads the
    same."""
    cols: dict[str, int] | None = None
    for line in text.splitlines():
        if not line.startswith("|"):
            continue
        cells = _cells(line)
        if cols is None:
            names = [c.lower() for c in cells]
            if "judgment" in names and any(n.startswith("petitioner / respondent") for n in names):
                cols = {n: i for i, n in enumerate(names)}
            continue
        if set(line.replace("|", "").strip()) <= set(":- "):
            continue
        if len(cells) < len(cols):
            continue
        parties = cells[next(i for n, i in cols.items() if n.startswith("petitioner / respondent"))]
        judgment = cells[cols["judgment"]]
        m = _DATE.search(judgment)
        date = f"{m.group(3)}-{m.group(2)}-{m.group(1)}" if m else ""
        label = judgment.split("](", 1)[0]
        cites = tuple(c for c in find_citations(label) if _NEUTRAL.match(c))
        yield MetaRecord(re.sub(r"\s+", " ", parties), date, cells[cols.get("case number", 0)],
                         cells[cols.get("diary number", 0)], cites)


class ScMetadata:
    """The parsed index: every row, searchable by neutral citation and by parties (module docstring)."""

    def __init__(self, rows: Iterable[MetaRecord], total: int):
        self.rows = tuple(rows)
        #: every row of the index, with or without a neutral citation
        self.total = total
        self._by = {citation_key(c): r for r in self.rows for c in r.citations}
        per_year = Counter(c.split()[0] for r in self.rows for c in r.citations)
        self._years = frozenset(y for y, n in per_year.items() if n >= MIN_YEAR_CITATIONS)

    def __len__(self) -> int:
        return len(self._by)

    def by_citation(self, citation: str) -> MetaRecord | None:
        return self._by.get(citation_key(citation))

    def by_title(self, title: str, limit: int = 3) -> tuple[MetaRecord, ...]:
        """Up to ``limit`` rows whose parties agree with ``title`` ("A v. B",
        :func:`legal_rag.law.citation_lookup.names_agree`), latest first (judgments of every year, with or without
        a neutral citation)."""
        hits = [r for r in self.rows if names_agree(title, r.title.replace(" VS ", " v. "))]
        return tuple(sorted(hits, key=lambda r: r.date, reverse=True)[:limit])

    def covers(self, citation: str) -> bool:
        m = _NEUTRAL.match(citation)
        return bool(m) and m.group(1) in self._years


def archive_path(settings: Settings) -> Path | None:
    """The index archive in the corpus, or ``None``."""
    found = sorted((Path(settings.corpus_path) / "judgments" / "metadata").glob(ARCHIVE_GLOB))
    return found[-1] if found else None


def read_archive(path: Path) -> tuple[list[MetaRecord], int]:
    """(every row, number of rows) of the archive at ``path``, read in place."""
    rows: list[MetaRecord] = []
    total = 0
    with tarfile.open(path) as tar:
        for member in sorted(tar.getmembers(), key=lambda m: m.name):
            if not member.isfile() or not member.name.endswith(".md"):
                continue
            fh = tar.extractfile(member)
            if fh is None:
                continue
            for r in parse_table(fh.read().decode("utf-8", errors="replace")):
                total += 1
                rows.append(r)
    return rows, total


def load_sc_metadata(settings: Settings) -> ScMetadata | None:
    """The index of the corpus (cached parsed form under ``data_dir/sc_metadata``), or ``None`` without one."""
    path = archive_path(settings)
    if path is None:
        return None
    st = path.stat()
    cache = Path(settings.data_dir) / "sc_metadata" / f"v{FORMAT_VERSION}-{st.st_size}-{int(st.st_mtime)}.json.gz"
    if cache.is_file():
        try:
            with gzip.open(cache, "rt", encoding="utf-8") as fh:
                data = json.load(fh)
            return ScMetadata((MetaRecord(t, d, n, di, tuple(c)) for t, d, n, di, c in data["rows"]), data["total"])
        except (OSError, ValueError, KeyError):
            pass  # rebuilt below
    rows, total = read_archive(path)
    cache.parent.mkdir(parents=True, exist_ok=True)
    tmp = cache.with_suffix(".tmp")
    with gzip.open(tmp, "wt", encoding="utf-8") as fh:
        json.dump({"total": total, "rows": [[r.title, r.date, r.case_number, r.diary, list(r.citations)]
                                            for r in rows]}, fh, ensure_ascii=False)
    tmp.replace(cache)
    return ScMetadata(rows, total)


__all__ = ["ARCHIVE_GLOB", "ScMetadata", "archive_path", "load_sc_metadata", "parse_table", "read_archive"]
