"""Storage providers: lustre, gpfs, beegfs, network-fs (NFS and CIFS).

None of these file systems can be mounted on the test machine, so the mount table is a file
written in ``/proc/self/mounts`` layout whose mount points are real temporary folders: the
space figures come from the real ``os.statvfs`` on them. ``lfs df`` cannot run here (no Lustre
client), so its output is served by :class:`providers.workload.recorded.RecordedRunner` from
text written from the documented ``lfs df`` layout. The real ``/proc/self/mounts`` is read as well.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from providers.errors import ProviderError
from providers.hardware.memory import to_gb
from providers.registry import discover
from providers.storage import mounts as mounts_module
from providers.storage.beegfs import BeeGFSProvider
from providers.storage.gpfs import GPFSProvider
from providers.storage.lustre import LustreProvider, parse_lfs_df
from providers.storage.mounts import parse_mounts, statvfs_gb, unescape
from providers.storage.network_fs import NetworkFSProvider
from providers.tools import ToolKind
from providers.workload.recorded import RecordedRunner, Recording

READ = ToolKind.READ
ALL = (LustreProvider, GPFSProvider, BeeGFSProvider, NetworkFSProvider)
PAYLOADS = ("x; touch MARKER", "$(touch MARKER)", "`touch MARKER`", "../../MARKER", "-rf")

LFS_DF = """\
UUID                   1K-blocks        Used   Available Use% Mounted on
scratch-MDT0000_UUID    2210560       42240     1970176   3% /lustre/scratch[MDT:0]
scratch-OST0000_UUID  976762584   488381292   488381292  50% /lustre/scratch[OST:0]
scratch-OST0001_UUID  976762584   937692081    39070503  96% /lustre/scratch[OST:1]
OST0002             : inactive device
scratch-OST0003_UUID  976762584    97676258   879086326  10% /lustre/scratch[OST:3]

filesystem_summary:  2930287752  1523749631  1406537121  52% /lustre/scratch

home-MDT0000_UUID       1105280       21120      985088   3% /lustre/home[MDT:0]
home-OST0000_UUID     488381292    48838129   439543163  10% /lustre/home[OST:0]

filesystem_summary:   488381292    48838129   439543163  10% /lustre/home

