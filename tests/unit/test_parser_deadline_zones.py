"""Deadlines with time zones, dates without a year, "next week" and words that point back.

A deadline written in another zone ("3pm CET", "noon Pacific time", "+01:00") is the same
instant in the request's zone; a date without its year ("19.01.", "1/25") is the next such
day, and a slashed one that reads both ways is quoted unless a weekday beside it decides.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Urgency

NOW = datetime(2027, 1, 11, 8, 0, tzinfo=UTC)
"""A Monday morning in winter: no zone below is on summer time, except where it says so."""


def _at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("results by 3pm CET on Wednesday please", _at(2027, 1, 13, 14, 0)),
        ("please have it done before 09:30 EST tomorrow", _at(2027, 1, 12, 14, 30)),
        ("hard stop: by Thursday 18:00 JST", _at(2027, 1, 14, 9, 0)),
        ("need the output by noon Pacific time on Friday", _at(2027, 1, 15, 20, 0)),
        ("must finish by 2027-01-20 17:00 (UTC+2)", _at(2027, 1, 20, 15, 0)),
        ("deadline: 2027-01-20 06:00 PDT", _at(2027, 1, 20, 13, 0)),
        ('{"job": {"nodes": 2}, "due": "2027-01-19T23:00:00+01:00"}', _at(2027, 1, 19, 22, 0)),
        ("by 5pm ET tmrw if you can", _at(2027, 1, 12, 22, 0)),
        ("the paper figures are due Wed 2027-01-13 07:15 UTC", _at(2027, 1, 13, 7, 15)),
        ("we need everything by 19.01. at 10:00 o'clock (German time)", _at(2027, 1, 19, 9, 0)),
        ("it should be finished until 22.1., thanks", _at(2027, 1, 22, 23, 59, 59)),
        ("due 1/25, 4 nodes", _at(2027, 1, 25, 23, 59, 59)),
        ("results by 25/1 would be ideal", _at(2027, 1, 25, 23, 59, 59)),
        ("results by 3/2 (Wed) for the retreat", _at(2027, 2, 3, 23, 59, 59)),
        ("results by 3/2 Tue at the latest", _at(2027, 3, 2, 23, 59, 59)),
        ("the output must be ready within Friday", _at(2027, 1, 15, 23, 59, 59)),
        ("results needed by Tuesday next week", _at(2027, 1, 19, 23, 59, 59)),
        ("not needed till Thursday of next week, no hurry", _at(2027, 1, 21, 23, 59, 59)),
        (
            "the workshop is on 4 February, and the numbers are needed before that day",
            _at(2027, 2, 4, 0, 0),
        ),
        ("Results are needed for the Friday 11:00 UTC call.", _at(2027, 1, 15, 11, 0)),
        ("[schedule]\nfinish_by = 01/28/2027 16:30 UTC\nnodes = 2\n", _at(2027, 1, 28, 16, 30)),
        (
            '{"constraints": {"budget_usd": 90, "deadline": "2027-01-29"}}',
            _at(2027, 1, 29, 23, 59, 59),
        ),
        (
            "We need to run the IO500 suite on 8 nodes\nbefore the vendor demo on Wednesday.",
            _at(2027, 1, 13, 0, 0),
        ),
    ],
)
def test_a_deadline_is_read_in_its_zone_and_day(text: str, expected: datetime) -> None:
    parsed = parse_requirements(text, now=NOW)
    assert parsed.deadline == expected
    assert parsed.deadline is not None and parsed.deadline.utcoffset() == NOW.utcoffset()


def test_a_region_zone_follows_summer_time() -> None:
    summer = datetime(2027, 7, 5, 8, 0, tzinfo=UTC)  # a Monday in July: New York is UTC-4
    parsed = parse_requirements("results by 9:00 ET on Wednesday", now=summer)
    assert parsed.deadline == _at(2027, 7, 7, 13, 0)


@pytest.mark.parametrize(
    "text",
    [
        "results by 1/2 for the group",  # January 2 or February 1: never guessed
        "please deliver by 4/5 if possible",
    ],
)
def test_a_yearless_date_that_reads_both_ways_is_quoted(text: str) -> None:
    parsed = parse_requirements(text, now=NOW)
    assert parsed.deadline is None
    assert any("/" in item for item in parsed.unresolved)


@pytest.mark.parametrize(
    "text",
    [
        "GROMACS 15.12 on 2 nodes",
        "we need 2 nodes; the slides use a 10 pt font",
        "it is 10:00 CET here and I need 4 GPUs",
        "ran 3 jobs in 12/11 configurations",
        "We need 4 nodes.\n\nLast month we ran it before the upgrade on 3 November.",
        "Version 1.2.3 of the code, 2 nodes.",
    ],
)
def test_no_deadline_is_made_up(text: str) -> None:
    assert parse_requirements(text, now=NOW).deadline is None


def test_within_a_duration_stays_relative() -> None:
    parsed = parse_requirements("results within 3 days please", now=NOW)
    assert parsed.deadline == _at(2027, 1, 14, 8, 0)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8 GPUs for vLLM, 48 hrs, not urgnet", Urgency.NO_RUSH),
        ("4 nodes, isnt urgnet at all", Urgency.NO_RUSH),
        ("need 4 nodes, urgnet!", Urgency.NOW),
        ("I need it now", Urgency.NOW),
        # "now" before a verb says "currently", not "at once"
        ("# last run used 2 nodes; now scaling up\n#SBATCH --nodes=8", None),
        ("the code is now running on 4 nodes, we want 8", None),
        ("we switched compilers and now building takes 2 hours; 4 nodes please", None),
    ],
)
def test_urgency_typos_keep_their_negation(text: str, expected: Urgency | None) -> None:
    assert parse_requirements(text, now=NOW).urgency is expected
