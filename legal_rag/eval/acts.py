"""Sections of the six Acts for evaluation and benchmarks.

:func:`load_sections` uses the project's ingestion (``legal_rag.ingest.load_corpus``) when the manifest names the statutes and
yields sections of at least the IPC and the BNS; otherwise it falls back to the structured copies in ``corpus_path/statutes/structured``
(IPC, CrPC and IEA from civictech-India JSON, BNS from the CMRIT CSV, BNSS from the Tejaswgupta JSON; no BSA),
with ``pages=(0, 0)`` (unknown). The origin is returned so every figure says which one it used.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from ..config import Settings
from ..errors import CorpusError
from ..types import Section, StatuteRef


def _sec(v) -> str:
    return re.sub(r"\s+", "", str(v)).upper()


def structured_sections(corpus_path: Path) -> tuple[Section, ...]:
    """Sections from the structured files (see module docstring); text whitespace-normalised per line."""
    root = Path(corpus_path) / "statutes" / "structured"
    out: list[Section] = []
    for act, name, key in (("IPC", "ipc_civictech.json", "Section"), ("CrPC", "crpc_civictech.json", "section"),
                           ("IEA", "iea_civictech.json", "section")):
        for r in json.loads((root / name).read_text(encoding="utf-8")):
            text = "\n".join(" ".join(line.split()) for line in str(r.get("section_desc", "")).splitlines())
            out.append(Section(StatuteRef(act, _sec(r[key])), str(r.get("section_title", "")).strip(),
                               text.strip(), name, (0, 0), chapter=str(r.get("chapter", ""))))
    with open(root / "bns_sections_kaggle_cmrit.csv", encoding="utf-8", newline="") as fh:
        for r in csv.DictReader(fh):
            out.append(Section(StatuteRef("BNS", _sec(r["Section"])), r["Section _name"].strip(),
                               r["Description"].strip(), "bns_sections_kaggle_cmrit.csv", (0, 0),
                               chapter=r["Chapter"].strip()))
    for r in json.loads((root / "bnss_tejaswgupta.json").read_text(encoding="utf-8")):
        num = _sec(r["section_name"].split()[-1])
        text = r["content"].lstrip(". \n")
        out.append(Section(StatuteRef("BNSS", num), "", text.strip(), "bnss_tejaswgupta.json", (0, 0)))
    seen: set[StatuteRef] = set()
    uniq = []
    for s in out:  # the JSON files repeat a few entries; keep the first of each section
        if s.ref not in seen and s.text:
            seen.add(s.ref)
            uniq.append(s)
    return tuple(uniq)


def load_sections(settings: Settings) -> tuple[tuple[Section, ...], str]:
    """``(sections, origin)``: origin is ``"ingest"`` or ``"structured"``."""
    from ..ingest import load_corpus  # the PDF stack loads only when sections are asked for

    try:
        corpus = load_corpus(settings, only="statute", progress=False)
    except CorpusError:  # no manifest, or it names no statute: the structured JSONs, and the origin says so
        return structured_sections(settings.corpus_path), "structured"
    secs = tuple(corpus.sections)
    if {s.ref.act for s in secs} >= {"IPC", "BNS"}:  # a partial ingest would skew every figure
        return secs, "ingest"
    return structured_sections(settings.corpus_path), "structured"
