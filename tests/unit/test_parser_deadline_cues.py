"""Deadlines whose cue is written loosely: a date in one clause and "before it" in the next,
"deadline" as two words, a deadline set by someone ("the deadline from our PI is ..."),
"tmorrow", "we need the answer until ...", and deadline keys of forms ("deliver_by").

Each reading is checked in wordings of its own, and beside wordings that must not give a
deadline (a reply asked for, "before it starts", a date with nothing asked).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
"""A Tuesday morning."""


def _at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)  # type: ignore[misc]


_START = (0, 0)
_END = (23, 59, 59)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a day named, then pointed back at with "before it" / "before that"
        (
            "The panel meets on 11 December and our numbers have to be ready before it.",
            _at(2026, 12, 11, *_START),
        ),
        (
            "our site visit is the 8th of December, we need the runs complete before that.",
            _at(2026, 12, 8, *_START),
        ),
        (
            "Thesis defence: Friday 18 December. I must finish the sweep before it, thanks",
            _at(2026, 12, 18, *_START),
        ),
        (
            "the consortium call is on Dec 14 and the outputs should be done before it",
            _at(2026, 12, 14, *_START),
        ),
        # "deadline" as two words, with a weekday or a date, spelt right or not
        ("dead line is thursday", _at(2026, 12, 3, *_END)),
        ("dead-line: thrusday pls", _at(2026, 12, 3, *_END)),
        ("our dead line is 9 December", _at(2026, 12, 9, *_END)),
        ("Dead line: 2026-12-12", _at(2026, 12, 12, *_END)),
        # a deadline set by someone
        ("The deadline from our funding agency is 20 December.", _at(2026, 12, 20, *_END)),
        ("the deadline set by the journal is the 22nd of December", _at(2026, 12, 22, *_END)),
        ("Deadline given by my supervisor is Dec 17.", _at(2026, 12, 17, *_END)),
        # tomorrow without its first "o"
        ("results by tmorrow would be great", _at(2026, 12, 2, *_END)),
        ("need it before tmorow noon", _at(2026, 12, 2, 12, 0)),
        # "the answer" that is the job's result
        ("We need the answer until 12 December for the report.", _at(2026, 12, 12, *_END)),
        ("we needed the answer by Friday, the paper depends on it", _at(2026, 12, 4, *_END)),
        # deadline keys of forms
        ("deliver_by: 2026-12-11\nnodes: 2", _at(2026, 12, 11, *_END)),
        ('delivery_date = "2026-12-14"', _at(2026, 12, 14, *_END)),
        ('{"job": {"nodes": 4}, "ready_by": "2026-12-09"}', _at(2026, 12, 9, *_END)),
        ("done_by: 2026-12-16", _at(2026, 12, 16, *_END)),
    ],
)
def test_a_loosely_cued_deadline_is_read(text: str, expected: datetime) -> None:
    got = parse_requirements(text, now=NOW)
    assert got.deadline == expected, (text, got.deadline)


@pytest.mark.parametrize(
    "text",
    [
        # a reply asked for, not the results
        "Could you send us an answer by Friday whether the allocation is possible?",
        "please answer by Thursday so we can plan",
        "we would appreciate your answer until 10 December",
        # "before it" that goes on, or with nothing asked
        "The upgrade is on 9 December; we ran the old version before it started.",
        "The workshop was on 3 November and I presented a poster before it.",
        # "dead" that is no deadline
        "the dead nodes from last Friday are back",
        # a deadline set by someone, but no date given
        "the deadline from our programme manager is not fixed yet",
    ],
)
def test_no_deadline_where_none_is_asked(text: str) -> None:
    got = parse_requirements(text, now=NOW)
    assert got.deadline is None, (text, got.deadline)
