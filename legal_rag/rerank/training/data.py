"""Training groups for the legal reranker, built only from real sources under ``Settings.corpus_path``.

A :class:`Group` is one query with one relevant passage and hard negatives (passages a retriever ranks high that
are not relevant). Sources (provenance: ``corpus_path/SOURCES.md``):

* ``aila``: AILA 2019 training queries Q1-Q10 (``benchmarks/aila2019``) with their Task 2 statute labels; the
  query window that shares most words with the gold statute is the query (the scorer takes the max over query
  windows at run time too);
* ``charge``: charge-identification training facts (``benchmarks/charge_identification/Train-Sent.jsonl``, Paul,
  Goyal & Ghosh, COLING 2020): the sentences labelled with a charge -> the IPC sections whose text the charge's
  definition (``Labels.jsonl``) quotes, and their BNS successors from the BPR&D table (:func:`load_concordance`);
* ``title``: section title -> section text (title masked), BNS (``bns_sections_kaggle_cmrit.csv``) and IPC
  (``ipc_civictech.json``);
* ``illustration``: a BNS illustration (a fact pattern) -> the section's text without its illustrations;
* ``bprd``: the BPR&D table's subject of a row -> the BNS section and the IPC section it pairs.

Negatives are mined with BM25 (bm25s) over the candidate pool of each source, and, when an embedder is given, by
dense cosine as well. Held-out data never enters: AILA test queries Q11-Q50 and every dev question in ``bench/``
and ``tests/`` are *forbidden*; a group whose query is one of them, contains one, or is close to one (Jaccard of
word sets >= 0.8) is dropped, BPR&D rows cited by a dev item are skipped, and :func:`assert_no_leak` raises
:class:`LeakageError` if anything slips through.
"""

from __future__ import annotations

import csv
import json
import random
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Sequence

from ...errors import LegalRagError
from ...types import ACT_TITLES

_PROJECT = Path(__file__).resolve().parents[3]  # the checkout: legal_rag/rerank/training/data.py
PASSAGE_WORDS = 150  # words of a section kept as a training passage (~200 model tokens)
QUERY_WORDS = 100  # words per query window for long AILA facts
SOURCES = ("aila", "charge", "title", "illustration", "bprd")


class LeakageError(LegalRagError):
    """A training query is (or overlaps) a held-out test or dev query."""


@dataclass(frozen=True)
class Group:
    """``query`` with one relevant ``positive`` passage and ``negatives``; ``source`` names where it came from
    (``"aila:AILA_Q3:S20"``, ``"title:BNS 318"``)."""

    query: str
    positive: str
    negatives: tuple[str, ...]
    source: str


# ----------------------------------------------------------------------------------------------- held-out data

def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def norm(text: str) -> str:
    return " ".join(_words(text))


def devset_files(root: Path = _PROJECT) -> list[Path]:
    """Every dev question file the project holds: ``bench/*.jsonl`` and ``tests/**/devset*.jsonl``."""
    return sorted(set((root / "bench").glob("*.jsonl")) | set((root / "tests").rglob("devset*.jsonl")))


@dataclass(frozen=True)
class Forbidden:
    """Held-out queries (normalised text) and the BPR&D rows the dev set was written from."""

    texts: frozenset[str]
    rows: frozenset[str]
    aila_ids: frozenset[str]


def load_forbidden(corpus_path: Path, dev_files: Iterable[Path] | None = None) -> Forbidden:
    """AILA test queries Q11-Q50 and every dev question (``question`` field) with its ``source_row``."""
    from ...eval.aila import TEST_QUERIES, load_queries

    queries = load_queries(corpus_path)
    texts = {norm(queries[q]) for q in TEST_QUERIES if q in queries}
    rows = set()
    for f in (devset_files() if dev_files is None else dev_files):
        for line in Path(f).read_text(encoding="utf-8").splitlines():
            if line.strip():
                d = json.loads(line)
                if d.get("question"):
                    texts.add(norm(d["question"]))
                if d.get("source_row"):
                    rows.add(Path(d["source_row"]).name)
    return Forbidden(frozenset(texts), frozenset(rows), frozenset(TEST_QUERIES))


