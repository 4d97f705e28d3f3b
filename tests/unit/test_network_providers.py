"""Network fabric providers: infiniband, omnipath, slingshot.

The test machine has no InfiniBand, Omni-Path or Slingshot hardware, so each test builds a
sysfs tree in a temporary folder with the files and links the kernel documents
(``class/infiniband/<dev>/ports/<n>/{rate,state,link_layer}``, ``device/driver`` links,
``class/cxi/cxi<n>``, ``class/net/hsn<n>/{speed,operstate}``) and points the provider at it
with ``options["sysfs_root"]``. The real ``/sys`` is probed as well.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from providers.errors import ProviderError
from providers.network.infiniband import InfiniBandProvider
from providers.network.omnipath import OmniPathProvider
from providers.network.rdma_sysfs import parse_rate, parse_state
from providers.network.slingshot import SlingshotProvider
from providers.registry import discover
from providers.tools import ToolKind

READ = ToolKind.READ
ALL = (InfiniBandProvider, OmniPathProvider, SlingshotProvider)


def add_port(
    root: Path,
    device: str,
    port: int,
    *,
    rate: str = "100 Gb/sec (4X EDR)",
    state: str = "4: ACTIVE",
    link_layer: str | None = "InfiniBand",
    driver: str | None = None,
) -> None:
    """One verbs port as the kernel lays it out (driver as a ``device/driver`` symlink)."""
    dev = root / "class" / "infiniband" / device
    port_dir = dev / "ports" / str(port)
    port_dir.mkdir(parents=True, exist_ok=True)
    (port_dir / "rate").write_text(rate + "\n")
    (port_dir / "state").write_text(state + "\n")
    if link_layer is not None:
        (port_dir / "link_layer").write_text(link_layer + "\n")
    if driver is not None and not (dev / "device").exists():
        target = root / "bus" / "pci" / "drivers" / driver
        target.mkdir(parents=True, exist_ok=True)
        (dev / "device").mkdir()
        (dev / "device" / "driver").symlink_to(target)


def add_net(root: Path, name: str, *, speed: str = "200000", operstate: str = "up") -> None:
    iface = root / "class" / "net" / name
    iface.mkdir(parents=True)
    (iface / "speed").write_text(speed + "\n")
    (iface / "operstate").write_text(operstate + "\n")


@pytest.fixture
def fabric(tmp_path: Path) -> Path:
    """A node with two IB HCAs, a RoCE NIC, an Omni-Path HFI and a Slingshot NIC."""
    root = tmp_path / "sys"
    add_port(root, "mlx5_0", 1, driver="mlx5_core")
    add_port(root, "mlx5_1", 1, rate="200 Gb/sec (4X HDR)", state="1: DOWN", driver="mlx5_core")
    add_port(root, "mlx5_2", 1, rate="25 Gb/sec (1X EDR)", link_layer="Ethernet")  # RoCE
    add_port(root, "hfi1_0", 1, driver="hfi1")
    add_port(root, "qib0", 1, rate="40 Gb/sec (4X QDR)", state="2: INIT", link_layer=None)
    (root / "class" / "cxi" / "cxi0").mkdir(parents=True)
    (root / "class" / "cxi" / "cxi1").mkdir(parents=True)
    add_net(root, "hsn0")
    add_net(root, "eth0", speed="10000")
    return root


def _list(cls, root: Path) -> list[dict]:
    return cls(options={"sysfs_root": str(root)}).call_tool("list_interfaces", {}, allowed=READ)


# -- every provider ---------------------------------------------------------------------------


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.name)
def test_class_describes_itself(cls):
    info = cls.info()
    assert info.category.value == "network"
    assert info.description and info.detection
    assert {t.tool for t in info.tools} == {"list_interfaces"}


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.name)
def test_absent_without_the_sysfs_folders(cls, tmp_path):
    report = cls(options={"sysfs_root": str(tmp_path)}).probe()
    assert (report.available, report.error) == (False, None)


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.name)
def test_bad_sysfs_root_option_is_an_error(cls):
    report = cls(options={"sysfs_root": ["/sys"]}).probe()
    assert report.available is False
    assert "option 'sysfs_root' must be a folder path" in report.error


def test_infiniband_reports_only_infiniband_ports(fabric):
    assert _list(InfiniBandProvider, fabric) == [
        {
            "name": "mlx5_0:1",
            "fabric": "infiniband",
            "speed_gbps": 100.0,
            "rdma": True,
            "low_latency": None,
            "state": "up",
        },
        {
            "name": "mlx5_1:1",
            "fabric": "infiniband",
            "speed_gbps": 200.0,
            "rdma": True,
            "low_latency": None,
            "state": "down",
        },
        # no link_layer file (old kernel): InfiniBand; INIT is not usable yet: down
        {
            "name": "qib0:1",
            "fabric": "infiniband",
            "speed_gbps": 40.0,
            "rdma": True,
            "low_latency": None,
            "state": "down",
        },
    ]


def test_omnipath_claims_hfi1_only(fabric):
    assert _list(OmniPathProvider, fabric) == [
        {
            "name": "hfi1_0:1",
            "fabric": "omnipath",
            "speed_gbps": 100.0,
            "rdma": True,
            "low_latency": None,
            "state": "up",
        }
    ]


def test_omnipath_is_recognised_by_driver_link_under_another_name(tmp_path):
    root = tmp_path / "sys"
    add_port(root, "opa0", 1, driver="hfi1")
    assert [i["name"] for i in _list(OmniPathProvider, root)] == ["opa0:1"]
    assert InfiniBandProvider(options={"sysfs_root": str(root)}).probe().available is False


def test_roce_only_node_has_no_infiniband(tmp_path):
    root = tmp_path / "sys"
    add_port(root, "mlx5_0", 1, link_layer="Ethernet")
    report = InfiniBandProvider(options={"sysfs_root": str(root)}).probe()
    assert (report.available, report.error) == (False, None)


def test_slingshot_interfaces_and_uncovered_cxi_devices(fabric):
    assert _list(SlingshotProvider, fabric) == [
        {
            "name": "hsn0",
            "fabric": "slingshot",
            "speed_gbps": 200.0,
            "rdma": True,
            "low_latency": None,
            "state": "up",
        },
        {
            "name": "cxi1",
            "fabric": "slingshot",
            "speed_gbps": None,
            "rdma": True,
            "low_latency": None,
            "state": "unknown",
        },
    ]


def test_slingshot_from_hsn_alone(tmp_path):
    root = tmp_path / "sys"
    add_net(root, "hsn0", speed="-1", operstate="down")
    assert _list(SlingshotProvider, root) == [
        {
            "name": "hsn0",
            "fabric": "slingshot",
            "speed_gbps": None,
            "rdma": True,
            "low_latency": None,
            "state": "down",
        }
    ]


# -- garbled trees ----------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [InfiniBandProvider, OmniPathProvider], ids=lambda c: c.name)
@pytest.mark.parametrize("state", ["", "ACTIVE", "garbage", "4 ACTIVE"])
def test_garbled_port_state_is_an_error(cls, tmp_path, state):
    root = tmp_path / "sys"
    add_port(root, "mlx5_0", 1, state=state)
    add_port(root, "hfi1_0", 1, state=state, driver="hfi1")
    report = cls(options={"sysfs_root": str(root)}).probe()
    assert report.available is False
    assert "state" in report.error and "\n" not in report.error


@pytest.mark.parametrize("cls", [InfiniBandProvider, OmniPathProvider], ids=lambda c: c.name)
def test_device_without_ports_is_an_error(cls, tmp_path):
    root = tmp_path / "sys"
    (root / "class" / "infiniband" / "mlx5_0").mkdir(parents=True)
    report = cls(options={"sysfs_root": str(root)}).probe()
    assert report.available is False
    assert "mlx5_0" in report.error


def test_garbled_rate_gives_unknown_speed(tmp_path):
    root = tmp_path / "sys"
    add_port(root, "mlx5_0", 1, rate="fast")
    assert _list(InfiniBandProvider, root)[0]["speed_gbps"] is None


def test_unlistable_cxi_class_is_an_error(tmp_path):
    root = tmp_path / "sys"
    (root / "class").mkdir(parents=True)
    (root / "class" / "cxi").write_text("not a folder")
    report = SlingshotProvider(options={"sysfs_root": str(root)}).probe()
    assert report.available is False
    assert "cannot list" in report.error


# -- parsers ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gbps"),
    [
        ("100 Gb/sec (4X EDR)", 100.0),
        ("2.5 Gb/sec (1X SDR)", 2.5),
        ("400 Gb/sec (4X NDR)", 400.0),
        ("10 Gb/sec (4X)", 10.0),
        ("garbage", None),
        ("", None),
        (None, None),
    ],
)
def test_parse_rate(text, gbps):
    assert parse_rate(text) == gbps


def test_parse_state():
    assert parse_state("4: ACTIVE") == "up"
    assert parse_state("1: DOWN") == "down"
    assert parse_state("3: ARMED") == "down"
    with pytest.raises(ProviderError, match="expected e.g. '4: ACTIVE'"):
        parse_state("ACTIVE")


# -- the real machine -------------------------------------------------------------------------


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.name)
def test_real_sysfs_is_read_without_error(cls):
    report = cls().probe()
    assert report.error is None, report.error
    for iface in (report.facts or {}).get("interfaces", []):
        assert iface["rdma"] is True


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.name)
def test_entry_point_names_this_class_once_registered(cls):
    classes = discover().classes
    if cls.name not in classes:
        pytest.skip(f'add to pyproject: {cls.name} = "{cls.__module__}:{cls.__name__}"')
    assert classes[cls.name] is cls
