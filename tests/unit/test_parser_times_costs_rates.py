"""Deadlines whose hour comes after the day, loose run times, past costs and memory rates.

A deadline set by an event gets the event's hour even when it is said after the day ("before
the meeting on the 10th, which starts at 9:00 CET", "before Friday's seminar (it's at 2pm)",
"latest on Monday morning 8 o'clock"); a machine's state "until Thursday" is no deadline; a
vague run time restated by a bare number ("a couple of hours (say 3)") is that number; a price
already paid is not a spending cap; a memory or storage bandwidth is not a link speed.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
"""A Tuesday morning, as in the corpus."""


def _at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)  # type: ignore[misc]


def _parse(text: str):  # type: ignore[no-untyped-def]
    return parse_requirements(text, now=NOW)


def _speed(text: str) -> float | None:
    network = _parse(text).network
    return network.min_speed_gbps if network else None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the event's hour in a clause or parentheses after the day
        (
            "The runs must be done before the project review on 14.12., which starts at 10:00.",
            _at(2026, 12, 14, 10, 0),
        ),
        (
            "we need the plots before the board meeting on Thursday, which begins at 3pm",
            _at(2026, 12, 3, 15, 0),
        ),
        (
            "results needed before our group seminar on Dec 9 (it's at 11:30 UTC), 2 nodes",
            _at(2026, 12, 9, 11, 30),
        ),
        ("I need the output before Thursday's journal club (starts 4pm).", _at(2026, 12, 3, 16)),
        ("numbers must be ready before Monday's steering call (at 09:00 CET)", _at(2026, 12, 7, 8)),
        ("have to finish before tomorrow's demo (it is at 13:00)", _at(2026, 12, 2, 13, 0)),
        ("must be complete before Friday's defence (it's at 10am) please", _at(2026, 12, 4, 10)),
        # the hour before the event, the day after it
        ("Results are needed before the 11:00 design meeting tomorrow.", _at(2026, 12, 2, 11, 0)),
        ("we must be done before the 2pm review on Wednesday", _at(2026, 12, 2, 14, 0)),
        # a part of the day between the day and its hour
        ("We need the results latest on Monday morning 8 o'clock (UTC).", _at(2026, 12, 7, 8, 0)),
        ("deliver at the latest on Thursday afternoon at 3", _at(2026, 12, 3, 15, 0)),
        ("done by Friday evening 6pm if possible", _at(2026, 12, 4, 18, 0)),
        ("results by Wednesday morning at 7:30", _at(2026, 12, 2, 7, 30)),
        ("latest on 10 December, please", _at(2026, 12, 10, 23, 59, 59)),
        # a state "until" a day does not displace the deadline asked for
        (
            "finished by Friday would be great. The queue is quiet until Thursday.",
            _at(2026, 12, 4, 23, 59, 59),
        ),
        ("I'm away until Monday, but results by Wednesday please", _at(2026, 12, 2, 23, 59, 59)),
        # a deadline key that names its unit
        ('{"nodes": 2, "max_hours": 5, "complete_within_hours": 24}', _at(2026, 12, 2, 9, 0)),
        ("deadline_days = 3\nnodes = 2", _at(2026, 12, 4, 9, 0)),
        ("finish_within_h: 12", _at(2026, 12, 1, 21, 0)),
    ],
)
def test_deadline_takes_the_hour_and_day_said(text: str, expected: datetime) -> None:
    assert _parse(text).deadline == expected


@pytest.mark.parametrize(
    "text",
    [
        "The login node is down until Thursday.",
        "the file system stays in maintenance until the 10th",
        "I'm on leave until 14 December; 4 nodes for 6 hours",
        "our partition is reserved until Friday, so any other one is fine",
    ],
)
def test_a_state_until_a_day_is_no_deadline(text: str) -> None:
    assert _parse(text).deadline is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # without a possessive event or an event phrase, the hour after is not taken
        ("results before Friday (2 nodes at 3 pm are fine)", _at(2026, 12, 4, 0, 0)),
        ("before Friday please, it's at 2pm that I leave", _at(2026, 12, 4, 0, 0)),
        ("we need it by Monday morning", _at(2026, 12, 7, 23, 59, 59)),
    ],
)
def test_an_hour_not_tied_to_the_event_is_not_taken(text: str, expected: datetime) -> None:
    assert _parse(text).deadline == expected


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("is 4 cores and 16 GB ok? couple of hours (say 3).", 3 * 3600),
        ("a few hours (maybe 5) on one node", 5 * 3600),
        ("we need 2 nodes for several days, say 4", 4 * 86400),
        ("a couple of days (~2.5) with 8 GPUs", 216000),
        ("just a few minutes (about 20) on a single core", 20 * 60),
        ("4 nodes for 3 hours of h5bench 1.4 runs", 3 * 3600),
        ("6 hours of LAMMPS simulations on 2 nodes", 6 * 3600),
        ("give me 10 hours of mytool benchmark runs", 10 * 3600),
    ],
)
def test_loose_run_time_is_read(text: str, seconds: int) -> None:
    assert _parse(text).compute.walltime_s == seconds


def test_a_past_run_restated_loosely_does_not_beat_the_time_asked() -> None:
    text = "Last time it took a few hours (about 3). This time please 2 nodes for 12 hours."
    assert _parse(text).compute.walltime_s == 12 * 3600


def test_a_number_with_its_own_unit_is_not_the_run_time_restated() -> None:
    assert _parse("a couple of hours (say 3 nodes) is fine").compute.walltime_s != 3 * 3600


def test_a_duration_of_data_is_no_run_time() -> None:
    assert _parse("we have 800 hours of speech recordings to transcribe").compute.walltime_s is None


@pytest.mark.parametrize(
    ("text", "budget"),
    [
        (
            "A run of this size cost about $3k on the cloud last year, so keep it under $2,000.",
            2000,
        ),
        ("Last time it cost us roughly $900; this time the cap is $500.", 500),
        ("we spent $1,200 on AWS previously, budget $700 now", 700),
        ("we paid 4000 USD last spring; please stay below $2500", 2500),
        ("it should cost $500 at most", 500),
        ("costs up to $400 are fine", 400),
        ("budget: $300", 300),
    ],
)
def test_the_cap_wins_over_a_past_price(text: str, budget: float) -> None:
    assert _parse(text).budget_usd == budget


@pytest.mark.parametrize(
    "text",
    [
        "last time we spent $1200 on AWS; 4 nodes for 2 hours",
        "the same job cost about $3k on the cloud last year",
        "we were billed 800 USD in 2025 for this",
    ],
)
def test_a_past_price_alone_is_no_budget_and_stays_quoted(text: str) -> None:
    found = _parse(text)
    assert found.budget_usd is None
    assert any("$" in part or "USD" in part for part in found.unparsed)


@pytest.mark.parametrize(
    ("text", "gbps"),
    [
        ("fabric = InfiniBand NDR 400G", 400),
        ("IB NDR 200Gbps please", 200),
        ("our Lustre reaches 40 GB/s; we need a 100 Gb/s network", 100),
        ("scratch gives 12 GB/s and the nodes need 200 Gb/s InfiniBand", 200),
        ("memory bandwidth matters, and a 25 Gb/s link is enough", 25),
    ],
)
def test_link_speed_is_read(text: str, gbps: float) -> None:
    assert _speed(text) == gbps


@pytest.mark.parametrize(
    "text",
    [
        "the vendor sheet says STREAM triad 380 GB/s, so no need to run it",
        "HBM3 gives about 3000 GB/s per GPU",
        "the NVMe disks read at 7 GB/s",
        "our IO500 run hit 210 GB/s on ior-easy-write last week",
    ],
)
def test_memory_or_storage_bandwidth_is_no_link_speed(text: str) -> None:
    found = _parse(text)
    assert _speed(text) is None
    assert any("GB/s" in part for part in (*found.unresolved, *found.unparsed))
