"""A bare count beside a demand ("I need 3 for a day") is a requirement nobody could read: it
must block READY (``unresolved``), never pass as prose."""

from __future__ import annotations

import pytest

from endpoint_plugins.parsing import parse_requirements

DEMANDS = [
    ("I need 3 for a day", "3"),
    ("give me 16 please, for 2 hours", "16"),
    ("we need 2x for a week with lammps", "2x"),
    ("could you allocate 12 for tonight", "12"),
    ("Requesting 64, walltime 4h", "64"),
    ("need 8 asap", "8"),
    ("my group wants 5 over the weekend", "5"),
    ("pls reserve 40 for the tutorial", "40"),
]
READ_OR_PROSE = [
    "I need python 3.11",
    "I need 4 nodes for a day",
    "we need it by 5 pm",
    "need gromacs 2023 on 2 nodes",
    "I want 32 cores and 64 GB",
    "thanks, see the 2 attached logs",
]


@pytest.mark.parametrize(("text", "amount"), DEMANDS)
def test_a_bare_count_beside_a_demand_blocks_ready(text: str, amount: str) -> None:
    req = parse_requirements(text)
    assert any(amount in u for u in req.unresolved), req.unresolved


@pytest.mark.parametrize("text", READ_OR_PROSE)
def test_counts_with_their_unit_or_in_prose_are_not_flagged(text: str) -> None:
    req = parse_requirements(text)
    assert not any(u.strip().rstrip("x").isdigit() for u in req.unresolved), req.unresolved
