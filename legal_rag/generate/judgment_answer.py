"""Answers to the judgment questions of :mod:`legal_rag.law.judgment_questions`, from data the pipeline
hands in: the catalogue of indexed judgments (:class:`~legal_rag.law.citation_lookup.CaseRecord`), their chunks,
the Supreme Court's judgment index (optional) and, for a holding question, the judgments ranked by retrieval.
Pure; no model: every sentence is a look-up result or a quotation of the judgment, cited ``[n]``.

``judgment_answer(task, question, citations, records, chunks, ...) -> JudgmentAnswer`` (text, passages in marker
order, problems):

* ``citation``: one line per citation (:func:`legal_rag.law.citation_lookup.check_citation`: found, wrong party
  names, exists but not indexed, absent); for a judgment we hold, its conclusion quoted
  (:func:`legal_rag.generate.holding.conclusion`) and its passages given, the conclusion first, then those
  sharing most content words with the question (reading order breaks ties), ``top_k`` in all;
* ``quotation``: the judgment named by citation or title (:func:`~legal_rag.law.citation_lookup.record_named`);
  the verdict of :func:`legal_rag.generate.quotation.check_quotation`; a quotation not in the judgment named but
  in another indexed judgment is said to be there (and whose); with no judgment named, every indexed judgment is
  searched and the best verdict given;
* ``case``: a judgment named by its title (:func:`~legal_rag.law.citation_lookup.record_named`): its name and
  citations first, its conclusion quoted, its passages given; a title we do not hold is said to be absent, with
  the judgments of the Supreme Court's index whose parties agree with it (their text not indexed here);
* ``holding``: the ranked judgments' conclusions (:func:`legal_rag.generate.holding.holding_text`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..ingest.citations_meta import find_citations
from ..law import (CaseRecord, CitationCheck, JudgmentTask, MetaRecord, check_citation, find_case_titles, index_records,
                   locate, record_named, titles_for)
from ..text import content_terms
from ..types import Chunk, Citation, Hit, Notice
from .abstain import NOT_IN_SOURCES
from .holding import Holding, conclusion, heading, holding_text, quote_of
from .quotation import QuoteCheck, check_quotation, quotation_text, where

#: judgments listed for a holding question
HOLDINGS = 3


@dataclass(frozen=True)
class JudgmentAnswer:
    """``text`` (markers ``[n]`` name ``passages[n-1]``), ``passages`` (look-up hits), ``problems`` for the
    reader (a missing or mismatched citation, a quotation not found), ``checks`` the citation verdicts, ``quote``
    the quotation verdict, ``citations`` one per marker (:func:`citations_of`), ``notices`` what the answer says
    about the question's reading (the court and years it asks for)."""

    text: str
    passages: tuple[Hit, ...]
    problems: tuple[str, ...] = ()
    checks: tuple[CitationCheck, ...] = ()
    quote: QuoteCheck | None = None
    citations: tuple[Citation, ...] = ()
    notices: tuple[Notice, ...] = ()


_MARK = re.compile(r"\[(\d{1,3})\]")
_QUOTED = re.compile("\u201c([^\u201d]+)\u201d")


def citations_of(text: str, passages: Sequence[Hit]) -> tuple[Citation, ...]:
    """One :class:`~legal_rag.types.Citation` per ``[n]`` of ``text`` (a line per entry): the passage it names,
    the line as ``sentence``, the text quoted on that line as ``quote``. ``support`` is ``supported`` when every
    quotation of the line is found in the passage (:func:`legal_rag.law.pinpoint.locate`, "..." cuts read as
    gaps) -- a line without one states a look-up result read from that passage --, else ``unsupported``."""
    out = []
    for line in text.splitlines():
        for m in _MARK.finditer(line):
            n = int(m.group(1))
            if not 1 <= n <= len(passages):
                continue
            chunk = passages[n - 1].chunk
            quotes = [q.strip(" .") for q in _QUOTED.findall(line)]
            ok = all(locate(q, chunk.text) for q in quotes)
            out.append(Citation(n, chunk.id, None, chunk.source, chunk.pages, _MARK.sub("", line).strip(),
                                "supported" if ok else "unsupported", quotes[0] if quotes else ""))
    return tuple(out)


def _hits(chunks: Sequence[Chunk]) -> tuple[Hit, ...]:
    return tuple(Hit(c, 1.0, "lookup", i + 1) for i, c in enumerate(chunks))


def _cite(rec: CaseRecord) -> str:
    """Every citation we hold for the judgment, parallel citations joined as Indian reports print them
    ("[1981] 1 S.C.R. 206 : AIR 1980 SC 1789")."""
    return " : ".join(rec.citations)


