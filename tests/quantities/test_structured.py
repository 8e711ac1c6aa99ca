"""The readers of structured evidence: every format, with each value's span, path,
record, unit and scale, the prose around the data, and inputs that must stay prose."""

from __future__ import annotations

import itertools
import json
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.common import cpu_timed
from quantcheck.quantities import structured
from quantcheck.quantities.structured import Cell, Layout, literals
from quantcheck.quantities.structured.statements import Statement, stated


def written(text: str, cell: Cell) -> str:
    return text[cell.start : cell.end]


def by_text(text: str, layout: Layout) -> dict[str, Cell]:
    """The cells of a layout by their written value (the first of each)."""
    found: dict[str, Cell] = {}
    for cell in layout.cells:
        found.setdefault(written(text, cell), cell)
    return found


def prose_of(text: str, layout: Layout) -> list[str]:
    return [text[start:end] for start, end in layout.prose]


def assert_well_formed(text: str, layout: Layout) -> None:
    """Spans inside the text, cells in document order, no cell inside a prose span."""
    previous = -1
    for cell in layout.cells:
        assert 0 <= cell.start <= cell.end <= len(text)
        assert cell.start >= previous
        previous = cell.start
        for start, end in layout.prose:
            assert cell.end <= start or cell.start >= end, (cell, (start, end))
    for start, end in layout.prose:
        assert 0 <= start <= end <= len(text)


# --- JSON and Python literals ----------------------------------------------------------------

FORECAST = (
    "{'city': {'id': 2950725, 'name': 'Berg', 'coord': {'lat': 49.8142, 'lon': 12.1416}},"
    " 'units': {'temp': '°C', 'wind': 'm/s', 'rain': 'mm'},"
    " 'list': [{'main': {'temp': 6.42, 'temp_min': 6.42, 'temp_max': 12.93},"
    " 'wind': {'speed': 7.26, 'gust': 16.4}, 'rain': {'3h': 3.11},"
    " 'visible': True, 'snow': None, 'dt_txt': '2024-01-03 19:00:00'},"
    " {'main': {'temp': 6.23, 'temp_min': 6.13, 'temp_max': 6.23},"
    " 'wind': {'speed': 8.31, 'gust': 17.68}, 'dt_txt': '2024-01-04 01:00:00'}]}"
)


def test_a_python_literal_is_read_with_its_units_map_by_prefix_and_path() -> None:
    layout = structured.read(FORECAST)
    assert layout.prose == ()
    assert_well_formed(FORECAST, layout)
    cells = by_text(FORECAST, layout)
    assert cells["12.93"].key == "temp_max"
    assert cells["12.93"].path == ("list", "main", "temp_max")
    # A units key states the unit of keys that start with it and "_" ...
    assert cells["12.93"].unit == "°C"
    assert cells["6.13"].unit == "°C"
    # ... and of every value below a path component of its name.
    assert cells["7.26"].path == ("list", "wind", "speed")
    assert cells["7.26"].unit == "m/s"
    assert cells["16.4"].unit == "m/s"
    assert cells["3.11"].unit == "mm"
    # Keys the map does not name have no unit.
    assert cells["49.8142"].unit is None


def test_nested_objects_share_the_record_of_their_array_element() -> None:
    cells = by_text(FORECAST, structured.read(FORECAST))
    first = cells["2024-01-03 19:00:00"].record
    assert cells["12.93"].record == cells["7.26"].record == first
    assert cells["8.31"].record == cells["2024-01-04 01:00:00"].record != first
    assert cells["Berg"].record != first


def test_string_cells_are_spanned_without_quotes_and_constants_are_no_cells() -> None:
    layout = structured.read(FORECAST)
    texts = [written(FORECAST, cell) for cell in layout.cells]
    assert "Berg" in texts
    assert "2024-01-03 19:00:00" in texts
    assert not {"True", "None"} & set(texts)
    assert all("'" not in text for text in texts)


