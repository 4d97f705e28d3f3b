"""GPU providers: nvidia-gpu (nvidia-smi) and amd-gpu (amd-smi, rocm-smi).

The test machine has no GPU and no vendor driver, so the tools' output is served by
:class:`providers.workload.recorded.RecordedRunner` from texts written from each tool's
documented format: the CSV of ``nvidia-smi --query-gpu ... --format=csv,noheader,nounits``, the
JSON of ``amd-smi static --json`` (both the list and the ``gpu_data`` layouts) and of
``rocm-smi --showproductname --showmeminfo vram --json``, and the messages the tools print when
the driver is not loaded.
"""

from __future__ import annotations

import json
import shutil

import pytest

from providers.hardware.amd_gpu import (
    AMD_SMI_ARGV,
    ROCM_SMI_ARGV,
    AmdGPUProvider,
    parse_amd_smi_static,
    parse_rocm_smi,
)
from providers.hardware.nvidia_gpu import QUERY_ARGV, NvidiaGPUProvider, parse_nvidia_smi
from providers.registry import discover
from providers.tools import ToolKind
from providers.workload.recorded import RecordedRunner, Recording

READ = ToolKind.READ

NVIDIA_CSV = (
    "0, NVIDIA H100 80GB HBM3, 81559, 3, 550.54.15\n"
    "1, NVIDIA H100 80GB HBM3, 81559, 97, 550.54.15\n"
)
NVIDIA_NA = "0, NVIDIA A100-SXM4-40GB, [N/A], [N/A], 535.104.05\n"
NVIDIA_NO_DRIVER = (
    "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure "
    "that the latest NVIDIA driver is installed and running.\n\n"
)
AMD_SMI_LIST = json.dumps(
    [
        {
            "gpu": 0,
            "asic": {"market_name": "AMD Instinct MI250X", "vendor_id": "0x1002"},
            "vram": {"type": "HBM", "size": {"value": 65536, "unit": "MB"}},
            "driver": {"name": "amdgpu", "version": "6.7.0"},
        },
        {
            "gpu": 1,
            "asic": {"market_name": "AMD Instinct MI250X"},
            "vram": {"type": "HBM", "size": {"value": 65536, "unit": "MB"}},
            "driver": {"name": "amdgpu", "version": "6.7.0"},
        },
    ]
)
AMD_SMI_GPU_DATA = json.dumps(
    {
        "gpu_data": [
            {
                "gpu": 0,
                "asic": {"market_name": "AMD Instinct MI300X"},
                "vram": {"type": "HBM", "size": "196592 MB"},
                "driver": {"driver_name": "amdgpu", "driver_version": "6.8.5"},
            }
        ]
    }
)
ROCM_SMI = json.dumps(
    {
        "card0": {
            "Card series": "Instinct MI210",
            "Card model": "0x0c34",
            "Card vendor": "Advanced Micro Devices, Inc. [AMD/ATI]",
            "VRAM Total Memory (B)": "68702699520",
            "VRAM Total Used Memory (B)": "10960896",
        },
        "system": {"Driver version": "6.3.6"},
    }
)
AMD_NO_DRIVER = "ERROR:root:Unable to initialize amdsmi: AMDSMI_STATUS_DRIVER_NOT_LOADED\n"

H100 = {"vendor": "nvidia", "model": "NVIDIA H100 80GB HBM3", "memory_gb": 85.521}
MI250X = {"vendor": "amd", "model": "AMD Instinct MI250X", "memory_gb": 68.719, "utilization": None}


def nvidia(reply: Recording) -> NvidiaGPUProvider:
    return NvidiaGPUProvider(runner=RecordedRunner({QUERY_ARGV: reply}))


def amd(replies: dict) -> AmdGPUProvider:
    return AmdGPUProvider(runner=RecordedRunner(replies))


# -- both -------------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [NvidiaGPUProvider, AmdGPUProvider], ids=lambda c: c.name)
def test_class_describes_itself(cls):
    info = cls.info()
    assert info.category.value == "hardware"
    assert info.description and info.detection
    assert {t.tool for t in info.tools} == {"gpu_info"}


@pytest.mark.parametrize("cls", [NvidiaGPUProvider, AmdGPUProvider], ids=lambda c: c.name)
def test_missing_tool_is_absent_without_error(cls):
    runner = RecordedRunner(programs=[])
    report = cls(runner=runner).probe()
    assert (report.available, report.error) == (False, None)
    assert runner.calls == []


# -- nvidia -----------------------------------------------------------------------------------


def test_nvidia_gpu_info_exact():
    assert nvidia(Recording(NVIDIA_CSV)).call_tool("gpu_info", {}, allowed=READ) == {
        "vendor": "nvidia",
        "driver_version": "550.54.15",
        "devices": [
            {"index": 0, **H100, "utilization": 0.03},
            {"index": 1, **H100, "utilization": 0.97},
        ],
    }


def test_nvidia_not_available_fields_become_none():
    facts = nvidia(Recording(NVIDIA_NA)).call_tool("gpu_info", {}, allowed=READ)
    assert facts["devices"] == [
        {
            "index": 0,
            "vendor": "nvidia",
            "model": "NVIDIA A100-SXM4-40GB",
            "memory_gb": None,
            "utilization": None,
        }
    ]


