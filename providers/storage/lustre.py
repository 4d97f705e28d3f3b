"""Lustre file systems mounted on this machine, and their health from ``lfs df``.

A Lustre *client* mount has type ``lustre`` and a device naming the management server and
the file system (``10.1.0.1@o2ib:/scratch  /lustre/scratch  lustre  rw,flock``). Lustre
*servers* also mount their targets with type ``lustre`` but from a block device
(``/dev/sdb  /mnt/ost0  lustre``); those are disks of the servers, not file systems a job
can use, so only entries whose device contains ``:/`` are reported.

The extra read tool :meth:`LustreProvider.lustre_health` runs ``lfs df`` (the documented
layout: one line per MDT/OST target, then a ``filesystem_summary:`` line per file system) and
reports the number of targets, inactive OSTs and how full the OSTs are. A nearly full OST
makes writes fail even when the file system as a whole has space, which a single free-space
figure hides.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from pydantic import Field

from providers.errors import CommandError, ProviderError
from providers.storage.mounts import MountEntry, MountTableProvider
from providers.tools import secretary_tool
from providers.wire.common import WireModel

LFS_TIMEOUT_S = 30.0
"""``lfs df`` asks every target; a slow OSS answers within this or is reported as failed."""
FULL_OST_PERCENT = 95.0
"""From this fullness an OST counts as full: Lustre starts refusing or skewing writes."""

_TARGET = re.compile(
    r"^(?P<uuid>\S+)\s+(?P<blocks>\d+)\s+(?P<used>\d+)\s+(?P<avail>\d+)\s+(?P<pct>\d+)%\s+"
    r"(?P<mount>.+?)\[(?P<kind>MDT|OST|MGT):(?P<index>\d+)\]\s*$"
)
_SUMMARY = re.compile(
    r"^filesystem_summary:\s+(?P<blocks>\d+)\s+(?P<used>\d+)\s+(?P<avail>\d+)\s+"
    r"(?P<pct>\d+)%\s+(?P<mount>\S.*?)\s*$"
)
_INACTIVE = re.compile(r"^(?P<target>\S+)\s*:\s*inactive device", re.I)


class LustreHealth(WireModel):
    """Health of one Lustre file system as ``lfs df`` shows it."""

    mount: str
    mdt_count: int = Field(ge=0)
    ost_count: int = Field(ge=0)
    """Active OSTs that answered with their usage."""
    inactive_osts: int = Field(ge=0)
    full_osts: int = Field(ge=0)
    """OSTs at or above 95 % used."""
    ost_max_used_percent: float | None = None
    ost_mean_used_percent: float | None = None
    total_gb: float = Field(ge=0)
    free_gb: float = Field(ge=0)


@dataclass
class _Block:
    mdts: int = 0
    ost_used: list[float] = field(default_factory=list)
    inactive: int = 0


def parse_lfs_df(text: str) -> list[LustreHealth]:
    """Per-file-system health from ``lfs df`` output (sizes in 1 KiB blocks).

    Each file system's target lines are followed by its ``filesystem_summary:`` line, which
    closes the block; ``OST0002 : inactive device`` lines count toward the block they are in.

    Raises:
        ProviderError: the text holds no ``filesystem_summary:`` line (not ``lfs df`` output).
    """
    found: list[LustreHealth] = []
    block = _Block()
    for raw in text.splitlines():
        line = raw.strip()
        target = _TARGET.match(line)
        if target:
            if target["kind"] == "MDT":
                block.mdts += 1
            elif target["kind"] == "OST":
                block.ost_used.append(float(target["pct"]))
            continue
        if _INACTIVE.match(line):
            block.inactive += 1
            continue
        summary = _SUMMARY.match(line)
        if summary:
            used = block.ost_used
            total = int(summary["blocks"]) * 1024 / 1e9
            found.append(
                LustreHealth(
                    mount=summary["mount"],
                    mdt_count=block.mdts,
                    ost_count=len(used),
                    inactive_osts=block.inactive,
                    full_osts=sum(1 for u in used if u >= FULL_OST_PERCENT),
                    ost_max_used_percent=max(used) if used else None,
                    ost_mean_used_percent=round(sum(used) / len(used), 1) if used else None,
                    total_gb=round(total, 3),
                    free_gb=round(min(total, int(summary["avail"]) * 1024 / 1e9), 3),
                )
            )
            block = _Block()
    if not found:
        shown = text.strip().splitlines()[0][:120] if text.strip() else "(no output)"
        raise ProviderError(f"lfs df printed no filesystem_summary line: {shown}")
    return found


class LustreProvider(MountTableProvider):
    """Lustre client mounts of this machine."""

    name: ClassVar[str] = "lustre"
    description: ClassVar[str] = (
        "Lustre parallel file systems mounted here, with total and free space in GB; "
        "lustre_health reports OST count, inactive and full OSTs from 'lfs df'."
    )
    detection: ClassVar[str] = (
        "mount table entries of type lustre whose device is <server>:/<fsname> (client "
        "mounts) in /proc/self/mounts; space from statvfs; health from 'lfs df'"
    )
    fs_kinds: ClassVar[Mapping[str, str]] = {"lustre": "lustre"}

    def is_wanted(self, entry: MountEntry) -> bool:
        """Only client mounts (``server@net:/fsname``), never a server's target disks."""
        return ":/" in entry.device

    @secretary_tool
    def lustre_health(self, mount: str = "") -> list[LustreHealth]:
        """Report OST count, inactive and full (>= 95 %) OSTs of the mounted Lustre file systems.

        Args:
            mount: only this mount point (as list_filesystems reports it); empty for all.
        """
        known = {fs.mount for fs in self.facts().filesystems}
        if mount and mount not in known:
            raise ProviderError(
                f"{mount!r} is not a Lustre mount here; mounts: {', '.join(sorted(known))}"
            )
        if self.runner.which("lfs") is None:
            raise ProviderError(
                "lfs is not installed here, so Lustre health cannot be read; install the "
                "Lustre client utilities (lustre-client-utils)"
            )
        try:
            result = self.runner.run(["lfs", "df"], timeout_s=LFS_TIMEOUT_S)
        except CommandError as exc:
            raise ProviderError(f"lfs df failed: {exc.message}", transient=exc.transient) from None
        health = parse_lfs_df(result.stdout)
        wanted = {mount} if mount else known
        return [h for h in health if h.mount in wanted]
