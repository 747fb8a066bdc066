"""Precedent search: which judgments are most like these facts? (AILA 2019 Task 1; a benchmark, not a product path.)

A fact statement is matched against a pool of judgments by signals, each a score per judgment, fused by a weighted
sum of max-normalised scores (CombSUM, Fox & Shaw, TREC-2 1994; normalisation by the per-query maximum, Lee,
SIGIR 1997), so that a signal with weight 0 changes nothing and a weak signal can only be given a small weight:

* ``doc``: BM25 of the whole judgment (bm25s, Lucene BM25 k1=1.5, length normalisation ``b`` one of
  :data:`DOC_B`; Robertson & Zaragoza 2009, "The Probabilistic Relevance Framework: BM25 and Beyond"; the legal
  tokenizer of :mod:`legal_rag.index.sparse`);
* ``para``: BM25 over the judgment's paragraphs, aggregated per judgment (:func:`aggregate`): ``max`` (the best
  paragraph, max-passage; Callan, SIGIR 1994) or ``sum`` of its ``top_k`` best paragraphs;
* ``sections``: the sections the facts suggest, shared with the judgment's cited sections (:func:`section_overlap`):
  the query's sections come from :func:`legal_rag.retrieve.evidence.section_evidence` (the sections the most
  similar judgments of the case base cite), a judgment's from its paragraphs' cites; both are put in one era by the
  official BPR&D correspondence table (:func:`legal_rag.retrieve.evidence.era_map`, section level);
* further signals the benchmark grids weigh: the chunk-BM25 list, the citation prior
  (:mod:`bench.precedents.citations`), citation propagation (:func:`propagate`) and RM3 feedback
  (:func:`rm3_weights`).

Query term weighting (:func:`top_idf_terms`): AILA queries are long fact statements (hundreds of words); keeping
only the ``terms`` distinct query terms of highest idf in the pool (Sparck Jones 1972) drops words that match
everything. Weights are chosen on the AILA 2019 training queries Q1 and Q3-Q10 only (Q2 is an 80% copy of test
Q50); the grids and figures are in ``bench/results.md``, "AILA 2019 Task 1".
"""

from __future__ import annotations

import gzip
import json
import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Hashable, Iterable, Literal, Mapping, Sequence, TypeVar

import numpy as np

from legal_rag.index import SparseIndex, legal_tokenize
from legal_rag.retrieve.evidence import Era, era_map, section_evidence
from legal_rag.types import Judgment, Paragraph, StatuteRef

K = TypeVar("K", bound=Hashable)

#: bump when the saved layout changes
FORMAT_VERSION = 2
#: BM25 length normalisations ``b`` the whole-judgment index is built with (Robertson & Zaragoza 2009, section 3.3:
#: ``b = 0`` no normalisation by document length, ``b = 1`` full; 0.75 is the usual default)
DOC_B = (0.0, 0.3, 0.75)


@dataclass(frozen=True)
class PrecedentWeights:
    """How the signals are fused (module docstring). ``doc``/``para``/``sections``: CombSUM weights (>= 0);
    ``agg``: paragraph aggregation (``"max"`` or ``"sum"`` of the ``top_k`` best); ``terms``: distinct query terms
    kept by idf (None: all); ``doc_b``: the BM25 ``b`` of the whole-judgment signal (one of :data:`DOC_B`);
    ``n_sections``: how many of the query's suggested sections count; ``depth``: judgments each text signal
    contributes (the rest score 0 in it). The defaults are the setting chosen on AILA Q1, Q3-Q10 (whole judgment
    with ``b = 0`` 0.5 + best paragraph 0.25); every other weight defaults to 0 (off), and the grids of
    :mod:`bench.precedents.task1` set them (``bench/results.md``, "Precedent search")."""

    doc: float = 0.5
    para: float = 0.25
    sections: float = 0.0
    agg: Literal["max", "sum"] = "max"
    top_k: int = 3
    terms: int | None = None
    doc_b: float = 0.0
    n_sections: int = 10
    depth: int = 1000
    #: CombSUM weight of the chunk-BM25 list (best fixed-size chunk per judgment)
    chunk: float = 0.0
    #: CombSUM weight of the citation prior (:func:`bench.precedents.citations.citation_prior`; only re-orders
    #: judgments a text signal found)
    prior: float = 0.0
    #: CombSUM weight of citation propagation (:func:`propagate`): judgments cited by the judgments most like the
    #: query
    prop: float = 0.0
    #: the text signal propagation starts from (a key of :meth:`PrecedentIndex.text_signals`, or ``"chunk"``)
    prop_base: str = "doc@0.75"
    #: how many of the base signal's best judgments pass their score on
    prop_k: int = 50
    #: ``"sum"`` of the citing judgments' scores, or their ``"max"``
    prop_agg: Literal["sum", "max"] = "sum"
    #: CombSUM weight of whole-judgment BM25 (b = 0.75) with an RM3-expanded query (:func:`rm3_weights`); the signal
    #: is ``text[rm3_key(...)]``, computed by the caller
    rm3: float = 0.0
    #: RM3 feedback judgments, feedback terms kept, weight of the original query
    rm3_docs: int = 10
    rm3_terms: int = 20
    rm3_orig: float = 0.5


