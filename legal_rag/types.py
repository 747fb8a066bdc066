"""Frozen data types that flow one way through the pipeline (see DESIGN.md, "The flow").

Every stage makes new objects with :func:`dataclasses.replace`; nothing here is mutated after creation.
Conventions used throughout:

* pages are 1-based, as a PDF viewer numbers them;
* character offsets are 0-based and half-open ``[start, end)``;
* scores: higher is better at every stage; ``Hit.stage`` names which score it is.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Literal, NewType, Union

#: Short codes of the Acts this project knows. Old codes first, then their successors.
ACTS: tuple[str, ...] = ("IPC", "CrPC", "IEA", "BNS", "BNSS", "BSA")
OLD_ACTS: frozenset[str] = frozenset({"IPC", "CrPC", "IEA"})
NEW_ACTS: frozenset[str] = frozenset({"BNS", "BNSS", "BSA"})
#: old code -> its successor (BNS s.358, BNSS s.531, BSA s.170 repeal and save the old codes).
SUCCESSOR_ACT: dict[str, str] = {"IPC": "BNS", "CrPC": "BNSS", "IEA": "BSA"}
PREDECESSOR_ACT: dict[str, str] = {v: k for k, v in SUCCESSOR_ACT.items()}

ACT_TITLES: dict[str, str] = {
    "IPC": "Indian Penal Code, 1860",
    "CrPC": "Code of Criminal Procedure, 1973",
    "IEA": "Indian Evidence Act, 1872",
    "BNS": "Bharatiya Nyaya Sanhita, 2023",
    "BNSS": "Bharatiya Nagarik Suraksha Sanhita, 2023",
    "BSA": "Bharatiya Sakshya Adhiniyam, 2023",
}

Severity = Literal["info", "warning", "error"]
#: what a document is (:mod:`legal_rag.ingest.doctype`): an Act's print, a court's judgment or order, or any other
#: document (a private note, a letter: no court, title or date), which is never called a judgment
DocKind = Literal["statute", "judgment", "document", "upload"]
#: what a court's decision (a :class:`Judgment` of kind ``"judgment"``) was issued as: a judgment, or an order (the
#: Supreme Court's orders of the day, a High Court's bail order). An order is cited as one: "Order of the Supreme
#: Court dated 19.05.2026 in SLP (Crl.) No. 1592/2026", never as a judgment
Decision = Literal["judgment", "order"]
#: how a user's upload (chunk kind ``"upload"``) is cited everywhere: in the answer, the citation panel and every
#: export, whatever the document claims to be
UPLOAD_LABEL = "uploaded document (unverified)"
#: what a :class:`SupersessionFlag` says (:mod:`legal_rag.law.supersede` emits each; see the class docstring)
FlagKind = Literal["superseded", "saved", "no_counterpart", "predates_new_code", "new_offence_retroactive",
                   "not_in_force", "ambiguous", "collision", "invalid"]
#: what verification found for a :class:`Citation` (``unchecked``: not yet verified, or no claim to check)
Support = Literal["supported", "unsupported", "unchecked"]
#: which score a :class:`Hit` carries: a retriever's (``dense``, ``sparse``), fused ``rrf``, a section ``lookup``,
#: or ``catalog`` (a pseudo-hit listing an indexed judgment, no score). A reranked hit's stage is
#: ``rerank:<model name>`` instead, made by :func:`rerank_stage`.
#: ``evidence``: the opening chunk of a section the section ranker chose (:mod:`legal_rag.retrieve.suggest`)
Stage = Literal["dense", "sparse", "rrf", "lookup", "catalog", "evidence"]
#: ``rerank:<model name>``: the stage of a hit the rerank stage scored (:func:`rerank_stage`)
RerankStage = NewType("RerankStage", str)
HitStage = Union[Stage, RerankStage]
#: the answer generators (``Settings.generator``): no model, or one of the LLM backends of
#: :mod:`legal_rag.generate.backends`
GeneratorName = Literal["extractive", "transformers", "llama_cpp", "openai_compatible"]
#: what a question asks (:func:`legal_rag.law.question.question_kind`): the law of an offence for facts, its
#: punishment, a definition, procedure, bail, evidence, a precedent, or a look-up of a named section
QuestionKind = Literal["offence", "procedure", "evidence", "precedent", "definition", "punishment", "bail", "lookup"]
#: what verification does with a sentence whose claim its passages do not support (``Settings.unsupported_claims``)
UnsupportedClaims = Literal["remove", "mark"]
#: what a notice above an answer is about: a date-shaped string that is no calendar date, words in a script the
#: sources are not written in, a follow-up read as a question about the previous turn's provision, the check of a
#: case citation named beside a section, filters that left no statute to search, a question about law the sources do
#: not hold, a number written without its Act that names sections in more than one code
NoticeKind = Literal["date", "language", "follow-up", "citation", "filters", "scope", "reading"]


def rerank_stage(model: str) -> RerankStage:
    """``rerank_stage("legal-minilm-ce@1a2b3c4d") -> "rerank:legal-minilm-ce@1a2b3c4d"``."""
    return RerankStage(f"rerank:{model}")


@dataclass(frozen=True, order=True)
class StatuteRef:
    """A reference to a section of an Act, at sub-section precision.

    ``StatuteRef("BNS", "318", ("4",))`` is BNS s.318(4); ``str()`` gives ``"BNS 318(4)"``.
    ``section`` keeps letters upper-case ("498A", "65B"); ``sub`` is the path of sub-section and clause
    labels as printed, without brackets.
    """

    act: str
    section: str
    sub: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.act} {self.section}{''.join(f'({s})' for s in self.sub)}"

    @property
    def base(self) -> "StatuteRef":
        """The whole section, without sub-section: ``BNS 318(4)`` -> ``BNS 318``."""
        return StatuteRef(self.act, self.section) if self.sub else self


@dataclass(frozen=True)
class Problem:
    """One entry of an ingest report: what went wrong (or is worth knowing), where.

    ``page`` is 1-based, or ``None`` when the problem concerns the whole file.
    ``kind`` is a short stable code (``encrypted``, ``no_text_layer``, ``legacy_hindi``, ``timeout``, ...).
    """

    source: str
    kind: str
    message: str
    page: int | None = None
    severity: Severity = "warning"

    def __str__(self) -> str:
        where = f"{self.source}" + (f" p.{self.page}" if self.page is not None else "")
        return f"[{self.severity}] {where}: {self.kind}: {self.message}"


@dataclass(frozen=True)
class Page:
    """The cleaned text of one page. ``number`` is 1-based; ``source`` is the file name (no directory)."""

    source: str
    number: int
    text: str
    skipped: bool = False  # True when the page has no usable text (scan, legacy-font Hindi); never indexed
    # Layout kept by ingest.pdf for the statute parser (all default empty for plain text):
    # ``line_y``: vertical position of each line of ``text`` (one per "\n"-separated line; units of the file's
    # text space, growing down the page); ``margin``: margin notes as ``(y, text)`` in the same units (section
    # titles of Gazette/Bill prints, Act citations such as "21 of 2000."); ``footnotes``: the page's footnote
    # block (amendment notes of Legislative Department prints), kept out of ``text``.
    line_y: tuple[float, ...] = ()
    margin: tuple[tuple[float, str], ...] = ()
    footnotes: str = ""


@dataclass(frozen=True)
class Section:
    """One section of an Act, with its full text (sub-sections, provisos, explanations, illustrations).

    ``pages`` is ``(first, last)``, 1-based, where the section is printed. ``status`` is ``"in_force"``,
    ``"omitted"`` or ``"repealed"`` as the printed text says; ``notes`` keeps footnotes and amendment notes
    apart from the text. ``page_starts`` holds ``(offset, page)`` pairs, ascending: ``text[offset:]`` is printed from
    ``page`` on, the first pair at offset 0 (``((0, 86), (1312, 87))``); ``()`` when not known (a structured copy).
    """

    ref: StatuteRef
    title: str
    text: str
    source: str
    pages: tuple[int, int]
    chapter: str = ""
    status: str = "in_force"
    notes: tuple[str, ...] = ()
    page_starts: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class ScheduleRow:
    """One row of Part I ("Offences under the ...") of a First Schedule, "Classification of offences": the BNSS
    First Schedule lists the offences of the BNS, the CrPC First Schedule those of the IPC
    (:mod:`legal_rag.ingest.schedules` parses both from the printed Acts).

    ``schedule`` is the procedure code whose schedule it is ("BNSS" or "CrPC"); ``act`` the code whose offence the
    row lists ("BNS" or "IPC"); ``section`` the first column as printed ("318(4)", "58(a)", "171-I"), ``ref`` its
    canonical reference (``StatuteRef("BNS", "318", ("4",))``, ``StatuteRef("IPC", "171I")``). A row printed
    without a number of its own (a further case of the section above, "If the offence be not committed")
    repeats the section above and has ``continued=True``. ``offence``, ``punishment`` and ``court`` are the
    columns' text; ``cognizable_text`` and ``bailable_text`` columns 4 and 5. Every "Ditto" is resolved to the
    row above as the schedule means it, and ``ditto`` names the columns (2-6, as numbered in the schedule) that
    read "Ditto". ``cognizable`` / ``bailable``: True or False as the column says; None where it depends on
    another offence ("According as offence abetted is cognizable or non-cognizable") or says both.
    ``source`` is the PDF's file name, ``page`` the 1-based PDF page where the row begins, ``row`` its 1-based
    position in the schedule.
    """

    schedule: str
    act: str
    section: str
    ref: StatuteRef
    offence: str
    punishment: str
    cognizable: bool | None
    bailable: bool | None
    court: str
    cognizable_text: str
    bailable_text: str
    source: str
    page: int
    row: int
    continued: bool = False
    ditto: tuple[int, ...] = ()


@dataclass(frozen=True)
class ScheduleText:
    """Text an Act prints after its last section that is no section's (:mod:`legal_rag.ingest.schedule_text`): a
    Schedule (BNSS First Schedule, "Classification of offences"; the BSA's Schedule, the certificate of s.63(4)(c)),
    one form of a Schedule of forms (BNSS Second Schedule, Form No. 1), or an appendix (the CrPC print's extracts of
    the Code of Criminal Procedure (Amendment) Act, 2005). It is cited as itself (:attr:`citation`), never as the
    last section, and is not indexed as a passage: the First Schedules' rows reach answers as
    :class:`ScheduleRow` data, with their page.

    ``act`` is the Act's code; ``part`` the heading as cited ("First Schedule", "Second Schedule", "Schedule",
    "Appendix"); ``form`` the form's number as printed ("1", "44A"; "" for none); ``title`` the printed heading in
    sentence case ("Classification of offences", "Notice for appearance by the police"; "" when none is printed);
    ``see`` the provision the heading refers to, as printed ("section 35(3)"; ""); ``text`` the printed lines in
    reading order, headings included (a Gazette print's margin notes put back by their position); ``source`` the
    PDF's file name; ``pages`` ``(first, last)``, 1-based.

    >>> ScheduleText("BNSS", "First Schedule", "Classification of offences", "...", "bnss.pdf", (158, 189)).citation
    'BNSS, First Schedule (Classification of offences), pp. 158-189'
    """

    act: str
    part: str
    title: str
    text: str
    source: str
    pages: tuple[int, int]
    form: str = ""
    see: str = ""

    @property
    def label(self) -> str:
        """``"BNSS, Second Schedule, Form No. 1 (Notice for appearance by the police)"``: Act, part, form, title."""
        head = ", ".join(x for x in (self.act, self.part, f"Form No. {self.form}" if self.form else "") if x)
        return head + (f" ({self.title})" if self.title else "")

    @property
    def citation(self) -> str:
        """:attr:`label` and its pages: ``"BSA, Schedule (Certificate), pp. 46-47"``, ``"..., p. 190"``."""
        a, b = self.pages
        return f"{self.label}, " + (f"p. {a}" if a == b else f"pp. {a}-{b}")


@dataclass(frozen=True)
class Judgment:
    """Metadata of one judgment or order. ``date`` is ISO ``YYYY-MM-DD`` (or ``""`` when not found).

    ``kind`` is ``"document"`` for a text read the same way that is no court's judgment (an uploaded private note:
    no court, title or date; :func:`legal_rag.ingest.doctype.classify`); its chunks are of that kind."""

    case_id: str
    title: str
    court: str
    date: str
    source: str
    citations: tuple[str, ...] = ()  # neutral and reporter citations, e.g. "2024 INSC 479", "[2024] 7 S.C.R. 97"
    case_numbers: tuple[str, ...] = ()
    pages: int = 0
    kind: DocKind = "judgment"
    #: ``(PDF page number, printed page number)`` per page of a law report's print (its running heads:
    #: :mod:`legal_rag.ingest.printed_pages`); ``()`` for a print without page numbers of its own
    printed_pages: tuple[tuple[int, int], ...] = ()
    #: issued as a judgment or an order (:data:`Decision`), as the text calls itself
    decision: Decision = "judgment"
    #: the judges as printed ("Rajeev Misra"; the Supreme Court's CORAM), ``()`` where the print names none
    bench: tuple[str, ...] = ()
    #: where in ``source`` the decision sits when the source holds many: the archive member
    #: (``legal_ai_toolkit/.../CRIMINAL_101253596.txt``), or the day's log and its row of the table of contents
    #: (``archive/2026-05-25.md, item 306``); ``""`` for a source that is one decision
    within: str = ""

    @property
    def year(self) -> str:
        """``"2024"`` from ``date`` (``""`` when the date is unknown)."""
        return self.date[:4]


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of a judgment. ``number`` is the printed paragraph number ("" when unnumbered)."""

    case: str
    number: str
    text: str
    source: str
    pages: tuple[int, int]
    cites: tuple[StatuteRef, ...] = ()


