"""A key whose value only says it is wanted ("nvlink = required", "infiniband: yes").

The key is the requirement. Left to the prose readers, "required" and "yes" are filler words, so
a key no field holds was lost with nothing quoted: a site could be READY on a need it was never
asked about. A key the prose readers know is read as the word would be in a sentence.
"""

from __future__ import annotations

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire.requirements import Fabric, StorageKind


@pytest.mark.parametrize(
    "text",
    [
        "nvlink = required",
        "[resources]\nnodes = 2\nnvlink = required",
        "ecc = true\nnodes = 2",
        "fpga = required",
        "nodes=2, nvlink=yes",
        "avx512: yes",
        "sgx_enclave: mandatory",
        '{"nodes": 4, "hbm": "needed"}',
        "tpu = enabled",
        "license_server: required",
    ],
)
def test_a_key_no_field_holds_is_quoted(text: str) -> None:
    parsed = parse_requirements(text)
    assert parsed.unresolved, parsed


def test_a_fabric_key_asks_for_the_fabric() -> None:
    for text in ("infiniband = required", "InfiniBand: yes", "infiniband=true"):
        parsed = parse_requirements(text)
        assert parsed.network is not None and parsed.network.fabric is Fabric.INFINIBAND, text


def test_runtime_storage_and_mpi_keys_ask_for_them() -> None:
    container = parse_requirements("apptainer = required").container
    assert container is not None and container.runtime == "apptainer"
    assert parse_requirements("container: yes").container is not None
    storage = parse_requirements("lustre = required").storage
    assert [s.kind for s in storage] == [StorageKind.LUSTRE]
    assert parse_requirements("mpi = required").mpi is not None
    network = parse_requirements("rdma: yes").network
    assert network is not None and network.low_latency


@pytest.mark.parametrize(
    "text",
    [
        "container = no",
        "gpu: false",
        "mpi = none",
        "nodes = 2\nwalltime = 2h",
        "note: required reading",
    ],
)
def test_refusals_and_ordinary_keys_are_not_quoted(text: str) -> None:
    assert not parse_requirements(text).unresolved, text
