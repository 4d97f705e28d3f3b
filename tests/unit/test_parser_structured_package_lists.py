"""Package lists in forms: TOML tables whose keys are quoted ("bout++" = "5.1"), and YAML
lists of name/version mappings under a package key. A ``name:`` elsewhere names the job."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def _packages(text: str) -> dict[str, list[str]]:
    got = parse_requirements(text, now=NOW)
    return {s.name: [str(c) for c in s.constraints] for s in got.software}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[software]\n"nektar++" = "5.5"\n', {"nektar++": ["==5.5"]}),
        ("[packages]\n'deal.ii' = '>=9.5'\nopenfoam = \"2312\"\n", {"deal.ii": [">=9.5"]}),
        ('[software]\n"gromacs" = "2024.2"\n"plumed" = "*"\n', {"gromacs": ["==2024.2"]}),
        (
            "software:\n  - name: GROMACS\n    version: '2024.1'\n  - name: PLUMED\n",
            {"gromacs": ["==2024.1"], "plumed": []},
        ),
        (
            'job:\n  packages:\n    - name: petsc\n      version: ">=3.20, !=3.21.0"\n',
            {"petsc": [">=3.20", "!=3.21.0"]},
        ),
        (
            "dependencies:\n- name: hdf5\n  version: 1.14.3\n- name: netcdf-c\n  version: 4.9.2\n",
            {"hdf5": ["==1.14.3"], "netcdf-c": ["==4.9.2"]},
        ),
    ],
)
def test_a_package_of_a_form_list_is_read(text: str, expected: dict[str, list[str]]) -> None:
    got = _packages(text)
    for name, versions in expected.items():
        assert got.get(name) == versions, (text, got)


@pytest.mark.parametrize(
    "text",
    [
        "job:\n  - name: wind-farm-les\n    nodes: 4\n",
        "runs:\n  - name: baseline\n    walltime: 2h\n",
        'name = "divertor-scan"\nnodes = 2\n',
    ],
)
def test_a_name_outside_a_package_list_names_the_job(text: str) -> None:
    got = parse_requirements(text, now=NOW)
    assert not got.software, (text, got.software)
