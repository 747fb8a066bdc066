"""The case base: judgments whose paragraphs are searched by BM25 and whose cited sections are counted.

Built from :class:`~legal_rag.types.Judgment` and :class:`~legal_rag.types.Paragraph` objects (read by
:func:`legal_rag.ingest.casebase.load_casebase`, cites filled by the project's one citation grammar). A case's
paragraphs keep their input order; ``para`` is the 0-based position among that case's paragraphs.

* ``search``: BM25 over paragraphs (:class:`legal_rag.index.sparse.SparseIndex`: bm25s, Lucene BM25 k1=1.5,
  b=0.75, Robertson & Zaragoza 2009; the legal tokenizer that keeps "498A", "302(1)" whole), best first, ties by
  case order then paragraph; only scores > 0.
* Counts are at section level (``StatuteRef.base``: BNS 318(4) counts as BNS 318): ``case_cites(case)[ref]`` is
  the number of that case's paragraphs citing ``ref``; ``section_df(ref)`` the number of cases citing it at least
  once.
* ``citing(ref)``: every paragraph citing ``ref``'s section, in build order (case, then paragraph), each with the
  references to that section as the paragraph names them (``BNS 318(4)`` where it names the sub-section, ``BNS
  318`` where it names only the section); ``judgment(case)`` gives each one's court, date and citations.
* ``save(path)`` writes ``path`` atomically (a temporary sibling directory, then a rename); ``open(path)`` reads
  it back equal. Files: ``cases.json.gz`` (judgments, paragraphs with cites), ``bm25/`` (the bm25s index).
"""

from __future__ import annotations

import dataclasses
import gzip
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Collection, Mapping, Sequence

import numpy as np

from ..types import Judgment, Paragraph, StatuteRef
from .sparse import SparseIndex, legal_tokenize

#: bump when the saved layout or what goes into it changes (it is part of the build cache key)
FORMAT_VERSION = 1


@dataclass(frozen=True)
class SectionCite:
    """One paragraph citing a section (:meth:`CaseBase.citing`): ``case`` id, ``para`` (0-based within the case),
    ``cited`` the references to that section the paragraph makes, as named (sub-sections kept), in order of
    mention, each once."""

    case: str
    para: int
    cited: tuple[StatuteRef, ...]


@dataclass(frozen=True)
class CaseHit:
    """One retrieved paragraph of the case base: ``case`` id, ``para`` (0-based within the case), BM25 ``score``
    (> 0)."""

    case: str
    para: int
    score: float


def _ref_json(r: StatuteRef) -> list:
    return [r.act, r.section, list(r.sub)]


def _ref_of(x: list) -> StatuteRef:
    return StatuteRef(x[0], x[1], tuple(x[2]))


