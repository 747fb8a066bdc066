"""Citation records for export: one footnote per ``[n]`` of an :class:`~legal_rag.types.Answer`, in Indian style.

Statutes are cited by the Act's short title and year and the section with its sub-section path, the style of the
Acts' own cross-references and of Indian law reports::

    statute_citation(StatuteRef("BNS", "318", ("4",)))            -> "Bharatiya Nyaya Sanhita, 2023, s. 318(4)"
    statute_citation(StatuteRef("IPC", "420"), flags)             -> "Indian Penal Code, 1860, s. 420 (now BNS s. 318(4))"
    statute_citation(StatuteRef("IPC", "498A"), flags)            -> "Indian Penal Code, 1860, s. 498A (now BNS ss. 85 and 86)"

A record cites the provision its quote comes from, at the precision :mod:`legal_rag.cite` found (``s. 318(4)``, not
``s. 318``, when the quoted words lie in sub-section (4): :func:`pinpoints`), with the pages where those words are
printed (``p. 87``), so the answer's heading, the citation panel and every format agree. A statute whose source has
no official print (the Indian Evidence Act, read from a JSON conversion: ``corpora/manifest.toml``) is cited with
no page and the plain note :data:`~legal_rag.types.NO_PRINT_NOTE` (``page_note``), never "p. 0". A judgment
passage cited for a statute's words it quotes carries the label that they are the judgment's words of its date
(``judgment_words``, in the citation string too), never the statute's.

The successor named after "now" comes only from the answer's :class:`SupersessionFlag` objects (themselves from
the BPR&D correspondence table rows, ``flag.source_row``); export never maps a section itself. Judgments are
cited by title, neutral and reporter citations (chunk meta ``citations``), the report's printed page (chunk meta
``printed_pages``) and the paragraphs, then court and date; the PDF page is only the link target (``page_label``)
and a plain-text judgment, which has no pages, is cited by paragraph only::

    "Mohd. Anwar v. The State (N.C.T. of Delhi), [2020] 7 S.C.R. 150, at 156, para 16 (Supreme Court of India,
    19 August 2020)"

An order (chunk meta ``decision``: the Supreme Court's orders of the day, a High Court's bail order) is cited as an
order, never as a judgment, by court, date and case number (:func:`order_reference`), and every export types it as
one (:data:`DECISION_TYPES`)::

    "Order of the Supreme Court dated 19.05.2026 in SLP (Crl.) No. 1592/2026, para 7"

Only citations whose support is ``"supported"`` (checked by :mod:`legal_rag.verify`) are exported unless
``include_unverified=True``; a marker cited by several sentences is exported with its supported sentences only.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from ..ingest.printed_pages import paragraph_at, printed_range
from ..ingest.sc_orders import order_citation
from ..law import judgment_reference, locate, order_citations
from ..types import (ACT_TITLES, NO_PRINT_NOTE, SUCCESSOR_ACT, UPLOAD_LABEL, Answer, Chunk, Citation, Decision, DocKind,
                     FlagKind, StatuteRef, Support, SupersessionFlag, has_print)

VERIFIED: Support = "supported"
#: flag kinds after which the cited old-code section has a named successor to show as "now ..."
_NOW_KINDS: frozenset[FlagKind] = frozenset({"superseded", "saved"})
#: added to the citation of a section quoted from a Bill print (chunk meta ``print=bill``), never the enacted Act
BILL_LABEL = " [text of the Bill, not the enacted Act]"
#: how a document that is neither statute nor judgment (chunk kind ``document``) is labelled in its citation
DOCUMENT_LABEL = "other document, not a judgment or statute"


@dataclass(frozen=True)
class DecisionType:
    """The words that type a court's decision of one kind in each export, each from that format's own vocabulary;
    ``""`` writes no field: a judgment is what a case entry stands for by itself, so it is typed by its entry type
    alone (RIS ``CASE``, biblatex ``@jurisdiction``, CSL ``legal_case``).

    * ``ris``: tag ``T3`` of a ``TY  - CASE`` record, "Decision" in the CASE type of the RIS specification (2011);
      the CASE type's ``M3`` is "Citation of Reversal", not a type of work;
    * ``bibtex``: field ``type`` of a biblatex ``@jurisdiction`` entry (biblatex manual, 2.2.2: "The type of a
      manual, patent, report, or thesis. This field may also be useful for the custom types listed in 2.1.3");
    * ``csl``: variable ``genre`` of a ``legal_case`` item (CSL 1.0.2, appendix "Variables": "Type, class, or
      subtype of the item");
    * ``csv``: the CSV's ``kind`` cell.
    """

    ris: str
    bibtex: str
    csl: str
    csv: str


#: decision (:attr:`CitationRecord.decision`) -> how every export types it: an order is exported as an order
DECISION_TYPES: dict[Decision, DecisionType] = {
    "judgment": DecisionType(ris="", bibtex="", csl="", csv="judgment"),
    "order": DecisionType(ris="Order", bibtex="Order", csl="Order", csv="order"),
}


@dataclass(frozen=True)
class CitationRecord:
    """One exported footnote: everything the formats need, flat and JSON-friendly.

    ``marker`` is the answer's ``[n]``; ``kind`` is ``"statute"``, ``"judgment"``, ``"document"`` (a text of the
    corpus that is no court's judgment, cited as :func:`document_citation`) or ``"upload"`` (a user's upload, cited
    as :func:`upload_citation`); ``citation`` the
    Indian-style string; ``pages`` 1-based ``(first, last)`` in ``source``; ``sentences`` the answer sentences
    citing it (supported ones only unless unverified citations were asked for); ``support`` ``"supported"``
    when every exported sentence is supported, else ``"unsupported"`` or ``"unchecked"``; ``weight`` the
    largest RAG-Sequence weight of the marker, ``None`` when the generator gave none; ``now`` the successor
    sections from the supersession flags (empty when none); ``now_note`` the flag's note and ``source_row``
    its table row.
    """

    marker: int
    kind: DocKind
    citation: str
    chunk_id: str
    source: str
    pages: tuple[int, int]
    title: str = ""
    act: str = ""
    act_title: str = ""
    section: str = ""
    court: str = ""
    date: str = ""
    reporters: tuple[str, ...] = ()
    paras: str = ""
    printed: tuple[int, ...] = ()
    case_numbers: str = ""
    quote: str = ""
    sentences: tuple[str, ...] = ()
    support: Support = VERIFIED
    weight: float | None = None
    now: tuple[str, ...] = ()
    now_note: str = ""
    source_row: str = ""
    #: every citation of the marker stands in the answer's "Related provisions" part (``Citation.related``,
    #: :mod:`legal_rag.generate.relevance`): retrieved, but not the answer to the question asked
    related: bool = False
    #: what stands instead of a page: :data:`~legal_rag.types.NO_PRINT_NOTE` for a statute whose source has no
    #: official print (the Indian Evidence Act); "" otherwise
    page_note: str = ""
    #: a judgment passage cited for a statute's words it quotes: the label saying they are the judgment's words of
    #: its date, not the statute (``Citation.judgment_words``); "" otherwise
    judgment_words: str = ""
    #: a court's decision (kind ``"judgment"``) issued as a ``"judgment"`` or an ``"order"`` (chunk meta
    #: ``decision``); an order's ``citation`` is :func:`legal_rag.ingest.sc_orders.order_citation`'s, and every
    #: export types it as an order (:data:`DECISION_TYPES`)
    decision: Decision = "judgment"

    @property
    def verified(self) -> bool:
        return self.support == VERIFIED

    @property
    def decision_type(self) -> DecisionType:
        """How the exports type this decision (:data:`DECISION_TYPES`); a judgment's words for any other record."""
        return DECISION_TYPES[self.decision]

    @property
    def entry_title(self) -> str:
        """The title of the record's entry in a reference manager (RIS ``TI``, BibTeX and CSL ``title``): the Act's
        title for a statute; for an order, its parties then its citation without a pinpoint
        (:func:`order_reference`), as the answer lists it: ``"Rajesh v. State of Haryana, Order of the Supreme Court
        dated 19.05.2026 in SLP (Crl.) No. 1592/2026"``, so that no order reads as a judgment and two orders of one
        case stay two entries; else the title."""
        if self.kind == "statute":
            return self.act_title
        if self.kind == "judgment" and self.decision == "order":
            cited = order_reference(self.court, self.date, self.case_numbers)
            return f"{self.title}, {cited}" if self.title else cited
        return self.title

    @property
    def year(self) -> str:
        """The Act's year ("2023") or the judgment's year; "" when unknown."""
        if self.kind == "statute":
            m = re.search(r"(\d{4})\s*$", self.act_title)
            return m.group(1) if m else ""
        return self.date[:4]

    @property
    def paged(self) -> bool:
        """Whether ``pages`` name pages a reader can open: a statute print's or a PDF's pages, never the
        pseudo-pages of a plain-text judgment (AILA, Indian Kanoon text), which is cited by paragraph only, nor the
        ``(0, 0)`` of a statute read from a structured conversion (:func:`~legal_rag.types.has_print`)."""
        if self.kind == "statute":
            return has_print(self.kind, self.pages)
        return self.source.lower().endswith(".pdf")

    @property
    def where(self) -> str:
        """The page label (:attr:`page_label`), else the note that stands for it (:attr:`page_note`), else ``""``:
        what every format prints where a page would go."""
        return self.page_label or self.page_note

    @property
    def pinpoint(self) -> str:
        """The report's printed page(s) of a judgment print that numbers its pages (``"at 156"``,
        ``"at 156-157"``), else ``""``."""
        if not self.printed:
            return ""
        a, b = self.printed[0], self.printed[-1]
        return f"at {a}" if a == b else f"at {a}-{b}"

    @property
    def page_label(self) -> str:
        """``"p. 87"`` or ``"pp. 86-87"``: the PDF pages (the link target); ``"PDF p. 7"`` for a law report whose
        own page numbers the citation names (:attr:`pinpoint`); ``""`` for a text without pages."""
        if not self.paged:
            return ""
        a, b = self.pages
        label = f"p. {a}" if a == b else f"pp. {a}-{b}"
        return f"PDF {label}" if self.printed else label


def section_label(ref: StatuteRef) -> str:
    """``StatuteRef("BNS", "318", ("4",)) -> "318(4)"``."""
    return ref.section + "".join(f"({s})" for s in ref.sub)


def _join_and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def flag_for(ref: StatuteRef, flags: tuple[SupersessionFlag, ...]) -> SupersessionFlag | None:
    """The flag that names ``ref`` as its old section (exactly, else by whole section), preferring kinds that name
    a successor; ``None`` when no flag does."""
    exact = [f for f in flags if f.old == ref]
    loose = [f for f in flags if f.old.act == ref.act and f.old.base == ref.base]
    for group in (exact, loose):
        for kinds in (_NOW_KINDS, frozenset({"no_counterpart"})):
            hit = next((f for f in group if f.kind in kinds), None)
            if hit is not None:
                return hit
    return None


def now_clause(flag: SupersessionFlag | None) -> str:
    """``" (now BNS s. 318(4))"``, ``" (now BNS ss. 85 and 86)"``, ``" (no counterpart in the BNS)"`` or ``""``."""
    if flag is None:
        return ""
    kind = flag.kind
    if kind in _NOW_KINDS and flag.new:
        acts = list(dict.fromkeys(r.act for r in flag.new))
        parts = []
        for act in acts:
            secs = [section_label(r) for r in flag.new if r.act == act]
            parts.append(f"{act} {'s.' if len(secs) == 1 else 'ss.'} {_join_and(secs)}")
        return f" (now {'; '.join(parts)})"
    if kind == "no_counterpart":
        return f" (no counterpart in the {SUCCESSOR_ACT.get(flag.old.act, 'new code')})"
    return ""


def statute_citation(ref: StatuteRef, flags: tuple[SupersessionFlag, ...] = ()) -> str:
    """Indian-style citation of a section (see the module docstring); unknown Acts keep their short code."""
    name = ACT_TITLES.get(ref.act, ref.act)
    return f"{name}, s. {section_label(ref)}{now_clause(flag_for(ref, flags))}"


def statute_citations(refs: tuple[StatuteRef, ...], flags: tuple[SupersessionFlag, ...] = ()) -> str:
    """:func:`statute_citation` of one provision, or of several of one Act quoted from one passage:
    ``"Bharatiya Nyaya Sanhita, 2023, ss. 318(2) and 318(3)"``."""
    if len(refs) == 1:
        return statute_citation(refs[0], flags)
    name = ACT_TITLES.get(refs[0].act, refs[0].act)
    return f"{name}, ss. {_join_and([section_label(r) for r in refs])}{now_clause(flag_for(refs[0], flags))}"


def pinpoints(cits: list[Citation]) -> tuple[StatuteRef, ...]:
    """The provisions a marker's citations name, most precise first kept: a section is dropped when a sub-section of
    it is cited too (``BNS 318`` from a heading and ``BNS 318(4)`` from its quote -> ``(BNS 318(4),)``), and so is a
    sub-section when one of its clauses is. In the order first cited."""
    refs = list(dict.fromkeys(c.ref for c in cits if c.ref is not None))
    return tuple(r for r in refs if not any(o != r and o.act == r.act and o.section == r.section
                                            and o.sub[:len(r.sub)] == r.sub for o in refs))


def long_date(iso: str) -> str:
    """``"2020-11-27" -> "27 November 2020"``; anything that is not an ISO date is returned unchanged."""
    try:
        d = dt.date.fromisoformat(iso)
    except (TypeError, ValueError):
        return iso
    return f"{d.day} {d.strftime('%B')} {d.year}"


def judgment_citation(title: str, reporters: tuple[str, ...] = (), court: str = "", date: str = "",
                      paras: str = "", printed: tuple[int, int] | tuple = ()) -> str:
    """``"Mohd. Anwar v. The State (N.C.T. of Delhi), [2020] 7 S.C.R. 150, at 156, para 16 (Supreme Court of
    India, 19 August 2020)"``: :func:`legal_rag.law.cases.judgment_reference` (neutral citation first, the report
    last with its printed page ``printed``, the paragraphs), then court and date; missing parts are left out."""
    out = judgment_reference(title, reporters, printed, paras)
    where = ", ".join(x for x in (court, long_date(date)) if x)
    return out + (f" ({where})" if where else "")


def order_reference(court: str, date: str, case_numbers: str) -> str:
    """An order's citation with no pinpoint: :func:`legal_rag.ingest.sc_orders.order_citation` of its first case
    number (``case_numbers`` as chunk meta holds them, ``;``-separated):
    ``"Order of the Supreme Court dated 19.05.2026 in SLP (Crl.) No. 1592/2026"``."""
    return order_citation(court, date, case_numbers.split(";")[0].strip())


def document_citation(title: str) -> str:
    """``"Section 420 IPC: my own notes [other document, not a judgment or statute]"``: what an uploaded note or
    any other text that is no court's judgment is cited as (``Chunk.kind == "document"``)."""
    return f"{title or 'Untitled document'} [{DOCUMENT_LABEL}]"


def upload_citation(title: str) -> str:
    """``"A v. B [uploaded document (unverified)]"``: what a user's upload is cited as (``Chunk.kind ==
    "upload"``), whatever court or date it prints."""
    return f"{title or 'Untitled document'} [{UPLOAD_LABEL}]"


def _support(cits: list[Citation]) -> Support:
    kinds = {c.support for c in cits}
    if kinds == {VERIFIED}:
        return VERIFIED
    return "unsupported" if "unsupported" in kinds else "unchecked"


def _quoted(c: Citation) -> bool:
    """Whether ``c.quote`` is the sentence's own quoted span (not the passage sentence that best matches it)."""
    return bool(c.quote) and c.quote in c.sentence


def _record(marker: int, cits: list[Citation], chunk: Chunk | None, flags: tuple[SupersessionFlag, ...]) -> CitationRecord:
    first = cits[0]
    meta = dict(chunk.meta) if chunk is not None else {}
    weights = [c.weight for c in cits if c.weight is not None]
    refs = pinpoints(cits)
    # the pages are those of the provisions cited (the words quoted from them, or their text in the passage)
    own = [c for c in cits if c.ref in refs] or cits
    common = dict(marker=marker, chunk_id=first.chunk_id, source=first.source,
                  pages=(min(c.pages[0] for c in own), max(c.pages[1] for c in own)),
                  quote=next((c.quote for c in (*[c for c in own if _quoted(c)], *cits) if c.quote), ""),
                  sentences=tuple(dict.fromkeys(c.sentence for c in cits if c.sentence)),
                  support=_support(cits), weight=max(weights) if weights else None,
                  related=all(c.related for c in cits))
    if not refs and chunk is not None and chunk.ref is not None:
        refs = (chunk.ref,)
    if refs:
        ref = refs[0]
        flag = flag_for(ref, flags)
        now = tuple(str(r) for r in flag.new) if flag is not None and flag.kind in _NOW_KINDS else ()
        bill = BILL_LABEL if meta.get("print") == "bill" else ""  # a Bill print's clause is not the enacted text
        unprinted = not has_print("statute", common["pages"])
        return CitationRecord(kind="statute", citation=statute_citations(refs, flags) + bill
                              + (f" [{NO_PRINT_NOTE}]" if unprinted else ""),
                              page_note=NO_PRINT_NOTE if unprinted else "",
                              title=chunk.title if chunk else "",
                              act=ref.act, act_title=ACT_TITLES.get(ref.act, ref.act),
                              section=", ".join(section_label(r) for r in refs),
                              now=now, now_note=flag.note if flag else "", source_row=flag.source_row if flag else "",
                              **common)
    title = (chunk.title if chunk is not None else "") or meta.get("case", "") or first.source
    if chunk is not None and chunk.kind == "upload":  # a user's upload: never a court's judgment, whatever it prints
        return CitationRecord(kind="upload", citation=upload_citation(title), title=title, **common)
    if chunk is not None and chunk.kind == "document":  # a note or other text: never called a judgment
        return CitationRecord(kind="document", citation=document_citation(title), title=title, **common)
    reporters = order_citations([x for x in meta.get("citations", "").split(";")])
    court, date, paras = meta.get("court", ""), meta.get("date", ""), meta.get("paras", "")
    at = _quoted_paragraph(chunk, common["quote"]) if chunk is not None else None
    if at is not None:  # the quote's own paragraph and pages, not the whole passage's
        paras, common["pages"] = at
    printed = printed_range(meta.get("printed_pages", ""), common["pages"]) or ()
    words = next((c.judgment_words for c in cits if c.judgment_words), "")
    decision: Decision = "order" if meta.get("decision") == "order" else "judgment"
    if decision == "order":  # an order is cited as one, never as a judgment
        cited = order_reference(court, date, meta.get("case_numbers", "")) + (f", para {paras}" if paras else "")
    else:
        cited = judgment_citation(title, reporters, court, date, paras, printed)
    return CitationRecord(kind="judgment", citation=cited + (f" [{words}]" if words else ""), judgment_words=words,
                          decision=decision,
                          title=title, court=court, date=date, reporters=reporters, paras=paras, printed=printed,
                          case_numbers=meta.get("case_numbers", ""), **common)


def _quoted_paragraph(chunk: Chunk, quote: str) -> tuple[str, tuple[int, int]] | None:
    """The printed paragraph number and PDF pages of the paragraph of judgment ``chunk`` in which ``quote`` begins
    (chunk meta ``para_at``), or ``None`` when the quote is not found in the passage or its paragraph is not
    numbered."""
    if not quote:
        return None
    spans = locate(quote, chunk.text)
    return paragraph_at(dict(chunk.meta).get("para_at", ""), spans[0][0]) if spans else None


def citation_records(answer: Answer, include_unverified: bool = False) -> tuple[CitationRecord, ...]:
    """One record per marker of ``answer``, ordered by marker. Citations that are not ``supported`` are dropped
    unless ``include_unverified``; a marker left with no citation is dropped. The chunk of each citation is found
    among ``answer.passages`` by chunk id (judgment metadata comes from its ``meta``)."""
    chunks = {h.chunk.id: h.chunk for h in answer.passages}
    by_marker: dict[int, list[Citation]] = {}
    for c in answer.citations:
        if include_unverified or c.support == VERIFIED:
            by_marker.setdefault(c.marker, []).append(c)
    return tuple(_record(m, cits, chunks.get(cits[0].chunk_id), answer.flags) for m, cits in sorted(by_marker.items()))


def answer_text(answer: Answer) -> str:
    """What the reader is shown as the answer: its notices (``Answer.notices``, in order), then its text, each part
    apart by a blank line. The one rendering of notices, for the chat, the JSON API, the command line and every
    export."""
    return "\n\n".join((*(n.text for n in answer.notices), answer.text))


__all__ = ["answer_text", "BILL_LABEL", "DECISION_TYPES", "DOCUMENT_LABEL", "UPLOAD_LABEL", "CitationRecord",
           "DecisionType", "citation_records", "document_citation", "flag_for", "judgment_citation", "long_date",
           "now_clause", "order_reference", "pinpoints", "section_label", "statute_citation", "statute_citations",
           "VERIFIED"]
