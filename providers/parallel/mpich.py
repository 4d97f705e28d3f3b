"""MPICH, from ``mpichversion`` or the version page of its Hydra launcher.

``mpichversion`` prints ``MPICH Version: 4.0.2``; derived implementations print their own name
there (``MVAPICH2 Version:``) and are not claimed. Without ``mpichversion``, Hydra's
``--version`` page (``HYDRA build details: Version: 4.0.2``) of ``mpirun.mpich`` /
``mpiexec.mpich`` / ``mpiexec.hydra`` is read, unless it is Intel MPI's Hydra. On Debian,
``mpirun`` usually points to Open MPI; it counts as an MPICH launcher only when it resolves to
Hydra.
"""

from __future__ import annotations

import os
from typing import ClassVar

from providers.categories import MPIProvider
from providers.errors import ProviderError
from providers.facts import MPIFacts
from providers.parallel._common import find_program, launchers_on_path, run_text, search

HYDRA_PROGRAMS = frozenset({"mpiexec.hydra", "hydra"})
_HYDRA_NAMES = ("mpirun.mpich", "mpiexec.mpich", "mpiexec.hydra")


class MPICHProvider(MPIProvider):
    """MPICH: version from ``mpichversion`` (or Hydra) and the launchers that belong to it.

    Options:
        prefix: MPICH's install prefix, when its programs are not on PATH.
    """

    name: ClassVar[str] = "mpich"
    description: ClassVar[str] = "MPICH: version and launchers (Hydra mpiexec, srun with PMI)."
    detection: ClassVar[str] = (
        "'mpichversion' printing 'MPICH Version', else the Hydra launcher "
        "(mpirun.mpich, mpiexec.mpich, mpiexec.hydra) '--version' page; in options['prefix']/bin "
        "or on PATH"
    )

    def _probe(self) -> MPIFacts | None:
        """Ask ``mpichversion``, then Hydra.

        Postconditions: None when neither names MPICH; otherwise ``implementation == "mpich"``.

        Raises:
            ProviderError: a program that exists failed or timed out.
        """
        prefix = self.options.get("prefix")
        folder = os.path.join(prefix, "bin") if isinstance(prefix, str) and prefix else None
        text = ""
        version = None
        mpichversion = find_program(self.runner, ["mpichversion"], folder)
        if mpichversion is not None:
            text = run_text(self.runner, [mpichversion], what="mpichversion")
            version = search(r"^MPICH Version:\s*(\S+)", text)
        if version is None:
            hydra = find_program(self.runner, _HYDRA_NAMES, folder)
            if hydra is None:
                return None
            text = run_text(self.runner, [hydra, "--version"], what=os.path.basename(hydra))
            if "HYDRA build details" not in text or "Intel(R) MPI" in text:
                return None
            version = search(r"^\s*Version:\s*(\S+)", text)
            if version is None:
                raise ProviderError(f"{hydra} --version printed no Version line")
        launchers = launchers_on_path(self.runner, ["mpirun", "mpiexec"], targets=HYDRA_PROGRAMS)
        launchers += launchers_on_path(self.runner, ["mpirun.mpich", "mpiexec.mpich"])
        if "slurm" in text.lower() and self.runner.which("srun"):
            launchers.append("srun")
        return MPIFacts(implementation="mpich", version=version, launchers=tuple(launchers))
