"""The case base: the 2,914 Supreme Court judgments of AILA 2019 plus every other judgment of the
corpus, each paragraph with the statute sections it cites, minus the documents that copy a test query.

``load_casebase(corpus_path, limit=None) -> (judgments, paragraphs, LeakReport)``.

* AILA judgments are read in place from ``judgments/aila2019_Object_casedocs_SC_2914.tar.gz`` (never copied):
  line 1 the title, line 2 the court, the date within lines 3-4, then one paragraph per non-empty line (the
  dataset's format; Bhattacharya et al., AILA 2019 overview). Case ids are the file stems (``C1`` .. ``C2914``);
  paragraphs are in file order, so ``CaseHit.para`` (0-based) indexes them.
* Other judgments: every ``kind = "judgment"`` source of the manifest, read through the project's judgment path
  (:func:`legal_rag.ingest.corpus.load_corpus`); a source whose file stem is an AILA case id already loaded
  (``judgments/sc_ipc_selected/C4.txt`` is AILA's ``C4``) is not read twice; documents that are no court's
  judgment (``Judgment.kind == "document"``) are left out.
* ``Paragraph.cites``: :func:`legal_rag.ingest.statute_cites.find_statute_refs_by_paragraph`, the project's one
  citation grammar (status ``ok``: one of the six Acts named; and, with ``articles=True``, the Articles of the
  Constitution as ``StatuteRef("Constitution", "21")``, article level -- AILA's statutes are mostly Articles) over
  the judgment read whole, so that "the Code" defined in one paragraph resolves in later ones.
* Leakage guard: a case-base document is dropped when it contains a test query's text
  (AILA ``Q11``-``Q50``, or any ``extra_texts`` such as the dev-set questions): word 8-gram containment of the
  query in the document ``>= LEAK_CONTAINMENT`` (0.5). AILA queries are fact statements cut from real Supreme
  Court judgments, so a near-copy shares long word runs, while unrelated judgments share almost none (see
  :data:`KNOWN_LEAKS` for the measured figures). Training queries ``Q1``-``Q10`` are measured and reported but
  not excluded (they are for tuning).
"""

from __future__ import annotations

import re
import tarfile
import time
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence

from ..types import Judgment, Paragraph
from .shingles import SHINGLE, shingles
from .statute_cites import find_statute_refs_by_paragraph

AILA_TAR = Path("judgments") / "aila2019_Object_casedocs_SC_2914.tar.gz"
AILA_QUERIES = Path("benchmarks") / "aila2019" / "Query_doc.txt"
TEST_QUERY_IDS = tuple(f"AILA_Q{i}" for i in range(11, 51))
TRAIN_QUERY_IDS = tuple(f"AILA_Q{i}" for i in range(1, 11))
#: the containment (word n-grams of :data:`~legal_rag.ingest.shingles.SHINGLE` words) at or above which a document
#: counts as a copy of a query
LEAK_CONTAINMENT = 0.5
#: The two AILA test queries with near-copies in the case base, as measured on the full tar (8-gram containment of
#: the query in the case): Q21 in C113 (0.90) and Q15 in C297 (0.73). Every other query's best case is at most
#: 0.053 (Q34 in C165); no training query Q1-Q10 reaches 0.034 (Q7 in C2657), so none has a near-copy. The gap
#: between 0.053 and 0.73 is where the threshold 0.5 sits. Checked by tests/ingest/test_casebase_load.py.
KNOWN_LEAKS: dict[str, tuple[str, float]] = {"AILA_Q21": ("C113", 0.9005), "AILA_Q15": ("C297", 0.7276)}


@dataclass(frozen=True)
class LeakReport:
    """What the leakage guard measured and did.

    ``dropped``: case ids removed; ``matches``: ``(query id, case id, containment)`` for every pair at or above
    :data:`LEAK_CONTAINMENT` (test and training queries alike, best first); ``best``: per query, its most
    contained case ``(case id, containment)`` (the distribution the threshold was chosen from); ``threshold``."""

    dropped: tuple[str, ...] = ()
    matches: tuple[tuple[str, str, float], ...] = ()
    best: Mapping[str, tuple[str, float]] = field(default_factory=dict)
    threshold: float = LEAK_CONTAINMENT
    seconds: float = 0.0


