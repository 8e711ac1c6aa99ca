"""An answer's sentences as claim events, and verdicts placed back in the answer (pure).

The worker, a replay and ``quantcheck check`` all turn an answer into claims here, so a
sentence gets the same claim ID, text and citations wherever it is checked. Whether a
sentence states a quantity is the extractor's call in the checker's own scope, so the
split agrees with the check.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from quantcheck.answers.split import SentenceClaim, Uncited, split_answer
from quantcheck.checker.model import Claim, FactCheck, Verdict
from quantcheck.quantities.categories import Scope
from quantcheck.quantities.extract import extract
from quantcheck.quantities.facts import Mention, SetAside, Span
from quantcheck.schemas import AnswerEvent, ClaimEvent


@dataclass(frozen=True, slots=True)
class AnswerSentence:
    """One sentence of an answer: where it is, and the claim it makes."""

    sentence: SentenceClaim
    event: ClaimEvent

    @property
    def claim(self) -> Claim:
        """The sentence as the checker reads it."""
        event = self.event
        return Claim(
            event.claim_text,
            tuple(event.cited_doc_ids),
            frozenset(event.retrieved_doc_ids),
            gated=self.sentence.citation_gates,
        )


CITES_RETRIEVED_FLAG = "cites_retrieved"
"""The flag of a sentence's verdict when the sentence had no marker and was checked against
every retrieved document (see :class:`~quantcheck.answers.split.Uncited`)."""


def answer_sentences(
    answer: AnswerEvent, *, scope: Scope, uncited: Uncited = Uncited.MISSING_CITATION
) -> tuple[AnswerSentence, ...]:
    """The claims of ``answer``, one per sentence, as claim events ``<answer_id>:<n>``;
    ``uncited`` says what a sentence with a quantity and no marker cites."""

    def has_quantity(text: str) -> bool:
        return bool(extract(text, scope=scope).mentions)

    return tuple(
        AnswerSentence(sentence, _event(answer, sentence))
        for sentence in split_answer(answer, has_quantity=has_quantity, uncited=uncited)
    )


def _event(answer: AnswerEvent, sentence: SentenceClaim) -> ClaimEvent:
    # Every value comes from an answer validated against its contract, whose limits are
    # set so that each sentence fits a claim; validating again would only cost time.
    return ClaimEvent.model_construct(
        schema_version=1,
        claim_id=sentence.claim_id,
        answer_id=answer.answer_id,
        claim_text=sentence.text,
        cited_doc_ids=list(sentence.cited_doc_ids),
        retrieved_doc_ids=list(answer.retrieved_doc_ids),
        kb_version=answer.kb_version,
        prompt=answer.prompt,
        model=answer.model,
        retriever=answer.retriever,
        produced_at=answer.produced_at,
        attributes=dict(answer.attributes),
    )


def in_answer(verdict: Verdict, sentence: SentenceClaim) -> Verdict:
    """``verdict`` with every span in the claim text moved to the answer text, flagged
    ``cites_retrieved`` when the sentence's citations are the retrieved documents."""

    def moved(span: Span) -> Span:
        place = sentence.span_in_answer(span.start, span.end)
        return Span(place.start, place.end)

    def fact(check: FactCheck) -> FactCheck:
        mention: Mention = replace(check.mention, span=moved(check.mention.span))
        return replace(check, mention=mention)

    aside: tuple[SetAside, ...] = tuple(
        replace(number, span=moved(number.span)) for number in verdict.set_aside
    )
    # Flagged here, not by the checker: its verdicts are cached by text and documents, and
    # the same sentence cited by a marker gets the same verdict without the flag.
    flags = (
        tuple(sorted({*verdict.flags, CITES_RETRIEVED_FLAG}))
        if sentence.cites_retrieved
        else verdict.flags
    )
    return replace(
        verdict, facts=tuple(fact(c) for c in verdict.facts), flags=flags, set_aside=aside
    )
