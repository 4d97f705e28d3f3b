"""AMD GPUs of this machine, from ``amd-smi static --json`` or, where only the older tool
exists, ``rocm-smi --showproductname --showmeminfo vram --json``.

``amd-smi`` (ROCm 6 and later) prints a list of GPUs (newer releases wrap it as
``{"gpu_data": [...]}``); each has ``gpu`` (index), ``asic.market_name``, ``vram.size`` (either
``{"value": 65520, "unit": "MB"}`` or the string ``"65520 MB"``) and ``driver.version`` (older:
``driver.driver_version``). amd-smi's ``MB`` are MiB. ``rocm-smi`` prints one object per card
(``card0``) with ``Card series`` and ``VRAM Total Memory (B)``, plus ``system.Driver version``.
Neither static query reports utilisation, so it is None.

Outcomes: neither tool on PATH -> absent (None); the tool fails (driver not loaded) -> a
:class:`providers.errors.ProviderError` with the first line of its message; output with no
readable GPU -> ProviderError.
"""

from __future__ import annotations

import json
import re
from typing import Any, ClassVar

from providers.categories import GPUProviderBase
from providers.errors import CommandError, ProviderError
from providers.facts import GPUDevice, GPUFacts

AMD_SMI_ARGV: tuple[str, ...] = ("amd-smi", "static", "--json")
ROCM_SMI_ARGV: tuple[str, ...] = (
    "rocm-smi",
    "--showproductname",
    "--showmeminfo",
    "vram",
    "--json",
)
SMI_TIMEOUT_S = 30.0
UNIT_BYTES: dict[str, float] = {
    "B": 1,
    "KB": 1024,
    "MB": 1024**2,
    "GB": 1024**3,
    "KIB": 1024,
    "MIB": 1024**2,
    "GIB": 1024**3,
}
"""amd-smi labels binary units with decimal names (its ``MB`` is a MiB)."""
_SIZE_TEXT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([A-Za-z]+)\s*$")
_CARD = re.compile(r"^card(\d+)$")


def _json(text: str, tool: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        shown = text.strip().splitlines()[0][:120] if text.strip() else "(no output)"
        raise ProviderError(f"{tool} did not print JSON: {shown}") from None


def _size_gb(size: Any) -> float | None:
    """Decimal GB from an amd-smi size (``{"value", "unit"}`` or ``"65520 MB"``)."""
    value: Any = None
    unit = "MB"
    if isinstance(size, dict):
        value, unit = size.get("value"), str(size.get("unit", "MB"))
    elif isinstance(size, str):
        match = _SIZE_TEXT.match(size)
        if match:
            value, unit = match.group(1), match.group(2)
    elif isinstance(size, int | float):
        value = size
    try:
        n = float(value)
    except (TypeError, ValueError):
        return None
    factor = UNIT_BYTES.get(unit.upper())
    return round(n * factor / 1e9, 3) if factor else None


def parse_amd_smi_static(text: str) -> GPUFacts:
    """GPU facts from ``amd-smi static --json`` output.

    Raises:
        ProviderError: not JSON, or no entry with an integer ``gpu`` index.
    """
    data = _json(text, "amd-smi static --json")
    if isinstance(data, dict):
        data = data.get("gpu_data", [])
    if not isinstance(data, list):
        raise ProviderError("amd-smi static --json printed neither a list nor gpu_data")
    devices: list[GPUDevice] = []
    driver: str | None = None
    for entry in data:
        if not isinstance(entry, dict) or not isinstance(entry.get("gpu"), int):
            continue
        asic = entry.get("asic") if isinstance(entry.get("asic"), dict) else {}
        vram = entry.get("vram") if isinstance(entry.get("vram"), dict) else {}
        drv = entry.get("driver") if isinstance(entry.get("driver"), dict) else {}
        version = drv.get("version") or drv.get("driver_version")
        if driver is None and isinstance(version, str) and version.upper() != "N/A":
            driver = version
        model = asic.get("market_name")
        devices.append(
            GPUDevice(
                index=entry["gpu"],
                vendor="amd",
                model=model if isinstance(model, str) and model else "AMD GPU",
                memory_gb=_size_gb(vram.get("size")),
            )
        )
    if not devices:
        raise ProviderError("amd-smi static --json listed no GPU")
    devices.sort(key=lambda d: d.index)
    return GPUFacts(vendor="amd", driver_version=driver, devices=tuple(devices))


def _lookup(card: dict[str, Any], key: str) -> Any:
    """A rocm-smi field by case-insensitive name (its capitalisation changed across releases)."""
    for name, value in card.items():
        if name.lower() == key.lower():
            return value
    return None


def parse_rocm_smi(text: str) -> GPUFacts:
    """GPU facts from ``rocm-smi --showproductname --showmeminfo vram --json`` output.

    Raises:
        ProviderError: not JSON, or no ``card<N>`` object.
    """
    data = _json(text, "rocm-smi --json")
    if not isinstance(data, dict):
        raise ProviderError("rocm-smi --json did not print an object")
    devices: list[GPUDevice] = []
    for key, card in data.items():
        match = _CARD.match(key)
        if not match or not isinstance(card, dict):
            continue
        model = _lookup(card, "Card series") or _lookup(card, "Card model") or "AMD GPU"
        total = _lookup(card, "VRAM Total Memory (B)")
        try:
            memory = round(int(total) / 1e9, 3)
        except (TypeError, ValueError):
            memory = None
        devices.append(
            GPUDevice(index=int(match.group(1)), vendor="amd", model=str(model), memory_gb=memory)
        )
    if not devices:
        raise ProviderError("rocm-smi --json listed no card")
    system = data.get("system") if isinstance(data.get("system"), dict) else {}
    driver = _lookup(system, "Driver version")
    devices.sort(key=lambda d: d.index)
    return GPUFacts(
        vendor="amd",
        driver_version=driver if isinstance(driver, str) else None,
        devices=tuple(devices),
    )


class AmdGPUProvider(GPUProviderBase):
    """The AMD GPUs of the machine this process runs on."""

    name: ClassVar[str] = "amd-gpu"
    description: ClassVar[str] = (
        "AMD GPUs of this machine (ROCm): model, memory in GB and the driver version."
    )
    detection: ClassVar[str] = (
        "amd-smi on PATH ('amd-smi static --json'), else rocm-smi on PATH "
        "('rocm-smi --showproductname --showmeminfo vram --json')"
    )

    def _probe(self) -> GPUFacts | None:
        """Query the GPUs with amd-smi or rocm-smi; None when neither is installed.

        Raises:
            ProviderError: the tool failed (first line of its message) or printed output
                without a readable GPU.
        """
        if self.runner.which("amd-smi") is not None:
            argv, parse = AMD_SMI_ARGV, parse_amd_smi_static
        elif self.runner.which("rocm-smi") is not None:
            argv, parse = ROCM_SMI_ARGV, parse_rocm_smi
        else:
            return None
        try:
            result = self.runner.run(argv, timeout_s=SMI_TIMEOUT_S)
        except CommandError as exc:
            lines = (exc.stderr + "\n" + exc.stdout).splitlines()
            first = next((ln.strip() for ln in lines if ln.strip()), exc.message)
            raise ProviderError(
                f"{argv[0]} failed: {first[:200]}", transient=exc.transient
            ) from None
        return parse(result.stdout)
