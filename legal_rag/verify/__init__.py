"""Check every sentence of a draft answer against the passages it cites; remove (or mark) what fails.

Front door: :func:`verify` (a :class:`~legal_rag.types.Draft` -> :class:`Verification`). A sentence is first given
a status when it is no claim (:mod:`.status`: ``empty``, ``abstention``, ``heading``); every other sentence is
**supported** when it fails none of the checks of :data:`CHECKS`, run in the table's order, each
``(Claim, Evidence) -> tuple[Failure, ...]`` (:mod:`.checks`). The :class:`Claim` is the sentence read once (sections
stated, quotes, punishment terms, numbers, content words); the :class:`Evidence` is the text of its cited passages
(heading included; sentences addressed to a model excluded, since planted instructions are not evidence, field case
BL-41) with the official counterparts of a section (BPR&D correspondence tables, :func:`law_equivalents`) and the
whole sections the cited chunks belong to. The table, in order:

``no citation``, ``cites passages not given``
    the sentence cites at least one passage that was given to the generator; every later check needs it;
``quote``
    every quoted span occurs verbatim in one cited passage (normalised spacing and quotes; ``...`` splits a quote
    into fragments that must occur in order); the sections named inside a quote are checked by the quote;
``section``
    every section it states (read by the citation grammar, :func:`legal_rag.law.find_refs`: the Act it names, or any
    Act when it names none; an Article of the Constitution is never a statute passage's) is the cited passage's own
    section (sub-section included when stated), its official successor/predecessor, or a section the passage itself
    names; for a judgment passage, a section the passage mentions with the same Act;
``punishment``
    every punishment term it states (``7 year``, ``life``, ``death``, ``fine``, ``fine:<rupees>``;
    :func:`~legal_rag.text.punishment_terms`) occurs in the cited text;
``other-act punishment``
    a punishment is not stated for a section of an Act no cited passage is of ("Under section 304A of the IPC ..."
    cited to BNS 106(1)): the old and new Acts print different punishments;
``number``
    every other number it states occurs in the cited text;
``punishment part``
    (only when ``number`` and ``punishment`` passed) when the cited statute passages are of one section, or of
    several and the sentence names one of them, every punishment term is printed for **the part of that section it
    describes** (:mod:`.scope`, :mod:`legal_rag.law.scope`);
``reversed verdict``
    a sentence without a negation does not state as an offence what a cited statute passage says is *not* that
    offence (:mod:`.verdict`: BNS 309 Illustration (d), "... but it is not robbery");
``overlap``
    at least ``min_overlap`` of its content words occur in the cited text (a guard against fluent filler).

Each failure is a :class:`Failure` typed by its check's name; ``str(failure)`` is the reason the reader is shown.
With ``reattribute=True`` a failing statute sentence may keep its words with its marker moved to other given chunks
of its section (:mod:`.reattribute`). The text that ships is built by :mod:`.ship`.

**What the checks cannot see** (lexical, not legal reading; the strict xfails of
``tests/verify/test_part_rule_real.py``): a condition printed after its punishment ("... or with imprisonment which
may extend to ten years, if the act is done with the knowledge ...", BNS 105), paraphrase ("house-breaking at
night" against 331's "after sunset and before sunrise"), an aggravated form named inside the definition it aggravates
(329(4)'s house-trespass inside 329(2)), a stemmer that reads "delivery" and "deliver" as two words, a sentence that
repeats a definition's words and names one aggravated form (316(3)'s carrier: it must then carry the definition's
punishment, 316(2)'s five years, too, so the true seven years is removed), and clause lists the layout misreads
(BNSS 35(1), CrPC 41(1)). Re-attribution adds none of these: each passes or fails the same with it on and off.
"""

from __future__ import annotations

from .checks import CHECKS, Check, check_claim, failures
from .claim import MIN_OVERLAP, Claim, Equivalents, Evidence, Sections, stated_refs, support_text
from .draft import verify
from .equivalents import law_equivalents
from .finish import answer_refs, arrange_answer, relevant, to_answer
from .reattribute import VERBATIM_MIN_WORDS, VERBATIM_SHARE, reattributed, verbatim_move
from .result import WORDING, CheckName, Failure, SentenceCheck, SentenceStatus, Verification
from .status import is_abstention, is_heading

__all__ = ["verify", "Verification", "SentenceCheck", "SentenceStatus", "Failure", "CheckName", "WORDING",
           "CHECKS", "Check", "check_claim", "failures", "Claim", "Evidence", "Equivalents", "Sections",
           "MIN_OVERLAP", "stated_refs", "support_text", "law_equivalents", "reattributed", "verbatim_move",
           "VERBATIM_SHARE", "VERBATIM_MIN_WORDS", "is_heading", "is_abstention", "answer_refs", "to_answer",
           "relevant", "arrange_answer"]
