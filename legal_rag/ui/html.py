"""Presentation helpers of the chat UI (:mod:`legal_rag.ui.app`): pure functions from pipeline objects to escaped HTML.

Every value that came from a document, a user or a model is HTML-escaped here (text inside documents is data).
Links to sources are ``/source/<url-encoded file name>#page=<n>`` (1-based page, the PDF viewer's open
parameter); the server resolves the name only through ``Pipeline.source_file``.
"""

from __future__ import annotations

import datetime as dt
import re
from html import escape
from typing import TYPE_CHECKING, Callable, Iterable, Mapping
from urllib.parse import quote

from ..export.records import CitationRecord, citation_records, long_date, section_label
from ..law import CUTOFF, judgment_reference, order_citations
from ..types import (ACT_TITLES, NEW_ACTS, NO_PRINT_NOTE, Answer, Chunk, FlagKind, IngestReport, Section, Support,
                     SupersessionFlag, has_print)

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


def case_url(case: str, paras: str = "") -> str:
    """``case_url("C12") -> "/case/C12"``: a judgment of the case base, shown as text (:func:`case_page_html`);
    with ``paras`` (printed paragraph numbers, "18" or "32-33"), opened at the first of them:
    ``case_url("C12", "32-33") -> "/case/C12#para-32"``."""
    anchor = para_anchor(paras)
    return f"/case/{quote(case, safe='')}" + (f"#{anchor}" if anchor else "")


def para_anchor(paras: str) -> str:
    """The anchor of the first printed paragraph number in ``paras``: ``"32-33" -> "para-32"``, ``"7.2" ->
    "para-7.2"``; "" when ``paras`` names none."""
    first = re.split(r"[-–,;\s]+", (paras or "").strip())[0]
    return f"para-{first}" if re.fullmatch(r"[0-9]+(?:\.[0-9]+)*[A-Za-z]?", first) else ""


def case_page_html(judgment, paragraphs: Iterable) -> str:
    """A whole page for one case-base judgment: title, its neutral and reporter citations, court and date, then its
    paragraphs, each with its printed number (``Paragraph.number``; an unnumbered one gets none) and the anchor
    ``para-<number>`` (the first paragraph of that number) that :func:`case_url` opens at; all text escaped (the
    judgment's words are data, never markup). No file name is shown. ``paragraphs``: :class:`Paragraph` objects
    (or plain strings, numbered from 1)."""
    title = escape(judgment.title or "Untitled judgment")
    head = " · ".join(escape(x) for x in (", ".join(judgment.citations), judgment.court, long_date(judgment.date))
                      if x)
    seen: set[str] = set()
    body = []
    for i, p in enumerate(paragraphs, start=1):
        number, text = (str(i), p) if isinstance(p, str) else (p.number, p.text)
        anchor = para_anchor(number)
        ident = f' id="{escape(anchor)}"' if anchor and anchor not in seen else ""
        seen.add(anchor)
        no = f'<span class="lr-para-no">{escape(number)}</span> ' if number else ""
        body.append(f"<p{ident}>{no}{escape(text)}</p>")
    return (f'<!doctype html><html><head><meta charset="utf-8"><title>{title}</title>'
            "<style>p:target { background: #fff3c4; outline: 2px solid #e8a317; }</style></head>"
            f"<body><h1>{title}</h1><div>{head}</div>{''.join(body)}</body></html>")


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


#: which cases the server shows as a page (``/case/<id>``): None means every case named by a citation
CaseServed = Callable[[str], bool] | None


def judgment_label(r: CitationRecord) -> str:
    """A judgment citation's case name, citations and paragraph as a reader cites it, never its file name:
    ``"Padala Veera Reddy v. State of Andhra Pradesh and Others, para 18"`` (:func:`legal_rag.law.judgment_reference`)."""
    return judgment_reference(r.title or "Untitled judgment", r.reporters, r.printed, r.paras)


def record_case(answer: Answer | None, r: CitationRecord) -> str:
    """The case id of a judgment record's passage (``Chunk.case``), "" for any other record or an unknown chunk."""
    if answer is None or r.kind != "judgment":
        return ""
    chunk = next((h.chunk for h in answer.passages if h.chunk.id == r.chunk_id), None)
    return chunk.case or dict(chunk.meta).get("case", "") if chunk is not None else ""


