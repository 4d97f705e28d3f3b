"""Finding a Slurm job by the hub's dispatch key, for a site restarted in the middle of a submit.

Each job this site submits carries ``--comment=secretary-key:KEY``. The controller keeps a
finished job (and its comment) for at least ``MinJobAge`` seconds, so for a key claimed less
than ``MinJobAge`` ago ``squeue --states=all`` is a complete answer: a job submitted after the
claim that is not listed was never submitted. For an older key the controller may have
forgotten the job, and the answer is "cannot tell" rather than a guess.

A submitting process killed while ``sbatch`` ran leaves that ``sbatch`` running on its own;
until it exits a job may still appear, so a live ``sbatch`` of a script carrying the key also
means "cannot tell yet".
"""

from __future__ import annotations

import re
from pathlib import Path

import psutil

KEY_COMMENT_PREFIX = "secretary-key:"

QUEUE_BY_COMMENT_ARGV = ("squeue", "-h", "-a", "--states=all", "-o", "%i|%k")
"""Every job the controller remembers (also finished ones younger than MinJobAge), with its
comment."""


def key_comment(dispatch_key: str) -> str:
    """The job comment that carries ``dispatch_key``."""
    return f"{KEY_COMMENT_PREFIX}{dispatch_key}"


def job_with_comment(queue: str, comment: str) -> str | None:
    """The job id whose comment is ``comment`` in :data:`QUEUE_BY_COMMENT_ARGV` output."""
    for line in queue.splitlines():
        job, _, text = line.partition("|")
        if text.strip() == comment and job.strip():
            return job.strip()
    return None


def parse_min_job_age(config: str) -> float | None:
    """``MinJobAge = 300 sec`` of ``scontrol show config`` in seconds; None when absent."""
    match = re.search(r"^\s*MinJobAge\s*=\s*(\d+)", config, re.MULTILINE)
    return float(match.group(1)) if match else None


def sbatch_in_flight(comment: str) -> bool:
    """True when a live ``sbatch`` of this user is submitting a script that carries
    ``comment`` (its submitter may have died; the ``sbatch`` process lives on)."""
    directive = f"--comment={comment}"
    for proc in psutil.process_iter(["name", "cmdline"]):
        if proc.info.get("name") != "sbatch":
            continue
        for arg in (proc.info.get("cmdline") or [])[1:]:
            try:
                if directive in Path(arg).read_text(encoding="utf-8", errors="replace"):
                    return True
            except OSError:
                continue
    return False
