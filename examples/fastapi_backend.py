"""A RAG backend in FastAPI that answers first and hands the answer to quantcheck after.

    pip install ./client fastapi uvicorn   # quantcheck-client, the light distribution
    export QUANTCHECK_BOOTSTRAP_SERVERS=localhost:9092 QUANTCHECK_KB_VERSION=handbook-v1
    python examples/fastapi_backend.py --port 8000
    curl -s localhost:8000/ask -H 'content-type: application/json' \\
         -d '{"question": "How often does the logger record readings?"}'

``publish_answer`` only validates the answer event and puts it in the publisher's buffer;
a background thread sends it to the claims topic. The response never waits for Kafka, and
keeps coming while Kafka is away (the publisher retries, and drops events only when its
buffer is full). The workers split the answer into claims and check each one.
"""

from __future__ import annotations

import argparse
import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime

import uvicorn
from fastapi import FastAPI, Request
from pydantic import BaseModel

from quantcheck.client import DEFAULT_TOPIC, Publisher


class Question(BaseModel):
    question: str


class Answer(BaseModel):
    answer_id: str
    answer: str
    queued: bool
    """Whether the answer event was taken for publishing (false when the buffer was full)."""


@dataclass(frozen=True, slots=True)
class Generated:
    """What retrieval and the model produced for one question."""

    text: str
    citations: dict[str, str]
    retrieved_doc_ids: list[str]
    model: str = "example-model"
    retriever: str = "bm25"


def generate(question: str) -> Generated:
    """Stands in for retrieval and the model: the same answer about the sample handbook."""
    return Generated(
        text=(
            "Here is what the field handbook says. The logger records a reading every 15"
            " seconds [1]. When the battery drops below 20 percent it logs every 60 seconds"
            " [1]. Calibrate the flow meter at 2.5 L/min, e.g. before each deployment【2】."
        ),
        citations={"1": "S01", "2": "S02"},
        retrieved_doc_ids=["S01", "S02", "S03"],
    )


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    # One publisher for the process; closing it sends what is still buffered.
    async with Publisher(
        bootstrap_servers=os.environ.get("QUANTCHECK_BOOTSTRAP_SERVERS", "localhost:9092"),
        topic=os.environ.get("QUANTCHECK_CLAIMS_TOPIC", DEFAULT_TOPIC),
    ) as publisher:
        app.state.publisher = publisher
        yield


app = FastAPI(title="RAG backend publishing to quantcheck", lifespan=lifespan)


@app.post("/ask")
async def ask(question: Question, request: Request) -> Answer:
    generated = generate(question.question)
    answer_id = uuid.uuid4().hex
    publisher: Publisher = request.app.state.publisher
    queued = publisher.publish_answer(
        {
            "schema_version": 1,
            "event_type": "answer",
            "answer_id": answer_id,
            "answer_text": generated.text,
            "citations": generated.citations,
            "retrieved_doc_ids": generated.retrieved_doc_ids,
            "kb_version": os.environ.get("QUANTCHECK_KB_VERSION", "handbook-v1"),
            "prompt": question.question,
            "model": generated.model,
            "retriever": generated.retriever,
            "produced_at": datetime.now(UTC),
        }
    )
    return Answer(answer_id=answer_id, answer=generated.text, queued=queued)


@app.get("/healthz")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