def record_url(answer: Answer | None, r: CitationRecord, served: CaseServed = None) -> str:
    """Where a citation opens: a judgment the server shows as a page (``served(case)``; every case when ``served``
    is None) at its cited paragraph (:func:`case_url`: ``/case/C20#para-18``); anything else at its cited page of
    the source file (:func:`source_url`)."""
    case = record_case(answer, r)
    if case and (served is None or served(case)):
        return case_url(case, r.paras)
    return source_url(r.source, r.pages[0])


def _link_text(r: CitationRecord) -> str:
    """The words of a citation's source link: a judgment by :func:`judgment_label`, anything else by its file and
    page, or the note standing for a page it has not (:attr:`~legal_rag.export.records.CitationRecord.where`)."""
    if r.kind == "judgment":
        return judgment_label(r)
    return f"{r.source}{', ' + r.where if r.where else ''}"


def _row(r: CitationRecord, ok: int = 0, total: int = 0, weights: bool = True, url: str = "") -> str:
    link = f'<a class="lr-source-link" href="{escape(url or source_url(r.source, r.pages[0]))}" target="_blank">' \
           f'{escape(_link_text(r))}</a>'
    act = escape(r.act or ("uploaded document (unverified)" if r.kind == "upload" else r.court)
                 or ("other document" if r.kind == "document" else "judgment"))
    sec = escape(r.section or r.paras and f"para {r.paras}" or "")
    weight = "" if not weights else "<td></td>" if r.weight is None else f"<td>{r.weight:.2f}</td>"
    now = f'<div class="lr-now">now {escape(", ".join(r.now))}</div>' if r.now else ""
    return (f'<tr class="lr-cite" data-marker="{r.marker}" data-support="{escape(r.support)}" data-verified="{ok}" '
            f'data-kind="{escape(r.kind)}">'
            f"<td>[{r.marker}]</td><td>{act}</td><td>{sec}{now}</td><td>{escape(r.title)}"
            f'<div class="lr-citation-text">{escape(r.citation)}</div></td><td>{link}</td>'
            f'<td class="lr-quote">{escape(r.quote)}</td><td>{_mark(r.support, ok, total)}</td>{weight}</tr>')


def suggestions_html(answer: Answer | None, shown: int = 5) -> str:
    """For a fact-pattern answer, the sections the facts point to and why (:meth:`SectionSuggestion.why`: "BNS
    318(4) — ranker 0.82; applied in 4 of the 10 most similar judgments; text match 3"), then the titles of the
    judgments behind a suggestion, each a link to the judgment. This says which law is relevant to the facts; the
    citation table's Check column says only that a quote matches its passage."""
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
    behind = ", with the judgments behind it" if any(s.cases for s in answer.suggestions[:shown]) else ""
    return ('<div class="lr-suggestions"><div class="lr-suggestions-head">Sections the facts point to (relevance '
            f'to the facts, by the section ranker{behind}; not a quote check):</div><ul>'
            + "".join(items) + "</ul></div>")


def sources_line(answer: Answer | None) -> str:
    """The compact list of an answer's citations kept with its message in the chat history, as
    plain text (the caller escapes it): ``"Sources: [1] BNS s. 318(4), p. 87; [2] IPC s. 420, p. 96 (unverified)"``;
    a judgment by its citation string. "" when the answer cites nothing."""
    if answer is None:
        return ""
    parts = []
    for r in citation_records(answer, include_unverified=True):
        name = f"{r.act} s. {r.section}" if r.kind == "statute" and r.act and r.section else r.citation
        mark = "" if r.support == "supported" else f" ({MARKS[r.support][1]})"
        parts.append(f"[{r.marker}] {name}{', ' + r.where if r.where else ''}{mark}")
    return "Sources: " + "; ".join(parts) if parts else ""


def citations_panel(answer: Answer | None, served: CaseServed = None) -> str:
    """The citation table of ``answer``: every marker (verified or not, each marked), act, section, title, source
    link (:func:`record_url`; a judgment by its case name and citation, opened at its paragraph), quoted passage
    and weight (the Weight column only when some citation has one: attribution on); for a fact pattern,
    :func:`suggestions_html` above it."""
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
            + "".join(_row(r, *_counts(answer, r.marker), weights=weights, url=record_url(answer, r, served))
                     for r in recs) + "</tbody></table></div>")


def _counts(answer: Answer, marker: int) -> tuple[int, int]:
    """(supported sentences, all sentences) citing ``marker``."""
    sup = [c.support == "supported" for c in answer.citations if c.marker == marker]
    return sum(sup), len(sup)


