"""Presentation helpers of the chat UI (:mod:`legal_rag.ui.app`): pure functions from pipeline objects to escaped HTML.

Every value that came from a document, a user or a model is HTML-escaped here (text inside documents is data).
Links to sources are ``/source/<url-encoded file name>#page=<n>`` (1-based page, the PDF viewer's open
parameter); the server resolves the name only through ``Pipeline.source_file``.
"""

from __future__ import annotations

import datetime as dt
from html import escape
from typing import TYPE_CHECKING, Iterable
from urllib.parse import quote

from ..export.records import CitationRecord, citation_records
from ..types import NEW_ACTS, Answer, FlagKind, IngestReport, Section, Support, SupersessionFlag

if TYPE_CHECKING:
    from ..law import LookupResult

MARKS: dict[Support, tuple[str, str]] = {"supported": ("✓", "verified"), "unsupported": ("✗", "unsupported"),
                                         "unchecked": ("?", "unchecked")}
#: flag kinds that are warnings about the reference itself rather than a supersession
_PROBLEM_KINDS: dict[FlagKind, str] = {"ambiguous": "Ambiguous", "invalid": "Invalid",
                                       "collision": "Same number, other provision", "not_in_force": "Not in force"}


def source_url(source: str, page: int) -> str:
    """``source_url("BNS_2023_gazette_Act45.pdf", 87) -> "/source/BNS_2023_gazette_Act45.pdf#page=87"``."""
    return f"/source/{quote(source, safe='')}#page={int(page)}"


def case_url(case: str) -> str:
    """``case_url("C12") -> "/case/C12"``: a judgment of the case base, shown as text (:func:`case_page_html`)."""
    return f"/case/{quote(case, safe='')}"


def case_page_html(judgment, paragraphs: Iterable[str]) -> str:
    """A whole page for one case-base judgment: title, court, date, then its paragraphs numbered from 1, all text
    escaped (the judgment's words are data, never markup)."""
    head = " · ".join(escape(x) for x in (judgment.court, judgment.date) if x)
    body = "".join(f'<p id="p{i}"><span class="lr-para-no">{i}</span> {escape(t)}</p>'
                   for i, t in enumerate(paragraphs, start=1))
    return (f'<!doctype html><html><head><meta charset="utf-8"><title>{escape(judgment.title or judgment.case_id)}'
            f'</title></head><body><h1>{escape(judgment.title or judgment.case_id)}</h1><div>{head}</div>'
            f'<div>{escape(judgment.source)}</div>{body}</body></html>')


def parse_offence_date(text: str | None) -> dt.date | None:
    """``"2024-06-20" -> date(2024, 6, 20)``; blank -> ``None``. Raises ValueError with the bad value named (cut to
    its first 40 characters: a pasted paragraph in the date field is not echoed back whole)."""
    text = (text or "").strip()
    if not text:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        shown = text if len(text) <= 40 else f"{text[:40]}… ({len(text):,} characters)"
        raise ValueError(f"offence date {shown!r} is not a date: use YYYY-MM-DD, e.g. 2024-06-20") from None


def _mark(support: Support, ok: int = 0, total: int = 0) -> str:
    sym, word = MARKS[support]
    part = f" ({ok} of {total} sentences verified)" if total > 1 and 0 < ok < total else ""
    return f'<span class="lr-mark lr-{escape(word)}" title="{escape(word)}">{sym} {escape(word)}{part}</span>'


def _row(r: CitationRecord, ok: int = 0, total: int = 0, weights: bool = True) -> str:
    where = escape(r.page_label)
    link = f'<a class="lr-source-link" href="{escape(source_url(r.source, r.pages[0]))}" target="_blank">' \
           f'{escape(r.source)}, {where}</a>'
    act = escape(r.act or r.court or ("other document" if r.kind == "document" else "judgment"))
    sec = escape(r.section or r.paras and f"para {r.paras}" or "")
    weight = "" if not weights else "<td></td>" if r.weight is None else f"<td>{r.weight:.2f}</td>"
    now = f'<div class="lr-now">now {escape(", ".join(r.now))}</div>' if r.now else ""
    return (f'<tr class="lr-cite" data-marker="{r.marker}" data-support="{escape(r.support)}" data-verified="{ok}">'
            f"<td>[{r.marker}]</td><td>{act}</td><td>{sec}{now}</td><td>{escape(r.title)}"
            f'<div class="lr-citation-text">{escape(r.citation)}</div></td><td>{link}</td>'
            f'<td class="lr-quote">{escape(r.quote)}</td><td>{_mark(r.support, ok, total)}</td>{weight}</tr>')