class CaseBase:
    """Judgments and their paragraphs, BM25-searchable, with per-section citation counts (module docstring)."""

    def __init__(self, judgments: Sequence[Judgment], paragraphs: Sequence[Paragraph], sparse: SparseIndex):
        self._judgments = {j.case_id: j for j in judgments}
        by_case: dict[str, list[Paragraph]] = {c: [] for c in self._judgments}
        for p in paragraphs:
            if p.case not in by_case:
                raise ValueError(f"paragraph of unknown case {p.case!r}")
            by_case[p.case].append(p)
        self._paras = {c: tuple(ps) for c, ps in by_case.items()}
        self._sparse = sparse
        # paragraph i of the BM25 index -> (case, para); cases occupy contiguous ranges
        self._rows: list[tuple[str, int]] = [(c, i) for c, ps in self._paras.items() for i in range(len(ps))]
        self._start: dict[str, int] = {}
        pos = 0
        for c, ps in self._paras.items():
            self._start[c] = pos
            pos += len(ps)
        if len(self._rows) != len(sparse):
            raise ValueError(f"{len(sparse)} indexed paragraphs for {len(self._rows)} paragraphs")
        self._order = {c: i for i, c in enumerate(self._paras)}
        self._case_cites: dict[str, Counter] = {}
        df: Counter = Counter()
        for c, ps in self._paras.items():
            cc: Counter = Counter()
            for p in ps:
                cc.update({r.base for r in p.cites})
            self._case_cites[c] = cc
            df.update(cc.keys())
        self._df = df
        self._citing: dict[StatuteRef, tuple[SectionCite, ...]] | None = None

    @classmethod
    def build(cls, judgments: Sequence[Judgment], paragraphs: Sequence[Paragraph]) -> "CaseBase":
        """Index ``paragraphs`` (each of a case in ``judgments``; raises ``ValueError`` otherwise, and for a case
        id given twice) in memory."""
        ids = [j.case_id for j in judgments]
        if len(set(ids)) != len(ids):
            dup = next(c for c in ids if ids.count(c) > 1)
            raise ValueError(f"case {dup!r} given twice")
        known = set(ids)
        bad = next((p.case for p in paragraphs if p.case not in known), None)
        if bad is not None:
            raise ValueError(f"paragraph of unknown case {bad!r}")
        # group by case in the judgments' order, keeping each case's paragraph order
        order = {c: i for i, c in enumerate(ids)}
        paras = sorted(paragraphs, key=lambda p: order[p.case])  # stable
        counts: Counter = Counter()
        rid = []
        for p in paras:
            rid.append(f"{p.case}#{counts[p.case]}")
            counts[p.case] += 1
        sparse = SparseIndex.build(rid, [p.text for p in paras])
        return cls(judgments, paras, sparse)

    # --- persistence ---------------------------------------------------------------------------------------------
    def save(self, path: Path) -> None:
        """Write to directory ``path`` atomically (replacing what is there: :func:`legal_rag.index.atomic.atomic_dir`)."""
        from .atomic import atomic_dir

        data = {
            "format": FORMAT_VERSION,
            "judgments": [dataclasses.asdict(j) for j in self._judgments.values()],
            "paragraphs": [[p.case, p.number, p.text, p.source, list(p.pages), [_ref_json(r) for r in p.cites]]
                           for ps in self._paras.values() for p in ps],
        }
        with atomic_dir(path) as tmp:
            with gzip.open(tmp / "cases.json.gz", "wt", encoding="utf-8", compresslevel=3) as fh:
                json.dump(data, fh, ensure_ascii=False)
            self._sparse.save(tmp / "bm25")

    @classmethod
    def open(cls, path: Path) -> "CaseBase":
        """Read a case base written by :meth:`save`. Raises ``FileNotFoundError`` when ``path`` holds none and
        ``ValueError`` for another format version."""
        path = Path(path)
        with gzip.open(path / "cases.json.gz", "rt", encoding="utf-8") as fh:
            data = json.load(fh)
        if data.get("format") != FORMAT_VERSION:
            raise ValueError(f"{path}: case base format {data.get('format')!r}, expected {FORMAT_VERSION}")
        judgments = [Judgment(**{**j, "citations": tuple(j["citations"]), "case_numbers": tuple(j["case_numbers"]),
                                 "printed_pages": tuple(tuple(x) for x in j.get("printed_pages", ())),
                                 "bench": tuple(j.get("bench", ()))})
                     for j in data["judgments"]]  # a case base saved before printed pages (or benches) were read has none
        paras = [Paragraph(c, n, t, s, tuple(pg), tuple(_ref_of(r) for r in cites))
                 for c, n, t, s, pg, cites in data["paragraphs"]]
        return cls(judgments, paras, SparseIndex.load(path / "bm25"))

    # --- reading -------------------------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._judgments)

    @property
    def cases(self) -> tuple[str, ...]:
        """Case ids in build order."""
        return tuple(self._judgments)

    @property
    def n_paragraphs(self) -> int:
        return len(self._rows)

    def paragraphs(self, case: str) -> tuple[Paragraph, ...]:
        """The case's paragraphs in order (``KeyError`` for an unknown case)."""
        return self._paras[case]

    def search(self, query: str, k: int, exclude: Collection[str] = ()) -> list[CaseHit]:
        """Up to ``k`` paragraphs by BM25 against ``query``, best first (ties: case build order, then paragraph),
        scores > 0 only, none of the cases in ``exclude``."""
        bm25 = self._sparse.bm25
        if bm25 is None or k <= 0:
            return []
        vocab = bm25.vocab_dict
        toks = [t for t in legal_tokenize(query) if t in vocab]
        if not toks:
            return []
        scores = np.asarray(bm25.get_scores(toks), dtype=np.float64)
        for c in exclude:
            s = self._start.get(c)
            if s is not None:
                scores[s:s + len(self._paras[c])] = 0.0
        pos = np.flatnonzero(scores > 0)
        if len(pos) > k:
            # the k best, plus every row tied with the k-th so that ties break deterministically below
            kth = np.partition(scores[pos], len(pos) - k)[len(pos) - k]
            pos = pos[scores[pos] >= kth]
        order = sorted(pos.tolist(), key=lambda i: (-scores[i], i))[:k]
        return [CaseHit(self._rows[i][0], self._rows[i][1], float(scores[i])) for i in order]

    def judgment(self, case: str) -> Judgment:
        """The case's :class:`Judgment` (``KeyError`` for an unknown case)."""
        return self._judgments[case]

    def paragraph(self, case: str, para: int) -> Paragraph:
        """Paragraph ``para`` (0-based) of ``case`` (``KeyError``/``IndexError`` when absent)."""
        return self._paras[case][para]

    def paragraph_text(self, case: str, para: int) -> str:
        return self._paras[case][para].text

    def paragraph_cites(self, case: str, para: int) -> tuple[StatuteRef, ...]:
        """The sections the paragraph cites, as the grammar read them (sub-sections kept), in order of mention."""
        return self._paras[case][para].cites

    def case_cites(self, case: str) -> Mapping[StatuteRef, int]:
        """Section (``StatuteRef.base``) -> number of the case's paragraphs citing it (a read-only copy)."""
        return dict(self._case_cites[case])

    def section_df(self, ref: StatuteRef) -> int:
        """Number of cases citing ``ref``'s section (``ref.base``) in at least one paragraph; 0 when none."""
        return self._df.get(ref.base, 0)

    def citing(self, ref: StatuteRef) -> tuple[SectionCite, ...]:
        """Every paragraph citing ``ref``'s section (``ref.base``; the sub-section asked does not narrow it), in build
        order, each with the references to that section as the paragraph names them (module docstring); ``()``
        when none. The inverted list of every section is made on the first call (one pass over the paragraphs)."""
        if self._citing is None:
            got: dict[StatuteRef, list[SectionCite]] = {}
            for c, ps in self._paras.items():
                for i, p in enumerate(ps):
                    per: dict[StatuteRef, list[StatuteRef]] = {}
                    for r in p.cites:
                        named = per.setdefault(r.base, [])
                        if r not in named:
                            named.append(r)
                    for base, named in per.items():
                        got.setdefault(base, []).append(SectionCite(c, i, tuple(named)))
            self._citing = {k: tuple(v) for k, v in got.items()}
        return self._citing.get(ref.base, ())

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, CaseBase) and self._judgments == other._judgments and self._paras == other._paras)

    __hash__ = None  # type: ignore[assignment]


__all__ = ["CaseBase", "CaseHit", "FORMAT_VERSION", "SectionCite"]
