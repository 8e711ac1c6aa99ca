"""Claims checked against structured evidence through the real Checker: units from a
document's own units map, ``# unit:`` line or caption, scales from captions and headers,
dates from a value's own record, and evidence spans that point into the document."""

from __future__ import annotations

import pytest

from quantcheck.checker import Checker, CheckOptions, Claim, Document, Status

FORECAST = (
    "{'city': {'id': 2950725, 'name': 'Berg', 'coord': {'lat': 49.8142, 'lon': 12.1416}},"
    " 'units': {'temp': '°C', 'wind': 'm/s', 'rain': 'mm'},"
    " 'list': [{'main': {'temp': 6.42, 'temp_min': 6.42, 'temp_max': 12.93},"
    " 'wind': {'speed': 7.26, 'gust': 16.4}, 'dt_txt': '2024-01-03 19:00:00'},"
    " {'main': {'temp': 6.23, 'temp_min': 6.13, 'temp_max': 6.23},"
    " 'wind': {'speed': 8.31, 'gust': 17.68}, 'dt_txt': '2024-01-04 01:00:00'}]}"
)
SERIES = (
    "# country: Marshall Islands\n"
    "# title: Life expectancy at birth\n"
    "# unit: years\n"
    "date,value\n"
    "1950,52.0572\n"
    "1951,52.1514\n"
)
REPORT = (
    "Revenue grew in 2023, as the table shows.\n\n"
    "Consolidated results (in thousands of dollars, except per share data)\n\n"
    "| Item | 2023 | 2022 |\n"
    "|---|---:|---:|\n"
    "| Revenue | 1,234 | 1,100 |\n"
    "| Earnings per share | 1.23 | 1.10 |\n\n"
    "Costs fell by 3% over the same period.\n"
)
PAGE = (
    "<p>Segment results</p>\n"
    "<table><tr><th>Segment</th><th>Revenue ($M)</th></tr>\n"
    "<tr><td>Cloud &amp; AI</td><td><b>12.5</b></td></tr></table>"
)
SPECS = (
    "{'name': 'Armor X12', 'detailSpec': [{'category': 'Memory', 'specifications':"
    " [{'name': 'Internal', 'value': '32GB 2GB RAM'}]}, {'category': 'Launch',"
    " 'specifications': [{'name': 'Announced', 'value': '2023, September'}]}]}"
)

CASES = [
    # A Python literal's units map: "temp" states the unit of "temp_max", "wind" that of
    # everything under "wind".
    ("units-map-prefix", "The forecast shows a high of 12.93 °C.", FORECAST, Status.SUPPORTED),
    ("units-map-prefix-wrong", "The forecast shows a high of 12.93 °F.", FORECAST,
     Status.UNSUPPORTED_QUANTITY),
    ("units-map-path", "Gusts reach 16.4 m/s.", FORECAST, Status.SUPPORTED),
    ("units-map-path-wrong", "Gusts reach 16.4 km/h.", FORECAST, Status.UNSUPPORTED_QUANTITY),
    # A value is stated for the date of its own record, nested objects included.
    ("record-date", "On 4 January 2024 the high is 6.23 °C.", FORECAST, Status.SUPPORTED),
    ("record-date-wrong", "On 3 January 2024 the high is 6.23 °C.", FORECAST,
     Status.UNSUPPORTED_QUANTITY),
    # A "# unit:" line and the date column of the same row.
    ("csv-unit-line", "Life expectancy was 52.1514 years in 1951.", SERIES, Status.SUPPORTED),
    ("csv-unit-line-wrong-unit", "Life expectancy was 52.1514 days in 1951.", SERIES,
     Status.UNSUPPORTED_QUANTITY),
    ("csv-row-date-wrong", "Life expectancy was 52.1514 years in 1950.", SERIES,
     Status.UNSUPPORTED_QUANTITY),
    # A caption's scale and unit; per-share rows keep the unit, not the scale.
    ("caption-scale", "Revenue was $1.234 million in 2023.", REPORT, Status.SUPPORTED),
    ("caption-scale-unscaled", "Revenue was $1,234.", REPORT, Status.UNSUPPORTED_QUANTITY),
    ("caption-except-per-share", "Earnings per share were $1.23.", REPORT, Status.SUPPORTED),
    # The prose around an embedded table is still read.
    ("prose-around-table", "Costs fell by 3%.", REPORT, Status.SUPPORTED),
    # A header's scale, in an HTML table.
    ("header-scale", "Cloud & AI brought in $12.5 million.", PAGE, Status.SUPPORTED),
    ("header-scale-wrong", "Cloud & AI brought in $12.5 billion.", PAGE,
     Status.UNSUPPORTED_QUANTITY),
    # Text values of a name/value list are read as prose.
    ("name-value-text", "It has 32 GB of storage and 2 GB of RAM.", SPECS, Status.SUPPORTED),
    ("name-value-text-wrong", "It has 64 GB of storage.", SPECS, Status.UNSUPPORTED_QUANTITY),
    ("name-value-year", "It was announced in 2023.", SPECS, Status.SUPPORTED),
    ("name-value-year-wrong", "It was announced in 2022.", SPECS, Status.UNSUPPORTED_QUANTITY),
]  # fmt: skip


@pytest.mark.parametrize(
    ("claim_text", "evidence", "expected"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_claim_against_structured_evidence(
    claim_text: str, evidence: str, expected: Status
) -> None:
    documents = {"D1": Document("D1", evidence)}
    verdict = Checker(CheckOptions()).check(
        Claim(claim_text, ("D1",), frozenset({"D1"})), documents
    )
    assert verdict.status == expected, verdict.reason
    for check in verdict.facts:
        if check.matched:
            assert check.evidence is not None
            span = check.evidence_span
            assert span is not None
            assert evidence[span.start : span.end] == check.evidence.text