def test_json_parallel_arrays_share_a_record_per_index_and_units_maps_are_scoped() -> None:
    text = json.dumps(
        {
            "hourly_units": {"time": "iso8601", "temperature_2m": "°C"},
            "hourly": {
                "time": ["2024-01-04T00:00", "2024-01-04T01:00"],
                "temperature_2m": [9.4, 7.1],
            },
            "daily_units": {"time": "iso8601", "temperature_2m": "°F"},
            "daily": {"time": ["2024-01-04", "2024-01-05"], "temperature_2m": [48.9, 45.1]},
        }
    )
    layout = structured.read(text)
    assert_well_formed(text, layout)
    cells = by_text(text, layout)
    assert cells["9.4"].record == cells["2024-01-04T00:00"].record
    assert cells["7.1"].record == cells["2024-01-04T01:00"].record
    assert cells["9.4"].record != cells["7.1"].record
    # Sibling arrays of another object are other records, whatever their index.
    assert cells["48.9"].record == cells["2024-01-04"].record != cells["9.4"].record
    assert cells["9.4"].path == ("hourly", "temperature_2m")
    assert cells["9.4"].unit == "°C"
    assert cells["48.9"].unit == "°F"


def test_a_name_value_list_names_its_values() -> None:
    text = (
        "{'details': {'detailSpec': [{'category': 'Memory', 'specifications': ["
        "{'name': 'Card slot', 'value': 'microSDXC'},"
        " {'name': 'Internal', 'value': '32GB 2GB RAM'}]},"
        " {'category': 'Main Camera', 'specifications': ["
        "{'value': '13 MP, AF', 'name': 'Single'}]}]}}"
    )
    cells = by_text(text, structured.read(text))
    assert cells["32GB 2GB RAM"].path == ("details", "detailSpec", "Memory", "Internal")
    assert cells["32GB 2GB RAM"].key == "Internal"
    # The name may come after the value it names.
    assert cells["13 MP, AF"].path == ("details", "detailSpec", "Main Camera", "Single")
    assert cells["Internal"].path == ("details", "detailSpec", "Memory", "name")


def test_numbers_escapes_tuples_and_trailing_commas() -> None:
    text = "{'a': -1.5e3, 'b': (1, 2,), \"c\": 'it\\'s 5 km', 'd': [], 'e': ''}"
    layout = structured.read(text)
    assert [written(text, c) for c in layout.cells] == ["-1.5e3", "1", "2", "it\\'s 5 km"]
    assert [c.path for c in layout.cells] == [("a",), ("b",), ("b",), ("c",)]


def test_a_key_with_an_escape_is_decoded() -> None:
    text = '{"temp\\u005fmax": 3, "units": {"temp": "\\u00b0C"}}'
    cell = structured.read(text).cells[0]
    assert cell.key == "temp_max"
    assert cell.unit == "°C"


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1,',
        '{"a": 1} and then some prose',
        "{'a': 1j}",
        "{'a': 1, 'b'}",
        "{1, 2, 3}",
        '{"a" 1}',
        "[1, 2] [3]",
        "(Reuters) - Shares rose 5% on Monday.",
        "{'a': '''long'''}",
        "{'a': 1]",
        "[1, 2, 3, 4, 5",
        "{'a': x}",
    ],
)
def test_malformed_literals_are_prose(text: str) -> None:
    assert structured.read(text) == Layout((), ((0, len(text)),))


PASTED = (
    "Inventory snapshot exported from the warehouse system, 2024-10-31.\n"
    "\n"
    "[\n"
    '  {"name": "Cordless drill", "qty_on_hand": 342, "unit_cost_usd": 54.20},\n'
    '  {"name": "Drill battery", "qty_on_hand": 118, "unit_cost_usd": 31.75}\n'
    "]\n"
    "\n"
    "Field notes:\n"
    "- Quantities are in units; 40 drills are reserved.\n"
)


def test_a_literal_on_lines_of_its_own_is_data_and_the_text_around_it_prose() -> None:
    layout = structured.read(PASTED)
    assert_well_formed(PASTED, layout)
    cells = by_text(PASTED, layout)
    assert cells["54.20"].key == "unit_cost_usd"
    assert cells["54.20"].record == cells["Cordless drill"].record != cells["31.75"].record
    prose = prose_of(PASTED, layout)
    assert prose[0].startswith("Inventory snapshot")
    assert any("40 drills are reserved" in part for part in prose)


