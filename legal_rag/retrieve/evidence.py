"""Statute evidence from similar cases: which sections did the judgments most like these facts apply?

Statute text is abstract, a fact statement is concrete; judgments tell facts in the words people use and then name
the sections applied. For a question, :func:`section_evidence` retrieves the most similar judgment
paragraphs of the case base (BM25 over paragraphs, :class:`legal_rag.index.casebase.CaseBase`), aggregates them per
judgment and ranks the sections those judgments cite.

Formula (every symbol below is a keyword argument of :func:`section_evidence`; the defaults are the values chosen
on the AILA 2019 training queries Q1 and Q3-Q10 only -- Q2 is an 80% copy of test query Q50 -- by the mean of
Task 2 MAP and BNS-era MAP, on the case base that counts Constitution Articles; grid and figures in
``bench/results.md``, "Section finding"):

* paragraph hits ``h`` of case ``c`` with BM25 scores ``s_1 >= s_2 >= ...`` (Robertson & Zaragoza 2009, "The
  Probabilistic Relevance Framework: BM25 and Beyond"): the judgment's similarity is its best paragraphs,
  geometrically decayed, ``sim(c) = sum_i decay^(i-1) s_i`` over its first ``per_case`` hits, divided by the
  largest ``sim`` of the query (so ``0 < sim <= 1``); only the ``top_cases`` most similar judgments vote;
* centrality of section ``r`` in case ``c``: ``cent(r, c) = (n(r, c) / max_r' n(r', c)) ** gamma`` where
  ``n(r, c)`` is the number of the judgment's paragraphs citing ``r`` (``CaseBase.case_cites``): the section the
  judgment keeps coming back to counts fully, one mentioned once among many counts less;
* locality: ``loc(r, c) = sum over matched paragraphs p of c of s_p / s_best(c)`` when ``r`` is cited in ``p`` or
  within ``window`` paragraphs of it (``CaseBase.paragraph_cites``): the section named beside the facts that
  matched counts more;
* damping of sections cited everywhere (IPC 302, 34, CrPC 313): ``idf(r) = log(1 + N / df(r))`` (``N`` cases in
  the case base, ``df`` from ``CaseBase.section_df``), raised to ``alpha`` (Sparck Jones 1972's inverse
  document frequency, in the smoothed form BM25 uses);
* ``score(r) = idf(r)^alpha * sum_c sim(c) * (cent(r, c) + beta * loc(r, c))``.

Preference by court and date (:func:`case_prior`): each judgment's similarity may be weighed by a prior before the
``top_cases`` are chosen, ``w(c) = lower_court`` (a decision of a court below the Supreme Court, or of a court
the table of courts does not read: :func:`legal_rag.law.courts.court_named`) ``* recent`` (a decision dated from
``recent_from`` on); ``sim(c)`` becomes ``w(c) * raw(c)`` normalised as above. The defaults (1, 1) prefer nothing:
the choice and its figures are in ``bench/results_recent_judgments.md`` ("Preferring recent or higher-court
decisions", ``bench/evidence_priors.py``).

Era (``era="new"``): an old-code section cited in an IPC-era judgment is evidence for its successors in the
official BPR&D correspondence table (:meth:`legal_rag.law.Concordance.successors`, section level); a one-to-many
row shares the weight equally among the targets (IPC 498A -> BNS 85, BNS 86: half each); an old section the table
maps to nothing gives no new-code evidence. ``era="old"`` maps new-code cites of post-2024 judgments back with
:meth:`~legal_rag.law.Concordance.predecessors` the same way. Without a concordance, cites are kept as they are.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Callable, Collection, Literal, Mapping, Protocol, Sequence

from ..kept import Kept
from ..law import court_named
from ..types import NEW_ACTS, OLD_ACTS, Judgment, StatuteRef

Era = Literal["old", "new"]


class CaseBaseLike(Protocol):
    """What :func:`section_evidence` reads of :class:`legal_rag.index.casebase.CaseBase` (its interface)."""

    def __len__(self) -> int: ...
    def search(self, query: str, k: int, exclude: Collection[str] = ()) -> list: ...
    def paragraph_cites(self, case: str, para: int) -> tuple[StatuteRef, ...]: ...
    def case_cites(self, case: str) -> Mapping[StatuteRef, int]: ...
    def section_df(self, ref: StatuteRef) -> int: ...
    def judgment(self, case: str) -> Judgment: ...


@dataclass(frozen=True)
class EvidenceParams:
    """The knobs of the formula in the module docstring (defaults chosen on AILA Q1, Q3-Q10 only, on the case base
    that counts Constitution Articles)."""

    k: int = 400            # paragraph hits retrieved
    top_cases: int = 10     # judgments that vote (grid 5, 10, 20, 50)
    per_case: int = 5       # best paragraphs of a judgment that make its similarity (grid 1, 3, 5)
    decay: float = 0.5      # weight of the i-th best paragraph: decay ** (i - 1)
    gamma: float = 0.5      # centrality exponent (grid 0, 0.5, 1)
    beta: float = 1.0       # weight of paragraph-local cites (grid 0, 1, 2)
    window: int = 1         # paragraphs either side of a matched one that count as local
    alpha: float = 0.5      # exponent of the idf damping, 0: none (grid 0, 0.5, 1, 2)
    lower_court: float = 1.0  # prior weight of a decision below the Supreme Court (module docstring)
    recent: float = 1.0       # prior weight of a decision dated from ``recent_from`` on
    recent_from: int = 2024   # the year the new codes came into force (1 July 2024)

    @property
    def prefers(self) -> bool:
        """Whether the court-and-date prior weighs anything (:func:`case_prior`)."""
        return self.lower_court != 1.0 or self.recent != 1.0


@dataclass(frozen=True)
class SectionEvidence:
    """One section and the precedents behind it.

    ``ref``: section level (no sub-section). ``score``: the formula of the module docstring (> 0; comparable only
    within one query). ``cases``: the supporting judgments ``(case id, sim)``, most similar first, ``sim`` in
    (0, 1]. ``n_cases``: how many of the voting judgments cite it (``len(cases)``)."""

    ref: StatuteRef
    score: float
    cases: tuple[tuple[str, float], ...]
    n_cases: int


def case_prior(judgment: Judgment, params: EvidenceParams) -> float:
    """The prior weight ``w(c)`` of a decision (module docstring): ``params.lower_court`` unless the Supreme Court
    decided it, times ``params.recent`` when it is dated from ``params.recent_from`` on (an undated one is not)."""
    court = court_named(judgment.court) if judgment.court else None
    w = 1.0 if court is not None and court.level == "supreme" else params.lower_court
    year = judgment.year
    if year.isdigit() and int(year) >= params.recent_from:
        w *= params.recent
    return w


def case_similarity(hits: Sequence, *, top_cases: int, per_case: int, decay: float,
                    prior: Callable[[str], float] | None = None
                    ) -> tuple[list[tuple[str, float]], dict[str, list]]:
    """``([(case, sim)] best first, {case: its hits best first})`` from paragraph hits (``.case .para .score``);
    ``prior`` (case id -> weight > 0, None: 1) multiplies each judgment's similarity before the best are chosen;
    ``sim`` is normalised to the best judgment's (1.0). Ties break by case id."""
    per: dict[str, list] = defaultdict(list)
    for h in sorted(hits, key=lambda h: (-h.score, h.case, h.para)):
        if h.score > 0:
            per[h.case].append(h)
    raw = {c: sum(decay ** i * h.score for i, h in enumerate(hs[:per_case])) for c, hs in per.items()}
    if prior is not None:
        raw = {c: v * prior(c) for c, v in raw.items()}
    order = sorted(raw, key=lambda c: (-raw[c], c))[:top_cases]
    top = raw[order[0]] if order else 1.0
    return [(c, raw[c] / top) for c in order], {c: per[c] for c in order}


