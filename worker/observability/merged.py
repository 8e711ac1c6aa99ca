"""One ``/metrics`` for a container of several worker processes.

Each child worker serves its own metrics on a private port; the supervisor scrapes them
and serves one merged exposition, as prometheus-client's multiprocess mode does: counters
and histograms are summed across the processes, and gauges are reported per process under
a ``process`` label (``count(quantcheck_worker_up)`` still counts the workers). The counts
of a child that is down, or of a previous life of a restarted one, stay in the sums, so a
sum never goes down because a process died.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.metrics_core import Metric
from prometheus_client.parser import text_string_to_metric_families

_SUMMED = frozenset({"counter", "histogram", "summary"})
PROCESS_LABEL = "process"

# A sample's identity: its name and its labels, sorted.
_Key = tuple[str, tuple[tuple[str, str], ...]]


@dataclass(frozen=True, slots=True)
class Scrape:
    """What one child served: its slot (0..N-1), which life of that slot, and the text."""

    slot: int
    life: int
    text: str


@dataclass(frozen=True, slots=True)
class _Family:
    name: str
    kind: str
    documentation: str


class MergedMetrics:
    """Merges the children's expositions; ``scrape`` returns what the live ones serve."""

    def __init__(self, scrape: Callable[[], Sequence[Scrape]]) -> None:
        self._scrape = scrape
        self._lock = threading.Lock()
        self._families: dict[str, _Family] = {}
        self._family_of: dict[str, str] = {}  # sample name -> family name
        # Per slot: the life last scraped and its summed samples; and what earlier lives
        # of every slot had counted when they were replaced.
        self._last: dict[int, tuple[int, dict[_Key, float]]] = {}
        self._retired: dict[_Key, float] = {}
        self._registry = CollectorRegistry(auto_describe=False)
        self._registry.register(self)

    def render(self) -> bytes:
        """The merged exposition in the Prometheus text format."""
        return generate_latest(self._registry)

    def collect(self) -> Iterator[Metric]:
        """The merged metric families (called by prometheus-client while rendering)."""
        scrapes = self._scrape()
        with self._lock:
            per_process: dict[str, list[tuple[_Key, float]]] = {}
            for scrape in scrapes:
                summed: dict[_Key, float] = {}
                for parsed in text_string_to_metric_families(scrape.text):
                    self._families.setdefault(
                        parsed.name, _Family(parsed.name, parsed.type, parsed.documentation)
                    )
                    for sample in parsed.samples:
                        self._family_of[sample.name] = parsed.name
                        labels = tuple(sorted(sample.labels.items()))
                        if parsed.type in _SUMMED:
                            summed[(sample.name, labels)] = sample.value
                        else:
                            tagged = (*labels, (PROCESS_LABEL, str(scrape.slot)))
                            per_process.setdefault(parsed.name, []).append(
                                ((sample.name, tagged), sample.value)
                            )
                self._remember(scrape.slot, scrape.life, summed)
            totals = dict(self._retired)
            for _, summed in self._last.values():
                for key, value in summed.items():
                    totals[key] = totals.get(key, 0.0) + value
            families = dict(self._families)
            family_of = dict(self._family_of)
        by_family: dict[str, list[tuple[_Key, float]]] = {}
        for key, value in totals.items():
            by_family.setdefault(family_of[key[0]], []).append((key, value))
        for family in families.values():
            metric = Metric(family.name, family.documentation, family.kind)
            for (sample_name, labels), value in (
                *by_family.get(family.name, ()),
                *per_process.get(family.name, ()),
            ):
                metric.add_sample(sample_name, dict(labels), value)
            yield metric

    def _remember(self, slot: int, life: int, summed: dict[_Key, float]) -> None:
        previous = self._last.get(slot)
        if previous is not None and previous[0] != life:
            for key, value in previous[1].items():
                self._retired[key] = self._retired.get(key, 0.0) + value
        self._last[slot] = (life, summed)
