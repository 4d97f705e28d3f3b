"""MPI providers for implementations that cannot be installed here, from recorded outputs.

Intel MPI, IBM Spectrum MPI, MVAPICH and Cray MPICH are not packaged for Debian. Their command
outputs below were written from each tool's documented format (``mpirun -V`` of Intel MPI,
``ompi_info --parsable`` of Spectrum MPI, ``mpiname -a`` of MVAPICH2) and are served by a
:class:`CommandRunner` subclass; the programs themselves are empty files in a temporary ``bin``
folder (so that detection by path, and symbolic-link resolution, are real). Cray MPICH is read
from its module's environment variables only. The tests also check that the Open MPI and MPICH
providers do not claim these derived implementations.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pytest

from providers.commands import CommandResult, CommandRunner
from providers.errors import CommandError
from providers.parallel.cray_mpich import CrayMPICHProvider
from providers.parallel.intel_mpi import IntelMPIProvider
from providers.parallel.mpich import MPICHProvider
from providers.parallel.mvapich import MVAPICHProvider
from providers.parallel.openmpi import OpenMPIProvider
from providers.parallel.spectrum_mpi import SpectrumMPIProvider

INTEL_V = """Intel(R) MPI Library for Linux* OS, Version 2021.10 Build 20230619 (id: c2e19c2f3e)
Copyright 2003-2023, Intel Corporation.
"""

SPECTRUM_OMPI_INFO = """package:IBM Spectrum MPI
ompi:version:full:10.4.0.6
ompi:version:repo:IBM Spectrum MPI 10.4.0.6
ompi:version:release_date:Feb 11, 2022
mpi-api:version:full:3.1.0
ident:10.4.0.6
path:prefix:/opt/ibm/spectrum_mpi
bindings:c:yes
compiler:c:command:xlc_r
mca:plm:rsh:version:"mca:2.1.0"
mca:plm:rsh:version:"component:10.4.0.6"
mca:schizo:jsm:version:"component:10.4.0.6"
"""

DEBIAN_OMPI_INFO = """package:Debian OpenMPI
ompi:version:full:4.1.4
ident:4.1.4
path:prefix:/usr
mca:plm:rsh:version:"component:4.1.4"
mca:plm:slurm:version:"component:4.1.4"
"""

MVAPICH_MPINAME = """MVAPICH2 2.3.7 Wed March 02 22:00:00 EST 2022 ch3:mrail

Compilation
CC: gcc    -DNDEBUG -DNVALGRIND -O2
CXX: g++   -DNDEBUG -DNVALGRIND -O2
F77: gfortran -L/lib -L/lib   -O2
FC: gfortran   -O2

