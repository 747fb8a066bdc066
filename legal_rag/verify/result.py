"""What verification returns: a failed check (:class:`Failure`), the verdict on one sentence
(:class:`SentenceCheck`) and on a whole draft (:class:`Verification`).

A :class:`Failure` is typed by its check's name (:data:`CheckName`, the names of the table
:data:`legal_rag.verify.checks.CHECKS`, in its order); ``str(failure)`` is the reason the reader is shown (the
answer's ``⟨unsupported: ...⟩`` mark, ``Answer.problems``, the exports), written from :data:`WORDING`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: the checks of :data:`legal_rag.verify.checks.CHECKS`, in the table's order
CheckName = Literal["no citation", "cites passages not given", "quote", "section", "punishment",
                    "other-act punishment", "number", "punishment part", "reversed verdict", "overlap"]
#: what verification says of a sentence: a claim ``supported`` or ``unsupported`` by its cited passages; not a claim:
#: ``abstention`` (our own "the sources do not contain it"), ``empty`` (no word), ``heading`` (a cited passage's
#: heading, title or block label written as a sentence)
SentenceStatus = Literal["supported", "unsupported", "abstention", "empty", "heading"]

#: check -> the reason shown to the reader; ``{detail}`` and ``{where}`` are the :class:`Failure`'s fields
WORDING: dict[str, str] = {
    "no citation": "no [n] citation",
    "cites passages not given": "cites only passages not given",
    "quote": "quote not in the cited text: \u201c{detail}\u201d",
    "section": "{detail} is not the cited passage's",
    "punishment": "punishment not in the cited text: {detail}",
    "other-act punishment": "punishment stated for a section of the {detail}, whose text is not cited",
    "number": "number not in the cited text: {detail}",
    "punishment part": "punishment not printed for the part it describes ({where}): {detail}",
    "reversed verdict": "the cited passage says this is not {detail}: \u201c{where}\u201d",
    "overlap": "only {detail} of its words occur in the cited text",
}


@dataclass(frozen=True)
class Failure:
    """One check a sentence failed. ``check``: its name; ``detail``: what failed (the quote, at most 60
    characters; the section as stated, "section BNS 318(4)"; the Acts named; the terms or numbers not found, ", "
    joined; the offence the passage says it is not; the share of words found, "40%"); ``where``: the part of the
    cited text concerned ("BNS 309(4)" for ``punishment part``; the Illustration, at most 90 characters, for
    ``reversed verdict``); ``""`` for the others."""

    check: CheckName
    detail: str = ""
    where: str = ""

    def __str__(self) -> str:
        return WORDING[self.check].format(detail=self.detail, where=self.where)


@dataclass(frozen=True)
class SentenceCheck:
    """The verdict on one sentence (``sentence``: its text without markers). ``failures``: the checks it failed,
    in the table's order (``()`` unless ``status`` is ``unsupported``). ``moved_from``: the markers the generator
    wrote, when re-attribution moved them to ``markers``; else ``()``."""

    sentence: str
    markers: tuple[int, ...]
    status: SentenceStatus
    failures: tuple[Failure, ...] = ()
    moved_from: tuple[int, ...] = ()

    @property
    def reasons(self) -> tuple[str, ...]:
        """The failures as the reader is shown them (``str`` of each)."""
        return tuple(map(str, self.failures))


@dataclass(frozen=True)
class Verification:
    """``text`` is what ships; ``citations`` carry ``support``; ``removed`` lists sentences taken out; ``withheld``:
    no sentence of a draft that did not abstain was left, and ``text`` says the answer was withheld
    (:data:`legal_rag.verify.ship.WITHHELD`)."""

    text: str
    citations: tuple
    checks: tuple[SentenceCheck, ...]
    removed: tuple[SentenceCheck, ...] = ()
    problems: tuple[str, ...] = ()
    withheld: bool = False

    @property
    def supported_share(self) -> float:
        """Share of claim sentences (not abstentions or empty lines) that were supported; 1.0 when none."""
        claims = [c for c in self.checks if c.status in ("supported", "unsupported")]
        return sum(c.status == "supported" for c in claims) / len(claims) if claims else 1.0