def suggestions_html(answer: Answer | None, shown: int = 5) -> str:
    """For a fact-pattern answer, the sections the facts point to and why (issue 13): "BNS 318(4) — applied in 5
    of the 10 most similar judgments; text match 3", then the titles of those judgments. This says which law is
    relevant to the facts; the citation table's Check column says only that a quote matches its passage."""
    if answer is None or not answer.suggestions:
        return ""
    items = []
    for s in answer.suggestions[:shown]:
        ref = s.cited_as or s.ref
        was = f" (formerly {escape(', '.join(map(str, s.counterparts)))})" if s.counterparts and ref.act in NEW_ACTS \
            else ""
        cases = "; ".join(f'<a class="lr-case-link" href="{escape(case_url(c))}" target="_blank">{escape(t)}</a>'
                          for c, t in list(zip(s.cases, s.titles))[:3]) + (" …" if len(s.titles) > 3 else "")
        items.append(f'<li class="lr-suggestion" data-ref="{escape(str(ref))}"><b>{escape(str(ref))}</b>{was} — '
                     f'{escape(s.why())}' + (f'<div class="lr-cases">{cases}</div>' if cases else "") + "</li>")
    return ('<div class="lr-suggestions"><div class="lr-suggestions-head">Sections the facts point to (relevance '
            'to the facts, from similar judgments and the statute text; not a quote check):</div><ul>'
            + "".join(items) + "</ul></div>")


def citations_panel(answer: Answer | None) -> str:
    """The citation table of ``answer``: every marker (verified or not, each marked), act, section, title, page
    link, quoted passage and weight (the Weight column only when some citation has one: attribution on); for a
    fact pattern, :func:`suggestions_html` above it."""
    if answer is None:
        return ""
    recs = citation_records(answer, include_unverified=True)
    if not recs:
        return suggestions_html(answer) + \
            '<div class="lr-citations lr-empty">No citations: the answer cites no passage.</div>'
    weights = any(r.weight is not None for r in recs)
    head = "".join(f"<th>{h}</th>" for h in ("", "Act / court", "Section", "Title", "Source (page)", "Quoted passage",
                                             "Check") + (("Weight",) if weights else ()))
    return suggestions_html(answer) + (f'<div class="lr-citations"><table><thead><tr>{head}</tr></thead><tbody>'
            + "".join(_row(r, *_counts(answer, r.marker), weights=weights) for r in recs) + "</tbody></table></div>")


def _counts(answer: Answer, marker: int) -> tuple[int, int]:
    """(supported sentences, all sentences) citing ``marker``."""
    sup = [c.support == "supported" for c in answer.citations if c.marker == marker]
    return sum(sup), len(sup)


def _flag(f: SupersessionFlag, found_in: list[str]) -> str:
    kind = f.kind
    new = ", ".join(map(str, f.new)) or "no counterpart named in the table"
    label = _PROBLEM_KINDS.get(kind)
    head = (f"{escape(label)}: {escape(str(f.old))}" if label and kind in ("ambiguous", "invalid")
            else f"{escape(str(f.old))} → {escape(new)}")
    applies = f'<span class="lr-applies">Applies: {escape(f.applies)}</span>' if f.applies else ""
    row = f'<span class="lr-row">Table: {escape(f.source_row)}</span>' if f.source_row else ""
    return (f'<div class="lr-flag lr-{escape(kind)}" data-kind="{escape(kind)}"><b>{head}</b> '
            f'<span class="lr-kind">[{escape(kind.replace("_", " "))}]</span> {applies} {row}'
            f'<div class="lr-note">{escape(f.note)}</div><div class="lr-found">found in {escape(", ".join(found_in))}</div></div>')


