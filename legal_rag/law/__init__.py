"""The legal core: citation grammar, the official correspondence tables, supersession flags and look-up.

Front doors::

    find_refs("u/s 498-A IPC")                 -> (FoundRef(ref=IPC 498A, status="ok", ...),)
    load_concordance().successors(IPC 420)      -> Correspondence(status="mapped", targets=(BNS 318(4),), ...)
    flag_superseded(refs, "query", "2024-06-20") -> (SupersessionFlag(kind="saved", applies="IPC", ...),)
    lookup("IPC 420")                           -> LookupResult(status="ok", correspondence=..., ...)
    find_case_titles("Did Ramesh v. State of U.P. decide it?") -> (CaseTitle("Ramesh", "State of U.P.", ...),)
    classify("BNS 318(4)", schedule)            -> (ScheduleRow(section="318(4)", cognizable=True, bailable=False, ...),)
"""

from .cases import CaseTitle, find_case_titles, title_in
from .classify import Schedule, classify, counterpart_rows, describe
from .concordance import Concordance, Correspondence, build_concordance, load_concordance
from .concordance_tables import Pair, TableRow
from .lookup import LookupResult, format_lookup, lookup
from .refs import LAST_SECTION, FoundRef, SectionSets, default_section_sets, find_refs, parse_ref, refs_of
from .supersede import CUTOFF, NOT_IN_FORCE, dedupe_flags, flag_superseded

__all__ = [
    "CUTOFF", "CaseTitle", "Concordance", "Correspondence", "FoundRef", "LAST_SECTION", "LookupResult", "NOT_IN_FORCE", "Pair",
    "Schedule", "SectionSets", "TableRow", "build_concordance", "classify", "counterpart_rows", "describe",
    "default_section_sets", "find_refs", "dedupe_flags", "flag_superseded",
    "find_case_titles", "format_lookup", "load_concordance", "lookup", "parse_ref", "refs_of", "title_in",
]
