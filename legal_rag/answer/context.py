"""What every answerer is given besides the question: the settings of this answer, the loaded resources and the
filters, already checked against the index."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..config import Settings
from ..resources import Resources

if TYPE_CHECKING:
    from ..retrieve import Filters


@dataclass(frozen=True)
class Context:
    """``settings``: this answer's (the generator chosen for it included); ``resources``: the loaded index, tables
    and case base (:class:`legal_rag.resources.Resources`); ``filters``: resolved (:func:`legal_rag.retrieve.filters.
    resolve`), or ``None``."""

    settings: Settings
    resources: Resources
    filters: Filters | None = None


__all__ = ["Context"]
