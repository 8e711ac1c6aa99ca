"""Checking, or publishing, what a LangChain retrieval chain answers (``quantcheck[langchain]``).

A retrieval chain returns its sources beside the answer, ``{"answer": ..., "context":
[Document, ...]}``, rather than as citation markers in the text, so by default each
sentence with a number and no marker is checked against every retrieved document
(``uncited="retrieved"``): a wrong number is still caught, but the check cannot tell which
source a sentence rests on, and a number found in any of them supports it. Markers that
the prompt asked for (``[1]``, ``[2]``) are read as usual.

::

    from quantcheck.langchain import check_chain_output

    output = chain.invoke({"input": question})
    verdict = check_chain_output(output)   # quantcheck.AnswerVerdict
    verdict.status, [claim.reason for claim in verdict.claims]

or, for every run of a chain, a callback handler that checks each answer in-process
(``verdicts``, ``on_verdict``) or publishes it to the claims topic for the workers::

    handler = QuantcheckCallbackHandler(on_verdict=print)
    chain.invoke({"input": question}, config={"callbacks": [handler]})

A document's ID is its ``Document.id``, else the value of the ``doc_id`` metadata key if
one is named, else its position in the context from ``"1"`` (which ``[1]`` markers name).
What is published is resolved by the workers against their document store, so the IDs
must be the store's (name the metadata key that holds them), and the workers must run with
``--uncited retrieved`` for sentences without markers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Literal, Protocol
from uuid import UUID

from quantcheck.api import AnswerVerdict, Checker, default_checker
from quantcheck.schemas import AnswerEvent

try:
    from langchain_core.callbacks import BaseCallbackHandler
    from langchain_core.documents import Document
except ModuleNotFoundError as exc:
    raise ModuleNotFoundError(
        "quantcheck.langchain needs langchain-core: pip install 'quantcheck[langchain]'",
        name=exc.name,
    ) from exc

Uncited = Literal["missing_citation", "retrieved"]


class AnswerPublisher(Protocol):
    """What the handler publishes through: :class:`quantcheck.client.Publisher`."""

    def publish_answer(self, answer: AnswerEvent) -> bool:
        """Hand ``answer`` to the background sender; False when it was dropped."""
        ...


def chain_sources(context: Sequence[Document], *, doc_id: str | None = None) -> dict[str, str]:
    """The texts of a chain's context documents by ID (see the module's notes on IDs)."""
    sources: dict[str, str] = {}
    for position, document in enumerate(context, start=1):
        key = _doc_id(document, position, doc_id)
        if key in sources:
            raise ValueError(f"two context documents have the ID {key!r}")
        sources[key] = document.page_content
    return sources


def _doc_id(document: Document, position: int, doc_id: str | None) -> str:
    if document.id:
        return document.id
    if doc_id is not None:
        value = document.metadata.get(doc_id)
        if value is None:
            raise ValueError(f"a context document has no {doc_id!r} in its metadata")
        return str(value)
    return str(position)


def _parts(
    output: Mapping[str, Any], answer_key: str, context_key: str
) -> tuple[str, Sequence[Document]]:
    answer, context = output.get(answer_key), output.get(context_key)
    if not isinstance(answer, str):
        raise TypeError(f"the chain's output has no {answer_key!r} text")
    if not isinstance(context, Sequence) or not all(isinstance(d, Document) for d in context):
        raise TypeError(f"the chain's output has no {context_key!r} list of Documents")
    return answer, context


def check_chain_output(
    output: Mapping[str, Any],
    *,
    answer_key: str = "answer",
    context_key: str = "context",
    doc_id: str | None = None,
    uncited: Uncited = "retrieved",
    checker: Checker | None = None,
    answer_id: str = "answer",
) -> AnswerVerdict:
    """Check each sentence of a retrieval chain's answer against its context documents."""
    answer, context = _parts(output, answer_key, context_key)
    return (checker or default_checker()).check_answer(
        answer, chain_sources(context, doc_id=doc_id), uncited=uncited, answer_id=answer_id
    )


def answer_event(
    output: Mapping[str, Any],
    *,
    answer_id: str,
    kb_version: str,
    answer_key: str = "answer",
    context_key: str = "context",
    doc_id: str | None = None,
    prompt: str = "",
    model: str = "",
    retriever: str = "",
) -> AnswerEvent:
    """A chain's output as the answer event the workers check: the answer, and the IDs of
    its context documents as what retrieval supplied at ``kb_version``."""
    answer, context = _parts(output, answer_key, context_key)
    return AnswerEvent.model_validate(
        {
            "schema_version": 1,
            "event_type": "answer",
            "answer_id": answer_id,
            "answer_text": answer,
            "retrieved_doc_ids": list(chain_sources(context, doc_id=doc_id)),
            "kb_version": kb_version,
            "prompt": prompt,
            "model": model,
            "retriever": retriever,
            "produced_at": datetime.now(UTC),
        }
    )


class QuantcheckCallbackHandler(BaseCallbackHandler):
    """Checks, or publishes, the answer of every chain run it is given to.

    When a run's outermost chain ends with an answer and its context, the answer is checked
    in-process: the verdict is appended to :attr:`verdicts` and passed to ``on_verdict``.
    With a ``publisher`` (a :class:`quantcheck.client.Publisher`) it is published instead,
    as an answer event of ``kb_version`` keyed by the run's ID, for the workers to check;
    the handler never waits for the cluster. Nested chains and runs whose output is not a
    retrieval chain's are left alone.
    """

    def __init__(
        self,
        *,
        on_verdict: Callable[[AnswerVerdict], None] | None = None,
        publisher: AnswerPublisher | None = None,
        kb_version: str = "",
        answer_key: str = "answer",
        context_key: str = "context",
        doc_id: str | None = None,
        uncited: Uncited = "retrieved",
        checker: Checker | None = None,
        model: str = "",
        retriever: str = "",
    ) -> None:
        if publisher is not None and not kb_version:
            raise ValueError("publishing needs the kb_version the context documents come from")
        self.verdicts: list[AnswerVerdict] = []
        self._on_verdict = on_verdict
        self._publisher = publisher
        self._kb_version = kb_version
        self._keys = (answer_key, context_key)
        self._doc_id = doc_id
        self._uncited: Uncited = uncited
        self._checker = checker
        self._names = (model, retriever)

    def on_chain_end(
        self,
        outputs: dict[str, Any],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        """Check or publish the output of the outermost chain of a run."""
        answer_key, context_key = self._keys
        if parent_run_id is not None or not isinstance(outputs, Mapping):
            return
        if answer_key not in outputs or context_key not in outputs:
            return
        if self._publisher is not None:
            model, retriever = self._names
            event = answer_event(
                outputs,
                answer_id=str(run_id),
                kb_version=self._kb_version,
                answer_key=answer_key,
                context_key=context_key,
                doc_id=self._doc_id,
                model=model,
                retriever=retriever,
            )
            self._publisher.publish_answer(event)
            return
        verdict = check_chain_output(
            outputs,
            answer_key=answer_key,
            context_key=context_key,
            doc_id=self._doc_id,
            uncited=self._uncited,
            checker=self._checker,
            answer_id=str(run_id),
        )
        self.verdicts.append(verdict)
        if self._on_verdict is not None:
            self._on_verdict(verdict)


__all__ = [
    "QuantcheckCallbackHandler",
    "answer_event",
    "chain_sources",
    "check_chain_output",
]
