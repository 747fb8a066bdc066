"""Shared fixtures of the ingest tests (statutes and judgments helpers add theirs here; none removed)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest

from legal_rag.config import Settings

#: act code -> the statute PDF in corpus_path/statutes/pdf
STATUTE_PDFS = {
    "BNS": "BNS_2023_gazette_Act45.pdf",
    "BNSS": "BNSS_2023_gazette_Act46.pdf",
    "BSA": "BSA_2023_gazette_Act47.pdf",
    "IPC": "IPC_1860_legislative_dept_2019.pdf",
    "CrPC": "CrPC_1973_legislative_dept.pdf",
}


@dataclass(frozen=True)
class ParsedAct:
    act: str
    result: object  # PdfResult
    sections: tuple
    problems: tuple
    extract_s: float
    parse_s: float


@pytest.fixture(scope="session")
def corpus_path():
    path = Settings().corpus_path
    if not (path / "statutes" / "pdf").is_dir():
        pytest.skip(f"real corpus not found at {path}")
    return path


@pytest.fixture(scope="session")
def parsed_acts(corpus_path) -> dict[str, ParsedAct]:
    """Every statute PDF extracted (two child processes at a time) and parsed once per session."""
    from legal_rag.ingest.pdf import extract_pages
    from legal_rag.ingest.statutes import parse_statute

    def run(act: str) -> ParsedAct:
        t0 = time.perf_counter()
        res = extract_pages(corpus_path / "statutes" / "pdf" / STATUTE_PDFS[act], timeout_s=600)
        t1 = time.perf_counter()
        sections, problems = parse_statute(act, res.pages, res.source)
        return ParsedAct(act, res, sections, problems, t1 - t0, time.perf_counter() - t1)

    with ThreadPoolExecutor(max_workers=2) as pool:  # CrPC (the slowest) first
        return dict(zip(["CrPC", "IPC", "BNSS", "BNS", "BSA"], pool.map(run, ["CrPC", "IPC", "BNSS", "BNS", "BSA"])))
