"""The official counterparts of a section, as the section check reads them (:data:`~legal_rag.verify.claim.
Equivalents`): the BPR&D correspondence tables (:mod:`legal_rag.law`)."""

from __future__ import annotations

from ..errors import ConfigError, CorpusError
from ..law import load_concordance
from ..types import StatuteRef
from .claim import Equivalents


def law_equivalents(corpus_path=None) -> Equivalents | None:
    """Official successors/predecessors from the BPR&D correspondence tables (:mod:`legal_rag.law`): only
    rows with status ``mapped`` count (a "New" provision or a table silence has no equivalent). ``None`` when
    the tables cannot be read (CorpusError: missing or malformed under ``corpus_path``; ConfigError: bad
    settings); :func:`~legal_rag.verify.verify` then says so in ``problems``."""
    try:
        conc = load_concordance(corpus_path)
    except (CorpusError, ConfigError):
        return None

    def equivalents(ref: StatuteRef) -> set[StatuteRef]:
        return set(conc.counterparts(ref))

    return equivalents
