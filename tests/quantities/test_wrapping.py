"""Hard-wrapped prose is read across its line breaks; every other line break stays one."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quantcheck.quantities.budget import FactBudget
from quantcheck.quantities.wrapping import unwrapped

WRAPPED = (
    "Staff on the night shift must acknowledge every incident report within\n"
    "15 minutes of it being filed and close it within two working days. The\n"
    "warehouse on Harbour Road was first opened to tenants in June\n"
    "2021 and extended with a second loading bay in the spring of 2023.\n"
)


def test_the_breaks_of_a_wrapped_paragraph_become_spaces_in_place() -> None:
    read = unwrapped(WRAPPED)
    assert len(read) == len(WRAPPED)
    assert "within 15 minutes" in read
    assert "in June 2021" in read
    # "The\nwarehouse": a line that ends a sentence's first word is still mid-sentence.
    assert "The warehouse" in read
    assert read.endswith("2023.\n")  # the paragraph's end is not a wrap


def test_a_carriage_return_goes_with_its_line_feed() -> None:
    read = unwrapped(WRAPPED.replace("\n", "\r\n"))
    assert "within  15 minutes" in read
    assert "\r" not in read[: read.index("2023.")]


def test_the_copy_is_spent_from_the_budget() -> None:
    budget = FactBudget(None)
    unwrapped(WRAPPED, budget)
    assert budget.spent_bytes >= len(WRAPPED)


@pytest.mark.parametrize(
    "text",
    [
        # Sentences one to a line, of any lengths: captions, not a width.
        "pictured: the bridge over the river at dusk on the evening of its opening\n"
        "the mayor said\n"
        "crowds of more than twelve thousand people lined both banks of the river to "
        "watch the first crossing, which took 14 minutes\n",
        # A list's items, each starting its own line.
        "The following conditions apply to every booking made through the site\n"
        "- a deposit of 20 percent is due on booking\n"
        "- the balance is due 30 days before arrival\n",
        # A spec sheet's keys.
        "Recommended for households that use a lot of water every single day of\n"
        "Capacity: 12 place settings\n",
        # A line that ends its sentence or leads in.
        "Readings are taken at the start of every shift by the duty engineer.\n"
        "Thresholds are reviewed by the safety committee every quarter of a year:\n"
        "12 degrees for the cold store and 4 for the chillers at all times.\n",
        # Rows of a table.
        "| site | readings per day in the cold months of the year | limit |\n| --- | --- | --- |\n",
    ],
)
def test_line_breaks_that_end_something_are_kept(text: str) -> None:
    assert unwrapped(text) == text


def test_data_keeps_its_lines_while_the_prose_beside_it_is_unwrapped() -> None:
    text = (
        "Monthly readings of the gauge at the old mill, in centimetres above the\n"
        "datum that the river authority set in 1998 for every gauge on the river.\n"
        "\n"
        "month,level_cm,peak_cm\n"
        "January,182,240\n"
        "February,176,221\n"
    )
    read = unwrapped(text)
    assert "above the datum" in read
    assert read.endswith("month,level_cm,peak_cm\nJanuary,182,240\nFebruary,176,221\n")


@given(st.text(alphabet=st.sampled_from("ab 1.\n\r:-|"), max_size=400))
def test_any_text_keeps_its_length_and_every_character_but_line_breaks(text: str) -> None:
    read = unwrapped(text)
    assert len(read) == len(text)
    assert all(a == b or (b in "\r\n" and a == " ") for a, b in zip(read, text, strict=True))
