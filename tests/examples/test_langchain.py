"""quantcheck.langchain against real langchain-core chains over langchain-core's own fake
models (no network): the chain's answer is checked against its context, in-process through
the callback handler, and published for a real worker to check."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import Runnable, RunnableLambda, RunnableParallel, RunnablePassthrough
from quantcheck.schemas import AnswerVerdictEvent, VerdictEvent

from examples.langchain_chain import handbook_documents, retrieval_chain
from quantcheck import AnswerVerdict
from quantcheck.client import Publisher
from quantcheck.langchain import QuantcheckCallbackHandler, answer_event, check_chain_output
from tests.conftest import EXAMPLES
from tests.stream.workers import WorkerProcess, load_handbook, make_topics, read_verdicts
from tests.support.kafka import KafkaBroker

Names = Callable[[str], str]
QUESTION = "How often does the logger record readings?"


def chat_chain(answer: str, context: list[Document]) -> Runnable[str, dict[str, Any]]:
    """A retrieval chain whose retriever returns ``context`` and whose chat model answers
    ``answer``: the shape of LangChain's create_retrieval_chain, from langchain-core alone."""
    prompt = ChatPromptTemplate.from_messages(
        [("system", "Answer from this context:\n{context}"), ("human", "{input}")]
    )
    model = FakeListChatModel(responses=[answer])
    generate = (
        RunnableLambda(lambda given: {**given, "context": str(given["context"])})
        | prompt
        | model
        | StrOutputParser()
    )
    retriever = RunnableLambda(lambda _question: context)
    return RunnableParallel(context=retriever, input=RunnablePassthrough()).assign(answer=generate)


def test_a_retrieval_chains_answer_is_checked_against_its_context() -> None:
    documents = handbook_documents()
    output = retrieval_chain(documents, k=len(documents)).invoke(QUESTION)
    assert set(output) == {"input", "context", "answer"}
    verdict = check_chain_output(output)
    assert isinstance(verdict, AnswerVerdict)
    assert [(c.status, c.reason) for c in verdict.claims] == [
        ("supported", "matched cited evidence: time_seconds=15"),
        (
            "unsupported_quantity",
            "in cited evidence measuring something else: time_seconds=45"
            " (evidence: temperature_c=45)",
        ),
    ]
    assert verdict.status == "unsupported_quantity"
    # No markers: each sentence cited every retrieved document, and says so.
    for claim in verdict.claims:
        assert sorted(claim.claim.cited_doc_ids) == sorted(d.id or "" for d in documents)
        assert "cites_retrieved" in claim.flags
    supported = verdict.claims[0].facts[0]
    assert supported.evidence_doc_id == "S01"


def test_markers_name_context_documents_by_position() -> None:
    context = [
        Document(page_content="Failed uploads are retried after 5 minutes."),
        Document(page_content="Log a reading every 15 seconds."),
    ]
    answer = "Readings are logged every 15 seconds [2]. Uploads retry after 5 minutes [2]."
    output = chat_chain(answer, context).invoke(QUESTION)
    verdict = check_chain_output(output)
    assert [c.status for c in verdict.claims] == ["supported", "unsupported_quantity"]
    assert [c.claim.cited_doc_ids for c in verdict.claims] == [["2"], ["2"]]
    # The same answer without markers, checked as the chains return it, and not.
    bare = chat_chain(answer.replace(" [2]", ""), context).invoke(QUESTION)
    assert check_chain_output(bare).supported
    assert check_chain_output(bare, uncited="missing_citation").status == "missing_citation"


def test_the_callback_handler_checks_each_run_once() -> None:
    seen: list[AnswerVerdict] = []
    handler = QuantcheckCallbackHandler(on_verdict=seen.append)
    documents = handbook_documents()
    chain = retrieval_chain(documents, k=len(documents))
    chain.invoke(QUESTION, config={"callbacks": [handler]})
    chat_chain("Log a reading every 15 seconds.", documents[:1]).invoke(
        QUESTION, config={"callbacks": [handler]}
    )
    # The outermost chain of each run, not the retriever, prompt or parser inside it.
    assert handler.verdicts == seen
    assert [v.status for v in seen] == ["unsupported_quantity", "supported"]
    assert len({v.answer.answer_id for v in seen}) == 2


@pytest.mark.parametrize(
    ("output", "error"),
    [
        ({"answer": "Log every 15 seconds."}, TypeError),
        ({"answer": 15, "context": []}, TypeError),
        (
            {
                "answer": "x 1 s",
                "context": [Document(page_content="a", id="D"), Document("b", id="D")],
            },
            ValueError,
        ),
    ],
)
def test_an_output_that_is_no_retrieval_chains_is_refused(
    output: dict[str, Any], error: type[Exception]
) -> None:
    with pytest.raises(error):
        check_chain_output(output)


def test_the_example_runs() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "langchain_chain.py")],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "answer: unsupported_quantity",
        "  The logger records a reading every 15 seconds. -> supported: matched cited"
        " evidence: time_seconds=15",
        "  On low battery it logs every 45 seconds. -> unsupported_quantity: in cited evidence"
        " measuring something else: time_seconds=45 (evidence: temperature_c=45)",
    ]


def test_publishing_needs_the_knowledge_base_version() -> None:
    with pytest.raises(ValueError, match="kb_version"):
        QuantcheckCallbackHandler(publisher=object())  # type: ignore[arg-type]


@pytest.mark.integration
def test_a_published_chain_answer_is_checked_by_a_worker(
    kafka_broker: KafkaBroker,
    unique_topic: Names,
    tmp_path: Path,
    workers: Callable[..., WorkerProcess],
) -> None:
    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic, partitions=1)
    store_url = load_handbook(f"sqlite:///{tmp_path / 'store.db'}")
    documents = handbook_documents()
    with Publisher(bootstrap_servers=bootstrap, topic=topics.claims) as publisher:
        handler = QuantcheckCallbackHandler(publisher=publisher, kb_version="v1", model="fake")
        retrieval_chain(documents, k=len(documents)).invoke(
            QUESTION, config={"callbacks": [handler]}
        )
    assert publisher.stats().delivered == 1
    assert handler.verdicts == []  # published, not checked here
    workers(
        kafka_broker,
        topics,
        store_url,
        group=unique_topic("group"),
        instance="w1",
        extra=("--uncited", "retrieved"),
    )
    verdicts = read_verdicts(bootstrap, topics.verdicts, expected=3)
    records = [v for v in verdicts.values() if isinstance(v, AnswerVerdictEvent)]
    (record,) = records
    assert record.status == "unsupported_quantity"
    assert record.model == "fake"
    claims = sorted(
        (v.claim_id, v.status) for v in verdicts.values() if isinstance(v, VerdictEvent)
    )
    answer_id = record.answer_id
    assert claims == [(f"{answer_id}:1", "supported"), (f"{answer_id}:2", "unsupported_quantity")]


def test_an_answer_event_carries_the_context_as_what_was_retrieved() -> None:
    documents = handbook_documents()
    output = retrieval_chain(documents, k=3).invoke(QUESTION)
    event = answer_event(output, answer_id="A1", kb_version="v1", model="fake")
    assert event.retrieved_doc_ids == [d.id for d in output["context"]]
    assert event.answer_text == output["answer"]
    assert event.citations == {}
