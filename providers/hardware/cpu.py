"""The processors of this machine, read from ``/proc/cpuinfo``, ``platform`` and ``psutil``.

Every machine has a CPU, so this provider is always present; a missing or unreadable
``/proc/cpuinfo`` (macOS, a locked-down container) only costs the model name, the socket count
and the flags, which fall back to defaults.
"""

from __future__ import annotations

import os
import platform
from pathlib import Path
from typing import ClassVar

import psutil

from providers.categories import CPUProviderBase
from providers.facts import CPUFacts

INTERESTING_FLAGS: frozenset[str] = frozenset(
    {
        # x86: vector extensions that decide which builds of a code can run
        "sse4_1",
        "sse4_2",
        "avx",
        "avx2",
        "fma",
        "f16c",
        "avx512f",
        "avx512cd",
        "avx512bw",
        "avx512dq",
        "avx512vl",
        "avx512ifma",
        "avx512vbmi",
        "avx512_vnni",
        "avx512_bf16",
        "avx512_fp16",
        "avx_vnni",
        "amx_tile",
        "amx_bf16",
        "amx_int8",
        "aes",
        "sha_ni",
        "popcnt",
        "bmi2",
        # Arm: NEON (``asimd`` on AArch64), SVE and the matrix / dot-product extensions
        "neon",
        "asimd",
        "asimddp",
        "asimdhp",
        "sve",
        "sve2",
        "sme",
        "bf16",
        "i8mm",
        # POWER
        "altivec",
        "vsx",
    }
)
"""Flags worth reporting: the ones a requirement like ``avx512f`` or ``sve`` may name.

``/proc/cpuinfo`` lists well over a hundred flags per CPU; most (``fpu``, ``pse``, ``tsc``) say
nothing a job can ask for, and sending them all to an agent costs tokens for nothing.
"""

_MODEL_KEYS = ("model name", "Model Name", "cpu model", "Processor", "Hardware", "cpu")
"""Keys that name the CPU model, by architecture (x86, some Arm boards, MIPS, POWER)."""


def parse_cpuinfo(text: str) -> tuple[str | None, int, set[str]]:
    """Read the model name, the number of sockets and the curated flags from cpuinfo text.

    Returns:
        ``(model, sockets, flags)``: model is None when no known key names it; sockets counts
        distinct ``physical id`` values (0 when the file has none); flags is the intersection
        with :data:`INTERESTING_FLAGS`, plus ``neon`` on AArch64 where the kernel calls it
        ``asimd``.
    """
    model: str | None = None
    sockets: set[str] = set()
    flags: set[str] = set()
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if not sep:
            continue
        key, value = key.strip(), value.strip()
        if key == "physical id":
            sockets.add(value)
        elif key in ("flags", "Features"):
            flags.update(f for f in value.lower().split() if f in INTERESTING_FLAGS)
        elif model is None and key in _MODEL_KEYS and value:
            model = value
    if "asimd" in flags:
        flags.add("neon")
    return model, len(sockets), flags


class CPUProvider(CPUProviderBase):
    """The CPUs of the machine this process runs on."""

    name: ClassVar[str] = "cpu"
    description: ClassVar[str] = (
        "Processors of this machine: model, architecture, sockets, cores, threads, "
        "vector flags (avx2, avx512f, sve, ...) and current load."
    )
    detection: ClassVar[str] = (
        "always present; reads /proc/cpuinfo (model, sockets, flags) when it exists, "
        "platform.machine() and psutil.cpu_count() for the rest"
    )
    cpuinfo_path: ClassVar[Path] = Path("/proc/cpuinfo")

    def _probe(self) -> CPUFacts:
        """Read the CPU facts; cheap (one small file and a few system calls).

        Postconditions: ``1 <= cores <= threads``, ``sockets >= 1``, ``load_fraction >= 0``.
        """
        try:
            text = self.cpuinfo_path.read_text(errors="replace")
        except OSError:
            text = ""
        model, sockets, flags = parse_cpuinfo(text)
        threads = psutil.cpu_count(logical=True) or os.cpu_count() or 1
        cores = psutil.cpu_count(logical=False) or threads
        cores = max(1, min(cores, threads))
        try:
            load = os.getloadavg()[0] / threads
        except OSError:  # no load average on this platform
            load = 0.0
        return CPUFacts(
            model=model or platform.processor() or "unknown",
            architecture=platform.machine() or "unknown",
            sockets=max(1, sockets),
            cores=cores,
            threads=threads,
            flags=tuple(sorted(flags)),
            load_fraction=round(max(0.0, load), 4),
        )