# ---- fusion and aggregation (pure) -------------------------------------------------------------------------------
def max_normalise(scores: Mapping[K, float]) -> dict[K, float]:
    """Each positive score divided by the largest (so the best is 1.0); non-positive scores are dropped; ``{}`` when
    none is positive."""
    top = max((v for v in scores.values() if v > 0), default=0.0)
    return {k: v / top for k, v in scores.items() if v > 0} if top > 0 else {}


def combsum(signals: Sequence[Mapping[K, float]], weights: Sequence[float]) -> list[tuple[K, float]]:
    """Weighted sum of max-normalised signals, ``[(key, score)]`` best first, ties by ``str(key)``. A signal with
    weight 0 (or no positive score) does not vote; a key absent from a signal scores 0 in it. Raises ValueError
    when the lengths differ or a weight is negative."""
    if len(signals) != len(weights):
        raise ValueError(f"{len(weights)} weights for {len(signals)} signals")
    if any(w < 0 for w in weights):
        raise ValueError(f"negative weight in {list(weights)}")
    out: dict[K, float] = defaultdict(float)
    for s, w in zip(signals, weights):
        if w:
            for k, v in max_normalise(s).items():
                out[k] += w * v
    return sorted(out.items(), key=lambda kv: (-kv[1], str(kv[0])))


def weighted_rrf(rankings: Sequence[Sequence[K]], weights: Sequence[float], rrf_k: int = 60
                 ) -> list[tuple[K, float]]:
    """Weighted reciprocal rank fusion (Cormack, Clarke & Buettcher, SIGIR 2009): ``sum_l w_l / (rrf_k + rank_l)``
    over the rankings holding the key (rank 1-based, first occurrence), best first, ties by ``str(key)``. Raises
    ValueError for mismatched lengths or ``rrf_k <= 0``."""
    if len(rankings) != len(weights):
        raise ValueError(f"{len(weights)} weights for {len(rankings)} rankings")
    if rrf_k <= 0:
        raise ValueError(f"rrf_k must be positive, got {rrf_k}")
    out: dict[K, float] = defaultdict(float)
    for ranking, w in zip(rankings, weights):
        if w:
            for i, k in enumerate(dict.fromkeys(ranking)):
                out[k] += w / (rrf_k + i + 1)
    return sorted(out.items(), key=lambda kv: (-kv[1], str(kv[0])))


def aggregate(hits: Iterable[tuple[str, float]], how: Literal["max", "sum"] = "max", top_k: int = 3
              ) -> dict[str, float]:
    """Paragraph hits ``(case, score)`` -> a score per case: its best paragraph (``max``) or the sum of its
    ``top_k`` best (``sum``). Non-positive scores are ignored. Raises ValueError for another ``how`` or
    ``top_k < 1``."""
    if how not in ("max", "sum"):
        raise ValueError(f"unknown aggregation {how!r}")
    if top_k < 1:
        raise ValueError(f"top_k must be >= 1, got {top_k}")
    per: dict[str, list[float]] = defaultdict(list)
    for case, s in hits:
        if s > 0:
            per[case].append(s)
    if how == "max":
        return {c: max(v) for c, v in per.items()}
    return {c: sum(sorted(v, reverse=True)[:top_k]) for c, v in per.items()}


def top_idf_terms(tokens: Sequence[str], idf: Mapping[str, float], n: int | None) -> list[str]:
    """``tokens`` (repeats kept, in order) restricted to the ``n`` distinct terms of highest ``idf`` (ties by
    term); tokens without an idf (not in the pool) are dropped; ``n=None`` keeps every known token."""
    known = [t for t in tokens if t in idf]
    if n is None:
        return known
    keep = set(sorted(set(known), key=lambda t: (-idf[t], t))[:n])
    return [t for t in known if t in keep]


