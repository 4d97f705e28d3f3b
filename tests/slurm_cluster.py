"""The local Slurm cluster, and private clusters of fake nodes started beside it, for tests.

``scripts/hpc/slurm-up.sh`` starts the main cluster; a test that needs more nodes (or GPUs)
starts a private one with ``scripts/hpc/slurm-private-cluster.sh`` on free ports and stops it
with ``slurm-down.sh``.
"""

from __future__ import annotations

import random
import socket
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from providers.commands import CommandRunner
from providers.errors import CommandError

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts" / "hpc"


def cluster_responds(runner: CommandRunner | None = None) -> bool:
    """True when ``sinfo`` is installed and the controller answers."""
    runner = runner or CommandRunner()
    if runner.which("sinfo") is None:
        return False
    try:
        runner.run(["sinfo", "-h", "-o", "%P"], timeout_s=15)
    except CommandError:
        return False
    return True


def free_port_base(count: int) -> int:
    """A base port with ``count`` consecutive free ports after it."""
    for _ in range(50):
        base = random.randrange(20000, 40000)
        try:
            for port in range(base, base + count):
                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", port))
        except OSError:
            continue
        return base
    raise RuntimeError("no free port range found")


@contextmanager
def private_cluster(
    folder: Path, nodes: int, env: Mapping[str, str] | None = None
) -> Iterator[Path]:
    """A private cluster of ``nodes`` fake nodes in ``folder``; yields its slurm.conf."""
    runner = CommandRunner(env=dict(env) if env else None)
    script = SCRIPTS / "slurm-private-cluster.sh"
    runner.run([str(script), str(folder), str(nodes), str(free_port_base(20))], timeout_s=120)
    try:
        yield folder / "slurm.conf"
    finally:
        CommandRunner().run(
            [str(SCRIPTS / "slurm-down.sh"), str(folder)], timeout_s=60, check=False
        )
