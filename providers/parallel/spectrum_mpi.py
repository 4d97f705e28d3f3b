"""IBM Spectrum MPI (Open MPI based; Summit, Sierra and other POWER systems).

Spectrum MPI ships Open MPI's ``ompi_info``; its ``--parsable`` output names the package
``IBM Spectrum MPI`` and gives Spectrum's own version in ``ompi:version:full`` (``10.4.0.6``).
``$MPI_ROOT`` (set by its module) says where it is. Jobs start with ``mpirun`` or, on LSF/CSM
systems, IBM's ``jsrun``.
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
    parse_ompi_info,
)
from providers.parallel.openmpi import is_spectrum


class SpectrumMPIProvider(MPIProvider):
    """IBM Spectrum MPI: ``ompi_info`` whose package is IBM Spectrum MPI.

    Options:
        root: Spectrum MPI's folder (default: ``$MPI_ROOT``, else ``ompi_info`` on PATH).
    """

    name: ClassVar[str] = "spectrum-mpi"
    description: ClassVar[str] = "IBM Spectrum MPI: version and launchers (mpirun, jsrun)."
    detection: ClassVar[str] = (
        "options['root'] or $MPI_ROOT (bin/ompi_info), else 'ompi_info' on PATH; counts only "
        "when 'ompi_info --parsable' names the package IBM Spectrum MPI"
    )

    def _probe(self) -> MPIFacts | None:
        """Run ``ompi_info --parsable`` and keep it only when it is Spectrum MPI's.

        Postconditions: None when there is no ``ompi_info`` or it is plain Open MPI's.

        Raises:
            ProviderError: ``ompi_info`` failed or printed no version.
        """
        root = self.options.get("root") or os.environ.get("MPI_ROOT")
        folder = os.path.join(root, "bin") if isinstance(root, str) and root else None
        ompi_info = find_program(self.runner, ["ompi_info"], folder)
        if ompi_info is None:
            return None
        try:
            text = self.runner.run([ompi_info, "--parsable"], timeout_s=VERSION_TIMEOUT_S).stdout
        except CommandError as exc:
            raise ProviderError(f"ompi_info: {exc.message}", transient=exc.transient) from None
        values = parse_ompi_info(text)
        if not is_spectrum(values.get("package", "")):
            return None
        version = values.get("ompi:version:full") or values.get("ident")
        if not version:
            raise ProviderError(f"{ompi_info} --parsable reported no ompi:version:full line")
        launchers = (
            ["mpirun"] if find_program(self.runner, ["mpirun"], os.path.dirname(ompi_info)) else []
        )
        launchers += launchers_on_path(self.runner, ["jsrun"])
        return MPIFacts(implementation="spectrum-mpi", version=version, launchers=tuple(launchers))