def section_overlap(profile: Mapping[StatuteRef, float], cites: Mapping[StatuteRef, int],
                    idf: Mapping[StatuteRef, float]) -> float:
    """How much a judgment's cited sections share the query's suggested ones: ``sum_r q(r) * idf(r) *
    sqrt(n(r) / max n)`` over sections ``r`` in both, ``q`` the query's profile weight, ``n(r)`` the number of the
    judgment's paragraphs citing ``r`` (the section the judgment keeps coming back to counts fully, as in
    :mod:`legal_rag.retrieve.evidence`), ``idf(r) = log(1 + N / df(r))`` over the pool (0 when unknown)."""
    if not profile or not cites:
        return 0.0
    top = max(cites.values())
    return sum(w * idf.get(r, 0.0) * math.sqrt(cites[r] / top) for r, w in profile.items() if cites.get(r, 0) > 0)


def section_profile(query: str, casebase, *, concordance=None, era: Era = "old", n: int = 10,
                    exclude: Sequence[str] = ()) -> dict[StatuteRef, float]:
    """The query's ``n`` best suggested sections (:func:`legal_rag.retrieve.evidence.section_evidence` over
    ``casebase``, in ``era``), each weighted by its evidence score over the best one (1.0 for the first)."""
    ev = section_evidence(query, casebase, concordance=concordance, era=era, exclude=exclude)[:n]
    if not ev:
        return {}
    top = ev[0].score
    return {e.ref: e.score / top for e in ev}


