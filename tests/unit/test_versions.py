"""Version ordering: the prototype compared versions as floats; these are the cases it broke."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from providers.versions import SiteVersion, satisfies, satisfies_all
from providers.wire import Comparator, VersionConstraint


def c(op: str, version: str) -> VersionConstraint:
    return VersionConstraint(op=Comparator(op), version=version)


@pytest.mark.parametrize(
    ("have", "op", "want", "expected"),
    [
        ("2.14", ">=", "2.7", True),  # float compare said 2.14 < 2.7
        ("2.7", ">=", "2.14", False),
        ("3.11.7", ">=", "3.8", True),
        ("3.11.7", "<=", "3.11", True),  # prefix equality as people mean it
        ("3.12.1", "<=", "3.11", False),
        ("3.11.7", "==", "3.11", True),
        ("3.1.0", "==", "3.11", False),
        ("1.2.3", ">=", "1.2.4", False),  # three-part versions: float fallback made >= act as ==
        ("1.2.5", ">=", "1.2.4", True),
        ("1.2.3", "<=", "1.2.4", True),
        ("4.1.4", ">", "4.1", True),
        ("4.1", ">", "4.1", False),
        ("4.0.9", "<", "4.1", True),
        ("2Aug2023", ">", "29Sep2021", True),  # LAMMPS date versions
        ("29Sep2021", ">=", "2023", False),
        ("2Aug2023", ">=", "2023", True),
        ("2Aug2023", "==", "2Aug2023", True),
        ("12.2.0", "<", "12.10", True),
        ("develop", ">=", "5.0", True),
        ("2024.1", ">=", "2023.3", True),
        ("1.0rc1", "<", "1.0", True),
        ("11.8", "!=", "12.4", True),
        ("@3.1.4", "==", "3.1.4", True),  # Spack prints @versions
    ],
)
def test_satisfies(have: str, op: str, want: str, expected: bool):
    assert satisfies(have, c(op, want)) is expected


def test_range():
    both = [c(">=", "2.0"), c("<", "3.0")]
    assert satisfies_all("2.7.1", both)
    assert not satisfies_all("3.0.0", both)
    assert satisfies_all("anything", [])


versions = st.lists(st.integers(min_value=0, max_value=300), min_size=1, max_size=4).map(
    lambda parts: ".".join(map(str, parts))
)


@given(versions, versions)
def test_total_order_is_consistent(a: str, b: str):
    va, vb = SiteVersion(a), SiteVersion(b)
    assert (va < vb) + (va == vb) + (va > vb) == 1


@given(st.text(max_size=30), st.text(min_size=1, max_size=30))
def test_never_raises_on_odd_versions(have: str, want: str):
    want = want.strip() or "1"
    for op in Comparator:
        satisfies(have, VersionConstraint(op=op, version=want))
