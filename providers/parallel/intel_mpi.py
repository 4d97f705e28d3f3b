"""Intel MPI (oneAPI), from ``$I_MPI_ROOT`` and ``mpirun -V``.

``mpirun -V`` prints ``Intel(R) MPI Library for Linux* OS, Version 2021.10 Build 20230619 (id:
c2e19c2f3e)``. Detection needs ``$I_MPI_ROOT`` (set by oneAPI's ``setvars.sh`` and the
``intel-mpi`` modules), ``options["root"]``, or Intel's ``impi_info`` on PATH, so no other
implementation's ``mpirun`` is ever run to find out. ``srun`` counts as a launcher only when
``$I_MPI_PMI_LIBRARY`` points Intel MPI at Slurm's PMI library, which it needs to run under srun.
"""

from __future__ import annotations

import os
from typing import ClassVar

from providers.categories import MPIProvider
from providers.errors import ProviderError
from providers.facts import MPIFacts
from providers.parallel._common import find_program, run_text, search

_BIN_DIRS = ("bin", os.path.join("intel64", "bin"))
"""oneAPI (2021+) keeps programs in ``bin``; Parallel Studio (2019) in ``intel64/bin``."""


class IntelMPIProvider(MPIProvider):
    """Intel MPI: version from ``mpirun -V``, launchers from its install folder.

    Options:
        root: the Intel MPI folder (default: ``$I_MPI_ROOT``).
    """

    name: ClassVar[str] = "intel-mpi"
    description: ClassVar[str] = "Intel MPI: version and launchers (mpirun, mpiexec.hydra, srun)."
    detection: ClassVar[str] = (
        "options['root'] or $I_MPI_ROOT, or 'impi_info' on PATH; runs '<root>/bin/mpirun -V'"
    )

    def _bin_dir(self) -> str | None:
        root = self.options.get("root") or os.environ.get("I_MPI_ROOT")
        if isinstance(root, str) and root:
            for sub in _BIN_DIRS:
                folder = os.path.join(root, sub)
                if os.path.isfile(os.path.join(folder, "mpirun")):
                    return folder
            raise ProviderError(
                f"Intel MPI root {root!r} has no bin/mpirun; fix I_MPI_ROOT or options['root']"
            )
        impi_info = self.runner.which("impi_info")
        return os.path.dirname(impi_info) if impi_info else None

    def _probe(self) -> MPIFacts | None:
        """Run ``mpirun -V`` from Intel MPI's folder.

        Postconditions: None without any Intel MPI hint; otherwise ``implementation ==
        "intel-mpi"`` with the library version (``2021.10``).

        Raises:
            ProviderError: the root has no ``mpirun``, or ``mpirun -V`` is not Intel MPI's.
        """
        folder = self._bin_dir()
        if folder is None:
            return None
        mpirun = os.path.join(folder, "mpirun")
        text = run_text(self.runner, [mpirun, "-V"], what="mpirun -V")
        if "Intel(R) MPI Library" not in text:
            raise ProviderError(f"{mpirun} -V does not report an Intel(R) MPI Library")
        version = search(r"Intel\(R\) MPI Library.*?Version\s+([\w.]+)", text)
        launchers = [
            name
            for name in ("mpirun", "mpiexec", "mpiexec.hydra")
            if find_program(self.runner, [name], folder)
        ]
        if os.environ.get("I_MPI_PMI_LIBRARY") and self.runner.which("srun"):
            launchers.append("srun")
        return MPIFacts(implementation="intel-mpi", version=version, launchers=tuple(launchers))
