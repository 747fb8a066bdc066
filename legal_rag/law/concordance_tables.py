"""Readers of the official correspondence tables in ``corpus_path/mappings`` (see its SOURCES.md).

What the files really contain, and what each reader does about it:

* ``BPRD_correspondence_BNS_to_IPC_clean.csv`` (BNS↔IPC, from the BPR&D xlsx; CRLF; one row per line): page-break
  continuations survive as extra rows: "103" + "(1)" (rows 167-168), "106" + "-1" (172-173), "106" + "-2"
  (174-175; Excel read "(1)" as -1). A continuation row (BNS cell "(n)" or "-n", IPC and subject empty) is merged
  into the row above; the PDF (p.11-12) confirms 103(1) ← 302, 106(1) ← 304A, 106(2) "-". Glitched cells are read
  as printed: "Explanati on to section 5", "498A Explanat ion", "363A,", "171-I", "197 (1)d", "309 (1), (2), (3)",
  "189 (8)/ (9)", "230 to 232, 246 to 249, 255, 489A", "23 Clause-1". "New"/"new"/"New sub-section"/"-" mean no
  IPC counterpart; an empty IPC cell (row 8, "2 Definitions") names none.
* ``BPRD_correspondence_BSA_to_IEA_firecrawl.md`` (BSA↔IEA): Markdown tables split by "* * *" page breaks, each
  page's first row doubling as a header; row 95 continues on the next page as a row with empty section cells
  (merged); "CAPT" logo and copyright lines are skipped. IEA cells: "3, para 1", "IEA 3 Interpretation clause".
* ``official_correspondence_pairs_BPRD_via_leylegal.csv``: the only BNSS↔CrPC source: bare pairs, no subject and
  no summary of change, no "New" rows (so a BNSS section without a pair may be new or a gap: the file cannot say).
* ``BPRD_correspondence_BNSS_to_CrPC_rushabhcodes.json`` (a conversion of the BPR&D BNSS table): the subject and
  summary of comparison of each BNSS row, read by :func:`read_bnss_subjects` for searching a section's words only
  (its pairs are not read: the leylegal file is the one BNSS↔CrPC source of pairs).
* ``ipc_sections_not_in_BPRD_table_DERIVED.csv``: a DERIVED list (not official) of IPC sections no pair names,
  with a hand note each; kept as ``official=False`` rows and shown only as such.

Row numbers are 1-based line numbers of the file (the header is line 1).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import CorpusError
from ..types import StatuteRef

BNS_IPC_FILE = "BPRD_correspondence_BNS_to_IPC_clean.csv"
BSA_IEA_FILE = "BPRD_correspondence_BSA_to_IEA_firecrawl.md"
PAIRS_FILE = "official_correspondence_pairs_BPRD_via_leylegal.csv"
DERIVED_FILE = "ipc_sections_not_in_BPRD_table_DERIVED.csv"
BNSS_SUBJECTS_FILE = "BPRD_correspondence_BNSS_to_CrPC_rushabhcodes.json"
_LEADING_SECTION = re.compile(r"^\s*(\d+[A-Z]?)")


@dataclass(frozen=True)
class TableRow:
    """One row of a correspondence table, with its cells as printed (whitespace normalised)."""

    file: str
    row: int
    new_cell: str
    old_cell: str
    subject: str = ""
    summary: str = ""
    official: bool = True
    last_row: int = 0  # > row when a page-break continuation was merged in

    @property
    def source_row(self) -> str:
        """``"<file>#<row>"`` (``#<row>-<last>`` for a merged continuation)."""
        return f"{self.file}#{self.row}" + (f"-{self.last_row}" if self.last_row > self.row else "")


@dataclass(frozen=True)
class Pair:
    """One correspondence: ``old`` ↔ ``new`` from ``row``. ``old`` is None for a row the table marks "New"/"-"
    (``marker`` keeps the cell). ``old_part``/``new_part`` name a part of the section ("Explanation",
    "First proviso", "para 1", "Clause-1")."""

    old: StatuteRef | None
    new: StatuteRef | None
    row: TableRow
    marker: str = ""
    old_part: str = ""
    new_part: str = ""

    @property
    def is_new(self) -> bool:
        return self.old is None and (self.marker.lower().startswith("new") or self.marker.strip() == "-")


def _norm(s: str) -> str:
    s = re.sub(r"\s+", " ", (s or "").replace("\r", " ")).strip()
    return re.sub(r"Explanat\s?i\s?on", "Explanation", s)


_TOKEN = re.compile(r"(?:(?P<act>IPC|IEA|CrPC|CRPC|BNS|BNSS|BSA)\s+)?(?P<n>\d+)(?:\s*-\s*)?(?P<l>[A-Z]{1,2}(?![a-z]))?"
                    r"(?P<subs>(?:\s*\(\s*\w+\s*\))*)(?P<tail>[a-z])?(?:\s*(?P<part>[A-Za-z].*))?$")
_PART_OF = re.compile(r"(?P<part>(?:(?:First|Second|Third)\s+)?[Pp]roviso|Explanation)\s+to\s+section\s+(?P<sec>\d+[A-Z]*)$")
MARKERS = ("new", "-", "")


def parse_cell(cell: str, act: str) -> tuple[list[tuple[StatuteRef, str]], str]:
    """Refs in one table cell as (ref, part) pairs, and the marker when the cell names none.

    >>> [str(r) for r, _ in parse_cell("309 (1), (2), (3)", "BNS")[0]]
    ['BNS 309(1)', 'BNS 309(2)', 'BNS 309(3)']
    >>> parse_cell("498A Explanat ion", "IPC")[0]
    [(StatuteRef(act='IPC', section='498A', sub=()), 'Explanation')]
    """
    c = _norm(cell)
    if c.lower().startswith("new") or c in ("-", ""):
        return [], c
    m = _PART_OF.match(c)
    if m:
        return [(StatuteRef(act, m.group("sec")), m.group("part"))], ""
    out: list[tuple[StatuteRef, str]] = []
    for tok in re.split(r"\s*(?:,|&|/|\band\b)\s*", c):
        if not tok:
            continue
        rng = re.fullmatch(r"(\d+)\s+to\s+(\d+)", tok)
        if rng:
            out += [(StatuteRef(act, str(n)), "") for n in range(int(rng.group(1)), int(rng.group(2)) + 1)]
            continue
        sub_only = re.fullmatch(r"\(\s*(\w+)\s*\)", tok)
        if sub_only and out:
            prev = out[-1][0]
            out.append((StatuteRef(act, prev.section, prev.sub[:-1] + (sub_only.group(1),)), ""))
            continue
        if re.fullmatch(r"para\s+\d+", tok) and out:
            out[-1] = (out[-1][0], tok)
            continue
        t = _TOKEN.match(tok)
        if not t:
            raise CorpusError(f"cannot read table cell {cell!r} (token {tok!r})")
        subs = tuple(re.findall(r"\(\s*(\w+)\s*\)", t.group("subs"))) + ((t.group("tail"),) if t.group("tail") else ())
        out.append((StatuteRef(act, t.group("n") + (t.group("l") or ""), subs), t.group("part") or ""))
    return out, ""


def _pairs_of(row: TableRow, old_act: str, new_act: str) -> list[Pair]:
    news, _ = parse_cell(row.new_cell, new_act)
    olds, marker = parse_cell(row.old_cell, old_act)
    out = []
    for new, new_part in news:
        if not olds:
            out.append(Pair(None, new, row, marker=marker or row.old_cell, new_part=new_part))
        for old, old_part in olds:
            out.append(Pair(old, new, row, old_part=old_part, new_part=new_part))
    return out


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CorpusError(f"{path}: cannot read correspondence table: {exc}") from None


def read_bns_ipc(mappings: Path) -> tuple[list[TableRow], list[Pair]]:
    """BNS↔IPC rows and pairs from the clean CSV (continuation rows merged)."""
    text = _read(mappings / BNS_IPC_FILE)
    rows: list[TableRow] = []
    for i, rec in enumerate(csv.DictReader(io.StringIO(text, newline="")), start=2):
        new, old = _norm(rec["bns_section"]), _norm(rec["ipc_section"])
        subj, summ = _norm(rec["subject"]), _norm(rec["summary_of_comparison"])
        cont = re.fullmatch(r"\(?-?(\d+)\)?", new)
        if cont and new[0] in "(-" and not old and not subj and rows:
            p = rows[-1]
            rows[-1] = TableRow(p.file, p.row, f"{p.new_cell}({cont.group(1)})", p.old_cell, p.subject,
                                f"{p.summary} {summ}".strip(), True, i)
            continue
        rows.append(TableRow(BNS_IPC_FILE, i, new, old, subj, summ))
    return rows, [p for r in rows for p in _pairs_of(r, "IPC", "BNS")]


def read_bsa_iea(mappings: Path) -> tuple[list[TableRow], list[Pair]]:
    """BSA↔IEA rows and pairs from the Markdown tables (page breaks, split row 95 merged, logo noise skipped)."""
    rows: list[TableRow] = []
    for i, line in enumerate(_read(mappings / BSA_IEA_FILE).splitlines(), start=1):
        if not line.startswith("|") or re.match(r"\|\s*-{3}", line):
            continue
        cells = [_norm(c) for c in line.strip().strip("|").split("|")]
        if len(cells) != 4:
            raise CorpusError(f"{BSA_IEA_FILE} line {i}: expected 4 cells, found {len(cells)}")
        new, old, subj, summ = cells
        if new == "BSA Section":
            continue
        if not new and not old and rows:
            p = rows[-1]
            rows[-1] = TableRow(p.file, p.row, p.new_cell, p.old_cell, (p.subject + " " + subj).strip(),
                                f"{p.summary} {summ}".strip(), True, i)
            continue
        rows.append(TableRow(BSA_IEA_FILE, i, new, old, subj, summ))
    return rows, [p for r in rows for p in _pairs_of(r, "IEA", "BSA")]


def read_bnss_crpc(mappings: Path) -> tuple[list[TableRow], list[Pair]]:
    """BNSS↔CrPC pairs (no subject, no summary: the pairs file has none)."""
    text = _read(mappings / PAIRS_FILE)
    rows: list[TableRow] = []
    for i, rec in enumerate(csv.DictReader(io.StringIO(text, newline="")), start=2):
        if rec["new_act"].strip() == "BNSS" and rec["old_act"].strip().upper() == "CRPC":
            rows.append(TableRow(PAIRS_FILE, i, rec["new_section"].strip(), rec["old_section"].strip()))
    return rows, [p for r in rows for p in _pairs_of(r, "CrPC", "BNSS")]


def read_pairs_file(mappings: Path, new_act: str) -> list[tuple[int, str, str]]:
    """(row, new_section, old_section) of one act pair in the pairs file, for cross-checks."""
    text = _read(mappings / PAIRS_FILE)
    return [(i, r["new_section"].strip(), r["old_section"].strip())
            for i, r in enumerate(csv.DictReader(io.StringIO(text, newline="")), start=2) if r["new_act"].strip() == new_act]


def read_derived_gaps(mappings: Path) -> dict[StatuteRef, TableRow]:
    """IPC section -> row of the DERIVED list of IPC sections that no BPR&D pair names (not official)."""
    text = _read(mappings / DERIVED_FILE)
    out = {}
    for i, rec in enumerate(csv.DictReader(io.StringIO(text, newline="")), start=2):
        sec = rec["ipc_section"].strip().upper()
        out[StatuteRef("IPC", sec)] = TableRow(DERIVED_FILE, i, "", sec, _norm(rec["ipc_title_civictech"]),
                                               _norm(rec["note"]), official=False)
    return out


def read_bnss_subjects(mappings: Path) -> dict[StatuteRef, str]:
    """BNSS section (section level) -> the subject and summary of comparison of its BPR&D rows, joined; ``{}`` when
    the file is absent. A row's section is the number its "BNSS Sections" cell opens with ("35(1)-(6)" -> 35)."""
    import json

    path = Path(mappings) / BNSS_SUBJECTS_FILE
    if not path.is_file():
        return {}
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as e:
        raise CorpusError(f"{path}: not JSON ({e})") from e
    out: dict[StatuteRef, list[str]] = {}
    for r in rows:
        m = _LEADING_SECTION.match(str(r.get("BNSS Sections", "")))
        if m:
            text = _norm(f"{r.get('Subject', '')} {r.get('Summary of Comparison', '')}")
            out.setdefault(StatuteRef("BNSS", m.group(1)), []).append(text)
    return {k: " ".join(v) for k, v in out.items()}