@dataclass(frozen=True)
class Chunk:
    """The unit that is embedded, indexed and cited.

    ``id`` is deterministic and readable (``BNS-318-0-<sha8>``): re-ingesting unchanged text yields the same id.
    Exactly one of ``ref`` (statutes) and ``case`` (judgments and other documents) is set. ``part`` is 0-based of ``parts``.
    ``span`` is the ``[start, end)`` character range of ``text`` inside the section or judgment text.
    """

    id: str
    kind: DocKind
    text: str
    title: str
    source: str
    pages: tuple[int, int]
    part: int = 0
    parts: int = 1
    ref: StatuteRef | None = None
    case: str | None = None
    span: tuple[int, int] = (0, 0)
    meta: tuple[tuple[str, str], ...] = ()  # extra metadata (court, date, year, chapter, ...), sorted pairs


@dataclass(frozen=True)
class Hit:
    """A chunk with the score one stage gave it. ``rank`` is 1-based within that stage's list."""

    chunk: Chunk
    score: float
    stage: HitStage  # a Stage name, or "rerank:<model>" (rerank_stage)
    rank: int


@dataclass(frozen=True)
class Citation:
    """One ``[n]`` in an answer resolved to the passage it names and the sentence that cites it."""

    marker: int
    chunk_id: str
    ref: StatuteRef | None
    source: str
    pages: tuple[int, int]
    sentence: str
    support: Support
    quote: str = ""
    weight: float | None = None
    #: the cited provision does not answer the question asked (:mod:`legal_rag.generate.relevance`): it stands in
    #: the answer's "Related provisions" part, not quoted as the answer
    related: bool = False
    #: the cited words are a statute's quoted inside a judgment passage: the label saying they are the judgment's
    #: words of its date, never the statute (:func:`legal_rag.law.judgment_words`); "" otherwise
    judgment_words: str = ""