def _citation_answer(question: str, citations: Sequence[str], records: Sequence[CaseRecord],
                     chunks: Mapping[str, Sequence[Chunk]], meta, meta_covers, top_k: int) -> JudgmentAnswer:
    ours = index_records(records)
    lines, passages, problems, checks = [], [], [], []
    shown: set[str] = set()
    for cit, named in zip(citations, titles_for(question, citations)):
        chk = check_citation(cit, named, ours, meta, meta_covers)
        checks.append(chk)
        if chk.status != "found":
            problems.append(chk.message)
        if chk.record is None or not chunks.get(chk.record.case) or chk.record.case in shown:
            lines.append(chk.message)  # a judgment cited twice ("[2024] 7 SCR 97 : 2024 INSC 479") is quoted once
            continue
        shown.add(chk.record.case)
        said, given = _conclusion_of(chunks[chk.record.case], question, len(passages) + 1, top_k)
        lines.append(f"{chk.message} {said}")
        passages += given
    return JudgmentAnswer("\n\n".join(lines), _hits(passages), tuple(problems), tuple(checks))


def _conclusion_of(mine: Sequence[Chunk], question: str, marker: int, top_k: int) -> tuple[str, list[Chunk]]:
    """("Its conclusion (para N, p. P): “...” [marker]", the passages: the conclusion, then the ``top_k - 1``
    sharing most content words with the question)."""
    concl = conclusion(mine, question)
    loc = where(concl)
    terms = set(content_terms(question))
    rest = sorted((c for c in mine if c.id != concl.id), key=lambda c: -len(terms & set(content_terms(c.text))))
    return (f"Its conclusion{f' ({loc})' if loc else ''}: \u201c{quote_of(concl)}\u201d [{marker}]",
            [concl, *rest[:max(0, top_k - 1)]])


def _case_answer(question: str, titles: Sequence[str], records: Sequence[CaseRecord],
                 chunks: Mapping[str, Sequence[Chunk]], meta_titles, top_k: int) -> JudgmentAnswer:
    rec = record_named(question, records)
    if rec is not None and chunks.get(rec.case):
        said, given = _conclusion_of(chunks[rec.case], question, 1, top_k)
        who = heading(rec.title, _cite(rec), rec.court, rec.date)
        return JudgmentAnswer(f"{who}. {said}", _hits(given))
    title = titles[0] if titles else question
    rows = meta_titles(title) if meta_titles is not None and titles else ()
    if rows:
        listed = "; ".join(f"{r.title} ({', '.join(r.citations) or 'no neutral citation'}, decided {r.date})"
                           for r in rows)
        msg = (f"No judgment titled \u201c{title}\u201d is in the indexed sources, so its ratio cannot be stated. "
               f"The Supreme Court's judgment index lists judgments whose party names contain these: {listed} "
               f"(check whether one is meant); their text is not indexed here.")
    else:
        msg = (f"No judgment titled \u201c{title}\u201d is in the indexed sources, so its ratio cannot be stated. "
               f"Please give a citation (neutral or law-report) for the judgment.")
    return JudgmentAnswer(msg, (), (msg,))


def _quotation_answer(task: JudgmentTask, records: Sequence[CaseRecord], chunks: Mapping[str, Sequence[Chunk]],
                      meta, meta_covers) -> JudgmentAnswer:
    ours = index_records(records)
    cites = find_citations(task.rest)
    checks: list[CitationCheck] = []
    rec: CaseRecord | None = None
    lead: list[str] = []
    if cites:
        named = titles_for(task.rest, cites[:1])[0]
        chk = check_citation(cites[0], named, ours, meta, meta_covers)
        checks.append(chk)
        rec = chk.record
        if chk.status != "found":
            lead.append(chk.message)
        if rec is None:
            text = f"{chk.message} The quotation cannot be checked against a judgment whose text is not indexed."
            return JudgmentAnswer(text, (), (chk.message,), tuple(checks))
    else:
        rec = record_named(task.rest, records)
    by_case = {r.case: r for r in records}
    if rec is not None:
        check = check_quotation(task.quote, chunks.get(rec.case, ()))
        body = quotation_text(heading(rec.title, _cite(rec)), "", check)
        problems = [*lead] + ([f"quotation not found in {rec.title}"] if check.verdict == "absent" else [])
        passages = _hits([check.chunk]) if check.chunk is not None and check.verdict != "absent" else ()
        if check.verdict == "absent":  # the words may be another judgment's: say whose
            other = _best_elsewhere(task.quote, chunks, exclude=rec.case)
            if other is not None and other[1].verdict != "absent" and other[0] in by_case:
                o = by_case[other[0]]
                body += "\n\nThe words are, however, in another judgment: " + quotation_text(
                    heading(o.title, _cite(o)), "", other[1])
                passages = _hits([other[1].chunk])
        return JudgmentAnswer("\n\n".join([*lead, body]), passages, tuple(problems), tuple(checks), check)
    # no judgment named (or none we hold by that name): every indexed judgment is searched
    best = _best_elsewhere(task.quote, chunks)
    intro = ("No indexed judgment is named in the question (by citation or by the parties' names), so all "
             f"{len(chunks)} indexed judgments were searched.")
    if best is None or best[1].verdict == "absent":
        msg = f"{intro} The quotation is not found in any of them."
        return JudgmentAnswer(msg, (), (msg,), tuple(checks), best[1] if best else None)
    rec = by_case.get(best[0])
    title = heading(rec.title, _cite(rec)) if rec else best[0]
    return JudgmentAnswer(f"{intro}\n\n{quotation_text(title, '', best[1])}", _hits([best[1].chunk]), (),
                          tuple(checks), best[1])