@pytest.mark.parametrize(
    "text",
    [
        "Settings\n[Display] Brightness: 400 nits\n[Audio] Output: 20 W\n",
        "Notes\n[\n  not a literal, 5 items\n]\n",
        'Export\n{"a": 1} and more text after it on the line\n',
    ],
)
def test_brackets_that_open_no_literal_on_lines_of_its_own_are_no_literal(text: str) -> None:
    assert literals.embedded(text, itertools.count()) is None


def test_an_embedded_literal_is_found_with_the_offsets_of_the_document() -> None:
    region = literals.embedded(PASTED, itertools.count())
    assert region is not None
    assert PASTED[region.start] == "["
    assert PASTED[region.end - 1] == "]"
    assert [PASTED[c.start : c.end] for c in region.cells][:3] == ["Cordless drill", "342", "54.20"]


@pytest.mark.parametrize(
    "text",
    [
        "[" * 1000 + "]" * 1000,
        '{"a": ' * 1000 + "1" + "}" * 1000,
        "{'a': " * 1000 + "None" + "}" * 1000,
        "(" * 1000 + ")" * 1000,
        "[" * 100_000,
    ],
    ids=["json-arrays", "json-objects", "python-dicts", "tuples", "unclosed"],
)
def test_deep_nesting_is_prose_and_raises_nothing(text: str) -> None:
    assert structured.read(text) == Layout((), ((0, len(text)),))


def test_nesting_to_the_depth_limit_is_still_data() -> None:
    text = "[" * 200 + "1" + "]" * 200
    assert [written(text, c) for c in structured.read(text).cells] == ["1"]


@pytest.mark.parametrize("text", ["", " ", "\n\n\t ", "plain prose, nothing else."])
def test_empty_whitespace_and_plain_text_are_all_prose(text: str) -> None:
    assert structured.read(text) == Layout((), ((0, len(text)),))


def test_a_document_over_the_cut_off_is_prose() -> None:
    text = json.dumps({"values": list(range(400_000))})
    assert len(text) > structured.MAX_CHARACTERS
    assert structured.read(text) == Layout((), ((0, len(text)),))


# --- key: value lists --------------------------------------------------------------------------

WIKIDATA = (
    "Lithuanian Soviet Socialist Republic\n"
    "---\n"
    "- anthem: Anthem of the Lithuanian Soviet Socialist Republic\n"
    "- continent: Europe\n"
    "- instance of: sovereign state, republic of the Soviet Union\n"
    "- inception: 21 July 1940  \n"
    "- population: 3,400,000\n"
)


def test_a_key_value_list_gives_one_cell_per_line() -> None:
    layout = structured.read(WIKIDATA)
    assert_well_formed(WIKIDATA, layout)
    assert prose_of(WIKIDATA, layout) == ["Lithuanian Soviet Socialist Republic"]
    pairs = [(c.key, written(WIKIDATA, c)) for c in layout.cells]
    assert pairs == [
        ("anthem", "Anthem of the Lithuanian Soviet Socialist Republic"),
        ("continent", "Europe"),
        ("instance of", "sovereign state, republic of the Soviet Union"),
        ("inception", "21 July 1940"),
        ("population", "3,400,000"),
    ]
    assert layout.cells[2].path == ("instance of",)
    assert len({c.record for c in layout.cells}) == len(layout.cells)


def test_plain_and_bold_keys_without_bullets() -> None:
    text = "Name: Ulefone Armor X12\n**Weight:** 257 g\nBattery: 4860 mAh\nPrice: about 120 EUR\n"
    layout = structured.read(text)
    assert [(c.key, written(text, c)) for c in layout.cells] == [
        ("Name", "Ulefone Armor X12"),
        ("Weight", "257 g"),
        ("Battery", "4860 mAh"),
        ("Price", "about 120 EUR"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        # A paragraph with colons.
        "The report found three things: revenue rose 5%, costs fell 2%, and margins held.\n"
        "Analysts said: the quarter was strong. Guidance: unchanged at $4.2 billion.",
        # An answer that is a bulleted list of sentences.
        "- The company was founded in 1998 and has 300 employees.\n"
        "- It reported revenue of $5 million in 2020, up 12%.\n"
        "- Its chief executive said growth would continue next year.\n",
        # Sentences whose colon comes after a long clause.
        "In the first quarter of the year the company said: sales were up.\n"
        "By the end of the second quarter the company added: costs were down.\n"
        "Late in the third quarter of the year, the company noted: prices held.\n",
        # Two pairs are too few to be a list.
        "Note: figures are preliminary.\nSource: company filings.",
        # Times and addresses are no pairs.
        "The train leaves at 10:30 and arrives at 12:45.\nSee https://example.com/a:b for more.",
    ],
)
def test_prose_with_colons_stays_prose(text: str) -> None:
    assert structured.read(text).cells == ()