def era_map(refs: Sequence[StatuteRef], concordance, era: Era) -> dict[StatuteRef, tuple[tuple[StatuteRef, float], ...]]:
    """Each section-level ref -> ``((target, share), ...)`` in ``era`` by the official table (shares sum to 1; no
    target: empty). Refs already of that era, and every ref when ``concordance`` is None, map to themselves."""
    out: dict[StatuteRef, tuple[tuple[StatuteRef, float], ...]] = {}
    for r in refs:
        if concordance is None or (era == "new" and r.act not in OLD_ACTS) or (era == "old" and r.act not in NEW_ACTS):
            out[r] = ((r, 1.0),)
            continue
        corr = concordance.successors(r) if era == "new" else concordance.predecessors(r)
        targets = tuple(dict.fromkeys(t.base for t in corr.targets))
        out[r] = tuple((t, 1.0 / len(targets)) for t in targets)
    return out


#: concordances (by identity, the last 8) -> era -> what :func:`era_map` gave each ref so far
_ERA_MAPS: Kept = Kept(8)


def _era_maps(concordance, era: Era) -> dict[StatuteRef, tuple[tuple[StatuteRef, float], ...]]:
    """The kept :func:`era_map` of ``concordance`` into ``era`` (filled as refs are met; a concordance never
    changes once read)."""
    return _ERA_MAPS.for_object(concordance, dict).setdefault(era, {})