_CODE_NAMES = {"IPC": "the IPC", "BNS": "the BNS", "CrPC": "the CrPC", "BNSS": "the BNSS", "IEA": "the Evidence Act",
               "BSA": "the BSA"}
#: which savings clause keeps each old Act alive, and for what (BNS s.358(2), BNSS s.531(2), BSA s.170(2))
_SAVED_BY = {"IPC": ("BNS s.358", "offences committed"), "CrPC": ("BNSS s.531(2)", "proceedings begun"),
             "IEA": ("BSA s.170(2)", "proceedings begun")}
#: flags that state one fact about the date: an old section saved by the date, or a new one that cannot reach back
_DATE_KINDS = ("saved", "predates_new_code", "new_offence_retroactive")


def _refs(refs: Iterable) -> str:
    """Distinct refs, a sub-section left out when its whole section is listed ("BNS 80, BNS 80(1)" -> "BNS 80")."""
    refs = list(dict.fromkeys(refs))
    return ", ".join(str(r) for r in refs if not (getattr(r, "sub", ()) and r.base in refs))


def row_words(name: str, row: str = "") -> str:
    """A correspondence-table row in words, never its file name: ``row_words("BPRD_..._clean.csv", "453") ->
    "BPR&D table, row 453"``; a derived (not official) table says so."""
    label = f"BPR&D table, row {row}" if row else "BPR&D table"
    return label + (" (derived, not official)" if "DERIVED" in name else "")


def _row_label(source_row: str, row_link: Callable[[str, str], str | None] | None) -> str:
    """:func:`row_words` per row of ``source_row`` ("<file>#<row>;..."), each a link when ``row_link(file, row)``
    gives a URL (the row is served: ``/table-row``), else plain text."""
    out = []
    for part in filter(None, source_row.split(";")):
        name, _, row = part.partition("#")
        label = row_words(name, row)
        url = row_link(name, row) if row_link else None
        out.append(f'<a class="lr-row" href="{escape(url)}" target="_blank">{escape(label)}</a>'
                   if url else f'<span class="lr-row">{escape(label)}</span>')
    return "; ".join(dict.fromkeys(out))


_FILE_ROW = re.compile(r"([\w.&-]+\.(?:csv|tsv))(?:#(\w+))?")
_FILE = re.compile(r"[\w.&-]+\.(?:pdf|txt|json|csv|tsv|docx)\b")


def readable(text: str, names: Mapping[str, str] | None = None) -> str:
    """``text`` (a flag's note, a verifier's message) as a reader reads it: each passage's chunk id replaced by its
    name in ``names`` (:func:`passage_names`), a table's ``<file>#<row>`` by :func:`row_words`, any other file
    name by "the source document"."""
    for cid, name in sorted((names or {}).items(), key=lambda kv: -len(kv[0])):
        text = text.replace(cid, name)
    text = _FILE_ROW.sub(lambda m: row_words(m.group(1), m.group(2) or ""), text)
    return _FILE.sub("the source document", text)


def passage_name(chunk: Chunk) -> str:
    """What a reader calls a passage: a statute by Act, section and title (``"IPC s. 420 (Cheating and dishonestly
    inducing delivery of property)"``); a judgment by case name, citations and paragraph
    (:func:`legal_rag.law.judgment_reference`); anything else by its title."""
    if chunk.ref is not None:
        return f"{chunk.ref.act} s. {section_label(chunk.ref)}" + (f" ({chunk.title.rstrip('.')})" if chunk.title else "")
    meta = dict(chunk.meta)
    if chunk.kind == "judgment":
        reporters = order_citations([x for x in meta.get("citations", "").split(";")])
        return judgment_reference(chunk.title or "Untitled judgment", reporters, (), meta.get("paras", ""))
    return chunk.title or "an uploaded document"


def passage_names(answer: Answer) -> dict[str, str]:
    """Chunk id -> :func:`passage_name` for every passage of ``answer``."""
    return {h.chunk.id: passage_name(h.chunk) for h in answer.passages}


def found_words(found_in: str, names: Mapping[str, str] | None = None) -> str:
    """Where a flag was found, in words: ``"query" -> "the question"``, ``"answer" -> "the answer"``,
    ``"passage:<chunk id>" -> "the passage IPC s. 420 (...)"`` (its :func:`passage_name`; "a retrieved passage" when
    ``names`` lacks it)."""
    if found_in == "query":
        return "the question"
    if found_in == "answer":
        return "the answer"
    if found_in.startswith("passage:"):
        name = (names or {}).get(found_in[len("passage:"):])
        return f"the passage {name}" if name else "a retrieved passage"
    return readable(found_in, names)


