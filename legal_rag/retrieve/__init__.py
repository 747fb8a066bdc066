"""Retrieval: section look-up, dense and sparse search, reciprocal rank fusion, optional MMR.

Front door: :func:`retrieve` ``(query, index, settings, filters=None) -> tuple[Hit, ...]``.
"""

from .filters import Filters
from .fusion import cap_per_doc, dedupe, rrf
from .search import dense_hits, lookup_hits, retrieve, search, sparse_hits
from .sectionrefs import query_refs
from .successors import with_successors

__all__ = ["retrieve", "search", "dense_hits", "sparse_hits", "lookup_hits", "rrf", "dedupe", "cap_per_doc",
           "Filters", "query_refs", "with_successors"]