# ---- the pool -----------------------------------------------------------------------------------------------------
class PrecedentIndex:
    """A pool of judgments searchable by the three signals of the module docstring.

    Built from judgments, their paragraphs (in order) and, per case, its cited sections with counts (``{case:
    {StatuteRef: paragraphs citing it}}``; section level, already in the era the caller compares in). ``save``
    writes a directory atomically, ``open`` reads it back."""

    def __init__(self, cases: Sequence[str], docs: Mapping[float, SparseIndex], para: SparseIndex,
                 cites: Mapping[str, Mapping[StatuteRef, int]]):
        self.cases = tuple(cases)
        self.docs, self.para = dict(docs), para
        self.doc = self.docs[min(self.docs, key=lambda b: abs(b - 0.75))]
        self.para_case = [pid.rsplit("#", 1)[0] for pid in para.ids]
        self.cites = {c: dict(cites.get(c, {})) for c in self.cases}
        df: Counter = Counter()
        for cc in self.cites.values():
            df.update(r for r, n in cc.items() if n > 0)
        n = max(len(self.cases), 1)
        self.section_idf = {r: math.log(1.0 + n / d) for r, d in df.items()}
        self.term_idf_memo: dict[str, float] | None = None

    @classmethod
    def build(cls, judgments: Sequence[Judgment], paragraphs: Sequence[Paragraph],
              cites: Mapping[str, Mapping[StatuteRef, int]] | None = None) -> "PrecedentIndex":
        """Index ``paragraphs`` (each of a case in ``judgments``; ValueError otherwise) by paragraph and by judgment
        (the paragraphs joined; one index per ``b`` of :data:`DOC_B`). ``cites`` default: counted from the
        paragraphs' own ``cites`` (section level)."""
        import bm25s

        cases = [j.case_id for j in judgments]
        known = set(cases)
        per: dict[str, list[Paragraph]] = {c: [] for c in cases}
        for p in paragraphs:
            if p.case not in known:
                raise ValueError(f"paragraph of unknown case {p.case!r}")
            per[p.case].append(p)
        if cites is None:
            cites = {c: Counter(r.base for p in ps for r in set(p.cites)) for c, ps in per.items()}
        pids = [f"{c}#{i}" for c, ps in per.items() for i in range(len(ps))]
        para = SparseIndex.build(pids, [p.text for ps in per.values() for p in ps])
        toks = [legal_tokenize("\n".join(p.text for p in per[c])) for c in cases]
        docs = {}
        for b in DOC_B:
            bm = bm25s.BM25(k1=1.5, b=b)
            bm.index(toks, show_progress=False)
            docs[b] = SparseIndex(bm, cases)
        return cls(cases, docs, para, cites)

    def save(self, path: Path) -> None:
        """Write to directory ``path`` atomically (:func:`legal_rag.index.atomic.atomic_dir`)."""
        from legal_rag.index.atomic import atomic_dir

        data = {"format": FORMAT_VERSION, "cases": list(self.cases), "doc_b": list(self.docs),
                "cites": {c: [[r.act, r.section, n] for r, n in sorted(cc.items())] for c, cc in self.cites.items()}}
        with atomic_dir(path) as tmp:
            for b, d in self.docs.items():
                d.save(tmp / f"doc-b{b:g}")
            self.para.save(tmp / "para")
            with gzip.open(tmp / "cites.json.gz", "wt", encoding="utf-8") as fh:
                json.dump(data, fh)

    @classmethod
    def open(cls, path: Path) -> "PrecedentIndex":
        """Read what :meth:`save` wrote (FileNotFoundError when absent, ValueError for another format)."""
        path = Path(path)
        with gzip.open(path / "cites.json.gz", "rt", encoding="utf-8") as fh:
            data = json.load(fh)
        if data.get("format") != FORMAT_VERSION:
            raise ValueError(f"{path}: precedent index format {data.get('format')!r}, expected {FORMAT_VERSION}")
        cites = {c: {StatuteRef(a, s): n for a, s, n in v} for c, v in data["cites"].items()}
        docs = {b: SparseIndex.load(path / f"doc-b{b:g}") for b in data["doc_b"]}
        return cls(data["cases"], docs, SparseIndex.load(path / "para"), cites)

    def term_idf(self) -> dict[str, float]:
        """Term -> idf over the judgments, ``log(1 + (N - df + 0.5) / (df + 0.5))`` (BM25's idf)."""
        if self.term_idf_memo is None:
            bm = self.doc.bm25
            n = len(self.cases)
            df = np.diff(bm.scores["indptr"]) if bm is not None else np.zeros(0)
            self.term_idf_memo = {t: math.log(1 + (n - int(df[i]) + 0.5) / (int(df[i]) + 0.5))
                              for t, i in (bm.vocab_dict.items() if bm is not None else ()) if t and i < len(df)}
        return self.term_idf_memo

    def bm25_scores(self, sparse: SparseIndex, toks: Sequence[str]) -> np.ndarray:
        if sparse.bm25 is None or not toks:
            return np.zeros(len(sparse))
        vocab = sparse.bm25.vocab_dict
        toks = [t for t in toks if t in vocab]
        return np.asarray(sparse.bm25.get_scores(toks), dtype=np.float64) if toks else np.zeros(len(sparse))

    def text_signals(self, query: str, *, terms: int | None = None, depth: int = 1000, top_k: int = 3
                     ) -> dict[str, dict[str, float]]:
        """``{"doc@0": {case: bm25}, "doc@0.3": ..., "doc@0.75": ..., "para_max": {...}, "para_sum": {...}}`` for
        ``query`` with its ``terms`` best idf terms (``doc@b``: the whole-judgment index with that ``b``); each
        signal keeps its ``depth`` best judgments (positive scores only)."""
        toks = top_idf_terms(legal_tokenize(query), self.term_idf(), terms)
        out = {}
        for b, index in self.docs.items():
            d = self.bm25_scores(index, toks)
            out[f"doc@{b:g}"] = _top({c: float(v) for c, v in zip(self.cases, d) if v > 0}, depth)
        p = self.bm25_scores(self.para, toks)
        pos = np.flatnonzero(p > 0)
        hits = [(self.para_case[i], float(p[i])) for i in pos]
        return {**out, "para_max": _top(aggregate(hits, "max"), depth),
                "para_sum": _top(aggregate(hits, "sum", top_k), depth)}

    def weighted_doc_bm25(self, weights: Mapping[str, float], b: float = 0.75, depth: int = 1000,
                          memo: dict | None = None) -> dict[str, float]:
        """Whole-judgment BM25 (index with ``b``) of a weighted query, ``sum_t weights[t] * BM25(t, d)`` (terms
        outside the pool's vocabulary score 0): ``{case: score}``, the ``depth`` best with a positive score.
        ``memo``: a dict the caller keeps to reuse each term's score vector across calls."""
        index = self.docs[b]
        if index.bm25 is None:
            return {}
        vocab = index.bm25.vocab_dict
        total = np.zeros(len(self.cases))
        for t, wt in sorted(weights.items()):
            if wt > 0 and t in vocab:
                key = (b, t)
                if memo is None or key not in memo:
                    vec = np.asarray(index.bm25.get_scores([t]), dtype=np.float64)
                    if memo is not None:
                        memo[key] = vec
                else:
                    vec = memo[key]
                total += wt * vec
        return _top({c: float(v) for c, v in zip(self.cases, total) if v > 0}, depth)

    def section_signal(self, profile: Mapping[StatuteRef, float]) -> dict[str, float]:
        """``{case: section_overlap}`` for every judgment sharing a section with ``profile`` (positive only)."""
        out = {}
        for c, cc in self.cites.items():
            v = section_overlap(profile, cc, self.section_idf)
            if v > 0:
                out[c] = v
        return out

    def search(self, query: str, weights: PrecedentWeights | None = None, *, profile: Mapping[StatuteRef, float]
               | None = None, limit: int | None = 100) -> list[tuple[str, float]]:
        """Judgments ``[(case, fused score)]`` best first, at most ``limit``. ``profile``: the query's sections
        (:func:`section_profile`), needed only when ``weights.sections > 0``."""
        w = weights or PrecedentWeights()
        sig = self.text_signals(query, terms=w.terms, depth=w.depth, top_k=w.top_k)
        sec = self.section_signal(profile or {}) if w.sections else {}
        return fuse_signals(sig, sec, w)[:limit]


