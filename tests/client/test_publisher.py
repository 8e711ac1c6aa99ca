"""The publisher against the real broker: events arrive keyed and valid, the caller never
waits, a full buffer drops the newest event, and asyncio code can use it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from quantcheck.schemas import AnswerEvent, ClaimDecodeError, ClaimEvent, parse_claims_topic_value

from quantcheck.client import Publisher, PublisherStats, event_message
from tests.answers.samples import answer
from tests.schemas.samples import answer_payload, claim_payload
from tests.stream.workers import free_port
from tests.support.kafka import KafkaBroker, consume_all, create_topics

Names = Callable[[str], str]

# Connection attempts to a closed port give up fast, so the unreachable tests stay short.
UNREACHABLE = {"bootstrap_timeout_ms": 500}


def test_the_message_is_keyed_by_the_answer_or_claim_id() -> None:
    key, value = event_message(answer())
    assert key == b"A01"
    assert isinstance(parse_claims_topic_value(value), AnswerEvent)
    claim = ClaimEvent.model_validate_json(json.dumps(claim_payload()))
    assert event_message(claim)[0] == b"C01"


def test_an_invalid_event_raises_at_once_and_queues_nothing() -> None:
    with Publisher(f"127.0.0.1:{free_port()}", producer_config=UNREACHABLE) as publisher:
        with pytest.raises(ClaimDecodeError, match="answer_text"):
            publisher.publish_answer(answer_payload(answer_text=""))
        with pytest.raises(ClaimDecodeError, match="claim_id"):
            publisher.publish_claim(claim_payload(claim_id=""))
        assert publisher.stats() == PublisherStats(0, 0, 0, 0)


def test_a_full_buffer_drops_the_newest_and_close_counts_the_unsent() -> None:
    publisher = Publisher(f"127.0.0.1:{free_port()}", buffer_size=2, producer_config=UNREACHABLE)
    # Nothing can be sent, yet every call returns at once.
    assert [publisher.publish_answer(answer()) for _ in range(3)] == [True, True, False]
    assert publisher.stats() == PublisherStats(accepted=2, delivered=0, dropped=1, failed=0)
    assert publisher.flush(timeout_s=0.5) is False
    publisher.close(timeout_s=0.5)
    assert publisher.stats() == PublisherStats(accepted=2, delivered=0, dropped=1, failed=2)
    assert publisher.publish_answer(answer()) is False
    assert publisher.stats().dropped == 2


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="buffer_size"):
        Publisher("localhost:9092", buffer_size=0)


@pytest.mark.integration
def test_answers_and_claims_arrive_keyed_and_valid(
    kafka_broker: KafkaBroker, unique_topic: Names
) -> None:
    topic = unique_topic("claims")
    create_topics(kafka_broker.bootstrap, topic, partitions=3)
    answers = [answer(answer_id=f"A{n}") for n in range(5)]
    with Publisher(kafka_broker.bootstrap, topic=topic) as publisher:
        for event in answers:
            assert publisher.publish_answer(event)
        assert publisher.publish_answer(answer_payload(answer_id="from-a-dict"))
        assert publisher.publish_claim(claim_payload())
        assert publisher.flush(timeout_s=30)
        assert publisher.stats() == PublisherStats(accepted=7, delivered=7, dropped=0, failed=0)
    records = consume_all(kafka_broker.bootstrap, topic, expected=7)
    events = {record.key: parse_claims_topic_value(record.value) for record in records}
    assert set(events) == {f"A{n}".encode() for n in range(5)} | {b"from-a-dict", b"C01"}
    assert all(isinstance(events[f"A{n}".encode()], AnswerEvent) for n in range(5))
    assert isinstance(events[b"C01"], ClaimEvent)
    assert events[b"A3"] == answers[3]


@pytest.mark.integration
def test_usable_from_asyncio(kafka_broker: KafkaBroker, unique_topic: Names) -> None:
    topic = unique_topic("claims")
    create_topics(kafka_broker.bootstrap, topic)

    async def serve() -> PublisherStats:
        async with Publisher(kafka_broker.bootstrap, topic=topic) as publisher:
            for n in range(3):
                payload = answer_payload(answer_id=f"async-{n}")
                assert publisher.publish_answer(payload | {"produced_at": datetime.now(UTC)})
            assert await publisher.flush_async(timeout_s=30)
        return publisher.stats()

    assert asyncio.run(serve()).delivered == 3
    records = consume_all(kafka_broker.bootstrap, topic, expected=3)
    assert sorted(record.key or b"" for record in records) == [b"async-0", b"async-1", b"async-2"]