def leaks(query: str, forbidden: Forbidden) -> bool:
    """True when ``query`` equals, contains or is contained in a held-out query (longer than 40 characters), or
    when the Jaccard similarity of their word sets is >= 0.8."""
    q = norm(query)
    qs = set(q.split())
    for f in forbidden.texts:
        if not f:
            continue
        if q == f or (len(f) > 40 and f in q) or (len(q) > 40 and q in f):
            return True
        fs = _word_set(f)
        if qs and fs and len(qs & fs) / len(qs | fs) >= 0.8:
            return True
    return False


@lru_cache(maxsize=4096)
def _word_set(text: str) -> frozenset[str]:
    """The word set of a normalised held-out text (cached: :func:`leaks` meets the same texts for every query)."""
    return frozenset(text.split())


def assert_no_leak(groups: Sequence[Group], forbidden: Forbidden) -> None:
    """Raise :class:`LeakageError` naming the first group whose query is held-out (or overlaps one), or whose
    source names an AILA test query."""
    for g in groups:
        qid = g.source.split(":")[1] if g.source.startswith("aila:") else ""
        if qid in forbidden.aila_ids or leaks(g.query, forbidden):
            raise LeakageError(f"training group {g.source!r} uses a held-out query: {g.query[:80]!r}")


# ----------------------------------------------------------------------------------------------- statute texts

@dataclass(frozen=True)
class Doc:
    key: str  # "BNS 318", "IPC 420", "AILA S20"
    title: str
    text: str

    def passage(self, mask_title: bool = False, text: str | None = None) -> str:
        """Heading line and the first :data:`PASSAGE_WORDS` words, as :func:`legal_rag.types.passage_text` shows
        a chunk (the title left out when ``mask_title``)."""
        act, _, sec = self.key.partition(" ")
        head = f"{act} {sec}" + (f" ({ACT_TITLES[act]})" if act in ACT_TITLES else "")
        if self.title and not mask_title:
            head += f": {self.title}"
        return head + "\n" + " ".join((text if text is not None else self.text).split()[:PASSAGE_WORDS])


def bns_docs(corpus_path: Path) -> dict[str, Doc]:
    """BNS sections from ``statutes/structured/bns_sections_kaggle_cmrit.csv`` (358 rows)."""
    path = Path(corpus_path) / "statutes" / "structured" / "bns_sections_kaggle_cmrit.csv"
    with open(path, encoding="utf-8", newline="") as fh:
        return {f"BNS {r['Section'].strip()}": Doc(f"BNS {r['Section'].strip()}", r["Section _name"].strip(),
                                                   r["Description"].strip()) for r in csv.DictReader(fh)}


def ipc_docs(corpus_path: Path) -> dict[str, Doc]:
    """IPC sections from ``statutes/structured/ipc_civictech.json`` (575 entries)."""
    path = Path(corpus_path) / "statutes" / "structured" / "ipc_civictech.json"
    out = {}
    for e in json.loads(path.read_text(encoding="utf-8")):
        key = f"IPC {str(e['Section']).strip().upper()}"
        out[key] = Doc(key, str(e.get("section_title", "")).strip(), str(e.get("section_desc", "")).strip())
    return out


def aila_docs(corpus_path: Path) -> dict[str, Doc]:
    from ...eval.aila import load_statutes

    return {s.ref.section: Doc(f"AILA {s.ref.section}", s.title, s.text) for s in load_statutes(corpus_path)}


def split_illustrations(text: str) -> tuple[str, list[str]]:
    """``(body, [illustration, ...])``: the text before "Illustration(s)." and each ``(a)``/``(b)`` item after."""
    m = re.search(r"\n\s*Illustrations?\.*\s*\n", text)
    if not m:
        return text, []
    body, rest = text[:m.start()], text[m.end():]
    rest = re.split(r"\n\s*Explanation", rest)[0]
    items = [re.sub(r"^\([a-z]{1,2}\)\s*", "", x.strip()) for x in re.split(r"\n(?=\s*\([a-z]{1,2}\)\s)", rest)]
    return body, [x for x in items if len(x.split()) >= 8]
