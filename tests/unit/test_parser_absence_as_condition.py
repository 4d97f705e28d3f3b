"""Absence as the condition of an "if": the feature or package is needed, never excluded.

"If there is no MPI, abort" asks for MPI. Read as "no MPI", the job would be sent to a site that
lacks it: the one error a broker must not make. "If there is no GPU, CPU is fine" stays what it
says, GPUs as an option.
"""

from __future__ import annotations

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire.requirements import Feature, GpuLogic


@pytest.mark.parametrize(
    ("text", "feature"),
    [
        ("if no mpi is available, abort", Feature.MPI),
        ("If the site has no Singularity we cannot run it.", Feature.CONTAINER),
        ("in case the cluster has no InfiniBand, do not submit", Feature.LOW_LATENCY),
        ("If there's no MPI library the solver won't start.", Feature.MPI),
        ("When there is no container runtime the pipeline breaks", Feature.CONTAINER),
        ("if your machine has no GPUs please decline", Feature.GPU),
        ("If you do not have MPI installed, tell me and I will look elsewhere.", Feature.MPI),
        ("whenever there are no GPUs the training crashes", Feature.GPU),
    ],
)
def test_absence_in_a_condition_is_no_exclusion(text: str, feature: Feature) -> None:
    assert feature not in parse_requirements(text).excluded


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("If there is no MATLAB R2023b the job fails.", "matlab"),
        ("In case your site has no CP2K 2024.1, stop.", "cp2k"),
        ("if you do not have OpenFOAM v2312 please say so", "openfoam"),
        ("When there is no Kokkos we cannot build", "kokkos"),
        ("If the cluster has no GROMACS 2023, I can't use it.", "gromacs"),
        ("if there isn't any LAMMPS 2Aug2023 just decline", "lammps"),
    ],
)
def test_a_package_absent_in_a_condition_is_still_needed(text: str, name: str) -> None:
    assert name in {s.name for s in parse_requirements(text).software}


def test_a_not_inside_the_condition_blocks_ready() -> None:
    """ "If not GROMACS 2024 is there": the "not" is the condition's, so the version it seems to
    exclude is no constraint to trust; the phrase is quoted and no site is READY unseen."""
    parsed = parse_requirements("If not GROMACS 2024 is there, we cannot run.")
    assert "gromacs" in {s.name for s in parsed.software}
    assert any("GROMACS 2024" in u for u in parsed.unresolved)


@pytest.mark.parametrize(
    ("text", "feature"),
    [
        ("No GPUs, no MPI.", Feature.GPU),
        ("We don't need MPI; if it fails, tell me.", Feature.MPI),
        ("If possible, no containers.", Feature.CONTAINER),
        ("Please, no GPU for this one", Feature.GPU),
        ("We do not need MPI at all, if that helps", Feature.MPI),
    ],
)
def test_plain_absence_still_excludes(text: str, feature: Feature) -> None:
    assert feature in parse_requirements(text).excluded


@pytest.mark.parametrize(
    "text",
    ["We do not need Hadoop.", "Nek5000 (not NekRS)", "no need for Kokkos here"],
)
def test_plain_negated_packages_are_still_set_aside(text: str) -> None:
    names = {s.name for s in parse_requirements(text).software}
    assert not names & {"hadoop", "nekrs", "kokkos"}


def test_cpu_fallback_in_a_condition_stays_an_option() -> None:
    parsed = parse_requirements("If there is no GPU, CPU is fine.")
    assert Feature.GPU not in parsed.excluded
    assert parsed.compute is not None and parsed.compute.gpu_logic is GpuLogic.OR