def governing_words(code: str) -> str:
    """The code that governs a flag's matter, as its own sentence (never run into the Act abbreviations beside it):
    ``governing_words("BNS") -> "Governing code here: Bharatiya Nyaya Sanhita, 2023."``; "" for no or an unknown
    code."""
    if not code or code == "unknown":
        return ""
    return f"Governing code here: {ACT_TITLES.get(code, code)}."


def _words(kind: str, old, new: list) -> str:
    """The flag in a lawyer's words (rules: BNS s.358, BNSS s.531(2), BSA s.170(2), Constitution Art. 20(1))."""
    o, n = str(old), _refs(new) or "no counterpart named in the official table"
    saved_by, what = _SAVED_BY.get(getattr(old, "act", ""), ("the savings clause", "matters"))
    if kind == "superseded":
        return f"{o} is replaced by {n} for {what} on or after 1 July 2024 ({saved_by} keeps {o} for earlier ones)."
    if kind == "saved" or kind == "predates_new_code":
        which = "offence" if getattr(old, "act", "") in ("IPC", "BNS") else "proceeding"
        return (f"{o} governs here: the {which} date is before 1 July 2024 ({saved_by}). {n} applies to {what} on or "
                f"after 1 July 2024.")
    if kind == "new_offence_retroactive":
        return f"{n} is a new offence: it cannot reach acts before 1 July 2024 (Constitution Art. 20(1))."
    if kind == "no_counterpart":
        return f"{o} has no successor named in the official table; it is repealed from 1 July 2024 ({saved_by})."
    if kind == "not_in_force":
        return f"{o} is not in force."
    return ""


def _flag(group: list[SupersessionFlag], row_link: Callable[[str, str], str | None] | None) -> str:
    f = group[0]
    kind = f.kind
    new = [r for g in group for r in g.new]
    label = _PROBLEM_KINDS.get(kind)
    if label and kind in ("ambiguous", "invalid"):
        head = f"{escape(label)}: {escape(str(f.old))}"
    else:
        head = f"{escape(str(f.old))} → {escape(_refs(new) or 'no counterpart named in the table')}"
    words = _words(kind, f.old, new)
    if kind in ("ambiguous", "invalid", "collision"):  # the note is the explanation (readings, the namesake)
        words = f.note
    applies = governing_words(f.applies)
    applies = f' <span class="lr-applies" data-applies="{escape(f.applies)}">{escape(applies)}</span>' if applies \
        else ""
    rows = _row_label(";".join(dict.fromkeys(g.source_row for g in group if g.source_row)), row_link)
    return (f'<div class="lr-flag lr-{escape(kind)}" data-kind="{escape(kind)}"><b>{head}</b> '
            f'<span class="lr-words">{escape(readable(words))}</span>' + (f" ({rows})." if rows else "")
            + f"{applies}</div>")


def date_rules(offence_date: dt.date | None = None, proceeding_date: dt.date | None = None) -> tuple[str, ...]:
    """Which date decides for each Act, in words ("" when no date is known): the offence date decides the
    substantive code (IPC or BNS: BNS s.358; Constitution Art. 20(1)), the date the proceeding was instituted
    decides procedure and evidence (CrPC or BNSS, Evidence Act or BSA: BNSS s.531(2), BSA s.170(2))."""
    if offence_date is None and proceeding_date is None:
        return ()
    out = []
    if offence_date is not None:
        code = "the IPC" if offence_date < CUTOFF else "the BNS"
        out.append(f"Offence date {offence_date:%d %B %Y} ({offence_date.isoformat()}) decides the substantive code: "
                   f"{code} governs (BNS s.358; a new offence never reaches back, Constitution Art. 20(1)).")
    else:
        out.append("No offence date given: the substantive code (IPC or BNS) follows the date of the offence "
                   "(IPC before 1 July 2024, BNS s.358).")
    if proceeding_date is not None:
        old = proceeding_date < CUTOFF
        out.append(f"Proceeding date {proceeding_date:%d %B %Y} ({proceeding_date.isoformat()}) decides procedure and "
                   f"evidence: {'the CrPC and the Evidence Act continue' if old else 'the BNSS and the BSA govern'} "
                   "(BNSS s.531(2), BSA s.170(2)).")
    else:
        out.append("No proceeding date given: procedure and evidence follow the proceeding, not the offence -- the "
                   "CrPC and the Evidence Act for a trial or inquiry pending on 1 July 2024 (BNSS s.531(2), "
                   "BSA s.170(2)), the BNSS and the BSA otherwise.")
    return tuple(out)


