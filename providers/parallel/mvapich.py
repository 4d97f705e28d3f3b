"""MVAPICH (MVAPICH2, MVAPICH2-GDR, MVAPICH 3), from ``mpiname -a``.

``mpiname -a`` prints the name and version first: ``MVAPICH2 2.3.7 Wed March 02 22:00:00 EST
2022 ch3:mrail``, then the compilers and configure options. Another program called
``mpiname`` that does not start with MVAPICH is not claimed.
"""

from __future__ import annotations

import os
import re
from typing import ClassVar

from providers.categories import MPIProvider
from providers.facts import MPIFacts
from providers.parallel._common import find_program, launchers_on_path, run_text

_HEAD_RE = re.compile(r"^\s*(MVAPICH[\w-]*)\s+(\d[\w.]*)", re.MULTILINE)


class MVAPICHProvider(MPIProvider):
    """MVAPICH: version from ``mpiname -a``, launchers beside it.

    Options:
        prefix: MVAPICH's install prefix, when ``mpiname`` is not on PATH.
    """

    name: ClassVar[str] = "mvapich"
    description: ClassVar[str] = "MVAPICH: version and launchers (mpirun_rsh, mpiexec, srun)."
    detection: ClassVar[str] = "'mpiname' in options['prefix']/bin or on PATH; runs 'mpiname -a'"

    def _probe(self) -> MPIFacts | None:
        """Run ``mpiname -a``.

        Postconditions: None without an ``mpiname`` that names MVAPICH; otherwise
        ``implementation == "mvapich"`` with the version (``2.3.7``).

        Raises:
            ProviderError: ``mpiname`` failed or timed out.
        """
        prefix = self.options.get("prefix")
        folder = os.path.join(prefix, "bin") if isinstance(prefix, str) and prefix else None
        mpiname = find_program(self.runner, ["mpiname"], folder)
        if mpiname is None:
            return None
        head = _HEAD_RE.search(run_text(self.runner, [mpiname, "-a"], what="mpiname -a"))
        if head is None:
            return None
        bin_dir = os.path.dirname(mpiname)
        launchers = [
            name
            for name in ("mpirun_rsh", "mpiexec", "mpiexec.hydra", "mpirun")
            if find_program(self.runner, [name], bin_dir)
        ]
        launchers += launchers_on_path(self.runner, ["srun"])
        return MPIFacts(implementation="mvapich", version=head.group(2), launchers=tuple(launchers))