def fuse_signals(text: Mapping[str, Mapping[str, float]], sections: Mapping[str, float], w: PrecedentWeights,
                 prior: Mapping[str, float] | None = None, cites: Mapping[str, Iterable[str]] | None = None
                 ) -> list[tuple[str, float]]:
    """The CombSUM of :meth:`PrecedentIndex.search` from precomputed signals (``text`` as returned by
    :meth:`PrecedentIndex.text_signals`, plus ``"chunk"``: ``{case: best chunk BM25}`` when ``w.chunk > 0`` or
    the propagation starts from it). The section signal and the ``prior`` (``{case: weight}``,
    :func:`bench.precedents.citations.citation_prior`) only re-order judgments a text signal found; citation propagation (``w.prop > 0``,
    :func:`propagate` of ``text[w.prop_base]`` over ``cites``: ``{citing: [cited, ...]}``) may bring in judgments
    no text signal found. Raises ValueError when ``w.chunk > 0`` and ``text`` has no ``"chunk"``, or when
    ``w.prop > 0`` without ``cites`` or without the base signal."""
    para = text["para_max"] if w.agg == "max" else text["para_sum"]
    doc = text[f"doc@{w.doc_b:g}"]
    if w.chunk and "chunk" not in text:
        raise ValueError("chunk weight without a chunk signal")
    chunk = text["chunk"] if w.chunk else {}
    found = set(doc) | set(para) | set(chunk) if (w.sections or w.prior) else set()
    sec = {c: v for c, v in sections.items() if c in found}
    pri = {c: v for c, v in (prior or {}).items() if c in found}
    prop: Mapping[str, float] = {}
    if w.prop:
        if cites is None or w.prop_base not in text:
            raise ValueError(f"propagation weight without citations or without the base signal {w.prop_base!r}")
        prop = propagate(text[w.prop_base], cites, w.prop_k, w.prop_agg)
    rm3: Mapping[str, float] = {}
    if w.rm3:
        key = rm3_key(w.rm3_docs, w.rm3_terms, w.rm3_orig)
        if key not in text:
            raise ValueError(f"RM3 weight without the signal {key!r}")
        rm3 = text[key]
    return combsum([doc, para, sec, chunk, pri, prop, rm3],
                   [w.doc, w.para, w.sections, w.chunk, w.prior, w.prop, w.rm3])


def rm3_key(fb_docs: int, fb_terms: int, orig: float) -> str:
    """The name of an RM3 signal in a ``text`` signal dict: ``rm3@10/20/0.5``."""
    return f"rm3@{fb_docs}/{fb_terms}/{orig:g}"


