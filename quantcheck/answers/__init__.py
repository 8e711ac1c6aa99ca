"""Answers into claims: citation markers, sentences, and the claims they make (pure)."""

from quantcheck.answers.markers import Marker, find_markers
from quantcheck.answers.offsets import OffsetMap, Span
from quantcheck.answers.sentences import sentence_spans
from quantcheck.answers.split import QuantityTest, SentenceClaim, split_answer

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
