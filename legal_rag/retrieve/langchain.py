"""LangChain adapter: our retriever as a ``langchain_core`` ``BaseRetriever`` returning ``Document``s.

``Document.page_content`` is the chunk text; ``metadata`` holds ``chunk_id`` (stable, use it as the key — never
the text, BL-19), ``act``, ``section``, ``sub``, ``ref``, ``title``, ``kind``, ``case``, ``source``, ``pages``
(first, last; 1-based), ``score``, ``stage`` and ``rank``. Usable in any runnable chain::

    chain = {"context": LegalRagRetriever(index=idx, settings=s) | format_docs, "question": RunnablePassthrough()} | prompt | llm
"""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict

from ..types import Hit
from .search import search


def hit_to_document(hit: Hit) -> Document:
    c = hit.chunk
    meta: dict[str, Any] = {"chunk_id": c.id, "kind": c.kind, "title": c.title, "source": c.source,
                            "pages": list(c.pages), "part": c.part, "parts": c.parts, "score": hit.score,
                            "stage": hit.stage, "rank": hit.rank}
    if c.ref is not None:
        meta.update(act=c.ref.act, section=c.ref.section, sub=list(c.ref.sub), ref=str(c.ref))
    if c.case:
        meta["case"] = c.case
    meta.update({k: v for k, v in c.meta if k not in meta})
    return Document(page_content=c.text, metadata=meta, id=c.id)


class LegalRagRetriever(BaseRetriever):
    """``BaseRetriever`` over an opened :class:`legal_rag.index.Index`; ``limit`` hits per query (default
    ``settings.top_k``); ``filters`` as in :func:`legal_rag.retrieve.search.search`."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    index: Any
    settings: Any
    filters: Any = None
    limit: int | None = None
    mode: str = "hybrid"

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        hits = search(query, self.index, self.settings, mode=self.mode, filters=self.filters,
                      limit=self.limit or self.settings.top_k)
        return [hit_to_document(h) for h in hits]