# --- CSV and TSV ---------------------------------------------------------------------------------

OWID = (
    "# country: Marshall Islands\n"
    "# title: Life expectancy at birth\n"
    "# generated from the 2023 revision\n"
    "# unit: years\n"
    "date,value\n"
    "1950,52.0572\n"
    "1951,52.1514\n"
    "2020-03-12,0.88\n"
)


def test_csv_with_metadata_lines_states_the_unit_of_its_values() -> None:
    layout = structured.read(OWID)
    assert_well_formed(OWID, layout)
    cells = by_text(OWID, layout)
    assert cells["Marshall Islands"].key == "country"
    assert cells["Life expectancy at birth"].path == ("title",)
    assert cells["52.1514"].unit == "years"
    assert cells["52.1514"].column == "value"
    assert cells["52.1514"].key == "value"
    assert cells["52.1514"].path == ("value",)
    # A column of dates or years takes no unit.
    assert cells["1951"].unit is None
    assert cells["1951"].record == cells["52.1514"].record != cells["52.0572"].record
    # The row label is the row's first field of words, else its first that is no number.
    assert cells["0.88"].row == "2020-03-12"
    assert cells["52.0572"].row is None
    # A comment that is no pair and the header are prose.
    assert prose_of(OWID, layout) == ["# generated from the 2023 revision", "date,value"]


def test_quoted_fields_hold_commas_and_tabs_separate_tsv() -> None:
    text = 'name,note,price (USD)\n"Smith, J","said ""hi""",3.50\nDoe,plain,4\n'
    cells = by_text(text, structured.read(text))
    assert cells["Smith, J"].column == "name"
    assert cells['said ""hi""'].column == "note"
    assert cells["3.50"].column == "price (USD)"
    assert cells["3.50"].row == "Smith, J"
    tsv = "city\tpopulation\tarea (km2)\nBerlin\t3645000\t891.8\nParis\t2161000\t105.4\n"
    cells = by_text(tsv, structured.read(tsv))
    assert cells["891.8"].column == "area (km2)"
    assert cells["2161000"].row == "Paris"


def test_a_title_line_can_state_the_scale() -> None:
    text = "# title: GDP (in millions of USD)\nyear,gdp\n2019,21433\n2020,20937\n"
    cells = by_text(text, structured.read(text))
    assert cells["21433"].scale == Decimal(1_000_000)
    assert cells["21433"].unit == "USD"
    assert cells["2019"].scale == 1


def test_text_after_the_last_row_is_prose() -> None:
    text = "plan,price (USD)\nbasic,12.50\npro,25.00\n\nPrices include 20% VAT."
    layout = structured.read(text)
    assert [written(text, c) for c in layout.cells] == ["basic", "12.50", "pro", "25.00"]
    assert prose_of(text, layout)[-1].strip() == "Prices include 20% VAT."


@pytest.mark.parametrize(
    "text",
    [
        "Net of this item, earnings per share in the quarter were $6.86.\n"
        "In the third quarter, the bank earned $3.1 billion.",
        "Yes, indeed\nNo, never\n",
        "Paris, France\nBerlin, 2021",
    ],
)
def test_prose_with_commas_stays_prose(text: str) -> None:
    assert structured.read(text).cells == ()


# --- tables aligned by spaces -------------------------------------------------------------------

