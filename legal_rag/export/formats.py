"""Text export formats of an answer: Markdown, JSON, CSV, RIS, BibTeX and CSL-JSON (pure functions, str out).

All take an :class:`ExportDoc` (built by :func:`build_doc` from an :class:`~legal_rag.types.Answer`), so every
format exports the same records. References:

* RIS: the RIS tag list as read and written by ``rispy``; types ``STAT`` (statute) and ``CASE`` (case); an order's
  ``CASE`` record carries ``T3  - Order`` (the CASE type's "Decision" tag).
* BibTeX: biblatex entry types ``@legislation`` and ``@jurisdiction`` (biblatex manual, "Non-standard types", as
  Zotero / Better BibTeX export statutes and cases), written with ``bibtexparser`` 2; an order's ``@jurisdiction``
  carries ``type = {Order}``.
* CSL-JSON: item types ``legislation`` and ``legal_case`` and variables ``section``, ``authority``, ``issued``
  (Citation Style Language 1.0.2 specification, appendix "Types" and "Variables"); an order's ``legal_case``
  carries ``genre: "Order"``.
* JSON: this project's own lossless form (``format: legal-rag-answer``, ``version: 1``); :func:`doc_from_json`
  reads it back to an equal :class:`ExportDoc`.

A court's decision is typed by what it was issued as through one table,
:data:`~legal_rag.export.records.DECISION_TYPES`: a judgment by its entry type alone, an order as an order, with
the order's parties and citation as its title (:attr:`~legal_rag.export.records.CitationRecord.entry_title`).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import asdict, dataclass, fields, replace
from typing import get_args

import bibtexparser
import rispy
from bibtexparser.model import Entry, Field

from ..errors import LegalRagError
from ..text import MARKER, parse_marker, renumber
from ..types import (
    Answer, Decision, DocKind, FlagKind, HeadLine, ScheduleRow, SectionSuggestion, StatuteRef, Support,
    SupersessionFlag,
)
from .records import DOCUMENT_LABEL, UPLOAD_LABEL, CitationRecord, answer_text, citation_records
from .sheet import CSV_COLUMNS, to_csv

JSON_FORMAT, JSON_VERSION = "legal-rag-answer", 1
#: record kind -> RIS type, biblatex entry type, CSL type (a document that is no judgment is never a case); what a
#: court's decision was issued as adds its own type word (:data:`~legal_rag.export.records.DECISION_TYPES`)
RIS_TYPES: dict[DocKind, str] = {"statute": "STAT", "judgment": "CASE", "document": "GEN", "upload": "GEN"}
BIBTEX_TYPES: dict[DocKind, str] = {"statute": "legislation", "judgment": "jurisdiction", "document": "misc",
                                    "upload": "misc"}
CSL_TYPES: dict[DocKind, str] = {"statute": "legislation", "judgment": "legal_case", "document": "document",
                                 "upload": "document"}


@dataclass(frozen=True)
class ExportDoc:
    """What every format exports: the question, the answer text, its citation records, supersession flags and
    problems. ``include_unverified`` records whether unsupported citations were let through."""

    query: str
    answer: str
    records: tuple[CitationRecord, ...] = ()
    flags: tuple[SupersessionFlag, ...] = ()
    problems: tuple[str, ...] = ()
    model: str = ""
    index_id: str = ""
    include_unverified: bool = False
    #: a fact pattern's suggested sections with why (:attr:`legal_rag.types.Answer.suggestions`)
    suggestions: tuple[SectionSuggestion, ...] = ()
    #: the composed head (:attr:`legal_rag.types.Answer.head`): the governing provisions, each part with its source
    head: tuple[HeadLine, ...] = ()
    #: the offence date the answer applied (:attr:`legal_rag.types.Answer.offence_date`), ISO ``YYYY-MM-DD``; ``""``
    #: when none was known (JSON: ``null``)
    offence_date: str = ""


#: what replaces, in an export, the marker of a citation that was left out (not verified)
UNVERIFIED_MARK = "[unverified]"


def distinct_flags(flags) -> tuple[SupersessionFlag, ...]:
    """Each distinct flag once, first seen first (a note found in the query, a passage and the answer is listed
    once): one per old section, kind and governing code, whatever sub-section
    ("IPC 304B(1)" and "IPC 304B" are one flag, as in the UI banner); ``found_in`` joins where it was found
    ("query, passage:IPC-420-0-..., answer"). An ``ambiguous`` or ``invalid`` flag is keyed by its whole ref and
    note."""
    groups: dict[tuple, list[SupersessionFlag]] = {}
    for f in flags:
        base = (f.old.act, f.old.section) if f.kind not in ("ambiguous", "invalid") else (f.old.act, str(f.old), f.note)
        groups.setdefault((*base, f.kind, f.applies), []).append(f)
    return tuple(replace(g[0], found_in=", ".join(dict.fromkeys(x.found_in for x in g))) for g in groups.values())


def build_doc(answer: Answer, include_unverified: bool = False) -> ExportDoc:
    """The export view of ``answer``: records from :func:`citation_records`, flags each distinct one once
    (:func:`distinct_flags`).

    Notes keep the answer's own numbers, which the pipeline gives in order of first appearance
    (:func:`legal_rag.answer.finish.in_reading_order`), so note ``[n]`` of every format is the citation the screen
    numbers ``[n]``. The marker of a citation left out (not verified, unless ``include_unverified``) reads
    :data:`UNVERIFIED_MARK` in the text, and its number has no note."""
    flags = distinct_flags(answer.flags)
    recs = citation_records(answer, include_unverified)
    kept = {r.marker: r.marker for r in recs}
    dropped = {c.marker for c in answer.citations} - set(kept)
    return ExportDoc(answer.query, renumber(answer_text(answer), kept, dropped, UNVERIFIED_MARK), recs, flags,
                     tuple(answer.problems), answer.model, answer.index_id, include_unverified,
                     tuple(answer.suggestions), tuple(answer.head),
                     answer.offence_date.isoformat() if answer.offence_date else "")


def flag_line(flag: SupersessionFlag) -> str:
    """``"IPC 420 → BNS 318(4) [superseded; applies: BNS; table: BPRD_...csv#453] note"``."""
    new = ", ".join(map(str, flag.new)) or "—"
    bits = [flag.kind] + ([f"applies: {flag.applies}"] if flag.applies else []) + (
        [f"table: {flag.source_row}"] if flag.source_row else [])
    return f"{flag.old} → {new} [{'; '.join(bits)}] {flag.note}".strip()


def _footnote_text(r: CitationRecord) -> str:
    out = f"{r.citation} [{r.source}, {r.page_label}]" if r.page_label else f"{r.citation} [{r.source}]"
    if r.quote:
        out += f": “{r.quote}”"
    if not r.verified:
        out += f" ({r.support.upper()})"
    if r.related:
        out += " (related provision, not the answer to the question)"
    return out


def to_markdown(doc: ExportDoc) -> str:
    """The answer with ``[n]`` turned into Markdown footnotes ``[^n]`` (only for exported markers), then the
    supersession notes, problems and the footnotes."""
    exported = {r.marker for r in doc.records}

    def sub(m: re.Match) -> str:
        nums = parse_marker(m.group(1))
        if not any(n in exported for n in nums):
            return m.group(0)
        return "".join(f"[^{n}]" if n in exported else f"[{n}]" for n in nums)

    lines = ["# Answer", "", f"**Question:** {doc.query}", "", MARKER.sub(sub, doc.answer).strip(), ""]
    if doc.flags:
        lines += ["## Supersession notes", ""] + [f"- {flag_line(f)}" for f in doc.flags] + [""]
    if doc.problems:
        lines += ["## Problems", ""] + [f"- {p}" for p in doc.problems] + [""]
    if not doc.include_unverified:
        left_out = f"; {UNVERIFIED_MARK} marks a citation left out" if UNVERIFIED_MARK in doc.answer else ""
        lines += [f"_Only verified citations are listed{left_out}._", ""]
    lines += [f"[^{r.marker}]: {_footnote_text(r)}" for r in doc.records]
    return "\n".join(lines).rstrip() + "\n"


def _ref_dict(ref: StatuteRef) -> dict:
    return {"act": ref.act, "section": ref.section, "sub": list(ref.sub)}


def _ref(d: dict) -> StatuteRef:
    return StatuteRef(d["act"], d["section"], tuple(d.get("sub", ())))


def _suggestion_dict(x: SectionSuggestion) -> dict:
    return {"ref": _ref_dict(x.ref), "cited_as": _ref_dict(x.cited_as) if x.cited_as else None, "score": x.score,
            "n_cases": x.n_cases, "top_n": x.top_n, "direct_rank": x.direct_rank, "cases": list(x.cases),
            "titles": list(x.titles), "counterparts": [_ref_dict(r) for r in x.counterparts], "p": x.p, "why": x.why()}


def _suggestion(d: dict) -> SectionSuggestion:
    return SectionSuggestion(_ref(d["ref"]), float(d["score"]), int(d["n_cases"]), tuple(d["cases"]), int(d["top_n"]),
                             d["direct_rank"], tuple(_ref(r) for r in d["counterparts"]),
                             _ref(d["cited_as"]) if d.get("cited_as") else None, tuple(d.get("titles", ())),
                             None if d.get("p") is None else float(d["p"]))


def _row_dict(r: ScheduleRow) -> dict:
    return dict(asdict(r), ref=_ref_dict(r.ref), ditto=list(r.ditto))


def _head_dict(h: HeadLine) -> dict:
    return {"ref": _ref_dict(h.ref), "line": h.line, "rule": h.rule, "status": h.status,
            "counterparts": [_ref_dict(r) for r in h.counterparts], "sources": list(h.sources),
            "rows": [_row_dict(r) for r in h.rows]}


def _head(d: dict) -> HeadLine:
    rows = tuple(ScheduleRow(**dict(r, ref=_ref(r["ref"]), ditto=tuple(r["ditto"]))) for r in d.get("rows", ()))
    return HeadLine(_ref(d["ref"]), d["line"], d.get("rule", ""), tuple(_ref(r) for r in d.get("counterparts", ())),
                    d.get("status", ""), tuple(d.get("sources", ())), rows)


def to_json(doc: ExportDoc) -> str:
    """Lossless JSON (UTF-8 text, 2-space indent); read back with :func:`doc_from_json`."""
    flags = [dict(old=_ref_dict(f.old), new=[_ref_dict(r) for r in f.new], found_in=f.found_in, applies=f.applies,
                  note=f.note, source_row=f.source_row, kind=f.kind) for f in doc.flags]
    recs = [dict(asdict(r), pages=list(r.pages), reporters=list(r.reporters), printed=list(r.printed),
                 sentences=list(r.sentences),
                 now=list(r.now)) for r in doc.records]
    return json.dumps({"format": JSON_FORMAT, "version": JSON_VERSION, "query": doc.query, "answer": doc.answer,
                       "model": doc.model, "index_id": doc.index_id, "include_unverified": doc.include_unverified,
                       "problems": list(doc.problems), "supersession": flags, "citations": recs,
                       "suggestions": [_suggestion_dict(x) for x in doc.suggestions],
                       "head": [_head_dict(h) for h in doc.head], "offence_date": doc.offence_date or None},
                      ensure_ascii=False, indent=2)


def _iso_date(value) -> str:
    """``value`` checked as an ISO date (``""`` for ``None``); ``ValueError`` for anything else."""
    if value is None:
        return ""
    return dt.date.fromisoformat(value).isoformat()


def doc_from_json(text: str, name: str = "<json>") -> ExportDoc:
    """Read :func:`to_json` output back. Raises :class:`LegalRagError` naming ``name`` when it is not such a file."""
    try:
        d = json.loads(text)
        if d.get("format") != JSON_FORMAT or d.get("version") != JSON_VERSION:
            raise ValueError(f"not a {JSON_FORMAT} v{JSON_VERSION} file")
        flag_keys = {f.name for f in fields(SupersessionFlag)}
        flags = tuple(SupersessionFlag(**{k: v for k, v in dict(f, old=_ref(f["old"]), new=tuple(_ref(r) for r in f["new"]),
                                                               kind=f["kind"]).items()
                                          if k in flag_keys}) for f in d["supersession"])
        recs = tuple(CitationRecord(**dict(r, pages=tuple(r["pages"]), reporters=tuple(r["reporters"]),
                                           printed=tuple(r.get("printed", ())),
                                           sentences=tuple(r["sentences"]), now=tuple(r["now"])))
                     for r in d["citations"])
        for what, value, allowed in ([("flag kind", f.kind, get_args(FlagKind)) for f in flags]
                                     + [("support", r.support, get_args(Support)) for r in recs]
                                     + [("record kind", r.kind, get_args(DocKind)) for r in recs]
                                     + [("decision", r.decision, get_args(Decision)) for r in recs]):
            if value not in allowed:
                raise ValueError(f"unknown {what} {value!r} (one of {', '.join(allowed)})")
        return ExportDoc(d["query"], d["answer"], recs, flags, tuple(d["problems"]), d["model"], d["index_id"],
                         bool(d["include_unverified"]), tuple(_suggestion(x) for x in d.get("suggestions", ())),
                         tuple(_head(h) for h in d.get("head", ())), _iso_date(d.get("offence_date")))
    except (ValueError, KeyError, TypeError) as exc:
        raise LegalRagError(f"{name}: cannot read exported answer: {exc}") from None


def cited_pages(r: CitationRecord) -> tuple[int, int] | None:
    """The pages a reference manager's page field names: a law report's printed pages (``r.printed``), else the
    PDF pages, else ``None`` for a text without pages (a plain-text judgment is cited by paragraph only)."""
    if r.printed:
        return r.printed[0], r.printed[-1]
    return (r.pages[0], r.pages[1]) if r.paged else None


def _notes(r: CitationRecord) -> list[str]:
    out = [r.citation, f"support: {r.support}"] + (["related provision, not the answer to the question"]
                                                    if r.related else [])
    if r.weight is not None:
        out.append(f"weight: {r.weight:.3f}")
    if r.now_note:
        out.append(f"supersession ({r.source_row}): {r.now_note}")
    return out


def to_ris(doc: ExportDoc) -> str:
    """RIS records (``TY STAT`` / ``TY CASE``; ``TY GEN`` for another document) written by ``rispy``; N1 notes hold
    the Indian-style citation, the support mark, the weight and the supersession note. An order is a ``CASE`` with
    ``T3  - Order`` and its parties and order citation as ``TI`` (:class:`~legal_rag.export.records.DecisionType`)."""
    refs = []
    for r in doc.records:
        d = {"type_of_reference": RIS_TYPES[r.kind], "id": f"lr{r.marker}",
             "title": r.entry_title, "notes": _notes(r), "file_attachments1": r.source}
        pages = cited_pages(r)
        if pages:
            d.update(start_page=str(pages[0]), end_page=str(pages[1]))
        if r.kind == "statute":
            d.update(section=r.section, short_title=r.act)
            if r.title:
                d["secondary_title"] = r.title
        elif r.kind == "judgment":
            d.update(publisher=r.court, date=r.date.replace("-", "/"))
            if r.reporters:
                d["number"] = "; ".join(r.reporters)
            if r.decision_type.ris:
                d["tertiary_title"] = r.decision_type.ris
        if r.year:
            d["year"] = r.year
        if r.quote:
            d["abstract"] = r.quote
        refs.append({k: _one_line(v) for k, v in d.items()})
    return rispy.dumps(refs)


def _one_line(v):
    """RIS is line-based: a newline inside a value would end it, so whitespace runs become one space."""
    if isinstance(v, list):
        return [_one_line(x) for x in v]
    return " ".join(str(v).split())


_TEX = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "~": r"\textasciitilde{}",
        "^": r"\textasciicircum{}", "\\": r"\textbackslash{}", "{": "(", "}": ")"}


def tex(s: str) -> str:
    """Escape LaTeX specials for a BibTeX field; braces become parentheses so every field stays balanced."""
    return "".join(_TEX.get(ch, ch) for ch in s)


def bibtex_key(r: CitationRecord) -> str:
    """Deterministic key: ``lr1_BNS_318_4`` for statutes, ``lr2_<first words of the title>`` for judgments."""
    base = f"{r.act}_{r.section}" if r.kind == "statute" else "_".join(r.title.split()[:3])
    return f"lr{r.marker}_" + (re.sub(r"[^A-Za-z0-9]+", "_", base).strip("_") or "x")


def to_bibtex(doc: ExportDoc) -> str:
    """biblatex entries (``@legislation`` / ``@jurisdiction``; ``@misc`` for another document) written by
    ``bibtexparser``. An order is a ``@jurisdiction`` with ``type = {Order}`` and its parties and order citation as
    ``title`` (:class:`~legal_rag.export.records.DecisionType`)."""
    lib = bibtexparser.Library()
    for r in doc.records:
        pages = cited_pages(r)
        f = {"title": r.entry_title,
             "pages": f"{pages[0]}--{pages[1]}" if pages else "",
             "note": "; ".join(_notes(r)), "file": r.source}
        if r.kind == "statute":
            f.update(shorttitle=r.act, number=f"s. {r.section}")
        elif r.kind == "judgment":
            f["institution"] = r.court
            if r.decision_type.bibtex:
                f["type"] = r.decision_type.bibtex
            if r.date:
                f["date"] = r.date
            if r.reporters:
                f["number"] = "; ".join(r.reporters)
        if r.year:
            f["year"] = r.year
        if r.quote:
            f["abstract"] = r.quote
        entry_type = BIBTEX_TYPES[r.kind]
        # bibtexparser's writer adds the enclosing braces; ``file`` is a verbatim field in biblatex (not escaped)
        lib.add(Entry(entry_type, bibtex_key(r), [Field(k, v.replace("{", "(").replace("}", ")") if k == "file"
                                                        else tex(v)) for k, v in f.items() if v]))
    return bibtexparser.write_string(lib)


def to_csl_json(doc: ExportDoc) -> str:
    """CSL-JSON items (a JSON array), one per record (``legislation``, ``legal_case`` or ``document``). An order is
    a ``legal_case`` with ``genre: "Order"`` and its parties and order citation as ``title``
    (:class:`~legal_rag.export.records.DecisionType`)."""
    items = []
    for r in doc.records:
        pages = cited_pages(r)
        it: dict = {"id": f"lr{r.marker}", "type": CSL_TYPES[r.kind], "note": "; ".join(_notes(r)), "source": r.source}
        if pages:
            it["page"] = f"{pages[0]}" if pages[0] == pages[1] else f"{pages[0]}-{pages[1]}"
        if r.kind == "statute":
            it.update(title=r.act_title, section=f"s. {r.section}", **({"title-short": r.act} if r.act else {}))
        elif r.kind == "document":
            it.update(title=r.title, genre=DOCUMENT_LABEL)
        elif r.kind == "upload":
            it.update(title=r.title, genre=UPLOAD_LABEL)
        else:
            it.update(title=r.entry_title, authority=r.court)
            if r.decision_type.csl:
                it["genre"] = r.decision_type.csl
            if r.reporters:
                it["number"] = "; ".join(r.reporters)
        if r.date:
            it["issued"] = {"date-parts": [[int(x) for x in r.date.split("-") if x.isdigit()]]}
        elif r.year:
            it["issued"] = {"date-parts": [[int(r.year)]]}
        if r.quote:
            it["abstract"] = r.quote
        items.append(it)
    return json.dumps(items, ensure_ascii=False, indent=2)


__all__ = ["CSV_COLUMNS", "UNVERIFIED_MARK", "ExportDoc", "bibtex_key", "build_doc", "doc_from_json", "flag_line",
           "tex", "to_bibtex", "to_csl_json", "to_csv", "to_json", "to_markdown", "to_ris"]