#: what a citation of a statute whose source has no printed pages says instead of a page (the Indian Evidence Act,
#: read from a machine-readable conversion: ``corpora/manifest.toml``, "No official IEA PDF in the corpus")
NO_PRINT_NOTE = "no official print in the sources: page not given"


def has_print(kind: str, pages: tuple[int, int]) -> bool:
    """Whether a statute passage's ``pages`` name a page of an official print: ``False`` for ``(0, 0)``, the pages
    ingest gives a section read from a structured (JSON/CSV) conversion, which has none. Other kinds: ``True``.

    >>> has_print("statute", (0, 0)), has_print("statute", (87, 87))
    (False, True)
    """
    return kind != "statute" or pages[0] > 0


@dataclass(frozen=True)
class SupersessionFlag:
    """A superseded reference and what replaced it, from an official correspondence table row.

    ``found_in`` is ``"query"``, ``"passage:<chunk id>"`` or ``"answer"``; ``applies`` says which code governs
    given the offence date ("IPC" for an offence before 1 July 2024 under BNS s.358 savings, else "BNS").
    ``source_row`` is ``"<file>#<row>"`` of the table. ``kind`` says what the flag is: ``superseded`` (an old-code
    reference whose successor governs), ``saved`` (old code still governs by the offence/proceeding date),
    ``no_counterpart``, ``predates_new_code`` / ``new_offence_retroactive`` (a new-code reference applied to an
    earlier act), ``not_in_force``, ``ambiguous`` (no Act named), ``collision`` (same number, other meaning) or
    ``invalid`` (no such section). Only ``superseded`` and ``no_counterpart`` mean "this reference is repealed".
    """

    old: StatuteRef
    new: tuple[StatuteRef, ...]
    found_in: str
    applies: str
    note: str
    source_row: str
    kind: FlagKind = "superseded"