ACCOUNTS = (
    "ALDER VALLEY ARTS TRUST\n"
    "STATEMENT OF FINANCIAL ACTIVITIES FOR THE YEAR ENDED 31 MARCH 2025\n"
    "\n"
    "                              Unrestricted   Restricted   Total 2025   Total 2024\n"
    "                                         £            £            £            £\n"
    "INCOME\n"
    "Donations                          212,400       18,000      230,400      198,750\n"
    "Grants                              40,000      310,500      350,500      288,100\n"
    "\n"
    "EXPENDITURE\n"
    "  Exhibitions                      150,250      201,300      351,550      330,900\n"
    "\n"
    "The trustees approved the accounts on 14 July 2025.\n"
)


def test_an_aligned_statement_is_read_cell_by_cell_with_its_units_line() -> None:
    layout = structured.read(ACCOUNTS)
    assert_well_formed(ACCOUNTS, layout)
    cells = by_text(ACCOUNTS, layout)
    grants = cells["350,500"]
    assert (grants.row, grants.column, grants.unit) == ("Grants", "Total 2025 (£)", "£")
    assert cells["40,000"].record == grants.record != cells["230,400"].record
    # A heading and a row after a blank line stay in the table.
    assert cells["201,300"].column == "Restricted (£)"
    assert cells["201,300"].row == "Exhibitions"
    prose = prose_of(ACCOUNTS, layout)
    assert "INCOME" in prose
    assert "EXPENDITURE" in prose
    assert prose[-1].strip() == "The trustees approved the accounts on 14 July 2025."


def test_an_aligned_table_with_a_rule_and_a_label_column() -> None:
    text = (
        "Results after stage 4\n"
        "\n"
        "Pos  Rider            Team            Time\n"
        "---  ---------------  --------------  -----------\n"
        "1    Ana Lucero       Sierra Norte    11h 02' 14\"\n"
        "2    Kai Brandt       Nordlicht       11h 02' 50\"\n"
        "\n"
        "Next: stage 5, 181 km.\n"
    )
    layout = structured.read(text)
    assert_well_formed(text, layout)
    cells = by_text(text, layout)
    # The row is named by its label and its other short names: its team too.
    assert cells["11h 02' 50\""].row == "Kai Brandt > Nordlicht"
    assert cells["11h 02' 50\""].column == "Time"
    assert cells["Nordlicht"].record == cells["2"].record
    assert prose_of(text, layout)[-1].strip() == "Next: stage 5, 181 km."


@pytest.mark.parametrize(
    "text",
    [
        # A log: its first fields are times, no column's name.
        "[2024-05-18T09:41:00Z] COUNTDOWN    T-0. Liftoff\n"
        "[2024-05-18T09:43:38Z] EVENT        Stage 1 MECO at T+158 s\n"
        "[2024-05-18T09:44:25Z] EVENT        Fairing separation at 118 km\n",
        # Keys and values two spaces apart.
        "Pick-up:  Munich Airport, 17.08.2024, 10:15\nReturn:   Munich Airport, 24.08.2024\n",
        # One row only, and sentences two spaces apart.
        "Item  Price\nTea  2.50\n",
        "The fee is 25 pounds.  It rises in 2026.\nA second line  of 3 words.\n",
    ],
)
def test_text_aligned_by_spaces_that_is_no_table_stays_prose(text: str) -> None:
    assert structured.read(text).cells == ()


# --- markdown tables ---------------------------------------------------------------------------

REPORT = (
    "Revenue grew in 2023, as the table shows.\n"
    "\n"
    "Consolidated results (in thousands of dollars, except per share data)\n"
    "\n"
    "| Item | 2023 | 2022 | Margin (%) |\n"
    "|:---|---:|---:|:--:|\n"
    "| **Revenue** | 1,234 | 1,100 | 12.5 |\n"
    "| Earnings per share | 1.23 | 1.10 | n/a |\n"
    "| Growth rate | 12 | 9 | |\n"
    "\n"
    "Costs fell by 3% over the same period.\n"
)


