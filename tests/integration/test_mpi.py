"""Open MPI and MPICH providers against the real Debian installations, side by side.

Both come from ``scripts/hpc/mpi-up.sh``. The versions the providers report are compared with
what ``ompi_info`` and ``mpichversion`` print, neither provider may claim the other's
launchers, and a real MPI program (an ``MPI_Allreduce`` over the ranks) is compiled with each
implementation's wrapper and run with two ranks through :class:`CommandRunner`.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import need_service

from providers.commands import CommandRunner
from providers.parallel.mpich import MPICHProvider
from providers.parallel.mvapich import MVAPICHProvider
from providers.parallel.openmpi import OpenMPIProvider
from providers.parallel.spectrum_mpi import SpectrumMPIProvider

pytestmark = pytest.mark.mpi

HAVE_OPENMPI = shutil.which("ompi_info") is not None and shutil.which("mpicc.openmpi") is not None
HAVE_MPICH = shutil.which("mpichversion") is not None and shutil.which("mpicc.mpich") is not None

HELLO = r"""
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, size, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d of %d sum=%d\n", rank, size, sum);
    MPI_Finalize();
    return 0;
}
"""


def _need_openmpi() -> None:
    need_service(HAVE_OPENMPI, "Open MPI is not installed (run scripts/hpc/mpi-up.sh as root)")


def _need_mpich() -> None:
    need_service(HAVE_MPICH, "MPICH is not installed (run scripts/hpc/mpi-up.sh as root)")


def test_openmpi_version_matches_ompi_info() -> None:
    _need_openmpi()
    text = CommandRunner().run(["ompi_info", "--parsable"]).stdout
    expected = re.search(r"^ompi:version:full:(\S+)$", text, re.MULTILINE)
    assert expected is not None
    report = OpenMPIProvider().probe()
    assert report.available, report.error
    assert report.facts is not None
    assert report.facts["implementation"] == "openmpi"
    assert report.facts["version"] == expected.group(1)
    assert "mpirun.mpich" not in report.facts["launchers"]
    assert "mpiexec.mpich" not in report.facts["launchers"]


def test_mpich_version_matches_mpichversion() -> None:
    _need_mpich()
    text = CommandRunner().run(["mpichversion"]).stdout
    expected = re.search(r"^MPICH Version:\s*(\S+)", text, re.MULTILINE)
    assert expected is not None
    report = MPICHProvider().probe()
    assert report.available, report.error
    assert report.facts is not None
    assert report.facts["implementation"] == "mpich"
    assert report.facts["version"] == expected.group(1)
    assert "mpirun.mpich" in report.facts["launchers"]


def test_neither_claims_the_other_when_both_are_installed() -> None:
    _need_openmpi()
    _need_mpich()
    runner = CommandRunner()
    mpirun_is_openmpi = "Open MPI" in runner.run(["mpirun", "--version"], check=False).stdout
    ompi = OpenMPIProvider().mpi_info()
    mpich = MPICHProvider().mpi_info()
    assert ompi.version != mpich.version
    # exactly one of them owns plain 'mpirun', the one the alternatives point to
    assert ("mpirun" in ompi.launchers) is mpirun_is_openmpi
    assert ("mpirun" in mpich.launchers) is not mpirun_is_openmpi
    # the Open MPI derived / MPICH derived providers do not claim plain Open MPI or MPICH
    assert not SpectrumMPIProvider().probe().available
    assert not MVAPICHProvider().probe().available


@pytest.mark.parametrize(
    ("compiler", "launch"),
    [
        ("mpicc.openmpi", ["mpirun.openmpi", "--allow-run-as-root", "--oversubscribe", "-np", "2"]),
        ("mpicc.mpich", ["mpirun.mpich", "-np", "2"]),
    ],
    ids=["openmpi", "mpich"],
)
def test_hello_world_runs_on_two_ranks(tmp_path: Path, compiler: str, launch: list[str]) -> None:
    _need_openmpi() if "openmpi" in compiler else _need_mpich()
    runner = CommandRunner(default_timeout_s=120.0)
    source = tmp_path / "hello.c"
    source.write_text(HELLO)
    binary = tmp_path / "hello"
    runner.run([compiler, str(source), "-o", str(binary)])
    result = runner.run([*launch, str(binary)], cwd=tmp_path)
    lines = sorted(line for line in result.stdout.splitlines() if line.startswith("rank "))
    assert lines == ["rank 0 of 2 sum=1", "rank 1 of 2 sum=1"], result.stdout + result.stderr
