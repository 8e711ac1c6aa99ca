"""Answers into claims: citation markers, sentences, and the claims they make (pure)."""

from quantcheck.worker.answers.markers import Marker, find_markers
from quantcheck.worker.answers.offsets import OffsetMap, Span
from quantcheck.worker.answers.sentences import sentence_spans
from quantcheck.worker.answers.split import QuantityTest, SentenceClaim, split_answer

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