def section_evidence(query: str, casebase: CaseBaseLike, *, concordance=None, era: Era = "old",
                     exclude: Collection[str] = (), params: EvidenceParams | None = None, **kw
                     ) -> tuple[SectionEvidence, ...]:
    """Sections ranked by the evidence of the judgments most similar to ``query`` (formula: module docstring).

    ``concordance``: a :class:`legal_rag.law.Concordance` (needed for ``era="new"`` to count IPC-era precedents for
    BNS sections). ``exclude``: case ids never used (the leakage guard's near-copies of an evaluated query).
    ``params`` or keyword overrides of :class:`EvidenceParams` (``k=200``). Returns best first (ties by ref);
    empty when nothing matches. ``section_evidence("stabbed him to death with a knife", cb)[0].ref`` is typically
    ``StatuteRef("IPC", "302")``."""
    p = params or EvidenceParams()
    if kw:
        p = EvidenceParams(**{**p.__dict__, **kw})
    hits = casebase.search(query, p.k, exclude)
    prior = (lambda c: case_prior(casebase.judgment(c), p)) if p.prefers else None
    cases, per = case_similarity(hits, top_cases=p.top_cases, per_case=p.per_case, decay=p.decay, prior=prior)
    n_all = max(len(casebase), 1)
    acc: dict[StatuteRef, float] = defaultdict(float)
    support: dict[StatuteRef, dict[str, float]] = defaultdict(dict)
    idf_cache: dict[StatuteRef, float] = {}
    mapping_cache = _era_maps(concordance, era)
    for case, sim in cases:
        cites = casebase.case_cites(case)
        counts = {r.base: 0 for r in cites}
        for r, n in cites.items():
            counts[r.base] += n
        if not counts:
            continue
        top_n = max(counts.values())
        best = per[case][0].score
        local: dict[StatuteRef, float] = defaultdict(float)
        if p.beta:
            for h in per[case][:p.per_case]:
                near: set[StatuteRef] = set()
                for q in range(max(0, h.para - p.window), h.para + p.window + 1):
                    try:
                        near.update(r.base for r in casebase.paragraph_cites(case, q))
                    except (IndexError, KeyError, ValueError):
                        continue
                for r in near:
                    local[r] += h.score / best
        for r, n in counts.items():
            if r not in idf_cache:
                df = max(casebase.section_df(r), 1)
                idf_cache[r] = math.log(1.0 + n_all / df) ** p.alpha
            w = sim * ((n / top_n) ** p.gamma + p.beta * local.get(r, 0.0)) * idf_cache[r]
            if r not in mapping_cache:
                mapping_cache.update(era_map([r], concordance, era))
            for t, share in mapping_cache[r]:
                acc[t] += w * share
                support[t][case] = max(support[t].get(case, 0.0), sim)
    out = [SectionEvidence(r, s, tuple(sorted(support[r].items(), key=lambda cs: (-cs[1], cs[0]))), len(support[r]))
           for r, s in acc.items() if s > 0]
    return tuple(sorted(out, key=lambda e: (-e.score, e.ref)))


__all__ = ["CaseBaseLike", "EvidenceParams", "SectionEvidence", "case_prior", "case_similarity", "era_map",
           "section_evidence"]
