"""The read-only local providers (cpu, memory, local-scratch, ethernet, pip) on this machine.

No mocks: every probe reads the real machine and is checked against what os/psutil say.
"""

from __future__ import annotations

import os
import platform
import stat
import sys
import tempfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import psutil
import pytest

from providers.hardware.cpu import INTERESTING_FLAGS, CPUProvider, parse_cpuinfo
from providers.hardware.memory import MemoryProvider
from providers.network.ethernet import HSN_PREFIX, EthernetProvider, is_virtual, speed_gbps
from providers.network.slingshot import SlingshotProvider
from providers.registry import discover
from providers.software.pip import PipProvider, runtime_requirements
from providers.storage.local_scratch import LocalScratchProvider, mount_of
from providers.tools import ToolKind
from providers.workload.local import LocalMachineProvider

ALL = (
    CPUProvider,
    MemoryProvider,
    LocalScratchProvider,
    EthernetProvider,
    PipProvider,
    LocalMachineProvider,
)


# -- common -------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.name)
def test_class_describes_itself(cls):
    info = cls.info()
    assert info.name == cls.name
    assert info.description and info.detection
    assert info.tools


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.name)
def test_probe_is_cached(cls):
    provider = cls()
    first = provider.probe()
    assert first.error is None
    assert provider.probe() is first
    assert provider.probe(refresh=True) is not first


def test_entry_points_name_these_classes():
    classes = discover().classes
    for cls in ALL:
        assert classes.get(cls.name) is cls


# -- cpu ----------------------------------------------------------------------------------


def test_cpu_matches_psutil_and_platform():
    facts = CPUProvider().call_tool("cpu_info", {}, allowed=ToolKind.READ)
    threads = psutil.cpu_count(logical=True)
    assert facts["threads"] == threads
    assert facts["cores"] == min(psutil.cpu_count(logical=False) or threads, threads)
    assert facts["architecture"] == platform.machine()
    assert facts["sockets"] >= 1
    assert facts["load_fraction"] >= 0
    assert set(facts["flags"]) <= INTERESTING_FLAGS
    assert facts["flags"] == sorted(facts["flags"])


def test_cpu_flags_come_from_cpuinfo():
    cpuinfo = Path("/proc/cpuinfo")
    if not cpuinfo.exists():
        pytest.skip("no /proc/cpuinfo here")
    raw: set[str] = set()
    for line in cpuinfo.read_text().splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("flags", "Features"):
            raw.update(value.lower().split())
    flags = set(CPUProvider().facts().flags)
    assert flags == (raw & INTERESTING_FLAGS) | ({"neon"} if "asimd" in raw else set())


def test_cpu_without_cpuinfo_uses_defaults(tmp_path, monkeypatch):
    monkeypatch.setattr(CPUProvider, "cpuinfo_path", tmp_path / "missing")
    report = CPUProvider().probe()
    assert report.available, report.error
    assert report.facts["sockets"] == 1
    assert report.facts["flags"] == []
    assert report.facts["threads"] == psutil.cpu_count(logical=True)
    assert report.facts["model"]


def test_parse_cpuinfo_counts_sockets_and_keeps_interesting_flags():
    text = "\n".join(
        [
            "processor\t: 0",
            "model name\t: Example CPU",
            "physical id\t: 0",
            "flags\t\t: fpu vme avx2 avx512f sse4_2 pse",
            "",
            "processor\t: 1",
            "model name\t: Example CPU",
            "physical id\t: 1",
            "flags\t\t: fpu vme avx2 avx512f sse4_2 pse",
        ]
    )
    assert parse_cpuinfo(text) == ("Example CPU", 2, {"avx2", "avx512f", "sse4_2"})
    arm = "processor\t: 0\nFeatures\t: fp asimd evtstrm sve\nCPU implementer\t: 0x41\n"
    assert parse_cpuinfo(arm) == (None, 0, {"asimd", "neon", "sve"})


# -- memory -------------------------------------------------------------------------------


def test_memory_in_decimal_gb_matches_psutil():
    facts = MemoryProvider().call_tool("memory_info", {}, allowed=ToolKind.READ)
    vm = psutil.virtual_memory()
    assert facts["total_gb"] == pytest.approx(vm.total / 1e9, abs=0.001)
    assert 0 <= facts["available_gb"] <= facts["total_gb"]


# -- local scratch ------------------------------------------------------------------------


def _mount_holding(folder: str) -> str:
    mounts = [(p.mountpoint, p.fstype) for p in psutil.disk_partitions(all=True)]
    return mount_of(Path(folder).resolve(), mounts)[0]


def test_local_scratch_reports_local_filesystems():
    provider = LocalScratchProvider()
    report = provider.probe()
    candidates = [c for c in provider.candidates() if os.path.isdir(c)]
    if not report.available:
        pytest.skip(f"no writable local scratch here: {report.error}")
    found = provider.call_tool("list_filesystems", {}, allowed=ToolKind.READ)
    mounts = [f["mount"] for f in found]
    assert len(mounts) == len(set(mounts))
    assert set(mounts) <= {_mount_holding(c) for c in candidates}
    for fs in found:
        assert fs["kind"] == "local"
        assert fs["shared"] is False
        assert 0 <= fs["free_gb"] <= fs["total_gb"]
    assert provider.call_tool("list_filesystems", {"kind": "LOCAL"}, allowed=ToolKind.READ)
    assert provider.call_tool("list_filesystems", {"kind": "nfs"}, allowed=ToolKind.READ) == []