def supersession_banner(flags: Iterable[SupersessionFlag], problems: Iterable[str] = (), *,
                        offence_date: dt.date | None = None, proceeding_date: dt.date | None = None,
                        row_link: Callable[[str, str], str | None] | None = None,
                        names: Mapping[str, str] | None = None) -> str:
    """The banner a lawyer reads: each distinct flag once, in words ("IPC 420 → BNS 318(4) IPC 420 is replaced by
    BNS 318(4) for offences committed on or after 1 July 2024 ... (BPR&D table, row 453). Governing code here:
    Bharatiya Nyaya Sanhita, 2023."), the table row a link when ``row_link(file, row)`` gives one; then, with a date
    known, which date decides for each Act (:func:`date_rules`). Where each flag was found (the question, a passage
    by its :func:`passage_name` from ``names``: chunk id -> name, the answer), the flags' notes and ``problems``
    (verifier messages, notices) go to a collapsed ``<details>`` ("Details"), never the banner's text, all in
    user-facing names (:func:`readable`: no chunk id, no file name). "" when there is nothing to show.

    Distinct means: the same old section, kind and governing code, whatever sub-section ("IPC 304B(1)" and
    "IPC 304B" are one flag) and wherever it was found; a new section's "predates the new code" flag is the same
    fact as its predecessor's "saved" flag and is shown with it."""
    groups: dict[tuple, list[SupersessionFlag]] = {}
    for f in flags:
        family = "date" if f.kind in _DATE_KINDS and f.kind != "new_offence_retroactive" else f.kind
        base = (f.old.act, f.old.section) if f.kind not in ("ambiguous", "invalid") else (f.old.act, str(f.old), f.note)
        groups.setdefault((*base, family, f.applies), []).append(f)
    problems = list(dict.fromkeys(problems))
    if not groups and not problems:
        return ""
    body = "".join(_flag(g, row_link) for g in groups.values())
    rules = date_rules(offence_date, proceeding_date) if groups or offence_date or proceeding_date else ()
    body += "".join(f'<div class="lr-date-rule">{escape(r)}</div>' for r in rules)
    detail = "".join(f'<li class="lr-detail" data-detail="{escape(g[0].kind)}">{escape(str(g[0].old))}: '
                     f'{escape(readable(" ".join(dict.fromkeys(x.note for x in g if x.note)), names))} '
                     f'<span class="lr-found">Found in '
                     f'{escape("; ".join(dict.fromkeys(found_words(x.found_in, names) for x in g)))}.</span></li>'
                     for g in groups.values())
    detail += "".join(f'<li class="lr-detail lr-problem" data-detail="problem">{escape(readable(p, names))}</li>'
                      for p in problems)
    details = f'<details class="lr-details"><summary>Details</summary><ul>{detail}</ul></details>' if detail else ""
    return f'<div class="lr-banner">{body}{details}</div>'


def _section_box(label: str, sec: Section | None) -> str:
    if sec is None:
        return (f'<div class="lr-section"><h4>{escape(label)}</h4><p class="lr-missing">Text not in the index '
                f"(ingest the Act to see it here).</p></div>")
    where = f"p. {sec.pages[0]}" if has_print("statute", sec.pages) else NO_PRINT_NOTE
    link = f'<a href="{escape(source_url(sec.source, sec.pages[0]))}" target="_blank">{escape(sec.source)}, ' \
           f"{escape(where)}</a>"
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


def ask_note(message: str) -> str:
    """The note under the question box saying why a question was not asked (escaped; "" for no message)."""
    return f'<div class="lr-ask-note" role="status">{escape(message)}</div>' if message else ""


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


