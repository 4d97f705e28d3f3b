"""The container, storage, network and GPU providers inside a real Secretary negotiation.

A site is assembled from the real provider classes, reading a synthesized sysfs tree and mount
table in a temporary folder and recorded tool output (written from the tools' documented
formats, served by :class:`providers.workload.recorded.RecordedRunner`, because Apptainer and
the Lustre client cannot run here). The rules negotiator then judges requirements against them
exactly as at a real site: present-and-readable satisfies, absent is unsatisfied, and
present-but-unreadable is UNKNOWN, never absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from endpoint_plugins.config import SiteConfig
from endpoint_plugins.secretary import Secretary
from providers.container.docker import DockerProvider
from providers.container.singularity import SingularityProvider
from providers.network.infiniband import InfiniBandProvider
from providers.network.omnipath import OmniPathProvider
from providers.storage.lustre import LustreProvider
from providers.storage.network_fs import NetworkFSProvider
from providers.wire import (
    CheckStatus,
    ContainerRequirement,
    Fabric,
    NetworkRequirement,
    Requirements,
    StorageKind,
    StorageRequirement,
)
from providers.workload.recorded import RecordedRunner, Recording

DOCKER_ARGV = ("docker", "version", "--format", "{{json .}}")
NO_DAEMON = Recording('{"Client":{"Version":"28.2.2"},"Server":null}', "Cannot connect", 1)


@pytest.fixture
def secretary(tmp_path: Path) -> Secretary:
    scratch = tmp_path / "lustre"
    home = tmp_path / "home"
    scratch.mkdir()
    home.mkdir()
    mounts = tmp_path / "mounts"
    mounts.write_text(
        f"/dev/vda / ext4 rw 0 0\n10.0.0.1@o2ib:/scratch {scratch} lustre rw 0 0\n"
        f"nas:/home {home} nfs4 rw 0 0\n"
    )
    port = tmp_path / "sys" / "class" / "infiniband" / "mlx5_0" / "ports" / "1"
    port.mkdir(parents=True)
    (port / "rate").write_text("200 Gb/sec (4X HDR)\n")
    (port / "state").write_text("4: ACTIVE\n")
    (port / "link_layer").write_text("InfiniBand\n")
    # singularity here is Apptainer's compatibility link
    sing = RecordedRunner({("singularity", "--version"): Recording("apptainer version 1.2.5\n")})
    providers = [
        SingularityProvider(runner=sing),
        DockerProvider(runner=RecordedRunner({DOCKER_ARGV: NO_DAEMON})),
        LustreProvider(options={"mounts_file": str(mounts)}),
        NetworkFSProvider(options={"mounts_file": str(mounts)}),
        InfiniBandProvider(options={"sysfs_root": str(tmp_path / "sys")}),
        OmniPathProvider(options={"sysfs_root": str(tmp_path / "sys")}),
    ]
    return Secretary(SiteConfig(name="fabric-site", kind="hpc"), providers=providers)


def _status(secretary: Secretary, requirements: Requirements) -> dict[str, CheckStatus]:
    """Status of the container, storage and network checks by category (the capacity check,
    which has no scheduler to ask at this site, is left aside)."""
    checks = secretary.negotiate(requirements).checks
    wanted = {"container", "storage", "network"}
    return {c.category.value: c.status for c in checks if c.category.value in wanted}


def test_present_resources_satisfy(secretary):
    req = Requirements(
        container=ContainerRequirement(runtime="apptainer", rootless=True),
        network=NetworkRequirement(fabric=Fabric.INFINIBAND, min_speed_gbps=100),
        storage=(StorageRequirement(kind=StorageKind.PARALLEL),),
    )
    proposal = secretary.negotiate(req)
    by_category = {c.category.value: c for c in proposal.checks}
    assert by_category["container"].status is CheckStatus.SATISFIED
    assert by_category["network"].status is CheckStatus.SATISFIED
    assert "mlx5_0:1" in by_category["network"].detail
    assert by_category["storage"].status is CheckStatus.SATISFIED
    assert by_category["storage"].evidence


def test_absent_resources_are_unsatisfied(secretary):
    req = Requirements(
        container=ContainerRequirement(runtime="docker"),  # client without daemon: absent
        network=NetworkRequirement(fabric=Fabric.OMNIPATH),
    )
    assert _status(secretary, req) == {
        "container": CheckStatus.UNSATISFIED,
        "network": CheckStatus.UNSATISFIED,
    }


def test_unreadable_resources_are_unknown(tmp_path):
    broken = RecordedRunner({("singularity", "--version"): Recording("", "FATAL: bad config", 255)})
    secretary = Secretary(
        SiteConfig(name="broken-site"),
        providers=[
            SingularityProvider(runner=broken),
            LustreProvider(options={"mounts_file": str(tmp_path)}),  # a folder: unreadable
        ],
    )
    req = Requirements(
        container=ContainerRequirement(runtime="singularity"),
        storage=(StorageRequirement(kind=StorageKind.LUSTRE),),
    )
    assert _status(secretary, req) == {
        "container": CheckStatus.UNKNOWN,
        "storage": CheckStatus.UNKNOWN,
    }
    details = " ".join(c.detail for c in secretary.negotiate(req).checks)
    assert "FATAL: bad config" in details
    assert "cannot read the mount table" in details
