"""A pasted script whose values the writer then overrides in prose.

"Same script as below, but on 6 nodes and with a 20 hour limit instead": the prose replaces
the script's ``--nodes`` and ``--time``, and the rest of the script stands. The wordings are
written for these tests; the negative cases keep the script's values where the prose does not
replace them.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)

SLURM = (
    "\n\n  #!/bin/bash\n  #SBATCH --nodes=3\n  #SBATCH --ntasks-per-node=32\n"
    "  #SBATCH --time=10:00:00\n  module load lammps/2Aug2023\n  srun lmp -in in.melt\n"
)
PBS = (
    "\n\n  #PBS -l select=2:ncpus=64:mem=200gb\n  #PBS -l walltime=08:00:00\n"
    "  module load cp2k/2024.1\n  mpirun cp2k.psmp -i run.inp\n"
)


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


@pytest.mark.parametrize(
    ("text", "nodes", "walltime_s"),
    [
        (
            "Please rerun the script below, but on 5 nodes and with 16 hours instead." + SLURM,
            5,
            57600,
        ),
        ("Keep the script as is, only run it on 8 nodes instead." + SLURM, 8, 36000),
        ("It is the same job as before but give it 30 hours instead." + SLURM, 3, 108000),
        ("Same script, but 4 nodes instead, everything else unchanged." + SLURM, 4, 36000),
        ("Use this script with a 2 hour limit instead; it is only a test." + SLURM, 3, 7200),
        ("Run this unchanged except that it should take 3 nodes instead." + PBS, 3, 28800),
        ("Could you submit this with 12 hours of walltime instead." + PBS, 2, 43200),
        ("This is my old script; run it on 6 nodes instead please." + PBS, 6, 28800),
        # no replacement said: the script's values stand
        ("Here is my script, it worked fine on 3 nodes." + SLURM, 3, 36000),
        ("Please run the script below." + SLURM, 3, 36000),
        # "instead" about something else: the script's counts stand
        ("Please load the GNU build instead." + SLURM, 3, 36000),
        ("Use the debug queue instead, it is a short test." + PBS, 2, 28800),
        # a past clause with "instead" is still history
        ("Last year we used 7 nodes instead, and it was slow." + PBS, 2, 28800),
    ],
)
def test_prose_replaces_the_scripts_values(text: str, nodes: int, walltime_s: int) -> None:
    req = parse(text)
    assert req.compute.nodes == nodes
    assert req.compute.walltime_s == walltime_s