def upload_job_html(job) -> str:
    """One upload job (:class:`legal_rag.uploads.Job`): its file, state and step while it runs; its ingest report
    when it is over, saying what the text reads as and that it is cited as an uploaded document."""
    name = escape(job.name)
    if not job.over:
        return (f'<div class="lr-job" data-state="{escape(job.state)}"><b>{name}</b>: '
                f"{escape(job.step)} ({job.fraction:.0%})</div>")
    if job.state == "cancelled":
        return f'<div class="lr-job" data-state="cancelled"><b>{name}</b>: cancelled; nothing was added.</div>'
    report = ingest_report_html(job.report, job.name) if job.report is not None else ""
    if job.doc is not None:
        reads = "a court's judgment" if job.doc.classified == "judgment" else "another document"
        note = (f"<p>Added to your documents: reads as {escape(reads)}, {job.doc.chunks} passages; cited as "
                "<i>uploaded document (unverified)</i>.</p>")
    else:
        note = f"<p class='lr-error'>Not added: {escape(job.error)}</p>"
    return f'<div class="lr-job" data-state="{escape(job.state)}">{report}{note}</div>'


def source_choices(answer: Answer | None) -> list[tuple[str, int]]:
    """Dropdown choices for the source view, one per cited marker: ``("[n] citation — file, p. N", n)``; a judgment
    by its citation alone (case name, citations, paragraph, court, date), never its file name."""
    if answer is None:
        return []
    return [(f"[{r.marker}] {r.citation}" if r.kind == "judgment" else
             f"[{r.marker}] {r.citation} — {r.source}{', ' + r.page_label if r.page_label else ''}", r.marker)
            for r in citation_records(answer, include_unverified=True)]


def source_view_html(answer: Answer | None, marker: int | None, served: CaseServed = None) -> str:
    """The source view of one citation, with the quoted passage: the PDF opened at the cited page, or a judgment
    the server shows as a page opened at its cited paragraph (:func:`record_url`), in an inline frame."""
    recs = {r.marker: r for r in citation_records(answer, include_unverified=True)} if answer is not None else {}
    r = recs.get(marker) if marker is not None else None
    if r is None:
        return '<div class="lr-source-view lr-empty">Ask a question, then pick a cited source.</div>'
    url = escape(record_url(answer, r, served))
    if r.kind == "judgment":
        where = f"open the judgment at para {r.paras}" if r.paras else "open the judgment"
        name = r.citation
    else:
        at = f" at {r.page_label}" if r.page_label else ""  # a text without pages has none to open at
        where, name = f"open {r.source}{at}", r.source
    return (f'<div class="lr-source-view"><div><b>[{r.marker}] {escape(r.citation)}</b> — '
            f'<a class="lr-open-source" href="{url}" target="_blank">{escape(where)}'
            f'</a></div><blockquote>{escape(r.quote)}</blockquote>'
            f'<iframe class="lr-pdf" src="{url}" title="{escape(name)}" width="100%" height="640"></iframe></div>')


CSS = """
.lr-citations table, .lr-rows { border-collapse: collapse; width: 100%; font-size: 0.9em; }
.lr-citations td, .lr-citations th, .lr-rows td, .lr-rows th { border: 1px solid #ccc; padding: 4px; vertical-align: top; }
.lr-quote { font-style: italic; max-width: 28em; }
.lr-verified { color: #137333; font-weight: bold; } .lr-unsupported { color: #b3261e; font-weight: bold; }
.lr-unchecked { color: #8a6d00; }
.lr-banner { border-left: 6px solid #e8a317; background: #fff8e1; padding: 6px 10px; margin: 4px 0; color: #222; }
.lr-flag { margin: 4px 0; } .lr-ambiguous, .lr-invalid, .lr-collision, .lr-not_in_force, .lr-problem { color: #8b0000; }
.lr-note, .lr-found { font-size: 0.85em; color: #444; }
.lr-date-rule { margin: 4px 0; font-size: 0.92em; } .lr-details { font-size: 0.85em; color: #444; margin-top: 4px; }
.lr-side-by-side { display: grid; grid-template-columns: repeat(auto-fit, minmax(20em, 1fr)); gap: 12px; }
.lr-ask-note { color: #8b0000; font-size: 0.9em; margin: 2px 0; }
.lr-text { white-space: pre-wrap; font-size: 0.85em; max-height: 30em; overflow: auto; }
"""

__all__ = ["CSS", "ask_note", "case_page_html", "case_url", "citations_panel", "found_words", "governing_words", "judgment_label",
           "para_anchor", "passage_name", "passage_names", "readable", "record_url", "row_words", "ingest_report_html", "lookup_html", "notice_html",
           "parse_offence_date", "source_choices", "source_url", "source_view_html", "sources_line", "suggestions_html",
           "supersession_banner", "date_rules"]