Configuration
--prefix=/opt/mvapich2/2.3.7 --with-pm=slurm --with-pmi=pmi2
"""

MVAPICH_MPICHVERSION = """MVAPICH2 Version:     	2.3.7
MVAPICH2 Release date:	Wed March 02 22:00:00 EST 2022
MVAPICH2 Device:      	ch3:mrail
"""


class RecordedRunner(CommandRunner):
    """Answers commands from recorded outputs, keyed by program name and arguments.

    ``which`` is the real one, over ``bin_dir`` only, so detection by path is exercised.
    """

    def __init__(self, bin_dir: Path, outputs: dict[tuple[str, ...], str]) -> None:
        super().__init__(env={"PATH": str(bin_dir)})
        self.outputs = outputs
        self.calls: list[tuple[str, ...]] = []

    def run(self, argv: Sequence[str], **kwargs: object) -> CommandResult:
        key = (os.path.basename(str(argv[0])), *map(str, argv[1:]))
        self.calls.append(key)
        if key not in self.outputs:
            raise CommandError(f"{key[0]}: program not found", argv=list(key))
        return CommandResult(tuple(map(str, argv)), 0, self.outputs[key], "", 0.01)


def _programs(folder: Path, *names: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        path = folder / name
        path.write_text("#!/bin/sh\nexit 0\n")
        path.chmod(0o755)
    return folder


# -- Intel MPI --------------------------------------------------------------------------------


@pytest.fixture()
def intel_root(tmp_path: Path) -> Path:
    root = tmp_path / "oneapi" / "mpi" / "2021.10.0"
    _programs(root / "bin", "mpirun", "mpiexec", "mpiexec.hydra", "impi_info")
    return root


def test_intel_mpi_from_i_mpi_root(
    tmp_path: Path, intel_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("I_MPI_ROOT", str(intel_root))
    monkeypatch.setenv("I_MPI_PMI_LIBRARY", "/usr/lib/x86_64-linux-gnu/libpmi2.so")
    bin_dir = _programs(tmp_path / "bin", "srun")
    runner = RecordedRunner(bin_dir, {("mpirun", "-V"): INTEL_V})
    info = IntelMPIProvider(runner=runner).mpi_info()
    assert info.implementation == "intel-mpi"
    assert info.version == "2021.10"
    assert info.launchers == ("mpirun", "mpiexec", "mpiexec.hydra", "srun")


def test_intel_mpi_from_impi_info_on_path(
    intel_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("I_MPI_ROOT", raising=False)
    monkeypatch.delenv("I_MPI_PMI_LIBRARY", raising=False)
    runner = RecordedRunner(intel_root / "bin", {("mpirun", "-V"): INTEL_V})
    info = IntelMPIProvider(runner=runner).mpi_info()
    assert info.version == "2021.10"
    assert "srun" not in info.launchers


def test_intel_mpi_absent_without_hints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("I_MPI_ROOT", raising=False)
    runner = RecordedRunner(_programs(tmp_path / "bin", "mpirun"), {})
    report = IntelMPIProvider(runner=runner).probe()
    assert not report.available and report.error is None
    assert runner.calls == []  # no other implementation's mpirun is run to find out


def test_intel_mpi_root_without_mpirun_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("I_MPI_ROOT", str(tmp_path / "nothing"))
    report = IntelMPIProvider(runner=RecordedRunner(tmp_path, {})).probe()
    assert not report.available
    assert report.error is not None and "I_MPI_ROOT" in report.error


def test_mpich_does_not_claim_intel_hydra(intel_root: Path) -> None:
    runner = RecordedRunner(intel_root / "bin", {("mpiexec.hydra", "--version"): INTEL_V})
    assert not MPICHProvider(runner=runner).probe().available


# -- Spectrum MPI -----------------------------------------------------------------------------


def test_spectrum_mpi_from_mpi_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "spectrum_mpi"
    _programs(root / "bin", "ompi_info", "mpirun")
    monkeypatch.setenv("MPI_ROOT", str(root))
    path_bin = _programs(tmp_path / "path", "jsrun")
    runner = RecordedRunner(path_bin, {("ompi_info", "--parsable"): SPECTRUM_OMPI_INFO})
    info = SpectrumMPIProvider(runner=runner).mpi_info()
    assert (info.implementation, info.version) == ("spectrum-mpi", "10.4.0.6")
    assert info.launchers == ("mpirun", "jsrun")


def test_openmpi_does_not_claim_spectrum_and_spectrum_not_openmpi(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MPI_ROOT", raising=False)
    bin_dir = _programs(tmp_path / "bin", "ompi_info", "mpirun")
    spectrum = RecordedRunner(bin_dir, {("ompi_info", "--parsable"): SPECTRUM_OMPI_INFO})
    assert not OpenMPIProvider(runner=spectrum).probe().available
    assert SpectrumMPIProvider(runner=spectrum).probe().available
    debian = RecordedRunner(bin_dir, {("ompi_info", "--parsable"): DEBIAN_OMPI_INFO})
    assert OpenMPIProvider(runner=debian).probe().available
    assert not SpectrumMPIProvider(runner=debian).probe().available


def test_openmpi_launchers_when_mpirun_points_to_mpich(tmp_path: Path) -> None:
    """Alternatives switched to MPICH: plain mpirun is Hydra, Open MPI keeps mpirun.openmpi."""
    bin_dir = _programs(tmp_path / "bin", "ompi_info", "orterun", "mpiexec.hydra", "srun")
    (bin_dir / "mpirun.openmpi").symlink_to("orterun")
    (bin_dir / "mpirun").symlink_to("mpiexec.hydra")
    runner = RecordedRunner(bin_dir, {("ompi_info", "--parsable"): DEBIAN_OMPI_INFO})
    info = OpenMPIProvider(runner=runner).mpi_info()
    assert info.version == "4.1.4"
    assert info.launchers == ("mpirun.openmpi", "srun")


def test_ompi_info_failure_makes_the_provider_unknown_not_absent(tmp_path: Path) -> None:
    bin_dir = _programs(tmp_path / "bin", "ompi_info")
    report = OpenMPIProvider(runner=RecordedRunner(bin_dir, {})).probe()
    assert not report.available
    assert report.error is not None and "ompi_info" in report.error


# -- MVAPICH ----------------------------------------------------------------------------------


def test_mvapich_from_mpiname(tmp_path: Path) -> None:
    bin_dir = _programs(
        tmp_path / "mvapich2" / "bin", "mpiname", "mpichversion", "mpirun_rsh", "mpiexec", "srun"
    )
    runner = RecordedRunner(
        bin_dir,
        {("mpiname", "-a"): MVAPICH_MPINAME, ("mpichversion",): MVAPICH_MPICHVERSION},
    )
    info = MVAPICHProvider(runner=runner).mpi_info()
    assert (info.implementation, info.version) == ("mvapich", "2.3.7")
    assert info.launchers == ("mpirun_rsh", "mpiexec", "srun")
    # MVAPICH's own mpichversion names MVAPICH2: the MPICH provider does not claim it
    assert not MPICHProvider(runner=runner).probe().available


def test_mpiname_of_something_else_is_not_mvapich(tmp_path: Path) -> None:
    bin_dir = _programs(tmp_path / "bin", "mpiname")
    runner = RecordedRunner(bin_dir, {("mpiname", "-a"): "MPICH 4.1 ch4\n"})
    report = MVAPICHProvider(runner=runner).probe()
    assert not report.available and report.error is None


# -- Cray MPICH -------------------------------------------------------------------------------


def test_cray_mpich_from_version_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CRAY_MPICH_VERSION", "8.1.27")
    monkeypatch.setenv("CRAY_MPICH_DIR", "/opt/cray/pe/mpich/8.1.27/ofi/gnu/9.1")
    runner = RecordedRunner(_programs(tmp_path / "bin", "srun"), {})
    info = CrayMPICHProvider(runner=runner).mpi_info()
    assert (info.implementation, info.version, info.launchers) == (
        "cray-mpich",
        "8.1.27",
        ("srun",),
    )
    assert runner.calls == []


def test_cray_mpich_version_from_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CRAY_MPICH_VERSION", raising=False)
    monkeypatch.setenv("CRAY_MPICH_DIR", "/opt/cray/pe/mpich/8.1.28/ofi/cray/17.0")
    runner = RecordedRunner(_programs(tmp_path / "bin", "aprun"), {})
    info = CrayMPICHProvider(runner=runner).mpi_info()
    assert (info.version, info.launchers) == ("8.1.28", ("aprun",))


def test_cray_mpich_absent_without_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CRAY_MPICH_VERSION", raising=False)
    monkeypatch.delenv("CRAY_MPICH_DIR", raising=False)
    assert not CrayMPICHProvider().probe().available
