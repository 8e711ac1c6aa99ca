"""Every bound the event contracts enforce, in one place.

The models, the worker and the documentation quote these names instead of repeating
numbers. Character limits count Unicode code points, as Python's ``len`` does; a
character may take up to four bytes in UTF-8, so the field limits alone do not bound a
message's size: ``MAX_CLAIM_MESSAGE_BYTES`` does.
"""

from __future__ import annotations

from typing import Final

SCHEMA_VERSION: Final = 1
"""The one version of the claim, answer and verdict contracts this package reads and
writes."""

MAX_CLAIM_MESSAGE_BYTES: Final = 1_000_000
"""Largest claim message value, in bytes, that the worker parses; larger ones are
dead-lettered as ``oversize`` before parsing; the worker's ``max_message_bytes`` setting
defaults to it."""

MAX_ID_CHARS: Final = 200
"""Longest claim, answer or document ID."""

MAX_CLAIM_TEXT_CHARS: Final = 20_000
"""Longest claim text."""

MAX_ANSWER_TEXT_CHARS: Final = MAX_CLAIM_TEXT_CHARS
"""Longest answer text: no longer than a claim text, so every sentence split from an
answer is a valid claim text."""

MAX_ANSWER_ID_CHARS: Final = MAX_ID_CHARS - len(":") - len(str(MAX_ANSWER_TEXT_CHARS))
"""Longest answer ID: room is left for the ``:<n>`` that names each of its claims (an
answer has fewer sentences than characters)."""

MAX_CITATIONS: Final = 1_000
"""Most citation markers an answer may map to document IDs."""

MAX_CITED_DOC_IDS: Final = 64
"""Most document IDs one claim may cite."""

MAX_RETRIEVED_DOC_IDS: Final = 1_000
"""Most document IDs retrieval may report for one claim."""

MAX_KB_VERSION_CHARS: Final = 100
"""Longest knowledge-base version, in claims and in the document store alike: the store
refuses to load a version no claim could name."""

MAX_PROMPT_CHARS: Final = 200_000
"""Longest prompt."""

MAX_NAME_CHARS: Final = 200
"""Longest model or retriever name."""

MAX_TOPIC_CHARS: Final = 249
"""Longest Kafka topic name (Kafka's own limit)."""

MAX_ATTRIBUTES: Final = 64
"""Most free-form attributes on one claim."""

MAX_ATTRIBUTE_KEY_CHARS: Final = 100
"""Longest attribute name."""

MAX_ATTRIBUTE_VALUE_CHARS: Final = 1_000
"""Longest string attribute value."""

MAX_ERROR_MESSAGE_CHARS: Final = 1_000
"""Longest error message carried by a decode error or a dead letter's header; longer
ones are cut, so a hostile input cannot make its own error message large."""

MAX_REPORTED_ERRORS: Final = 3
"""Validation errors named in one error message; the rest are counted."""
