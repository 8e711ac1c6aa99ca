"""Answers into claims: citation markers, sentences, and the claims they make (pure)."""

from worker.answers.markers import Marker, find_markers
from worker.answers.offsets import OffsetMap, Span
from worker.answers.sentences import sentence_spans
from worker.answers.split import QuantityTest, SentenceClaim, split_answer

__all__ = [
    "Marker",
    "OffsetMap",
    "QuantityTest",
    "SentenceClaim",
    "Span",
    "find_markers",
    "sentence_spans",
    "split_answer",
]