def _num_key(name: str) -> int:
    return int(re.sub(r"\D", "", name) or 0)


def read_aila_casedocs(corpus_path: Path, limit: int | None = None, *, cites: bool = True
                       ) -> tuple[tuple[Judgment, ...], tuple[Paragraph, ...]]:
    """The AILA judgments in case-number order (``C1``, ``C2``, ...; the first ``limit`` when given): header
    (title, court, year as ``date``) and one :class:`Paragraph` per non-empty body line, ``cites`` filled when
    ``cites``. Raises ``FileNotFoundError`` when the tar is missing."""
    tar = Path(corpus_path) / AILA_TAR
    docs: list[tuple[str, str]] = []
    with tarfile.open(tar, "r:gz") as tf:
        for m in tf:
            if m.isfile() and m.name.endswith(".txt"):
                docs.append((Path(m.name).stem, tf.extractfile(m).read().decode("utf-8", errors="replace")))
    docs = sorted(docs, key=lambda kv: _num_key(kv[0]))[:limit]
    judgments, paras = [], []
    for name, text in docs:
        nonempty = [ln for ln in (x.strip() for x in text.splitlines()) if ln]
        title = nonempty[0] if nonempty else name
        court = nonempty[1] if len(nonempty) > 1 else ""
        ym = re.search(r"\b(1[89]\d\d|20\d\d)\b", " ".join(nonempty[2:4]))
        judgments.append(Judgment(case_id=name, title=title, court=court, date=ym.group(1) if ym else "",
                                  source=f"{name}.txt"))
        body = nonempty[2:]
        refs = find_statute_refs_by_paragraph(body, articles=True) if cites else [()] * len(body)
        for ln, found in zip(body, refs):
            m = re.match(r"^(\d+)\.\s+", ln)
            paras.append(Paragraph(case=name, number=m.group(1) if m else "", text=ln, source=f"{name}.txt",
                                   pages=(0, 0), cites=found))
    return tuple(judgments), tuple(paras)


def read_aila_queries(corpus_path: Path) -> dict[str, str]:
    """``{"AILA_Q1": text, ...}`` from ``benchmarks/aila2019/Query_doc.txt`` (one ``AILA_Qn||text`` per line)."""
    out = {}
    for line in (Path(corpus_path) / AILA_QUERIES).read_text(encoding="utf-8").splitlines():
        if "||" in line:
            q, _, text = line.partition("||")
            out[q.strip()] = text.strip()
    return out


def containment(queries: Mapping[str, str], docs: Mapping[str, str], n: int = SHINGLE
                ) -> dict[str, dict[str, float]]:
    """``{query id: {doc id: share of the query's n-grams found in the doc}}``, only pairs sharing at least one
    n-gram (Broder 1997, "On the resemblance and containment of documents")."""
    qsh = {q: shingles(t, n) for q, t in queries.items()}
    index: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for q, sh in qsh.items():
        for s in sh:
            index[s].append(q)
    every = set(index)
    out: dict[str, dict[str, float]] = {q: {} for q in queries}
    for d, text in docs.items():
        hits: dict[str, int] = defaultdict(int)
        for s in shingles(text, n) & every:
            for q in index[s]:
                hits[q] += 1
        for q, c in hits.items():
            out[q][d] = c / len(qsh[q])
    return out


def leak_guard(queries: Mapping[str, str], docs: Mapping[str, str], exclude_ids: Iterable[str],
               threshold: float = LEAK_CONTAINMENT) -> LeakReport:
    """Measure every query against every document; drop the documents at or above ``threshold`` for the queries
    in ``exclude_ids`` (the others are only reported)."""
    t0 = time.perf_counter()
    cont = containment(queries, docs)
    excl = set(exclude_ids)
    matches, best, dropped = [], {}, set()
    for q, per in cont.items():
        if per:
            d, c = max(per.items(), key=lambda kv: (kv[1], kv[0]))
            best[q] = (d, round(c, 4))
        for d, c in per.items():
            if c >= threshold:
                matches.append((q, d, round(c, 4)))
                if q in excl:
                    dropped.add(d)
    matches.sort(key=lambda m: (-m[2], m[0], m[1]))
    return LeakReport(tuple(sorted(dropped, key=lambda d: (_num_key(d), d))), tuple(matches), best, threshold,
                      round(time.perf_counter() - t0, 3))