def test_local_scratch_includes_the_temp_folder():
    tmp = tempfile.gettempdir()
    fs = LocalScratchProvider().facts().filesystems
    held = _mount_holding(tmp)
    fstype = {p.mountpoint: p.fstype for p in psutil.disk_partitions(all=True)}.get(held, "")
    if fstype in ("nfs", "nfs4", "cifs", "lustre", "gpfs", "beegfs"):
        assert held not in {f.mount for f in fs}
    else:
        assert held in {f.mount for f in fs}


def test_mount_of_picks_the_longest_mount():
    mounts = [("/", "ext4"), ("/scratch", "xfs"), ("/scratch/shared", "nfs")]
    assert mount_of(Path("/scratch/me"), mounts) == ("/scratch", "xfs")
    assert mount_of(Path("/scratch/shared/x"), mounts) == ("/scratch/shared", "nfs")
    assert mount_of(Path("/home"), mounts) == ("/", "ext4")
    assert mount_of(Path("/x"), []) == ("/x", "")


# -- ethernet -----------------------------------------------------------------------------


def _sysfs_ethernet() -> set[str]:
    root = Path("/sys/class/net")
    if not root.is_dir():
        return set()
    names = set()
    for sysdir in root.iterdir():
        try:
            kind = (sysdir / "type").read_text().strip()
        except OSError:
            continue
        if (
            kind == "1"
            and not is_virtual(sysdir.name, sysdir)
            and not sysdir.name.startswith(HSN_PREFIX)
        ):
            names.add(sysdir.name)
    return names


def test_ethernet_lists_real_ethernet_interfaces():
    provider = EthernetProvider()
    report = provider.probe()
    expected = _sysfs_ethernet()
    if not expected and Path("/sys/class/net").is_dir():
        assert not report.available
        return
    found = provider.call_tool("list_interfaces", {}, allowed=ToolKind.READ)
    names = [i["name"] for i in found]
    assert set(names) == expected
    assert "lo" not in names
    assert set(names) <= set(psutil.net_if_stats())
    for iface in found:
        assert iface["fabric"] == "ethernet"
        assert iface["rdma"] is False
        assert iface["speed_gbps"] is None or iface["speed_gbps"] > 0
        assert (
            iface["state"] == Path(f"/sys/class/net/{iface['name']}/operstate").read_text().strip()
        )


def test_ethernet_falls_back_to_psutil_without_sysfs(tmp_path, monkeypatch):
    monkeypatch.setattr(EthernetProvider, "sys_class_net", tmp_path / "no-sysfs")
    report = EthernetProvider().probe()
    stats = psutil.net_if_stats()
    expected = {n for n, s in stats.items() if not is_virtual(n) and "loopback" not in s.flags}
    if not expected:
        assert not report.available
        return
    names = {i["name"] for i in report.facts["interfaces"]}
    assert names == expected
    assert "lo" not in names


def _add_interface(root: Path, name: str, kind: int, speed: str = "-1") -> None:
    sysdir = root / "class" / "net" / name
    sysdir.mkdir(parents=True)
    (sysdir / "type").write_text(f"{kind}\n")
    (sysdir / "speed").write_text(f"{speed}\n")
    (sysdir / "operstate").write_text("up\n")


def test_ethernet_reads_the_sysfs_root_option(tmp_path):
    _add_interface(tmp_path, "eth0", 1, "25000")
    _add_interface(tmp_path, "lo", 772)
    _add_interface(tmp_path, "ib0", 32)
    found = EthernetProvider(options={"sysfs_root": str(tmp_path)}).call_tool(
        "list_interfaces", {}, allowed=ToolKind.READ
    )
    assert found == [
        {
            "name": "eth0",
            "fabric": "ethernet",
            "speed_gbps": 25.0,
            "rdma": False,
            "low_latency": None,
            "state": "up",
        }
    ]


def test_ethernet_leaves_slingshot_interfaces_to_the_slingshot_provider(tmp_path):
    """hsn* are Ethernet to the kernel (type 1) but Slingshot: listed once, by slingshot."""
    _add_interface(tmp_path, "eth0", 1, "25000")
    _add_interface(tmp_path, "hsn0", 1, "200000")
    _add_interface(tmp_path, "hsn1", 1, "200000")
    options = {"sysfs_root": str(tmp_path)}
    ethernet = EthernetProvider(options=options).call_tool(
        "list_interfaces", {}, allowed=ToolKind.READ
    )
    slingshot = SlingshotProvider(options=options).call_tool(
        "list_interfaces", {}, allowed=ToolKind.READ
    )
    assert [i["name"] for i in ethernet] == ["eth0"]
    assert [(i["name"], i["fabric"]) for i in slingshot] == [
        ("hsn0", "slingshot"),
        ("hsn1", "slingshot"),
    ]