def supersession_banner(flags: Iterable[SupersessionFlag], problems: Iterable[str] = ()) -> str:
    """One banner entry per distinct flag (old → new, kind, which code applies, the table row, the note, and
    where it was found: query / passage / answer) and one per problem string; "" when there is nothing to show."""
    groups: dict[tuple, list[str]] = {}
    first: dict[tuple, SupersessionFlag] = {}
    for f in flags:  # the same flag found in the query and in passages is shown once, with every place
        key = (f.old, f.new, f.kind, f.applies, f.note, f.source_row)
        first.setdefault(key, f)
        groups.setdefault(key, [])
        if f.found_in not in groups[key]:
            groups[key].append(f.found_in)
    problems = list(problems)
    if not groups and not problems:
        return ""
    body = "".join(_flag(first[k], where) for k, where in groups.items())
    body += "".join(f'<div class="lr-flag lr-problem" data-kind="problem">{escape(p)}</div>' for p in problems)
    return f'<div class="lr-banner">{body}</div>'


def _section_box(label: str, sec: Section | None) -> str:
    if sec is None:
        return (f'<div class="lr-section"><h4>{escape(label)}</h4><p class="lr-missing">Text not in the index '
                f"(ingest the Act to see it here).</p></div>")
    link = f'<a href="{escape(source_url(sec.source, sec.pages[0]))}" target="_blank">{escape(sec.source)}, ' \
           f"p. {sec.pages[0]}</a>"
    return (f'<div class="lr-section"><h4>{escape(label)}: {escape(sec.title)}</h4><div class="lr-src">{link}</div>'
            f'<pre class="lr-text">{escape(sec.text)}</pre></div>')


def lookup_html(result: LookupResult) -> str:
    """Render a ``legal_rag.law.LookupResult``: the queried section and its counterpart(s) side by side, the table
    rows (subject, summary of change, ``file#row``), the First Schedule rows that classify them (cognizable,
    bailable, triable by, with the schedule's page), or why the reference is ambiguous / invalid."""
    status = result.status
    if status == "ambiguous":
        inner = "".join(lookup_html(r) for r in result.readings)
        return (f'<div class="lr-lookup lr-ambiguous"><div class="lr-flag lr-ambiguous"><b>Ambiguous:</b> '
                f"{escape(result.message)}</div>{inner}</div>")
    c = result.correspondence
    if c is None:
        return notice_html(status, result.message)
    targets = ", ".join(map(str, c.targets)) or "no counterpart"
    rows = "".join(f"<tr><td>{escape(p.row.source_row)}</td><td>{escape(p.row.new_cell)}</td>"
                   f"<td>{escape(p.row.old_cell)}</td><td>{escape(p.row.subject)}</td><td>{escape(p.row.summary)}</td></tr>"
                   for p in c.pairs)
    related = "".join(f'<li>{escape(r.source_row)}{"" if r.official else " (DERIVED, not official)"}: '
                      f"{escape(r.summary)}</li>" for r in c.related)
    boxes = _section_box(str(c.query), result.section) + "".join(
        _section_box(str(ref), sec) for ref, sec in result.counterparts)
    classes = "".join(
        f"<tr><td>{escape(r.act)} {escape(r.section)}</td><td>{escape(r.offence)}</td><td>{escape(r.punishment)}</td>"
        f"<td>{escape(r.cognizable_text)}</td><td>{escape(r.bailable_text)}</td><td>{escape(r.court)}</td>"
        f"<td>{escape(r.schedule)} First Schedule, p. {r.page}</td></tr>" for r in result.classification)
    classes = ('<table class="lr-rows lr-classification"><thead><tr><th>Section</th><th>Offence</th>'
               "<th>Punishment</th><th>Cognizable</th><th>Bailable</th><th>Triable by</th><th>Source</th></tr>"
               f"</thead><tbody>{classes}</tbody></table>") if classes else ""
    table = ('<table class="lr-rows"><thead><tr><th>Table row</th><th>New</th><th>Old</th><th>Subject</th>'
             f"<th>Summary of change</th></tr></thead><tbody>{rows}</tbody></table>") if rows else ""
    return (f'<div class="lr-lookup lr-{escape(c.status)}"><h3>{escape(str(c.query))} → {escape(targets)} '
            f'<span class="lr-kind">[{escape(c.status.replace("_", " "))}]</span></h3>'
            f'<div class="lr-note">{escape(c.note)}</div>{table}{classes}'
            + (f"<ul class='lr-related'>{related}</ul>" if related else "")
            + f'<div class="lr-side-by-side">{boxes}</div></div>')


