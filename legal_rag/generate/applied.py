"""The answer to "which judgments applied <section>?" from the case base (:mod:`legal_rag.generate.applying`), and
the notices a judgment question's court and years give. Pure; no model: every entry is a look-up result and a
quotation of the judgment, cited ``[n]``.

``applied_answer(lists, chunks, ...) -> JudgmentAnswer``, per section asked:

* a lead line: judgments (and orders, said as orders) of the case base that cite the section, the court and
  years asked for, directly or through its official predecessor(s) / successor(s) (named, with the BPR&D table),
  newest first, how many;
* one entry per judgment, the first :data:`CAP`: title, citations as held (neutral, reporter; the case-base id
  when it holds none), court, date, judgment or order; the reference as the paragraph names it ("BNS 318(4)", or
  "IPC 420, the predecessor of BNS 318(4) (BPR&D table, BNS_to_IPC_clean.csv#453)"); where (paragraph number,
  the report's printed page or the PDF page); the paragraph quoted around the mention (:func:`mention_quote`);
  ``[n]`` naming the indexed chunk that holds the quotation, or, for a judgment of the case base not indexed as
  chunks, the paragraph itself as a passage (:func:`quote_and_passage`);
* "N more ..." when more than :data:`CAP` are found;
* none: said plainly, never another section in its place; none within the court and years asked, though some
  without: said so, with how many (and a ``filters`` notice, :func:`constraint_notice`).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence

from ..law import JudgmentConstraint, locate
from ..text import excerpt
from ..types import Chunk, Hit, Judgment, Notice, StatuteRef
from .applying import Applied, AppliedList
from .judgment_answer import JudgmentAnswer, citations_of

#: judgments listed per section
CAP = 10
#: characters of the paragraph quoted around the mention
QUOTE_CHARS = 450


def _pattern(ref: StatuteRef) -> re.Pattern[str]:
    """The section number of ``ref`` as judgments write it ("498A": "498A", "498-A", "498 A"; "302" not in
    "302A" or "1302")."""
    m = re.fullmatch(r"(\d+)([A-Z]*)", ref.section)
    if m is None:
        return re.compile(re.escape(ref.section))
    num, letters = m.groups()
    tail = rf"\s*-?\s*{letters}(?![A-Za-z])" if letters else r"(?!\d)(?!\s*-?\s*[A-Za-z](?![A-Za-z]))"
    return re.compile(rf"(?<!\d){num}{tail}", re.I)


def mention_quote(text: str, ref: StatuteRef, limit: int = QUOTE_CHARS) -> str:
    """``text`` (spaces collapsed) cut to about ``limit`` characters around the first mention of ``ref``'s
    section number (its start when none is found), at word boundaries, each cut marked "..."."""
    text = re.sub(r"\s+", " ", text).strip()
    m = _pattern(ref).search(text)
    return excerpt(text, m.start() if m else 0, limit)


def long_date(date: str) -> str:
    """``"2026-01-23" -> "23 January 2026"``; a year alone as it is; ``""`` -> ``"date not held"``."""
    try:
        d = dt.date.fromisoformat(date)
    except ValueError:
        return date or "date not held"
    return f"{d.day} {d.strftime('%B')} {d.year}"


def kind_of(j: Judgment) -> str:
    """``"order"`` for a decision the case base records as an order (``Judgment.decision``), else ``"judgment"``."""
    return "order" if j.decision == "order" else "judgment"


def _court(j: Judgment) -> str:
    c = (j.court or "").strip()
    return c if re.search(r"court|tribunal|bench", c, re.I) else "court not stated"


def citation_of(j: Judgment) -> str:
    """How a listed decision is cited: an order as an order (:func:`legal_rag.ingest.sc_orders.order_citation`:
    "Order of the Supreme Court dated 19.05.2026 in SLP (Crl.) No. 1592/2026", with any citation it holds after
    it), a judgment by its neutral and reporter citations, else a plain statement that it holds none."""
    if j.decision == "order":
        from ..ingest.sc_orders import order_citation

        cited = order_citation(j.court, j.date, j.case_numbers[0] if j.case_numbers else "")
        return cited + (f" ({' : '.join(j.citations)})" if j.citations else "")
    if j.citations:
        return " : ".join(j.citations)
    return f"no neutral or reporter citation held (case-base id {j.case_id})"


def where(a: Applied) -> str:
    """Where the paragraph is: ``"para 14, p. 152"`` (the report's printed page, :attr:`Judgment.printed_pages`),
    ``"para 14, PDF p. 9"``, ``"para 14"``; an unnumbered paragraph by its place ("paragraph 7 of the text")."""
    p, j = a.paragraph, a.judgment
    parts = [f"para {p.number}" if p.number else f"paragraph {a.para + 1} of the text"]
    printed = dict(j.printed_pages)
    if p.pages[0] in printed:
        parts.append(f"p. {printed[p.pages[0]]}")
    elif p.source.lower().endswith(".pdf") and p.pages[0] > 0:
        parts.append(f"PDF p. {p.pages[0]}")
    return ", ".join(parts)


#: the quotation's lengths tried, longest first, until an indexed chunk holds it whole (a paragraph split between
#: two chunks is quoted from the part around the mention that one chunk holds)
QUOTE_FITS = (QUOTE_CHARS, 300, 200, 120)


def quote_and_passage(a: Applied, chunks: Mapping[str, Sequence[Chunk]]) -> tuple[str, Chunk]:
    """The paragraph quoted around the mention (:func:`mention_quote`) and the passage cited for it: the indexed
    chunk of ``a``'s judgment that holds the quotation (:func:`legal_rag.law.locate`; at each length of
    :data:`QUOTE_FITS` in turn), else the paragraph itself (:func:`paragraph_chunk`) with the longest quotation."""
    mine = chunks.get(a.case, ())
    for limit in QUOTE_FITS if mine else ():
        quote = mention_quote(a.paragraph.text, a.cited, limit)
        for c in mine:
            if locate(quote, c.text):
                return quote, c
    return mention_quote(a.paragraph.text, a.cited), paragraph_chunk(a)


def paragraph_chunk(a: Applied) -> Chunk:
    """The paragraph of ``a`` as a chunk of the case base (id ``casebase:<case>#<para>``; kind ``judgment``; its
    meta the judgment's court, date, citations and the paragraph's number): a judgment of the case base that is
    not indexed as chunks (AILA's), cited at its paragraph."""
    j, p = a.judgment, a.paragraph
    meta = {"case": j.case_id, "court": j.court, "date": j.date, "year": j.date[:4],
            "citations": "; ".join(j.citations), "paras": p.number}
    return Chunk(id=f"casebase:{j.case_id}#{a.para}", kind="judgment", text=p.text, title=j.title or j.case_id,
                 source=p.source, pages=p.pages, case=j.case_id,
                 meta=tuple(sorted((k, v) for k, v in meta.items() if v)))


def _names(refs: Sequence[StatuteRef]) -> str:
    names = [str(r) for r in dict.fromkeys(refs)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _through(got: AppliedList) -> str:
    """", directly or through its official predecessor IPC 420 (BPR&D correspondence table)"; "" when none."""
    if not got.counterparts:
        return ""
    rel = got.counterparts[0].relation
    refs = [c.ref for c in got.counterparts]
    plural = "s" if len(set(refs)) > 1 else ""
    return f", directly or through its official {rel}{plural} {_names(refs)} (BPR&D correspondence table)"


def _entry(i: int, a: Applied, marker: int, quote: str) -> str:
    j = a.judgment
    cited = str(a.cited)
    if a.via is not None:
        cited += f", the {a.via.relation} of {a.via.of} (BPR&D table, {a.via.row})"
    return (f"{i}. {j.title or j.case_id}, {citation_of(j)} ({_court(j)}, {long_date(j.date)}; {kind_of(j)}). "
            f"It cites {cited} ({where(a)}): \u201c{quote}\u201d [{marker}]")


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def constraint_notice(constraint: JudgmentConstraint, matched: bool, what: str = "") -> str:
    """The ``filters`` notice of a judgment question's court and years: which were read (and from which words);
    when ``matched`` is False, that no judgment or order ``what`` ("citing BNS 103") is of that court and those
    years. A question that asks for orders is told that orders and judgments are searched alike."""
    asked = constraint.describe()
    kind = "orders (orders and judgments are searched alike)" if constraint.orders else "judgments"
    if matched:
        return f"The question asks for {kind} {asked}: only those are searched (read from {constraint.quoted()})."
    return (f"The question asks for {kind} {asked} (read from {constraint.quoted()}): no judgment or order "
            f"{what + ' ' if what else ''}in the sources is {asked}.")


def applied_answer(lists: Sequence[AppliedList], chunks: Mapping[str, Sequence[Chunk]], *,
                   constraint: JudgmentConstraint | None = None, cases: int = 0, cap: int = CAP) -> JudgmentAnswer:
    """The answer (module docstring) for ``lists`` (one per section asked). ``chunks``: case id -> its indexed
    chunks in reading order; ``constraint``: the court and years the question asks for (already applied to
    ``lists``); ``cases``: how many judgments the case base holds."""
    constraint = JudgmentConstraint() if constraint is None else constraint
    asked = f", {constraint.describe()}," if constraint else ""
    lines: list[str] = []
    passages: list[Chunk] = []
    problems: list[str] = []
    notices: list[Notice] = []
    for got in lists:
        if lines:
            lines.append("")
        through = _through(got)
        if not got.found:
            if got.total and constraint:
                msg = (f"No judgment or order in the case base{asked} cites {got.ref}{through}. Without that "
                       f"constraint, {_plural(got.total, 'judgment does', 'judgments do')}.")
                notices.append(Notice("filters", constraint_notice(constraint, False, f"citing {got.ref}")))
            else:
                nor = f", nor its official {got.counterparts[0].relation}" \
                      f"{'s' if len({c.ref for c in got.counterparts}) > 1 else ''} " \
                      f"{_names([c.ref for c in got.counterparts])}" if got.counterparts else ""
                msg = f"No judgment or order in the case base ({_plural(cases, 'judgment', 'judgments')}) cites " \
                      f"{got.ref}{nor}."
            lines.append(msg)
            problems.append(msg)
            continue
        orders = sum(kind_of(a.judgment) == "order" for a in got.found)
        what = "Judgments and orders" if orders else "Judgments"
        n = len(got.found)
        shown = got.found[:cap]
        listed = f"; the newest {len(shown)} are listed" if n > len(shown) else ""
        lines.append(f"{what} in the case base{asked} that cite {got.ref}{through}, newest first "
                     f"({n} found{listed}):")
        for i, a in enumerate(shown, 1):
            quote, chunk = quote_and_passage(a, chunks)
            passages.append(chunk)
            lines.append(_entry(i, a, len(passages), quote))
        if n > len(shown):
            lines.append(f"{n - len(shown)} more, older, cite it too; a year or a court in the question narrows "
                         "the list.")
        if constraint.orders and not orders:
            lines.append("None of these is recorded as an order: the case base holds them as judgments.")
        if constraint:
            notices.append(Notice("filters", constraint_notice(constraint, True)))
    if constraint.note:
        notices.append(Notice("filters", constraint.note))
    hits = tuple(Hit(c, 1.0, "lookup", i + 1) for i, c in enumerate(passages))
    text = "\n".join(lines)
    return JudgmentAnswer(text, hits, tuple(problems), citations=citations_of(text, hits),
                          notices=tuple(dict.fromkeys(notices)))


__all__ = ["CAP", "QUOTE_CHARS", "applied_answer", "constraint_notice", "kind_of", "long_date", "mention_quote",
           "paragraph_chunk", "quote_and_passage", "where"]