"""


def _space(path: Path) -> tuple[float, float]:
    st = os.statvfs(path)
    return to_gb(st.f_blocks * st.f_frsize), to_gb(st.f_bavail * st.f_frsize)


@pytest.fixture
def site(tmp_path: Path) -> dict[str, Path]:
    """Mount points as real folders and a mount table naming them, one line per fs type."""
    names = [
        "lustre scratch",
        "ost0",
        "gpfs",
        "beegfs",
        "nfs3",
        "nfs4",
        "cifs",
        "smb3",
        "ext4",
    ]
    dirs = {n: tmp_path / "mnt" / n for n in names}
    for folder in dirs.values():
        folder.mkdir(parents=True)
    gone = tmp_path / "mnt" / "gone"  # listed but missing: cannot be measured
    esc = str(dirs["lustre scratch"]).replace(" ", "\\040")
    table = "\n".join(
        [
            "/dev/vda / ext4 rw,relatime 0 0",
            "proc /proc proc rw 0 0",
            f"10.1.0.1@o2ib:/scratch {esc} lustre rw,flock,lazystatfs 0 0",
            f"/dev/sdb {dirs['ost0']} lustre ro,svname=scratch-OST0000 0 0",
            f"10.1.0.1@o2ib:/gone {gone} lustre rw 0 0",
            f"gpfs0 {dirs['gpfs']} gpfs rw,relatime 0 0",
            f"beegfs_nodev {dirs['beegfs']} beegfs rw,cfgFile=/etc/beegfs/c.conf 0 0",
            f"nas:/export/home {dirs['nfs3']} nfs rw,vers=3,hard 0 0",
            f"nas:/export/data {dirs['nfs4']} nfs4 rw,vers=4.2 0 0",
            f"//fs/share {dirs['cifs']} cifs rw,vers=3.0 0 0",
            f"//fs/other {dirs['smb3']} smb3 rw 0 0",
            f"/dev/vdb {dirs['ext4']} ext4 rw 0 0",
            # the same NFS export mounted twice on one point: reported once
            f"nas:/export/data {dirs['nfs4']} nfs4 rw,vers=4.2 0 0",
        ]
    )
    mounts = tmp_path / "mounts"
    mounts.write_text(table + "\n")
    return {"mounts": mounts, "gone": gone, **dirs}


def _provider(cls, site, runner=None):
    return cls(runner=runner or RecordedRunner(), options={"mounts_file": str(site["mounts"])})


def _fs(kind: str, path: Path) -> dict:
    total, free = _space(path)
    return {"kind": kind, "mount": str(path), "total_gb": total, "free_gb": free, "shared": True}


def _same(got: list[dict], want: list[dict]) -> None:
    """Equal facts; free space compared to 0.1 GB, other processes write to the same disk."""
    assert [(f["kind"], f["mount"], f["total_gb"], f["shared"]) for f in got] == [
        (f["kind"], f["mount"], f["total_gb"], f["shared"]) for f in want
    ]
    for g, w in zip(got, want, strict=True):
        assert abs(g["free_gb"] - w["free_gb"]) < 0.1
        assert 0 <= g["free_gb"] <= g["total_gb"]


# -- every provider ---------------------------------------------------------------------------


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.name)
def test_class_describes_itself(cls):
    info = cls.info()
    assert info.category.value == "storage"
    assert info.description and info.detection
    assert "list_filesystems" in {t.tool for t in info.tools}


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.name)
def test_absent_when_no_mount_of_its_type(cls, tmp_path):
    table = tmp_path / "mounts"
    table.write_text("/dev/vda / ext4 rw 0 0\nproc /proc proc rw 0 0\n")
    report = cls(options={"mounts_file": str(table)}).probe()
    assert (report.available, report.error) == (False, None)


@pytest.mark.parametrize("text", ["", "\x00\x01garbage\n", "one two\n"])
@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.name)
def test_garbled_mount_table_is_an_error(cls, tmp_path, text):
    table = tmp_path / "mounts"
    table.write_text(text)
    report = cls(options={"mounts_file": str(table)}).probe()
    assert report.available is False
    assert "is not a mount table" in report.error


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.name)
def test_unreadable_mount_table_is_an_error(cls, tmp_path):
    report = cls(options={"mounts_file": str(tmp_path)}).probe()  # a folder, not a file
    assert report.available is False
    assert "cannot read the mount table" in report.error
    bad = cls(options={"mounts_file": 7}).probe()
    assert "option 'mounts_file' must be a file path" in bad.error


def test_lustre_reports_client_mounts_only(site):
    got = _provider(LustreProvider, site).call_tool("list_filesystems", {}, allowed=READ)
    gone = {"kind": "lustre", "mount": str(site["gone"]), "total_gb": 0.0, "free_gb": 0.0}
    _same(got, [_fs("lustre", site["lustre scratch"]), {**gone, "shared": True}])


def test_gpfs_and_beegfs(site):
    _same(
        _provider(GPFSProvider, site).call_tool("list_filesystems", {}, allowed=READ),
        [_fs("gpfs", site["gpfs"])],
    )
    _same(
        _provider(BeeGFSProvider, site).call_tool("list_filesystems", {}, allowed=READ),
        [_fs("beegfs", site["beegfs"])],
    )


def test_network_fs_kinds(site):
    provider = _provider(NetworkFSProvider, site)
    want = [
        _fs("nfs", site["nfs3"]),
        _fs("cifs", site["cifs"]),
        _fs("cifs", site["smb3"]),
        _fs("nfs", site["nfs4"]),
    ]
    _same(provider.call_tool("list_filesystems", {}, allowed=READ), want)
    nfs = provider.call_tool("list_filesystems", {"kind": "NFS"}, allowed=READ)
    assert [f["mount"] for f in nfs] == [str(site["nfs3"]), str(site["nfs4"])]


def test_unmeasurable_mount_is_reported_with_zero_space(site, caplog):
    with caplog.at_level("WARNING"):
        facts = _provider(LustreProvider, site).probe().facts
    gone = [f for f in facts["filesystems"] if f["mount"] == str(site["gone"])]
    assert gone == [
        {"kind": "lustre", "mount": str(site["gone"]), "total_gb": 0, "free_gb": 0, "shared": True}
    ]
    assert any(str(site["gone"]) in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("payload", PAYLOADS)
@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.name)
def test_injection_in_list_filesystems_runs_nothing(cls, site, payload, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = RecordedRunner(programs=["lfs"])
    provider = _provider(cls, site, runner)
    assert provider.call_tool("list_filesystems", {"kind": payload}, allowed=READ) == []
    assert runner.calls == []
    assert not (tmp_path / "MARKER").exists()


# -- lustre health ----------------------------------------------------------------------------


def test_parse_lfs_df():
    scratch, home = parse_lfs_df(LFS_DF)
    assert scratch.model_dump() == {
        "mount": "/lustre/scratch",
        "mdt_count": 1,
        "ost_count": 3,
        "inactive_osts": 1,
        "full_osts": 1,
        "ost_max_used_percent": 96.0,
        "ost_mean_used_percent": 52.0,
        "total_gb": 3000.615,
        "free_gb": 1440.294,
    }
    assert (home.mount, home.ost_count, home.inactive_osts, home.full_osts) == (
        "/lustre/home",
        1,
        0,
        0,
    )
    with pytest.raises(ProviderError, match="no filesystem_summary"):
        parse_lfs_df("lfs: garbage\n")
    with pytest.raises(ProviderError, match=r"\(no output\)"):
        parse_lfs_df("")


def _lustre_site(tmp_path: Path) -> Path:
    scratch = tmp_path / "lustre" / "scratch"
    scratch.mkdir(parents=True)
    table = tmp_path / "mounts"
    table.write_text(f"10.1.0.1@o2ib:/scratch {scratch} lustre rw 0 0\n")
    return table


def _lfs_df_for(mount: Path) -> str:
    return LFS_DF.replace("/lustre/scratch", str(mount))


def test_lustre_health_tool(tmp_path):
    table = _lustre_site(tmp_path)
    mount = tmp_path / "lustre" / "scratch"
    runner = RecordedRunner({("lfs", "df"): Recording(_lfs_df_for(mount))})
    provider = LustreProvider(runner=runner, options={"mounts_file": str(table)})
    health = provider.call_tool("lustre_health", {}, allowed=READ)
    assert [(h["mount"], h["ost_count"], h["full_osts"]) for h in health] == [(str(mount), 3, 1)]
    same = provider.call_tool("lustre_health", {"mount": str(mount)}, allowed=READ)
    assert same == health
    assert runner.calls == [("lfs", "df"), ("lfs", "df")]


def test_lustre_health_errors(tmp_path):
    table = _lustre_site(tmp_path)
    options = {"mounts_file": str(table)}
    no_lfs = LustreProvider(runner=RecordedRunner(programs=[]), options=options)
    with pytest.raises(ProviderError, match="lfs is not installed"):
        no_lfs.call_tool("lustre_health", {}, allowed=READ)
    failing = RecordedRunner({("lfs", "df"): Recording("", "lfs df: cannot get ost info\n", 5)})
    with pytest.raises(ProviderError, match="cannot get ost info"):
        LustreProvider(runner=failing, options=options).call_tool("lustre_health", {}, allowed=READ)
    garbled = RecordedRunner({("lfs", "df"): Recording("garbage\n")})
    with pytest.raises(ProviderError, match="no filesystem_summary"):
        LustreProvider(runner=garbled, options=options).call_tool("lustre_health", {}, allowed=READ)
    with pytest.raises(ProviderError, match="not available here"):
        LustreProvider(options={"mounts_file": str(tmp_path / "none")}).call_tool(
            "lustre_health", {}, allowed=READ
        )


@pytest.mark.parametrize("payload", PAYLOADS)
def test_injection_in_lustre_health_runs_nothing(tmp_path, payload, monkeypatch):
    table = _lustre_site(tmp_path)
    monkeypatch.chdir(tmp_path)
    runner = RecordedRunner({("lfs", "df"): Recording(LFS_DF)})
    provider = LustreProvider(runner=runner, options={"mounts_file": str(table)})
    with pytest.raises(ProviderError, match="is not a Lustre mount here"):
        provider.call_tool("lustre_health", {"mount": payload}, allowed=READ)
    assert runner.calls == []
    assert not (tmp_path / "MARKER").exists()


# -- mount table helpers ----------------------------------------------------------------------


def test_parse_mounts_unescapes_and_skips_short_lines():
    entries = parse_mounts("a /x\\040y nfs4 rw,vers=4 0 0\nshort line\n# comment a b c\n")
    assert [(e.device, e.mount, e.fstype, e.options) for e in entries] == [
        ("a", "/x y", "nfs4", ("rw", "vers=4"))
    ]
    assert unescape("\\011tab\\134") == "\ttab\\"


def test_statvfs_gb_on_a_real_folder(tmp_path):
    total, free = statvfs_gb(str(tmp_path))
    want_total, want_free = _space(tmp_path)
    assert total == want_total and abs(free - want_free) < 0.1
    assert statvfs_gb(str(tmp_path / "missing")) is None


def test_statvfs_gb_gives_up_on_a_hung_mount(monkeypatch, tmp_path):
    """A dead NFS server blocks statvfs forever: the probe must not wait for it."""
    release = threading.Event()

    def hung(path):
        release.wait(30)
        raise OSError("released")

    monkeypatch.setattr(mounts_module.os, "statvfs", hung)
    try:
        assert statvfs_gb(str(tmp_path), timeout_s=0.05) is None
    finally:
        release.set()


# -- the real machine -------------------------------------------------------------------------


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.name)
def test_real_mount_table_is_read_without_error(cls):
    if not Path("/proc/self/mounts").exists():
        pytest.skip("no /proc/self/mounts on this platform")
    report = cls().probe()
    assert report.error is None, report.error
    for fs in (report.facts or {}).get("filesystems", []):
        assert fs["shared"] is True and 0 <= fs["free_gb"] <= fs["total_gb"]


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.name)
def test_entry_point_names_this_class_once_registered(cls):
    classes = discover().classes
    if cls.name not in classes:
        pytest.skip(f'add to pyproject: {cls.name} = "{cls.__module__}:{cls.__name__}"')
    assert classes[cls.name] is cls
