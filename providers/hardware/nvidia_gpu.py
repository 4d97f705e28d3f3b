"""NVIDIA GPUs of this machine, from ``nvidia-smi --query-gpu``.

One documented, stable query gives everything in one call::

    nvidia-smi --query-gpu=index,name,memory.total,utilization.gpu,driver_version \
        --format=csv,noheader,nounits
    0, NVIDIA H100 80GB HBM3, 81559, 0, 550.54.15

``memory.total`` is in MiB (reported as decimal GB, like every ``*_gb`` fact) and
``utilization.gpu`` in percent (reported as a fraction, 0.0 to 1.0). Fields a GPU does not
support read ``[N/A]`` (or ``[Not Supported]``) and become None.

Outcomes: no ``nvidia-smi`` -> absent (None); ``No devices were found`` -> absent (the
driver is there, the GPUs are not); any other failure, such as a driver that is not loaded
(``NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver``) -> a
:class:`providers.errors.ProviderError` with that first line, so negotiation says UNKNOWN.
"""

from __future__ import annotations

import csv
import io
import logging
from typing import ClassVar

from providers.categories import GPUProviderBase
from providers.errors import CommandError, ProviderError
from providers.facts import GPUDevice, GPUFacts

log = logging.getLogger(__name__)

QUERY_FIELDS: tuple[str, ...] = (
    "index",
    "name",
    "memory.total",
    "utilization.gpu",
    "driver_version",
)
QUERY_ARGV: tuple[str, ...] = (
    "nvidia-smi",
    f"--query-gpu={','.join(QUERY_FIELDS)}",
    "--format=csv,noheader,nounits",
)
SMI_TIMEOUT_S = 20.0
"""nvidia-smi can take seconds when the driver is not in persistence mode."""
NO_DEVICES = "no devices were found"
MIB = 1024 * 1024
_MISSING = {"", "[n/a]", "n/a", "[not supported]", "[unknown error]"}


def _number(text: str) -> float | None:
    """A float from a CSV field; None for ``[N/A]`` and other non-numbers."""
    if text.strip().lower() in _MISSING:
        return None
    try:
        return float(text)
    except ValueError:
        return None


def parse_nvidia_smi(text: str) -> GPUFacts:
    """GPU facts from the CSV that :data:`QUERY_ARGV` prints.

    Postconditions: devices sorted by index; ``memory_gb`` in decimal GB; ``utilization`` in
    ``[0, 1]``; ``driver_version`` is the first non-missing one.

    Raises:
        ProviderError: no line has the five expected fields with an integer index and a name.
    """
    devices: list[GPUDevice] = []
    driver: str | None = None
    for row in csv.reader(io.StringIO(text), skipinitialspace=True):
        if not row or not any(cell.strip() for cell in row):
            continue
        if len(row) != len(QUERY_FIELDS):
            raise ProviderError(
                f"nvidia-smi printed a line with {len(row)} fields, expected "
                f"{len(QUERY_FIELDS)} ({','.join(QUERY_FIELDS)}): {','.join(row)[:120]}"
            )
        index, name, memory, util, drv = (cell.strip() for cell in row)
        if not index.isdigit() or not name:
            raise ProviderError(f"nvidia-smi printed an unreadable GPU line: {','.join(row)[:120]}")
        mem_mib = _number(memory)
        util_pct = _number(util)
        devices.append(
            GPUDevice(
                index=int(index),
                vendor="nvidia",
                model=name,
                memory_gb=round(mem_mib * MIB / 1e9, 3) if mem_mib is not None else None,
                utilization=min(1.0, max(0.0, util_pct / 100)) if util_pct is not None else None,
            )
        )
        if driver is None and drv.lower() not in _MISSING:
            driver = drv
    if not devices:
        raise ProviderError("nvidia-smi printed no GPU lines")
    devices.sort(key=lambda d: d.index)
    return GPUFacts(vendor="nvidia", driver_version=driver, devices=tuple(devices))


class NvidiaGPUProvider(GPUProviderBase):
    """The NVIDIA GPUs of the machine this process runs on."""

    name: ClassVar[str] = "nvidia-gpu"
    description: ClassVar[str] = (
        "NVIDIA GPUs of this machine: model, memory in GB, current utilisation and the driver "
        "version."
    )
    detection: ClassVar[str] = (
        "nvidia-smi on PATH; 'nvidia-smi --query-gpu=index,name,memory.total,utilization.gpu,"
        "driver_version --format=csv,noheader,nounits'; 'No devices were found' counts as absent"
    )
    cache_ttl_s: ClassVar[float] = 15.0

    def _probe(self) -> GPUFacts | None:
        """Query the GPUs; None when nvidia-smi is missing or finds no device.

        Raises:
            ProviderError: nvidia-smi failed (first line of its message) or printed CSV that
                is not the queried layout.
        """
        if self.runner.which("nvidia-smi") is None:
            return None
        try:
            result = self.runner.run(QUERY_ARGV, timeout_s=SMI_TIMEOUT_S)
        except CommandError as exc:
            first = next(
                (ln.strip() for ln in (exc.stderr + "\n" + exc.stdout).splitlines() if ln.strip()),
                exc.message,
            )
            if NO_DEVICES in first.lower():
                log.info("nvidia-smi found no GPU: %s", first)
                return None
            raise ProviderError(
                f"nvidia-smi failed: {first[:200]}", transient=exc.transient
            ) from None
        if NO_DEVICES in result.stdout.lower():
            return None
        return parse_nvidia_smi(result.stdout)
