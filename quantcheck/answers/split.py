"""An answer into claims: one per sentence, citing the documents of its own markers.

The markers are cut out of the answer first (with the white space before each, so
``15 seconds [1].`` reads ``15 seconds.``) and the rest is split into sentences. A marker
belongs to the sentence it sits in, or to the one before when it sits between two
(``seconds.[1] Next``), which is where answers put them. Each claim keeps the way back
from its text to the answer, so spans found in the claim text can be reported in the
answer.

Whether a sentence states a quantity is the extractor's call, passed in as
``has_quantity`` so that the split agrees with the check: a sentence with a quantity and
no marker gets no citation (and fails the citation gate), while one with neither is
exempt from the citation gates (``citation_gates`` is false) and is reported as having
no quantity, not as a citation failure.

An answer whose sources come back beside the text rather than as markers (a chain that
returns ``{"answer": ..., "context": [...]}``) can instead have every sentence that states
a quantity and has no marker cite all the documents retrieval supplied
(:attr:`Uncited.RETRIEVED`). The check then still finds a wrong number, but it cannot tell
which source a sentence rests on: a number found in any retrieved document supports it.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from quantcheck.answers.markers import Marker, find_markers
from quantcheck.answers.offsets import OffsetMap, Span
from quantcheck.answers.sentences import sentence_spans
from quantcheck.schemas import AnswerEvent
from quantcheck.schemas.limits import MAX_CITED_DOC_IDS

QuantityTest = Callable[[str], bool]
"""Whether a claim text states a quantity or date (in the worker: the extractor finds a
mention)."""

_SPACES = frozenset(" \t\u00a0")


class Uncited(StrEnum):
    """What a sentence that states a quantity but has no citation marker cites."""

    MISSING_CITATION = "missing_citation"
    """Nothing: it fails the citation gate as missing_citation."""
    RETRIEVED = "retrieved"
    """Every document retrieval supplied for the answer."""


@dataclass(frozen=True, slots=True)
class SentenceClaim:
    """One sentence of an answer as a claim."""

    claim_id: str
    """``<answer_id>:<n>``, n counting from 1 in sentence order."""
    text: str
    """The sentence with its markers removed."""
    span: Span
    """The sentence in the answer, its markers included."""
    markers: tuple[Marker, ...]
    cited_doc_ids: tuple[str, ...]
    """The documents its markers stand for, in order, each once."""
    citation_gates: bool
    """False for a sentence with neither a marker nor a quantity: it is reported as
    needs_review_no_quantity without passing the citation gates."""
    cites_retrieved: bool
    """True when it had no marker and cites the retrieved documents (:attr:`Uncited.RETRIEVED`)."""
    text_offsets: OffsetMap
    """The answer less every marker; ``text`` starts at ``text_start`` in it."""
    text_start: int

    def span_in_answer(self, start: int, end: int) -> Span:
        """Where ``text[start:end]`` (a fact found in the claim) sits in the answer."""
        if not 0 <= start <= end <= len(self.text):
            raise ValueError(f"span {start}..{end} is outside the claim text")
        return self.text_offsets.span_to_original(self.text_start + start, self.text_start + end)


def split_answer(
    answer: AnswerEvent,
    *,
    has_quantity: QuantityTest,
    uncited: Uncited = Uncited.MISSING_CITATION,
) -> tuple[SentenceClaim, ...]:
    """The claims of ``answer``, one per sentence that has a letter or digit; ``uncited``
    says what a sentence with a quantity and no marker cites.

    Raises ValueError when such a sentence would cite the retrieved documents and there are
    more of them than one claim may cite.
    """
    retrieved = tuple(dict.fromkeys(answer.retrieved_doc_ids))
    known = {*answer.citations, *answer.retrieved_doc_ids}
    markers = find_markers(answer.answer_text, known)
    offsets = OffsetMap.removing(answer.answer_text, _removed(answer.answer_text, markers))
    sentences = sentence_spans(offsets.text)
    starts = [sentence.start for sentence in sentences]
    owned: list[list[Marker]] = [[] for _ in sentences]
    for marker in markers:
        if sentences:
            owned[_owner(starts, offsets.to_text(marker.start))].append(marker)
    claims: list[SentenceClaim] = []
    for number, (sentence, own) in enumerate(zip(sentences, owned, strict=True), start=1):
        text = offsets.text[sentence.start : sentence.end]
        span = offsets.span_to_original(sentence.start, sentence.end)
        if own:
            span = Span(min(span.start, own[0].start), max(span.end, own[-1].end))
        cited = _cited(own, answer.citations)
        gated = bool(own) or has_quantity(text)
        cites_retrieved = gated and not own and uncited is Uncited.RETRIEVED and bool(retrieved)
        if cites_retrieved:
            if len(retrieved) > MAX_CITED_DOC_IDS:
                raise ValueError(
                    f"sentence {number} has no citation marker and would cite all"
                    f" {len(retrieved)} retrieved documents; a claim cites at most"
                    f" {MAX_CITED_DOC_IDS}"
                )
            cited = retrieved
        claims.append(
            SentenceClaim(
                claim_id=f"{answer.answer_id}:{number}",
                text=text,
                span=span,
                markers=tuple(own),
                cited_doc_ids=cited,
                citation_gates=gated,
                cites_retrieved=cites_retrieved,
                text_offsets=offsets,
                text_start=sentence.start,
            )
        )
    return tuple(claims)


def _removed(text: str, markers: tuple[Marker, ...]) -> list[Span]:
    """The ranges cut out of the answer: each marker with the spaces just before it."""
    removed: list[Span] = []
    for marker in markers:
        floor = removed[-1].end if removed else 0
        start = marker.start
        while start > floor and text[start - 1] in _SPACES:
            start -= 1
        removed.append(Span(start, marker.end))
    return removed


def _owner(starts: list[int], position: int) -> int:
    """The sentence a marker cut out at ``position`` belongs to: the last one that starts
    before it, or the first."""
    return max(bisect.bisect_left(starts, position) - 1, 0)


def _cited(markers: list[Marker], citations: Mapping[str, str]) -> tuple[str, ...]:
    """Each marker label's document, in order, without repeats."""
    doc_ids = (citations.get(label, label) for marker in markers for label in marker.labels)
    return tuple(dict.fromkeys(doc_ids))