def _best_elsewhere(quote: str, chunks: Mapping[str, Sequence[Chunk]],
                    exclude: str = "") -> tuple[str, QuoteCheck] | None:
    """(case, check) of the judgment that holds ``quote`` best (verbatim first, then coverage; ties: case id
    order), among every judgment but ``exclude``; ``None`` when there is none."""
    best: tuple[tuple[bool, float], str, QuoteCheck] | None = None
    for case, mine in sorted(chunks.items()):
        if case == exclude:
            continue
        qc = check_quotation(quote, mine)
        key = (qc.verdict == "verbatim", qc.coverage)
        if best is None or key > best[0]:
            best = (key, case, qc)
    return (best[1], best[2]) if best else None


def _holding_answer(question: str, ranked: Sequence[tuple[str, Sequence[Hit]]], records: Sequence[CaseRecord],
                    chunks: Mapping[str, Sequence[Chunk]]) -> JudgmentAnswer:
    by_case = {r.case: r for r in records}
    holdings = []
    for case, _hits_of_case in ranked[:HOLDINGS]:
        mine = chunks.get(case)
        rec = by_case.get(case)
        if not mine or rec is None:
            continue
        concl = conclusion(mine, question)
        holdings.append(Holding(rec.title, _cite(rec), rec.court, rec.date, concl, quote_of(concl)))
    if not holdings:
        return JudgmentAnswer(f"{NOT_IN_SOURCES} No indexed judgment matches the question.", (),
                              ("no judgment found for a holding question",))
    return JudgmentAnswer(holding_text(holdings), _hits([h.chunk for h in holdings]))


def judgment_answer(task: JudgmentTask, question: str, citations: Sequence[str], records: Sequence[CaseRecord],
                    chunks: Mapping[str, Sequence[Chunk]], *,
                    meta: Callable[[str], MetaRecord | None] | None = None,
                    meta_covers: Callable[[str], bool] | None = None,
                    meta_titles: Callable[[str], Sequence[MetaRecord]] | None = None,
                    ranked: Sequence[tuple[str, Sequence[Hit]]] = (), top_k: int = 5,
                    titles: Sequence[str] | None = None) -> JudgmentAnswer:
    """The answer to ``task`` (module docstring). ``citations``: the question's canonical citations; ``titles``:
    the "A v. B" titles it names, as its analysis read them (``QuestionAnalysis.cases``; read here when not given);
    ``chunks``: case id -> its chunks in reading order; ``meta`` / ``meta_covers`` / ``meta_titles``: the Supreme
    Court's judgment index (:class:`legal_rag.ingest.sc_metadata.ScMetadata` ``by_citation`` / ``covers`` /
    ``by_title``); ``ranked``: (case id, its hits) best first, for a holding question; ``top_k``: passages given
    per judgment found by citation or title."""
    if task.kind == "quotation":
        got = _quotation_answer(task, records, chunks, meta, meta_covers)
    elif task.kind == "citation":
        got = _citation_answer(question, citations, records, chunks, meta, meta_covers, top_k)
    elif task.kind == "case":
        if titles is None:
            titles = tuple(t.title for t in find_case_titles(question))
        got = _case_answer(question, titles, records, chunks, meta_titles, top_k)
    else:
        got = _holding_answer(question, ranked, records, chunks)
    return dataclasses.replace(got, citations=citations_of(got.text, got.passages))


__all__ = ["HOLDINGS", "JudgmentAnswer", "citations_of", "judgment_answer"]
