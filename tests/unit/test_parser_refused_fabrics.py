"""A fabric refused by name beside another fast fabric asked for: no low-latency exclusion.

"InfiniBand, but not Slingshot" asks for a fast network, only not that one. Read as "the job
must not use low latency", the request would be refused by every InfiniBand site.
"""

from __future__ import annotations

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire.requirements import Fabric, Feature


@pytest.mark.parametrize(
    ("text", "fabric"),
    [
        ("InfiniBand is required, but not Slingshot.", Fabric.INFINIBAND),
        ("Infiniband required; slingshot is not needed", Fabric.INFINIBAND),
        ("we want Slingshot, no Omni-Path please", Fabric.SLINGSHOT),
        ("Omni-Path is what we need - no InfiniBand", Fabric.OMNIPATH),
        ("Fabric: HDR InfiniBand (not Slingshot)", Fabric.INFINIBAND),
        ("Needs an InfiniBand cluster; does not need Slingshot", Fabric.INFINIBAND),
    ],
)
def test_another_fast_fabric_asked_for_keeps_low_latency(text: str, fabric: Fabric) -> None:
    parsed = parse_requirements(text)
    assert parsed.network is not None and parsed.network.fabric is fabric
    assert Feature.LOW_LATENCY not in parsed.excluded


@pytest.mark.parametrize(
    "text",
    [
        "We need a low-latency network but not Omni-Path.",
        "RDMA interconnect please, no Slingshot",
    ],
)
def test_low_latency_asked_for_is_not_also_excluded(text: str) -> None:
    parsed = parse_requirements(text)
    assert parsed.network is not None and parsed.network.low_latency
    assert Feature.LOW_LATENCY not in parsed.excluded


@pytest.mark.parametrize(
    "text",
    [
        "No InfiniBand needed, ethernet is fine.",
        "No Slingshot please, 4 nodes of 64 cores.",
        "We don't need InfiniBand or MPI for this.",
        "no need for omnipath",
    ],
)
def test_a_fabric_refused_alone_still_excludes_low_latency(text: str) -> None:
    assert Feature.LOW_LATENCY in parse_requirements(text).excluded
