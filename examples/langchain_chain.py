"""A LangChain retrieval chain whose answers quantcheck checks, offline and in-process.

    pip install '.[langchain]'
    python examples/langchain_chain.py

The chain is built from langchain-core alone: an in-memory vector store over the sample
handbook, a prompt, and a fake language model that answers with canned text, so it runs
without network or API keys. Put a real model in ``LLM`` and the rest is unchanged. Its
output is ``{"input": ..., "context": [Document, ...], "answer": ...}``: the sources come
beside the answer, so each sentence with a number is checked against every retrieved
document (see quantcheck.langchain).
"""

from __future__ import annotations

import csv
from pathlib import Path

from langchain_core.documents import Document
from langchain_core.embeddings.fake import DeterministicFakeEmbedding
from langchain_core.language_models.fake import FakeListLLM
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import PromptTemplate
from langchain_core.runnables import Runnable, RunnableParallel, RunnablePassthrough
from langchain_core.vectorstores import InMemoryVectorStore

from quantcheck.langchain import QuantcheckCallbackHandler

HANDBOOK = Path(__file__).resolve().parent / "field_sensor_handbook.csv"
PROMPT = PromptTemplate.from_template(
    "Answer from the context only.\n\nContext:\n{context}\n\nQuestion: {input}"
)
# What the fake model answers, in order: one right number, then one wrong (the handbook
# says 60 seconds on low battery).
LLM = FakeListLLM(
    responses=[
        "The logger records a reading every 15 seconds. On low battery it logs every 45 seconds."
    ]
)


def handbook_documents() -> list[Document]:
    """The sample handbook as LangChain documents, their IDs the handbook's own."""
    with HANDBOOK.open(encoding="utf-8", newline="") as handle:
        return [
            Document(page_content=row["text"], id=row["doc_id"], metadata={"topic": row["topic"]})
            for row in csv.DictReader(handle)
        ]


def retrieval_chain(documents: list[Document], *, k: int = 3) -> Runnable[str, dict[str, object]]:
    """question -> {"input", "context", "answer"}, as LangChain's retrieval chains return."""
    store = InMemoryVectorStore.from_documents(documents, DeterministicFakeEmbedding(size=64))
    retriever = store.as_retriever(search_kwargs={"k": k})
    answer = (
        (lambda given: {"context": "\n".join(d.page_content for d in given["context"]), **given})
        | PROMPT
        | LLM
        | StrOutputParser()
    )
    return RunnableParallel(context=retriever, input=RunnablePassthrough()).assign(answer=answer)


def main() -> None:
    # Retrieval here is by fake embeddings; every document is retrieved, so that the right
    # one is among them as a real retriever would make sure.
    documents = handbook_documents()
    checked = QuantcheckCallbackHandler()
    chain = retrieval_chain(documents, k=len(documents))
    chain.invoke("How often does the logger record readings?", config={"callbacks": [checked]})
    (verdict,) = checked.verdicts
    print(f"answer: {verdict.status}")
    for claim in verdict.claims:
        print(f"  {claim.claim.claim_text} -> {claim.status}: {claim.reason}")


if __name__ == "__main__":
    main()
