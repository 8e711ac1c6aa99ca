"""The check itself: gates, extraction and comparison combined into one verdict.

Pure: the caller resolves the cited documents (from a file, a store, a cache) and
passes them in; nothing here performs I/O.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from enum import StrEnum

from quantcheck.checker import index_codec, reasons
from quantcheck.checker.compare import find_support
from quantcheck.checker.evidence_cache import LruCache
from quantcheck.checker.gates import citation_failure
from quantcheck.checker.index import EvidenceIndex
from quantcheck.checker.model import (
    Claim,
    Document,
    EvidenceRef,
    FactCheck,
    FactsStamp,
    MatchKind,
    Status,
    Verdict,
)
from quantcheck.checker.own_arithmetic import with_own_arithmetic
from quantcheck.quantities.bare_months import bare_months
from quantcheck.quantities.budget import (
    DEFAULT_DOCUMENT_FACTS_MIB,
    MIB,
    FactBudget,
    TooManyFacts,
)
from quantcheck.quantities.categories import Scope
from quantcheck.quantities.evidence import extract_document
from quantcheck.quantities.extract import extract
from quantcheck.quantities.facts import Literal, Mention, Relation
from quantcheck.quantities.wrapping import unwrapped

# Bumped whenever the same input could produce a different verdict, so recorded
# verdicts can be told apart from replays by a newer checker.
CHECKER_VERSION = "3.17.0"


class CitationMode(StrEnum):
    """How several cited documents share the work of supporting a claim."""

    COMBINED = "combined"  # each fact may be supported by any cited document
    SINGLE = "single"  # one cited document must support every fact


@dataclass(frozen=True, slots=True)
class CheckOptions:
    """Choices that change verdicts; fixed for the life of a :class:`Checker`."""

    scope: Scope = Scope.ALL
    citation_mode: CitationMode = CitationMode.COMBINED
    evidence_cache_size: int = 4096
    # Bound on the bytes the cached facts hold (None: by count only). A document of tens of
    # megabytes yields facts several times its size.
    evidence_cache_bytes: int | None = None
    # Bound on the memory one document's facts may take (None: none): a document over it
    # is not read further, and a claim citing it fails (see quantities/budget.py).
    document_facts_bytes: int | None = DEFAULT_DOCUMENT_FACTS_MIB * MIB
    # Recent claims whose verdicts stay cached; 0 judges every claim afresh. Claims repeat
    # (FAQ-style answers, replays, files of repeated rows), and a verdict depends only on
    # the claim's text and the content of the documents it cites. A verdict holds about
    # 3 kB: a thousand keep repeats cheap without 12 MB of distinct claims' verdicts.
    claim_cache_size: int = 1024


# A claim as far as its verdict goes, once past the citation gates: its text, whether the
# gates apply, and each cited document with the hash of its content.
_ClaimKey = tuple[str, bool, tuple[tuple[str, str], ...]]


class Checker:
    """Checks claims against their cited documents, caching each document's facts and
    the verdicts of recent claims."""

    def __init__(self, options: CheckOptions | None = None):
        self.options = options or CheckOptions()
        # A document over its bound is remembered as refused, so that the claims citing it
        # fail at once rather than each reading it up to the bound again.
        self.evidence_cache: LruCache[str, EvidenceIndex | TooManyFacts] = LruCache(
            self.options.evidence_cache_size, max_bytes=self.options.evidence_cache_bytes
        )
        size = self.options.claim_cache_size
        self.claim_cache: LruCache[_ClaimKey, Verdict] | None = LruCache(size) if size else None

    def check(self, claim: Claim, documents: Mapping[str, Document]) -> Verdict:
        """Judge one claim. ``documents`` must hold at least the documents it cites."""
        failure = citation_failure(claim, documents) if claim.gated else None
        if failure is not None:
            status, reason = failure
            return Verdict(status, reason)
        cited = tuple((d, documents[d].sha256) for d in dict.fromkeys(claim.cited_doc_ids))
        if self.claim_cache is None:
            return self._judge(claim.text, cited, documents)
        key = (claim.text, claim.gated, cited)
        return self.claim_cache.get_or_compute(
            key, lambda: self._judge(claim.text, cited, documents)
        )

    def _judge(
        self, text: str, cited: tuple[tuple[str, str], ...], documents: Mapping[str, Document]
    ) -> Verdict:
        refs = tuple(EvidenceRef(doc_id, sha256) for doc_id, sha256 in cited)
        indexes = [(doc_id, self.evidence(documents[doc_id])) for doc_id, _ in cited]
        claimed = extract(text, scope=self.options.scope)
        # A month a claim names alone ("rose 0.4% in April") is a period it states.
        claimed = replace(
            claimed, mentions=tuple(bare_months(text, claimed.mentions, FactBudget(None)))
        )
        flags = set(claimed.flags)
        for _, index in indexes:
            flags.update(f"evidence_{flag}" for flag in index.extraction.flags)
        set_aside = claimed.set_aside
        if not claimed.mentions:
            return Verdict(
                Status.NEEDS_REVIEW_NO_QUANTITY,
                reasons.NO_QUANTITY,
                (),
                tuple(sorted(flags)),
                refs,
                set_aside,
            )
        if self.options.citation_mode is CitationMode.SINGLE and len(indexes) > 1:
            checks = _best_single_document(text, claimed.mentions, indexes)
        else:
            checks = tuple(
                find_support(m, indexes, text, claimed.mentions) for m in claimed.mentions
            )
        checks = with_own_arithmetic(_with_restatements(_with_multipliers(checks)))
        unwrapped_ids = {d for d, index in indexes if index.text != documents[d].text}
        if unwrapped_ids:
            checks = tuple(
                _quoted(c, documents) if c.evidence_doc_id in unwrapped_ids else c for c in checks
            )
        # A pass that is not plain equality is flagged by its kind, or by the difference the
        # policy accepted ("data_share").
        flags.update(
            (c.match_kind.value if c.difference is None else c.difference.value)
            for c in checks
            if c.matched and c.match_kind is not None and c.match_kind is not MatchKind.EXACT
        )
        missing = [c for c in checks if not c.matched]
        conflicts = [c for c in checks if c.negation_conflict]
        if missing:
            status, reason = Status.UNSUPPORTED_QUANTITY, reasons.unsupported(missing)
        elif conflicts:
            status, reason = Status.NEEDS_REVIEW_NEGATION, reasons.negation(conflicts)
        else:
            status, reason = Status.SUPPORTED, reasons.supported(checks)
        return Verdict(status, reason, checks, tuple(sorted(flags)), refs, set_aside)

    def evidence(self, document: Document) -> EvidenceIndex:
        """The document's indexed facts, read once per distinct content: from the facts
        stored with it when they bear this checker's stamp, else from its text. Raises
        :class:`TooManyFacts` naming the document when its facts would pass
        ``document_facts_bytes``."""
        found = self.evidence_cache.get_or_compute(document.sha256, lambda: self._index(document))
        if isinstance(found, TooManyFacts):
            raise found.of_document(document.doc_id)
        return found

    @functools.cached_property
    def facts_stamp(self) -> FactsStamp:
        """The stamp of the facts this checker stores, and the only stamp it reads."""
        return FactsStamp(self.options.scope.value, CHECKER_VERSION, index_codec.encoding())

    def stored_facts(self, text: str) -> bytes:
        """The facts of ``text`` as the store keeps them, under :attr:`facts_stamp`. Raises
        :class:`TooManyFacts` when they would pass ``document_facts_bytes``."""
        found = self._read(text)
        if isinstance(found, TooManyFacts):
            raise found
        return index_codec.encode_index(found)

    def _index(self, document: Document) -> EvidenceIndex | TooManyFacts:
        stored = document.facts
        if stored is not None and stored.stamp == self.facts_stamp:
            try:
                # The facts were read from the text as evidence reads it, wraps undone.
                return index_codec.decode_index(stored.data, unwrapped(document.text))
            except index_codec.StoredIndexError:
                pass  # unreadable stored facts are extracted again: no verdict rests on them
        return self._read(document.text)

    def _read(self, text: str) -> EvidenceIndex | TooManyFacts:
        budget = FactBudget(self.options.document_facts_bytes)
        try:
            text = unwrapped(text, budget)
            extraction = extract_document(text, scope=self.options.scope, budget=budget)
            return EvidenceIndex.build(extraction, text, budget)
        except TooManyFacts as refused:
            return refused


def _quoted(check: FactCheck, documents: Mapping[str, Document]) -> FactCheck:
    """``check`` with its evidence quoted as the document writes it: a document read with
    its wraps undone (see quantities/wrapping.py) has spaces where it breaks lines."""
    found, doc_id = check.evidence, check.evidence_doc_id
    if found is None or doc_id is None:
        return check
    written = documents[doc_id].text[found.span.start : found.span.end]
    return check if written == found.text else replace(check, evidence=replace(found, text=written))


def _with_multipliers(checks: tuple[FactCheck, ...]) -> tuple[FactCheck, ...]:
    """A count of the claim that a derived total multiplied ("three nights" of "€270 for
    three nights" at "€90 a night") is accounted for by that derivation: the evidence can
    neither state nor contradict the claim's own premise, and the total checks it."""
    used = {
        id(source): check
        for check in checks
        if check.match_kind is MatchKind.DERIVED
        for source in check.sources[1:]
    }
    if not used:
        return checks
    return tuple(
        replace(
            check,
            matched=True,
            match_kind=MatchKind.DERIVED,
            evidence_doc_id=used[id(check.mention)].evidence_doc_id,
            evidence=used[id(check.mention)].evidence,
            derivation=f"multiplies {used[id(check.mention)].mention.fact.label()}",
        )
        if not check.matched and id(check.mention) in used
        else check
        for check in checks
    )


def _with_restatements(checks: tuple[FactCheck, ...]) -> tuple[FactCheck, ...]:
    """A value the claim gives again in another unit ("25 km/h, roughly 15.5 mph", "94 °F
    (about 34 °C)", "heavier than 32 kg, roughly 70 pounds") is accounted for by the
    supported value it converts, at its own written precision: the evidence states one
    of the two, the answer converts it."""
    supported = [
        c
        for c in checks
        if c.matched
        and c.mention.fact.relation is not Relation.RANGE
        and c.mention.literal is not None
    ]
    if not supported or all(c.matched for c in checks):
        return checks
    return tuple(
        check if check.matched else _restating(check, supported) or check for check in checks
    )


def _restating(check: FactCheck, supported: list[FactCheck]) -> FactCheck | None:
    mention, literal = check.mention, check.mention.literal
    if literal is None or mention.fact.relation is not Relation.EQ:
        return None
    for other in supported:
        source = other.mention
        assert source.literal is not None
        if (
            source.fact.category == mention.fact.category
            and _unit_of(source.literal) != _unit_of(literal)
            and isinstance(source.fact.value, Decimal)
            and (literal.rounds_near if mention.approximate else literal.rounds_to)(
                source.fact.value
            )
        ):
            return replace(
                check,
                matched=True,
                match_kind=MatchKind.DERIVED,
                evidence_doc_id=other.evidence_doc_id,
                evidence=other.evidence,
                difference=None,
                binding=None,
                derivation=f"converts {source.text}",
            )
    return None


def _unit_of(literal: Literal) -> tuple[Decimal, Decimal, Decimal, Decimal]:
    return (literal.scale, literal.shift, literal.numerator, literal.denominator)


def _best_single_document(
    text: str, mentions: tuple[Mention, ...], indexes: list[tuple[str, EvidenceIndex]]
) -> tuple[FactCheck, ...]:
    """The checks against whichever one cited document supports the most facts."""
    best: tuple[FactCheck, ...] | None = None
    best_score = -1
    for entry in indexes:
        checks = tuple(find_support(m, [entry], text, mentions) for m in mentions)
        score = sum(c.matched and not c.negation_conflict for c in checks)
        if score > best_score:
            best, best_score = checks, score
    assert best is not None
    return best
