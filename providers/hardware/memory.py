"""The memory of this machine, from ``psutil.virtual_memory``.

Sizes are decimal gigabytes (1 GB = 10**9 bytes), the unit schedulers and cloud instance
catalogues quote, so a requirement of "64 GB" compares like for like. ``available_gb`` is what
new processes can get without swapping (free plus reclaimable cache), not just "free".
"""

from __future__ import annotations

from typing import ClassVar

import psutil

from providers.categories import MemoryProviderBase
from providers.facts import MemoryFacts

BYTES_PER_GB = 1e9
"""Decimal gigabyte, as used by every ``*_gb`` field of the facts."""


def to_gb(n_bytes: float) -> float:
    """Bytes to decimal GB, rounded to the megabyte."""
    return round(n_bytes / BYTES_PER_GB, 3)


class MemoryProvider(MemoryProviderBase):
    """The main memory of the machine this process runs on."""

    name: ClassVar[str] = "memory"
    description: ClassVar[str] = "Memory of this machine: total and available, in decimal GB."
    detection: ClassVar[str] = "always present; psutil.virtual_memory()"

    def _probe(self) -> MemoryFacts:
        """Read total and available memory; postcondition ``0 <= available_gb <= total_gb``."""
        vm = psutil.virtual_memory()
        total = to_gb(vm.total)
        return MemoryFacts(total_gb=total, available_gb=min(total, to_gb(vm.available)))
