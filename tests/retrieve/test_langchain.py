"""The LangChain adapter inside a real runnable chain (prompt -> fake chat model -> parser)."""

from __future__ import annotations

from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda, RunnablePassthrough

from legal_rag.retrieve.langchain import LegalRagRetriever


def test_retriever_in_a_runnable_chain(small_index):
    idx, s = small_index
    retriever = LegalRagRetriever(index=idx, settings=s, limit=3)
    docs = retriever.invoke("IPC 420")
    assert len(docs) == 3
    top = docs[0].metadata
    assert (top["act"], top["section"], top["stage"], top["rank"]) == ("IPC", "420", "lookup", 1)
    assert top["chunk_id"] == docs[0].id and top["pages"] and top["source"]

    seen = {}

    def fmt(ds):
        seen["ids"] = [d.metadata["chunk_id"] for d in ds]
        return "\n".join(f"[{i + 1}] {d.metadata.get('ref', d.metadata.get('case'))}: {d.page_content}" for i, d in enumerate(ds))

    prompt = ChatPromptTemplate.from_messages([("system", "Answer from the sources only.\n{context}"), ("human", "{question}")])
    llm = FakeListChatModel(responses=["Cheating is punished under IPC 420 [1]."])
    chain = {"context": retriever | RunnableLambda(fmt), "question": RunnablePassthrough()} | prompt | llm | StrOutputParser()
    out = chain.invoke("IPC 420")
    assert out == "Cheating is punished under IPC 420 [1]."
    assert seen["ids"][0] == docs[0].id
    batch = (retriever | RunnableLambda(lambda ds: [d.metadata["act"] for d in ds])).batch(["BNS 318(4)", "s. 498-A"])
    assert batch[0][0] == "BNS" and batch[1][0] == "IPC"