def load_casebase(corpus_path: Path, limit: int | None = None, *, others: tuple[Sequence[Judgment],
                  Sequence[Paragraph]] | None = None, settings=None, extra_texts: Sequence[str] = (),
                  on_phase: Callable[[str], None] | None = None,
                  ) -> tuple[tuple[Judgment, ...], tuple[Paragraph, ...], LeakReport]:
    """The case base: AILA judgments (the first ``limit`` of them; ``None``: all 2,914) plus the corpus's other
    judgments, each paragraph's ``cites`` filled, minus the documents the leakage guard drops.

    ``others``: the other judgments already read ``(judgments, paragraphs)`` (a build that ingested the corpus
    passes its own); when ``None`` they are read through :func:`legal_rag.ingest.corpus.load_corpus` with
    ``settings`` (default: :class:`~legal_rag.config.Settings` with ``corpus_path``), judgment sources only.
    ``extra_texts``: more test texts to guard against (e.g. the dev-set questions), ids ``extra:<i>``.
    ``on_phase(name)`` is called as each phase starts: ``aila`` (read the tar, cites), ``judgments`` (the other
    judgments), ``leak`` (the guard). Raises ``FileNotFoundError`` when the AILA tar or query file is missing.
    """
    phase = on_phase or (lambda name: None)
    phase("aila")
    judgments, paras = read_aila_casedocs(corpus_path, limit)
    aila_ids = {j.case_id for j in judgments}
    phase("judgments")
    if others is None:
        from ..config import Settings
        from .corpus import load_corpus

        settings = settings or Settings(corpus_path=Path(corpus_path))
        corpus = load_corpus(settings, only="judgment", progress=False)
        others = (corpus.judgments, corpus.paragraphs)
    skip = {j.case_id for j in others[0] if j.kind != "judgment" or Path(j.source).stem in aila_ids} | aila_ids
    first: dict[str, Judgment] = {}
    for j in others[0]:  # a case id given twice: its first judgment only
        if j.case_id not in skip:
            first.setdefault(j.case_id, j)
    extra_j = tuple(first.values())
    keep = {(j.case_id, j.source) for j in extra_j}
    extra_p = _recite([p for p in others[1] if (p.case, p.source) in keep])
    judgments, paras = judgments + extra_j, paras + extra_p
    phase("leak")
    queries = read_aila_queries(corpus_path)
    queries.update({f"extra:{i}": t for i, t in enumerate(extra_texts)})
    texts: dict[str, list[str]] = defaultdict(list)
    for p in paras:
        texts[p.case].append(p.text)
    report = leak_guard(queries, {c: "\n".join(t) for c, t in texts.items()},
                        [*TEST_QUERY_IDS, *(f"extra:{i}" for i in range(len(extra_texts)))])
    drop = set(report.dropped)
    return (tuple(j for j in judgments if j.case_id not in drop), tuple(p for p in paras if p.case not in drop),
            report)


def _recite(paras: Sequence[Paragraph]) -> tuple[Paragraph, ...]:
    """``paras`` (grouped by case) with ``cites`` read per judgment by
    :func:`~legal_rag.ingest.statute_cites.find_statute_refs_by_paragraph`, like the AILA judgments."""
    by_case: dict[str, list[Paragraph]] = defaultdict(list)
    for p in paras:
        by_case[p.case].append(p)
    out: list[Paragraph] = []
    for ps in by_case.values():
        found = find_statute_refs_by_paragraph([p.text for p in ps], articles=True)
        out += [p if p.cites == f else replace(p, cites=f) for p, f in zip(ps, found)]
    return tuple(out)


__all__ = ["AILA_TAR", "KNOWN_LEAKS", "LEAK_CONTAINMENT", "LeakReport", "containment", "leak_guard",
           "load_casebase", "read_aila_casedocs", "read_aila_queries", "shingles"]
