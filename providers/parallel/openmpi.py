"""Open MPI, read from ``ompi_info --parsable``.

``ompi_info`` names the package (``package:Debian OpenMPI``), the version
(``ompi:version:full:4.1.4``) and the compiled-in components, among them the process launch
modules: ``mca:plm:slurm`` means jobs can be started with ``srun`` under Slurm. IBM Spectrum
MPI ships an ``ompi_info`` too; its package line names Spectrum, and it is left to the
``spectrum-mpi`` provider. On Debian, where MPICH is installed beside it, only the launchers
that resolve to Open MPI's own ``orterun``/``prterun`` count, so ``mpirun`` switched to MPICH
through alternatives is never claimed.
"""

from __future__ import annotations

import os
from typing import ClassVar

from providers.categories import MPIProvider
from providers.errors import CommandError, ProviderError
from providers.facts import MPIFacts
from providers.parallel._common import (
    VERSION_TIMEOUT_S,
    find_program,
    launchers_on_path,
    ompi_components,
    parse_ompi_info,
    real_name,
)

OPENMPI_LAUNCH_PROGRAMS = frozenset({"orterun", "prterun", "mpirun.openmpi", "mpiexec.openmpi"})
"""What Open MPI's ``mpirun``/``mpiexec`` finally point to (4.x: orterun, 5.x: prterun)."""


def is_spectrum(package: str) -> bool:
    """True for the package line of IBM Spectrum MPI's ``ompi_info``."""
    return "spectrum" in package.lower()


def belongs_to_openmpi(launcher: str, bin_dir: str) -> bool:
    """True when ``launcher`` is Open MPI's.

    It is when it resolves to ``orterun``/``prterun``, or (Open MPI 5 in its own prefix) to a
    program named ``mpirun``/``mpiexec`` beside ``ompi_info`` in a folder holding no MPICH.
    A launcher resolving to MPICH's ``mpiexec.hydra`` never is.
    """
    name = real_name(launcher)
    if name in OPENMPI_LAUNCH_PROGRAMS:
        return True
    return (
        name in {"mpirun", "mpiexec"}
        and os.path.dirname(os.path.realpath(launcher)) == bin_dir
        and not os.path.exists(os.path.join(bin_dir, "mpichversion"))
    )


class OpenMPIProvider(MPIProvider):
    """Open MPI: version from ``ompi_info`` and the launchers that belong to it.

    Options:
        prefix: Open MPI's install prefix, when ``ompi_info`` is not on PATH.
    """

    name: ClassVar[str] = "openmpi"
    description: ClassVar[str] = (
        "Open MPI: version and launchers (mpirun, mpiexec, srun when built with Slurm support)."
    )
    detection: ClassVar[str] = (
        "'ompi_info' in options['prefix']/bin or on PATH whose package is not IBM Spectrum MPI; "
        "runs 'ompi_info --parsable'"
    )

    def _probe(self) -> MPIFacts | None:
        """Run ``ompi_info --parsable``.

        Postconditions: None when no ``ompi_info`` is found or it belongs to Spectrum MPI;
        otherwise ``implementation == "openmpi"`` with the full version.

        Raises:
            ProviderError: ``ompi_info`` failed or printed no version.
        """
        prefix = self.options.get("prefix")
        folder = os.path.join(prefix, "bin") if isinstance(prefix, str) and prefix else None
        ompi_info = find_program(self.runner, ["ompi_info"], folder)
        if ompi_info is None:
            return None
        try:
            text = self.runner.run([ompi_info, "--parsable"], timeout_s=VERSION_TIMEOUT_S).stdout
        except CommandError as exc:
            raise ProviderError(f"ompi_info: {exc.message}", transient=exc.transient) from None
        values = parse_ompi_info(text)
        if is_spectrum(values.get("package", "")):
            return None
        version = values.get("ompi:version:full") or values.get("ident")
        if not version:
            raise ProviderError(f"{ompi_info} --parsable reported no ompi:version:full line")
        launchers = self._launchers(os.path.dirname(os.path.realpath(ompi_info)))
        if "slurm" in ompi_components(text, "plm") and self.runner.which("srun"):
            launchers.append("srun")
        return MPIFacts(implementation="openmpi", version=version, launchers=tuple(launchers))

    def _launchers(self, bin_dir: str) -> list[str]:
        """``mpirun``/``mpiexec`` when they are Open MPI's, else the ``.openmpi`` names."""
        found: list[str] = []
        for name in ("mpirun", "mpiexec"):
            path = self.runner.which(name)
            if path is None:
                continue
            if belongs_to_openmpi(path, bin_dir):
                found.append(name)
        if "mpirun" not in found:
            found.extend(launchers_on_path(self.runner, ["mpirun.openmpi"]))
        if "mpiexec" not in found:
            found.extend(launchers_on_path(self.runner, ["mpiexec.openmpi"]))
        return found