def test_a_markdown_table_in_prose_keeps_the_prose_around_it() -> None:
    layout = structured.read(REPORT)
    assert_well_formed(REPORT, layout)
    prose = prose_of(REPORT, layout)
    assert prose[0].startswith("Revenue grew in 2023")
    assert "| Item | 2023 | 2022 | Margin (%) |" in prose
    assert prose[-1].strip() == "Costs fell by 3% over the same period."
    cells = by_text(REPORT, layout)
    assert cells["1,234"].row == "Revenue"  # emphasis is trimmed
    assert cells["1,234"].column == "2023"
    assert cells["1,234"].path == ("2023",)
    assert cells["1,234"].record == cells["12.5"].record != cells["1.23"].record


def test_a_caption_states_scale_and_unit_except_for_ratios_and_per_share_rows() -> None:
    cells = by_text(REPORT, structured.read(REPORT))
    assert (cells["1,234"].scale, cells["1,234"].unit) == (Decimal(1000), "dollars")
    # "except per share data": the unit holds, the scale does not.
    assert (cells["1.23"].scale, cells["1.23"].unit) == (Decimal(1), "dollars")
    # A percentage column and a rate row take neither.
    assert (cells["12.5"].scale, cells["12.5"].unit) == (Decimal(1), None)
    assert (cells["12"].scale, cells["12"].unit) == (Decimal(1), None)


def test_a_header_states_the_scale_of_its_column() -> None:
    text = (
        "| Segment | Revenue ($M) | Amount (in thousands) | Units |\n"
        "|---|---|---|---|\n"
        "| Cloud | 12.5 | 300 | 7 |\n"
    )
    cells = by_text(text, structured.read(text))
    assert (cells["12.5"].scale, cells["12.5"].unit) == (Decimal(1_000_000), "$")
    assert (cells["300"].scale, cells["300"].unit) == (Decimal(1000), None)
    assert (cells["7"].scale, cells["7"].unit) == (Decimal(1), None)


def test_escaped_pipes_and_rows_without_outer_pipes() -> None:
    text = "Plan | Note | Price\n--- | --- | ---\nBasic | a \\| b | 10\nPro | c | 25\n"
    layout = structured.read(text)
    assert [written(text, c) for c in layout.cells] == ["Basic", "a \\| b", "10", "Pro", "c", "25"]
    assert layout.cells[2].column == "Price"


@pytest.mark.parametrize(
    "text",
    [
        "| BACK TO TOP |",
        "Home | About | Contact\n---\nWelcome to the site.",
        "| a | b |\n|---|---|---|\n| 1 | 2 |",
        "Choose A | B for the 2 options.\nOr C | D.",
    ],
)
def test_pipes_that_are_no_table_stay_prose(text: str) -> None:
    assert structured.read(text).cells == ()


# --- HTML tables -------------------------------------------------------------------------------

PAGE = (
    "<p>Our segments did well.</p>\n"
    '<TABLE class="results" border=1>\n'
    "<caption>Revenue by segment ($ in millions)</caption>\n"
    "<thead><tr><th>Segment</th><th scope=col>Revenue</th><th>Share &amp; trend</th></tr></thead>\n"
    "<tbody>\n"
    '<tr><td>Cloud &amp; AI</td><td align="right"><b> 12.5 </b></td><td>40%</td></tr>\n'
    "<tr><td>Devices<td>3.1<td>10%\n"
    "</tbody></table>\n"
    "<p>Devices shrank by 2% in 2023.</p>"
)


def test_an_html_table_keeps_spans_on_the_original_text() -> None:
    layout = structured.read(PAGE)
    assert_well_formed(PAGE, layout)
    cells = by_text(PAGE, layout)
    # Entities stay as written in the span; tags and spaces around a value are trimmed.
    assert "Cloud &amp; AI" in cells
    assert cells["12.5"].column == "Revenue"
    assert cells["12.5"].row == "Cloud & AI"
    assert cells["10%"].column == "Share & trend"
    # Cells whose end tags are left out end at the next cell or row.
    assert cells["3.1"].row == "Devices"
    assert cells["3.1"].record != cells["12.5"].record
    prose = prose_of(PAGE, layout)
    assert prose[0].startswith("<p>Our segments did well.")
    assert "Revenue by segment ($ in millions)" in prose
    assert prose[-1].strip() == "<p>Devices shrank by 2% in 2023.</p>"