def notice_html(kind: str, message: str) -> str:
    """A one-line notice (``kind`` e.g. ``error``, ``not_found``) with ``message`` escaped."""
    return (f'<div class="lr-lookup lr-{escape(kind)}"><div class="lr-flag lr-{escape(kind)}">'
            f"<b>{escape(kind.replace('_', ' ').capitalize())}:</b> {escape(message)}</div></div>")


def ingest_report_html(report: IngestReport, name: str = "") -> str:
    """An upload's ingest report: counts, then every problem with file and page."""
    secs = ", ".join(f"{a}: {n}" for a, n in report.sections) or "none"
    probs = "".join(f"<li class='lr-{escape(p.severity)}'>{escape(str(p))}</li>" for p in report.problems)
    failed = f"<p class='lr-error'>Failed: {escape(', '.join(report.failed))}</p>" if report.failed else ""
    return (f'<div class="lr-report"><b>{escape(name or ", ".join(report.files))}</b>: {report.pages} pages, '
            f"sections {escape(secs)}, {report.judgments} judgments, "
            + (f"{report.documents} other documents (not judgments), " if report.documents else "")
            + f"{report.paragraphs} paragraphs.{failed}"
            + (f"<ul>{probs}</ul>" if probs else "") + "</div>")


def source_choices(answer: Answer | None) -> list[tuple[str, int]]:
    """Dropdown choices for the source view: ``("[n] citation — file, p. N", n)`` per cited marker."""
    if answer is None:
        return []
    return [(f"[{r.marker}] {r.citation} — {r.source}, {r.page_label}", r.marker)
            for r in citation_records(answer, include_unverified=True)]


def source_view_html(answer: Answer | None, marker: int | None) -> str:
    """The source view of one citation: the PDF opened at the cited page (inline frame), with the quoted passage."""
    recs = {r.marker: r for r in citation_records(answer, include_unverified=True)} if answer is not None else {}
    r = recs.get(marker) if marker is not None else None
    if r is None:
        return '<div class="lr-source-view lr-empty">Ask a question, then pick a cited source.</div>'
    url = escape(source_url(r.source, r.pages[0]))
    return (f'<div class="lr-source-view"><div><b>[{r.marker}] {escape(r.citation)}</b> — '
            f'<a class="lr-open-source" href="{url}" target="_blank">open {escape(r.source)} at {escape(r.page_label)}'
            f'</a></div><blockquote>{escape(r.quote)}</blockquote>'
            f'<iframe class="lr-pdf" src="{url}" title="{escape(r.source)}" width="100%" height="640"></iframe></div>')


CSS = """
.lr-citations table, .lr-rows { border-collapse: collapse; width: 100%; font-size: 0.9em; }
.lr-citations td, .lr-citations th, .lr-rows td, .lr-rows th { border: 1px solid #ccc; padding: 4px; vertical-align: top; }
.lr-quote { font-style: italic; max-width: 28em; }
.lr-verified { color: #137333; font-weight: bold; } .lr-unsupported { color: #b3261e; font-weight: bold; }
.lr-unchecked { color: #8a6d00; }
.lr-banner { border-left: 6px solid #e8a317; background: #fff8e1; padding: 6px 10px; margin: 4px 0; color: #222; }
.lr-flag { margin: 4px 0; } .lr-ambiguous, .lr-invalid, .lr-collision, .lr-not_in_force, .lr-problem { color: #8b0000; }
.lr-note, .lr-found { font-size: 0.85em; color: #444; }
.lr-side-by-side { display: grid; grid-template-columns: repeat(auto-fit, minmax(20em, 1fr)); gap: 12px; }
.lr-text { white-space: pre-wrap; font-size: 0.85em; max-height: 30em; overflow: auto; }
"""

__all__ = ["CSS", "case_page_html", "case_url", "citations_panel", "ingest_report_html", "lookup_html", "notice_html",
           "parse_offence_date", "source_choices", "source_url", "source_view_html", "suggestions_html", "supersession_banner"]