@dataclass(frozen=True)
class SectionSuggestion:
    """One suggested section, with why.

    ``ref`` at section level; ``score`` the fused score (comparable within one question); ``n_cases`` of the
    ``top_n`` most similar judgments cite it (after mapping to the era), ``cases`` their ids, most similar first;
    ``direct_rank``: 1-based rank of the section by its own text (after bridging), None when the text search did not
    reach it; ``counterparts``: its predecessors (new code) or successors (old code) by the official table;
    ``cited_as``: the limb the section ranker chose (:mod:`legal_rag.rank`), else ``ref``;
    ``titles``: the case titles of ``cases``; ``p``: the section ranker's ``P(governs)`` (:mod:`legal_rag.rank`),
    None for a suggestion of the case base alone."""

    ref: StatuteRef
    score: float
    n_cases: int
    cases: tuple[str, ...]
    top_n: int
    direct_rank: int | None
    counterparts: tuple[StatuteRef, ...] = ()
    cited_as: StatuteRef | None = None
    titles: tuple[str, ...] = ()
    p: float | None = None

    def why(self) -> str:
        """``"ranker 0.82; applied in 14 of the 50 most similar judgments; text match 3"``."""
        parts = [f"ranker {self.p:.2f}"] if self.p is not None else []
        if self.n_cases:
            parts.append(f"applied in {self.n_cases} of the {self.top_n} most similar judgments")
        if self.direct_rank is not None:
            parts.append(f"text match {self.direct_rank}")
        return "; ".join(parts) or "no evidence"


