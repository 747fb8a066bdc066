"""The legal core: citation grammar, the official correspondence tables, supersession flags and look-up.

Front doors::

    find_refs("u/s 498-A IPC")                 -> (FoundRef(ref=IPC 498A, status="ok", ...),)
    load_concordance().successors(IPC 420)      -> Correspondence(status="mapped", targets=(BNS 318(4),), ...)
    load_concordance().counterparts(IPC 420)    -> (BNS 318(4),)
    flag_superseded(refs, "query", "2024-06-20") -> (SupersessionFlag(kind="saved", applies="IPC", ...),)
    lookup("IPC 420")                           -> LookupResult(status="ok", correspondence=..., ...)
    find_case_titles("Did Ramesh v. State of U.P. decide it?") -> (CaseTitle("Ramesh", "State of U.P.", ...),)
    classify("BNS 318(4)", schedule)            -> (ScheduleRow(section="318(4)", cognizable=True, bailable=False, ...),)
    analyse("Is IPC 420 bailable?")             -> QuestionAnalysis(refs=(QuestionRef(IPC 420, ...),), ...)

Every name another stage uses is imported from here (``from ..law import X``), never from a submodule; the
submodules hold the rules and their sources. Importing this package reads no file (the tables load on the first
:func:`load_concordance`) and loads only the grammar, the tables' code and what they need; the names of
:data:`_LAZY` load their submodule on first use (PEP 562 module ``__getattr__``).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from .align import LABEL, Alignment, align, division_text
from .bare import RULE as BARE_RULE, BareNumber, BareReading, bare_numbers, order_readings
from .cases import (
    CITATION_FORMS, ROLE_RE, CaseReference, CaseTitle, case_references, clean_party, find_case_titles,
    is_versus_line, judgment_reference, order_citations, split_title, title_in, versus_in,
)
from .classify import CLASSIFICATION_Q, Schedule, classify, counterpart_rows, describe, read_plain_number
from .concordance import Concordance, Correspondence, Level, build_concordance, load_concordance
from .concordance_tables import (
    BNS_IPC_FILE, BSA_IEA_FILE, DERIVED_FILE, PAIRS_FILE, Pair, TableRow, read_bnss_subjects,
)
from .lookup import LookupResult, format_lookup, lookup, missing_division
from .pinpoint import (
    BLOCK, SUB, chunk_layout, format_page_map, layout, locate, open_state, pages_of, pin, printed, span_pages,
)
from .refs import (
    LAST_SECTION, FoundRef, SectionSets, default_section_sets, find_refs, find_refs_within, parse_ref, quote_regions,
    refs_of,
)
from .refs_patterns import ALIAS_RE, CONSTITUTION
from .judgment_words import STATUTE_WORDING, judgment_label, judgment_words, judgment_words_note, quoted_act, statute_wording
from .supersede import CUTOFF, NOT_IN_FORCE, dedupe_flags, flag_superseded

if TYPE_CHECKING:
    from .citation_lookup import (
        CaseRecord, CitationCheck, MetaRecord, case_id_citations, check_citation, citation_key, index_records,
        names_agree, record_named, titles_for,
    )
    from .courts import COURTS, Court, JudgmentConstraint, court_named, read_constraint, same_court
    from .dates import first_date, impossible_dates
    from .followup import CUES, NO_PREVIOUS, Turn, answer_turn, cues, is_followup, own_matter, resolve_followup, turn_of
    from .read import Previous, Question, Route, date_notice, read_input, read_question
    from .judgment_questions import JudgmentTask, judgment_task
    from .normalise import language_notice, normalise_input, shown_refused, too_long, unread_script
    from .question import QuestionAnalysis, analyse
    from .scope import GENERIC_WORDS, Part, about, longest_run, parts, printed_for, punishing

#: submodule -> the names it serves through this package on first use (the same names as the TYPE_CHECKING block)
_LAZY: dict[str, tuple[str, ...]] = {
    # a judgment citation checked against the metadata
    "citation_lookup": ("CaseRecord", "CitationCheck", "MetaRecord", "case_id_citations", "check_citation",
                        "citation_key", "index_records", "names_agree", "record_named", "titles_for"),
    # courts and years: a judgment's court, and the court and years a judgment question asks for
    "courts": ("COURTS", "Court", "JudgmentConstraint", "court_named", "read_constraint", "same_court"),
    "dates": ("first_date", "impossible_dates"),
    # a question read against the previous turn
    "followup": ("CUES", "NO_PREVIOUS", "Turn", "answer_turn", "cues", "is_followup", "own_matter", "resolve_followup",
                 "turn_of"),
    "judgment_questions": ("JudgmentTask", "judgment_task"),
    # the question's text before parsing
    "normalise": ("language_notice", "normalise_input", "shown_refused", "too_long", "unread_script"),
    # the one analysis of a question
    "question": ("QuestionAnalysis", "analyse"),
    # a question read once, and its route
    "read": ("Previous", "Question", "Route", "date_notice", "read_input", "read_question"),
    # what a provision's text covers (the claim checks' vocabulary)
    "scope": ("GENERIC_WORDS", "Part", "about", "longest_run", "parts", "printed_for", "punishing"),
}
_LAZY_HOME = {name: module for module, names in _LAZY.items() for name in names}


def __getattr__(name: str):
    """A name of :data:`_LAZY`, imported from its submodule on first use and kept here; AttributeError else."""
    module = _LAZY_HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY_HOME))


__all__ = [
    # align: the finer old-code division a new-code text matches
    "LABEL", "Alignment", "align", "division_text",
    # bare: a number written without its Act, its readings and their order
    "BARE_RULE", "BareNumber", "BareReading", "bare_numbers", "order_readings",
    # cases: case titles and judgment references
    "CITATION_FORMS", "ROLE_RE", "CaseReference", "CaseTitle", "case_references", "clean_party", "find_case_titles",
    "is_versus_line", "judgment_reference", "order_citations", "split_title", "title_in", "versus_in",
    # classify: the First Schedule rows
    "CLASSIFICATION_Q", "Schedule", "classify", "counterpart_rows", "describe", "read_plain_number",
    # concordance and its tables: the BPR&D correspondence
    "Concordance", "Correspondence", "Level", "build_concordance", "load_concordance",
    "BNS_IPC_FILE", "BSA_IEA_FILE", "DERIVED_FILE", "PAIRS_FILE", "Pair", "TableRow", "read_bnss_subjects",
    # lookup: one provision, its pair and its rows
    "LookupResult", "format_lookup", "lookup", "missing_division",
    # pinpoint: a chunk's printed layout and pages
    "BLOCK", "SUB", "chunk_layout", "format_page_map", "layout", "locate", "open_state", "pages_of", "pin", "printed",
    "span_pages",
    # refs: the citation grammar
    "LAST_SECTION", "FoundRef", "SectionSets", "default_section_sets", "find_refs", "find_refs_within", "parse_ref",
    "quote_regions", "refs_of", "ALIAS_RE", "CONSTITUTION",
    # supersede: the 1 July 2024 flags
    "CUTOFF", "NOT_IN_FORCE", "dedupe_flags", "flag_superseded",
    # judgment_words: a statute's words quoted in a judgment, cited as the judgment's of its date
    "STATUTE_WORDING", "judgment_label", "judgment_words", "judgment_words_note", "quoted_act", "statute_wording",
    *_LAZY_HOME,
]