def test_nvidia_driver_not_loaded_is_an_error_with_the_first_line():
    report = nvidia(Recording(NVIDIA_NO_DRIVER, "", 9)).probe()
    assert report.available is False
    assert report.error.startswith("nvidia-smi failed: NVIDIA-SMI has failed because")
    assert "\n" not in report.error


def test_nvidia_no_devices_is_absent():
    report = nvidia(Recording("No devices were found\n", "", 6)).probe()
    assert (report.available, report.error) == (False, None)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "printed no GPU lines"),
        ("garbage\n", "expected 5"),
        ("x, name, 1, 2, 3\n", "unreadable GPU line"),
        ("0, NVIDIA H100, 81559\n", "expected 5"),
    ],
)
def test_nvidia_garbled_output_is_an_error(text, message):
    report = nvidia(Recording(text)).probe()
    assert report.available is False
    assert message in report.error


def test_parse_nvidia_sorts_by_index_and_clamps_utilisation():
    facts = parse_nvidia_smi("1, B, 1024, 150, 1\n0, A, 1024, -5, 1\n")
    assert [(d.index, d.model, d.utilization) for d in facts.devices] == [
        (0, "A", 0.0),
        (1, "B", 1.0),
    ]


# -- amd --------------------------------------------------------------------------------------


def test_amd_smi_gpu_info_exact():
    facts = amd({AMD_SMI_ARGV: Recording(AMD_SMI_LIST)}).call_tool("gpu_info", {}, allowed=READ)
    assert facts == {
        "vendor": "amd",
        "driver_version": "6.7.0",
        "devices": [{"index": 0, **MI250X}, {"index": 1, **MI250X}],
    }


def test_amd_smi_gpu_data_layout():
    facts = parse_amd_smi_static(AMD_SMI_GPU_DATA)
    assert facts.driver_version == "6.8.5"
    assert [(d.model, d.memory_gb) for d in facts.devices] == [("AMD Instinct MI300X", 206.142)]


def test_rocm_smi_is_used_when_amd_smi_is_missing():
    runner = RecordedRunner({ROCM_SMI_ARGV: Recording(ROCM_SMI)})
    facts = AmdGPUProvider(runner=runner).call_tool("gpu_info", {}, allowed=READ)
    assert facts == {
        "vendor": "amd",
        "driver_version": "6.3.6",
        "devices": [
            {
                "index": 0,
                "vendor": "amd",
                "model": "Instinct MI210",
                "memory_gb": 68.703,
                "utilization": None,
            }
        ],
    }
    assert runner.calls == [ROCM_SMI_ARGV]


def test_amd_smi_is_preferred_over_rocm_smi():
    runner = RecordedRunner(
        {AMD_SMI_ARGV: Recording(AMD_SMI_LIST), ROCM_SMI_ARGV: Recording(ROCM_SMI)}
    )
    AmdGPUProvider(runner=runner).probe()
    assert runner.calls == [AMD_SMI_ARGV]


@pytest.mark.parametrize("argv", [AMD_SMI_ARGV, ROCM_SMI_ARGV], ids=["amd-smi", "rocm-smi"])
def test_amd_driver_not_loaded_is_an_error_with_the_first_line(argv):
    report = amd({argv: Recording("", AMD_NO_DRIVER, 1)}).probe()
    assert report.available is False
    assert report.error == f"{argv[0]} failed: {AMD_NO_DRIVER.strip()}"


@pytest.mark.parametrize("text", ["", "garbage", "[]", '{"gpu_data": [{"gpu": "x"}]}', "42"])
@pytest.mark.parametrize("argv", [AMD_SMI_ARGV, ROCM_SMI_ARGV], ids=["amd-smi", "rocm-smi"])
def test_amd_garbled_output_is_an_error(argv, text):
    report = amd({argv: Recording(text)}).probe()
    assert report.available is False
    assert argv[0] in report.error


def test_parse_rocm_smi_without_optional_fields():
    facts = parse_rocm_smi('{"card1": {"Card Series": "Radeon PRO W7900"}}')
    assert facts.driver_version is None
    assert [(d.index, d.model, d.memory_gb) for d in facts.devices] == [
        (1, "Radeon PRO W7900", None)
    ]


# -- the real machine -------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [NvidiaGPUProvider, AmdGPUProvider], ids=lambda c: c.name)
def test_real_machine_probe_never_raises(cls):
    report = cls().probe()
    tool = "nvidia-smi" if cls is NvidiaGPUProvider else "amd-smi"
    if shutil.which(tool) is None and (cls is NvidiaGPUProvider or not shutil.which("rocm-smi")):
        assert (report.available, report.error) == (False, None)
    elif report.available:
        assert report.facts["devices"]


@pytest.mark.parametrize("cls", [NvidiaGPUProvider, AmdGPUProvider], ids=lambda c: c.name)
def test_entry_point_names_this_class_once_registered(cls):
    classes = discover().classes
    if cls.name not in classes:
        pytest.skip(f'add to pyproject: {cls.name} = "{cls.__module__}:{cls.__name__}"')
    assert classes[cls.name] is cls