def rm3_weights(query_tokens: Sequence[str], feedback: Sequence[tuple[Sequence[str], float]], fb_terms: int = 20,
                orig: float = 0.5, keep=None) -> dict[str, float]:
    """RM3 query expansion (relevance model RM1, Lavrenko & Croft, SIGIR 2001, interpolated with the original query:
    RM3 of Abdul-Jaleel et al., UMass at TREC 2004; as Anserini's BM25+RM3 computes it): ``P(w|R) ∝ sum_d s(d) *
    tf(w, d) / |d|`` over the ``feedback`` judgments ``(tokens, retrieval score s(d) > 0)``, its ``fb_terms`` best
    terms (ties by term; ``keep(term)`` filters candidates) renormalised to sum 1, then ``orig * q(w) + (1 - orig)
    * P(w|R)`` with ``q(w)`` the query's term frequencies over its length. Returns ``{term: weight}``, positive
    weights only (they sum to 1 when both parts are non-empty). Raises ValueError unless ``0 <= orig <= 1`` and
    ``fb_terms >= 0``."""
    if not 0 <= orig <= 1 or fb_terms < 0:
        raise ValueError(f"orig must be in [0, 1] and fb_terms >= 0, got {orig}, {fb_terms}")
    q = Counter(query_tokens)
    n_q = sum(q.values())
    rel: dict[str, float] = defaultdict(float)
    for toks, sc in feedback:
        if sc <= 0 or not toks:
            continue
        for t, c in Counter(toks).items():
            if keep is None or keep(t):
                rel[t] += sc * c / len(toks)
    top = sorted(rel, key=lambda t: (-rel[t], t))[:fb_terms]
    z = sum(rel[t] for t in top)
    out = {t: orig * c / n_q for t, c in q.items()} if n_q else {}
    for t in top:
        out[t] = out.get(t, 0.0) + (1 - orig) * rel[t] / z
    return {t: v for t, v in out.items() if v > 0}


def propagate(base: Mapping[str, float], cites: Mapping[str, Iterable[str]], k: int = 50,
              how: Literal["sum", "max"] = "sum") -> dict[str, float]:
    """Citation propagation: ``prop(c) = sum`` (or ``max``) ``of s(d)`` over the ``k`` judgments ``d`` of best
    ``base`` score (``base``: ``{case: text score}``, max-normalised here, so ``s(best) = 1``; ties by case id)
    that cite ``c`` (``cites``: ``{citing: [cited, ...]}``,
    :func:`bench.precedents.citations.citing_map`), ``d != c``. Only
    positive scores count. Judgments like the query tend to cite the precedents the query's own judgment cited
    (AILA 2019 queries are judgments with their citations removed); this is one step of score propagation over the
    citation graph (cf. Kleinberg, JACM 1999; the "cited by the nearest neighbours" score of citation
    recommendation, e.g. McNee et al., CSCW 2002). Raises ValueError for ``k < 1`` or another ``how``."""
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    if how not in ("sum", "max"):
        raise ValueError(f"unknown propagation aggregation {how!r}")
    norm = max_normalise(base)
    top = sorted(norm, key=lambda c: (-norm[c], c))[:k]
    out: dict[str, float] = {}
    for d in top:
        for c in dict.fromkeys(cites.get(d, ())):
            if c == d:
                continue
            out[c] = (out.get(c, 0.0) + norm[d]) if how == "sum" else max(out.get(c, 0.0), norm[d])
    return out


def _top(scores: Mapping[str, float], depth: int) -> dict[str, float]:
    order = sorted(scores, key=lambda c: (-scores[c], c))[:depth]
    return {c: scores[c] for c in order}


def pool_cites(cases: Sequence[str], casebase=None, paragraphs: Sequence[Paragraph] = (), *, concordance=None,
               era: Era = "old") -> dict[str, dict[StatuteRef, int]]:
    """Per case, its cited sections with paragraph counts, in ``era`` (:func:`era_map`; a one-to-many row gives each
    target the full count). Read from ``casebase.case_cites`` when the case base holds the case; otherwise
    counted from ``paragraphs`` with their ``cites`` filled (section level)."""
    own: dict[str, Counter] = defaultdict(Counter)
    for p in paragraphs:
        own[p.case].update({r.base for r in p.cites})
    held = set(casebase.cases) if casebase is not None else set()
    out: dict[str, dict[StatuteRef, int]] = {}
    memo: dict[StatuteRef, tuple] = {}
    for c in cases:
        raw = casebase.case_cites(c) if c in held else own.get(c, {})
        cc: Counter = Counter()
        for r, n in raw.items():
            if r not in memo:
                memo.update(era_map([r], concordance, era))
            for t, _ in memo[r]:
                cc[t] = max(cc[t], n)
        out[c] = dict(cc)
    return out


__all__ = ["DOC_B", "FORMAT_VERSION", "PrecedentIndex", "PrecedentWeights", "aggregate", "combsum", "fuse_signals",
           "max_normalise", "pool_cites", "propagate", "rm3_key", "rm3_weights", "section_overlap", "section_profile",
           "top_idf_terms", "weighted_rrf"]