def test_an_html_caption_states_scale_and_unit() -> None:
    cells = by_text(PAGE, structured.read(PAGE))
    assert (cells["12.5"].scale, cells["12.5"].unit) == (Decimal(1_000_000), "$")
    assert (cells["40%"].scale, cells["40%"].unit) == (Decimal(1), None)


def test_a_line_above_an_html_table_can_be_its_caption() -> None:
    text = (
        "<p>(in thousands of euros)</p><table><tr><th>Year</th><th>Sales</th></tr>"
        "<tr><td>2023</td><td>512</td></tr></table>"
    )
    cells = by_text(text, structured.read(text))
    assert (cells["512"].scale, cells["512"].unit) == (Decimal(1000), "euros")
    assert (cells["2023"].scale, cells["2023"].unit) == (Decimal(1), None)


@pytest.mark.parametrize(
    "text",
    [
        "<table><tr><td>1</td><td>2</td></tr>",
        "</table><tr><td>5</td></tr>",
        "<p>No table here, 5 km.</p>",
        "<table" * 1000,
    ],
)
def test_html_without_a_closed_table_is_prose(text: str) -> None:
    assert structured.read(text).cells == ()


def test_a_table_nested_in_a_cell_is_that_cells_text() -> None:
    text = (
        "<table><tr><th>Name</th><th>Detail</th></tr>"
        "<tr><td>A</td><td><table><tr><td>5 km</td></tr></table></td></tr></table>"
    )
    layout = structured.read(text)
    assert [c.column for c in layout.cells] == ["Name", "Detail"]
    assert "5 km" in written(text, layout.cells[1])


# --- several regions in one document ----------------------------------------------------------


def test_regions_of_different_formats_in_one_document() -> None:
    text = (
        "Specs\n---\n- weight: 257 g\n- battery: 4860 mAh\n\n"
        "The phone sells well.\n\n"
        "| Market | Units |\n|---|---|\n| EU | 1,200 |\n\n"
        "<table><tr><th>Color</th></tr><tr><td>Black</td></tr></table>\n"
        "That is all."
    )
    layout = structured.read(text)
    assert_well_formed(text, layout)
    assert [written(text, c) for c in layout.cells] == [
        "257 g",
        "4860 mAh",
        "EU",
        "1,200",
        "Black",
    ]
    assert len({c.record for c in layout.cells}) == 4
    prose = [p.strip() for p in prose_of(text, layout)]
    assert "The phone sells well." in prose
    assert "That is all." in prose


# --- scales and units in captions and headers --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("(in thousands of dollars)", Statement(Decimal(1000), "dollars")),
        ("Table 3: Revenue (in thousands of dollars)", Statement(Decimal(1000), "dollars")),
        ("in millions of USD", Statement(Decimal(1_000_000), "USD")),
        ("$ in millions", Statement(Decimal(1_000_000), "$")),
        ("in millions, except per share data", Statement(Decimal(1_000_000), None)),
        ("(Dollars in thousands)", Statement(Decimal(1000), "Dollars")),
        ("In thousands of U.S. dollars", Statement(Decimal(1000), "US dollars")),
        ("Revenue ($M)", Statement(Decimal(1_000_000), "$")),
        ("Sales (€bn)", Statement(Decimal(1_000_000_000), "€")),
        ("Cost ($000s)", Statement(Decimal(1000), "$")),
        ("Amount (in thousands)", Statement(Decimal(1000), None)),
        ("Price (USD)", Statement(Decimal(1), "USD")),
        ("Standing charge (GBP/year)", Statement(Decimal(1), "GBP")),
        ("Total GBP/yr", Statement(Decimal(1), "GBP")),
        ("Price USD", Statement(Decimal(1), "USD")),
        ("thousands of tonnes", Statement(Decimal(1000), "tonnes")),
        ("Length (m)", None),
        ("Population (M)", None),
        ("Margin (%)", None),
        ("Population (2020)", None),
        ("Table 1 (continued)", None),
        ("Revenue", None),
        ("Figures are shown in the usual way", None),
        ("The firm operates in thousands of stores", Statement(Decimal(1000), None)),
    ],
)
def test_stated_scales_and_units(text: str, expected: Statement | None) -> None:
    assert stated(text) == expected


