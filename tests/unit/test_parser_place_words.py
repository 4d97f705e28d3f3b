""" "under" or "over" before a package name says where the job runs, not a version bound.

"the pipeline runs under Python 3.11" asks for Python 3.11; read as ``<3.11`` it let a site
with Python 3.10 match, the dangerous direction. Before a version the same words still compare
("Python under 3.12").
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements

NOW = datetime(2026, 12, 1, 9, tzinfo=UTC)


def _constraints(text: str, name: str) -> list[tuple[str, str]]:
    requirements = parse_requirements(text, now=NOW)
    (package,) = [s for s in requirements.software if s.name == name]
    return [(c.op.value, c.version) for c in package.constraints]


@pytest.mark.parametrize(
    ("text", "name", "version"),
    [
        ("the whole pipeline runs under Python 3.11", "python", "3.11"),
        ("Everything is tested under Python 3.12, 4 cores please", "python", "3.12"),
        ("our notebooks run under Julia 1.10 on one node", "julia", "1.10"),
        ("the scripts were written to run under R 4.3", "r", "4.3"),
        ("it has to work under numpy 1.26 because of the pickles", "numpy", "1.26"),
        ("we validated the workflow under GROMACS 2023, 2 nodes", "gromacs", "2023"),
        ("all analysis under pandas 2.2, 16 GB", "pandas", "2.2"),
        ("the model trains over PyTorch 2.3 on 4 GPUs", "pytorch", "2.3"),
    ],
)
def test_under_before_a_name_asks_for_that_release(text: str, name: str, version: str) -> None:
    assert _constraints(text, name) == [("==", version)], text


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        ("Python under 3.12 please", "python", [("<", "3.12")]),
        ("numpy, under 2.0, the old API", "numpy", [("<", "2.0")]),
        ("a pandas version under 2.0", "pandas", [("<", "2.0")]),
        ("GROMACS over 2021 on 2 nodes", "gromacs", [(">", "2021")]),
        ("at least Python 3.10", "python", [(">=", "3.10")]),
        ("older than GROMACS 2020", "gromacs", [("<", "2020")]),
    ],
)
def test_under_and_over_before_a_version_still_compare(
    text: str, name: str, expected: list[tuple[str, str]]
) -> None:
    assert _constraints(text, name) == expected, text