def test_ethernet_without_an_ethernet_interface_is_absent(tmp_path):
    _add_interface(tmp_path, "hsn0", 1, "200000")
    report = EthernetProvider(options={"sysfs_root": str(tmp_path)}).probe()
    assert (report.available, report.error) == (False, None)


def test_speed_parsing():
    assert speed_gbps("-1") is None
    assert speed_gbps("") is None
    assert speed_gbps(None) is None
    assert speed_gbps("0") is None
    assert speed_gbps("25000") == 25.0


# -- pip ----------------------------------------------------------------------------------


def test_pip_reports_the_running_python():
    found = PipProvider().call_tool("find_software", {"name": "python"}, allowed=ToolKind.READ)
    assert len(found) == 1
    assert found[0]["version"] == platform.python_version()
    assert found[0]["environment"] == sys.prefix


def test_pip_find_software_is_case_insensitive():
    try:
        pip_version = version("pip")
    except PackageNotFoundError:
        pytest.skip("pip is not installed in this environment")
    provider = PipProvider()
    found = provider.call_tool("find_software", {"name": "PIP"}, allowed=ToolKind.READ)
    assert [p["version"] for p in found] == [pip_version]
    assert provider.facts().version == pip_version
    assert found[0]["environment"] == sys.prefix


def test_pip_dependencies_carry_installed_versions():
    deps = PipProvider().call_tool(
        "package_dependencies", {"name": "Pydantic"}, allowed=ToolKind.READ
    )
    by_name = {d["name"].lower().replace("_", "-"): d for d in deps}
    assert by_name["pydantic-core"]["version"] == version("pydantic-core")
    assert all(d["package"] == "pydantic" for d in deps)


def test_pip_list_software_prefix():
    names = PipProvider().call_tool(
        "list_software", {"prefix": "pyd", "limit": 10}, allowed=ToolKind.READ
    )
    assert "pydantic" in names
    assert all(n.lower().startswith("pyd") for n in names)


def test_pip_odd_name_finds_nothing_and_runs_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    provider = PipProvider()
    for name in ("x; touch MARKER", "$(touch MARKER)", "../../etc/passwd", "-rf"):
        assert provider.call_tool("find_software", {"name": name}, allowed=ToolKind.READ) == []
        assert (
            provider.call_tool("package_dependencies", {"name": name}, allowed=ToolKind.READ) == []
        )
    assert not (tmp_path / "MARKER").exists()


def test_pip_probe_reports_the_environment():
    report = PipProvider().probe()
    assert report.available


def test_runtime_requirements_drop_extras_and_foreign_markers():
    reqs = [
        "requests>=2",
        'pysocks; extra == "socks"',
        'tomli; python_version < "3.0"',
        "not a requirement !!",
        "Requests",
    ]
    assert runtime_requirements(reqs) == ["requests", "Requests"]


def test_pip_other_pythons_bad_ones_are_skipped(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    not_exec = tmp_path / "python-not-exec"
    not_exec.write_text("#!/bin/sh\nexit 0\n")
    failing = tmp_path / "python-failing"
    failing.write_text("#!/bin/sh\necho broken >&2\nexit 1\n")
    failing.chmod(failing.stat().st_mode | stat.S_IXUSR)
    bad = [str(tmp_path / "missing"), str(not_exec), str(failing), "x; touch MARKER", 42]
    provider = PipProvider(options={"pythons": bad})
    report = provider.probe()
    assert report.available, report.error
    assert len(provider.call_tool("find_software", {"name": "python"}, allowed=ToolKind.READ)) == 1
    assert {str(tmp_path / "missing"), str(not_exec), str(failing), "x; touch MARKER"} <= set(
        provider.skipped
    )
    assert not (tmp_path / "MARKER").exists()


def test_pip_inspects_another_interpreter():
    other = os.path.realpath(sys.executable)
    if other == os.path.abspath(sys.executable):
        pytest.skip("the running interpreter has no second path to inspect it by")
    provider = PipProvider(options={"pythons": [other]})
    pythons = provider.call_tool("find_software", {"name": "python"}, allowed=ToolKind.READ)
    if other in provider.skipped:  # e.g. no pip in the base interpreter
        assert len(pythons) == 1
        return
    assert {p["environment"] for p in pythons} == {sys.prefix, other}
    assert all(p["version"] == platform.python_version() for p in pythons)


def test_local_machine_load_counts_only_when_configured(monkeypatch):
    """Another process's load does not make the machine busy unless the site asks for it."""
    monkeypatch.setattr("os.getloadavg", lambda: (1000.0, 1000.0, 1000.0))
    free = LocalMachineProvider().probe().facts["partitions"][0]["free_nodes"]
    strict = LocalMachineProvider(options={"busy_load_fraction": 0.95})
    assert free == 1
    assert strict.probe().facts["partitions"][0]["free_nodes"] == 0