# --- properties ----------------------------------------------------------------------------------

PIECES = [
    "{", "}", "[", "]", "(", ")", ":", ",", "'", '"', "\\", "-", "1", "2.5", "-1.5e3", "True",
    "None", "null", " ", "\n", "\t", "|", "---", "|---|", "#", "# unit: years\n", "key: value\n",
    "- name: x\n", "<table>", "</table>", "<tr>", "<td>", "<th>", "</td>", "&amp;", "<", ">",
    "date,value\n", "2020-01-01,5\n", "a,b\n", "(in thousands)", "units", "'units': {'t': 'C'}",
    "'name': 'A', 'value': 3", "°C", "$M", "ab  cd\n", "12  34\n", "---  ---\n", "  £  £\n",
]  # fmt: skip

texts = st.one_of(
    st.text(),
    st.lists(st.sampled_from(PIECES), max_size=60).map("".join),
    st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=3)), max_size=40).map("".join),
)


@settings(max_examples=600, deadline=None)
@given(text=texts)
def test_reading_never_raises_and_cells_never_overlap_prose(text: str) -> None:
    assert_well_formed(text, structured.read(text))


SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
VALUES = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=30,
)


@settings(max_examples=200, deadline=None)
@given(value=VALUES, as_python=st.booleans())
def test_every_json_and_python_value_is_a_cell_at_its_span(value: object, as_python: bool) -> None:
    text = repr(value) if as_python else json.dumps(value)
    layout = structured.read(text)
    assert_well_formed(text, layout)
    if isinstance(value, list | dict):
        # Every number and non-empty string of the document, in order.
        scalars: list[object] = []
        pending = [value]
        while pending:
            node = pending.pop()
            if isinstance(node, dict):
                pending.extend(reversed(list(node.values())))
            elif isinstance(node, list):
                pending.extend(reversed(node))
            elif isinstance(node, int | float | str) and not isinstance(node, bool) and node != "":
                scalars.append(node)
        assert len(layout.cells) == len(scalars)
        for cell, scalar in zip(layout.cells, scalars, strict=True):
            value = written(text, cell)
            if isinstance(scalar, str):
                assert "\\" in value or value == scalar
            else:
                assert Decimal(value) == Decimal(repr(scalar))


# --- linear time on hostile input --------------------------------------------------------------

HOSTILE = {
    "unclosed-brackets": "[(",
    "empty-strings": '"", ',
    "key-value-lines": "a: b\n",
    "pipe-lines": "|\n",
    "rule-lines": "|-|\n",
    "tiny-tables": "| a |\n|---|\n| 1 |\n\n",
    "csv-rows": "a,b\n",
    "quoted-csv-rows": '"x,"y,1\n',
    "unclosed-tags": "<td",
    "table-tags": "<table><tr><td>",
    "colons": ": ",
    "comment-lines": "# a: b\n",
    "aligned-headers": "ab  cd\n",
    "aligned-tables": "ab  cd\n12  34\n56  78\n\n",
    "aligned-fields": "a  ",
}


def _seconds_per_character(text: str, rounds: int) -> float:
    best = min(cpu_timed(lambda: structured.read(text)) for _ in range(rounds))
    return best / len(text)


def _filled(unit: str, size: int) -> str:
    opening = "[" if unit.startswith(('"', "[")) else ""
    return (opening + unit * (size // len(unit) + 1))[:size]


@pytest.mark.slow
@pytest.mark.parametrize("unit", list(HOSTILE.values()), ids=list(HOSTILE))
def test_hostile_input_is_read_in_linear_time(unit: str) -> None:
    # Ten times the text must take about ten times as long: quadratic reading would
    # make the time per character ten times larger.
    small, large = _filled(unit, 20_000), _filled(unit, 200_000)
    structured.read(small)
    # A busy machine can slow one measurement down: linear reading passes on some of
    # three attempts, quadratic reading on none.
    ratios: list[float] = []
    for _ in range(3):
        ratios.append(_seconds_per_character(large, 2) / _seconds_per_character(small, 5))
        if ratios[-1] < 3:
            break
    assert min(ratios) < 3, f"{min(ratios):.2f}x the time per character at ten times the size"