@dataclass(frozen=True)
class HeadLine:
    """One line of an answer's composed head (:func:`legal_rag.generate.head.compose_head`): the provision that
    governs, built from structured data only, never generated.

    ``ref`` is the governing provision; ``counterparts`` the other side of its pair by the official BPR&D table
    (successors of an old-code ref, predecessors of a new-code one; ``()`` when the table names none);
    ``status`` the table's answer for the pair (``mapped``, ``new_provision``, ``no_counterpart``, ``""``: not in
    the tables); ``line`` the text shown ("BNS 318(4) (formerly IPC 420) -- Cheating: ...; cognizable, ...
    [First Schedule, BNSS, p. 183]."); ``rule`` the date rule in words ("No offence date given: ..."); ``sources``
    where each part came from ("First Schedule, BNSS, p. 183", "BPRD_correspondence_BNS_to_IPC_clean.csv#453");
    ``rows`` the First Schedule rows quoted."""

    ref: StatuteRef
    line: str
    rule: str = ""
    counterparts: tuple[StatuteRef, ...] = ()
    status: str = ""
    sources: tuple[str, ...] = ()
    rows: tuple[ScheduleRow, ...] = ()

    @property
    def text(self) -> str:
        """The line and its date rule as the answer shows them."""
        return f"{self.line} {self.rule}".strip()


@dataclass(frozen=True)
class Notice:
    """A sentence shown above an answer, about how the question was read (``kind``, :data:`NoticeKind`): data the
    interfaces and exports render (:func:`legal_rag.export.answer_text`), never part of the verified ``text``."""

    kind: NoticeKind
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Answer:
    """What the pipeline answers: ``text`` cites ``passages`` by markers, ``[n]`` = ``passages[n-1]``, numbered in
    order of first appearance (``[1]`` is the first passage the text cites; the passages it does not cite follow:
    :func:`legal_rag.answer.finish.in_reading_order`); each of ``citations`` carries its marker. The screen and every
    export number their notes by these markers; ``prompt`` keeps the numbers the generator was given."""

    query: str
    text: str
    citations: tuple[Citation, ...] = ()
    flags: tuple[SupersessionFlag, ...] = ()
    problems: tuple[str, ...] = ()
    passages: tuple[Hit, ...] = ()
    model: str = ""
    prompt: str = ""
    index_id: str = ""
    #: for a question that names no provision, the section ranker's candidates (:mod:`legal_rag.rank`), best first,
    #: each at its chosen limb; ``()`` otherwise
    suggestions: tuple[SectionSuggestion, ...] = ()
    #: the composed head (:func:`legal_rag.generate.head.compose_head`): one line per governing provision, built
    #: from the question analysis, the official table and the First Schedules; ``text`` opens with it
    head: tuple[HeadLine, ...] = ()
    #: a language model's prompt size in its tokens, and how many of them it kept from an earlier call (prefix
    #: cache) instead of prefilling them; 0 for the extractive generator or when unknown
    prompt_tokens: int = 0
    cached_tokens: int = 0
    #: how the question was read, shown above ``text`` (a follow-up's provision, a date not read, ...), in order
    notices: tuple[Notice, ...] = ()
    #: the dates the answer applied, from the question's one analysis (a date argument, else the question's own
    #: dates by their cue words): the offence date decides the substantive code, the proceeding date procedure and
    #: evidence; ``None`` where none is known
    offence_date: dt.date | None = None
    proceeding_date: dt.date | None = None


#: the generator name of the extractive generator's quotes (``Draft.generator``, ``Answer.model``): alone, or after
#: a language model's name when its answer was replaced by quotes (``"llama_cpp:<model>+extractive"``)
EXTRACTIVE = "extractive"


def is_extractive(generator: str) -> bool:
    """Whether ``generator`` (``Draft.generator``, ``Answer.model``) names the extractive generator's answer:
    exactly :data:`EXTRACTIVE`, or ``"<model's name>+extractive"`` (the model's answer replaced by quotes)."""
    return generator == EXTRACTIVE or generator.endswith("+" + EXTRACTIVE)


@dataclass(frozen=True)
class Draft:
    """A generated answer before citation parsing and verification (``generate.generate`` -> ``cite`` ->
    ``verify``).

    ``passages`` are exactly those given to the generator, ``[n]`` naming ``passages[n-1]``; ``dropped`` were
    retrieved but left out, whole, to fit the model's context window. ``abstained`` is True when the answer is
    "the sources do not contain it" and nothing was generated. ``found_nothing`` is True when ``text`` is the plain
    statement that the sources do not contain the answer and no more: no passage answers (none cleared the relevance
    floor, none held a quotable sentence, none fitted the prompt, or a language model said so and no passage could
    be quoted instead); an abstention that names what is missing (a judgment, a section) is not. ``flagged`` holds
    ids of given chunks whose text contains instructions (treated as data). ``weights`` is the RAG-Sequence
    posterior p(z|x,y) per passage, ``()`` when not computed. Times in seconds; ``ttft_s`` is the time to the first token (``None`` when not
    streamed). ``cached_tokens``: of ``prompt_tokens``, those the backend kept from an earlier call (prefix cache).
    """

    question: str
    text: str
    passages: tuple[Hit, ...] = ()
    dropped: tuple[Hit, ...] = ()
    abstained: bool = False
    generator: str = ""
    prompt: str = ""
    prompt_tokens: int = 0
    cached_tokens: int = 0
    flagged: tuple[str, ...] = ()
    weights: tuple[float, ...] = ()
    problems: tuple[str, ...] = ()
    ttft_s: float | None = None
    total_s: float = 0.0
    found_nothing: bool = False

    @property
    def extractive(self) -> bool:
        """Whether the extractive generator wrote this draft (:func:`is_extractive` of ``generator``)."""
        return is_extractive(self.generator)


@dataclass(frozen=True)
class IngestReport:
    """What an ingest run did: per-file counts and every problem found, by file and page."""

    files: tuple[str, ...] = ()
    pages: int = 0
    sections: tuple[tuple[str, int], ...] = ()  # (act, count)
    judgments: int = 0
    paragraphs: int = 0
    problems: tuple[Problem, ...] = ()
    failed: tuple[str, ...] = ()  # files that produced nothing (errors)
    documents: int = 0  # other documents (kind "document": notes and the like), never counted as judgments
    #: (act, count) of the :class:`ScheduleText` units set apart from the sections (schedules, forms, appendices)
    schedules: tuple[tuple[str, int], ...] = ()
    extra: dict = field(default_factory=dict, compare=False, hash=False)
    #: what a source held and was not taken, tallied: ``(source file, reason, count)`` (a duplicate, a civil order)
    skipped: tuple[tuple[str, str, int], ...] = ()
    #: the court decisions counted: ``(facet, value, count)``, facet ``read`` (a source holding many: decisions found
    #: in it, copies included), then of those taken ``source``, ``court``, ``year`` and ``decision`` (judgment / order)
    counts: tuple[tuple[str, str, int], ...] = ()


def statute_heading(act: str, section: str, title: str) -> str:
    """Heading line of a statute chunk.

    ``statute_heading("BNS", "318", "Cheating.") -> "BNS 318 (Bharatiya Nyaya Sanhita, 2023): Cheating."``
    """
    name = ACT_TITLES.get(act)
    return f"{act} {section}" + (f" ({name})" if name else "") + (f": {title}" if title else "")


def passage_text(chunk: Chunk) -> str:
    """The passage as shown and budgeted: a heading line (act, section and title, or the case title with court and
    date), a newline, then ``chunk.text``. Chunking budgets tokens on this string; what is embedded, BM25-indexed
    and hashed is :func:`legal_rag.injection.index_text`, this string with instruction sentences blanked."""
    if chunk.ref is not None:
        head = statute_heading(chunk.ref.act, chunk.ref.section, chunk.title)
    else:
        meta = dict(chunk.meta)
        extra = ", ".join(x for x in (meta.get("court", ""), meta.get("date", "")) if x)
        head = chunk.title + (f" ({extra})" if extra else "")
    return f"{head}\n{chunk.text}"
