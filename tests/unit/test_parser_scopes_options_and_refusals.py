"""Quantities and resources whose scope or status is easy to misread.

Per-node amounts behind a filler ("20 nodes at once, each with 32 cores"), a typo ("a node
wiht 2 GPUs", "accross the whole job") or a casual hedge ("and like 128 GB"); GPUs counted out
of the site's pool ("2 of the L40S cards", "1 node with 8 of them"); GPUs used only when there
(an option, never a must); a storage kind named as a preference that the same sentence waives;
nodes to stay off named by their fabric; a container runtime named as the reason containers
are refused; a not-needed list in a spec; "within 10 days from today".
Every sentence here was written for the test; none is copied from the request corpus.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements, StorageKind
from providers.wire.requirements import Fabric, Feature, GpuLogic

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


# -- per-node amounts ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "nodes", "cores"),
    [
        ("up to 12 nodes at once, each with 48 cores", 12, 48),
        ("We run 6 nodes in parallel, each with 128 cores.", 6, 128),
        ("3 nodes at a time, each having 64 cores", 3, 64),
        ("8 nodes simultaneously, each with 32 cores and 192 GB", 8, 32),
        ("please give us 4 nodes, every one with 96 cores", 4, 96),
        ("2 machines, every one with 40 cores", 2, 40),
        ("1 node wiht 24 cores please", 1, 24),
        ("one node whith 2 GPUs and 16 cores", 1, 16),
    ],
)
def test_cores_attached_to_the_node_count_are_per_node(text: str, nodes: int, cores: int) -> None:
    compute = parse(text).compute
    assert compute.nodes == nodes
    assert compute.cores_per_node == cores
    assert compute.total_cores is None


def test_a_count_after_the_node_phrase_in_its_own_sentence_stays_total() -> None:
    compute = parse("4 nodes at once. 64 cores in total.").compute
    assert (compute.nodes, compute.total_cores, compute.cores_per_node) == (4, 64, None)


@pytest.mark.parametrize(
    ("text", "per_node", "total"),
    [
        ("10 nodes, 1.5 TB of RAM accross the whole job", None, 1500.0),
        ("memory: 800 GB accross all nodes, 8 nodes", None, 800.0),
        ("1 node with 2 gpus and 32 cores and like 128 GB", 128.0, None),
        ("24 cores, maybe 96 GB", 96.0, None),
        ("48 cores on one node, memroy maybe 256GB", 256.0, None),
        ("memory perhaps 64 GB on 1 node", 64.0, None),
    ],
)
def test_memory_scope_through_typos_and_hedges(
    text: str, per_node: float | None, total: float | None
) -> None:
    compute = parse(text).compute
    assert compute.memory_gb_per_node == per_node
    assert compute.memory_gb_total == total


def test_a_task_sized_roughly_is_not_the_node() -> None:
    """ "each run uses 4 cores and roughly 3 GB": a task's size, not the node's memory."""
    compute = parse("Each of the 50 runs uses 4 cores and roughly 3 GB.").compute
    assert compute.memory_gb_per_node is None


# -- GPUs out of the pool ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gpus", "model"),
    [
        ("can I have 2 of the L40S cards for an afternoon", 2, "L40S"),
        ("could I use 4 of your H100s for a day", 4, "H100"),
        ("I'd like 3 of the A100 GPUs", 3, "A100"),
        ("grab two of the V100 cards please", 2, "V100"),
        ("any MI250X free? 1 node with 4 of them, 6 hours", 4, "MI250X"),
        ("the H200s look idle. one node with 8 of them", 8, "H200"),
    ],
)
def test_gpus_counted_out_of_the_pool(text: str, gpus: int, model: str) -> None:
    compute = parse(text).compute
    assert compute.gpus_per_node == gpus
    assert compute.gpu_model == model


@pytest.mark.parametrize(
    "text",
    [
        "2 of the A100s failed last week; 1 node is enough",
        "I have 3 nodes; 2 of them are down",
        "3 of the GPUs were busy yesterday, so 1 node please",
    ],
)
def test_gpus_that_did_something_are_not_asked_for(text: str) -> None:
    compute = parse(text).compute
    assert compute.gpus_per_node in (None, 1)
    assert compute.total_gpus is None


def test_a_bullet_star_on_the_next_line_multiplies_nothing() -> None:
    text = "* 32 cores and 256 GB on that node\n* 2 TB of node-local NVMe"
    req = parse(text)
    assert req.compute.nodes is None
    assert {(s.kind, s.min_free_gb) for s in req.storage} == {(StorageKind.LOCAL, 2000.0)}


# -- GPU as an option ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("it uses one GPU if there's one on the node, otherwise it runs on CPU", 1),
        ("the solver takes a GPU if the node has one, but the CPU path works too", 1),
        ("We use the GPU if available, otherwise the CPUs.", None),
        ("uses GPUs when there are any, else plain CPUs", None),
        ("It runs on GPU or only on CPU, both are fine.", None),
        ("runs on one GPU or just on CPU", 1),
        ("runs on 2 GPUs or only on CPU", 2),
        ("GPUs would speed it up if\nyou have them, but they are not required.", None),
    ],
)
def test_gpu_used_when_there_is_an_option(text: str, count: int | None) -> None:
    compute = parse(text).compute
    assert compute.gpu_logic is GpuLogic.OR
    assert compute.gpus_per_node == count
    assert Feature.GPU not in parse(text).excluded


def test_a_required_gpu_stays_required() -> None:
    """No CPU fallback in the GPU's sentence: "if there is none we wait" is no option."""
    for text in (
        "The GPU must be an A100; if there is none we wait. CPU jobs run elsewhere.",
        "needs 2 GPUs per node, 64 CPU cores",
        "it uses the GPU if there is one on the node. The CPU count is 16.",
    ):
        assert parse(text).compute.gpu_logic is not GpuLogic.OR, text


# -- storage preferences ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "We need about 20 TB free on scratch; GPFS would be nice, but any scratch will do.",
            {(StorageKind.ANY, 20000.0)},
        ),
        (
            "10 TB free, preferably on Lustre, but any parallel filesystem is fine.",
            {(StorageKind.PARALLEL, 10000.0)},
        ),
        (
            "BeeGFS would be great, though any storage will work: 3 TB free.",
            {(StorageKind.ANY, 3000.0)},
        ),
    ],
)
def test_a_kind_named_only_as_a_preference_is_no_requirement(
    text: str, expected: set[tuple[StorageKind, float | None]]
) -> None:
    assert {(s.kind, s.min_free_gb) for s in parse(text).storage} == expected


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Lustre with 5 TB, and any scratch will do for the logs", StorageKind.LUSTRE),
        ("GPFS would be nice. 2 TB scratch.", StorageKind.GPFS),
        ("We need GPFS with 4 TB free.", StorageKind.GPFS),
    ],
)
def test_a_kind_not_waived_in_its_sentence_is_kept(text: str, kind: StorageKind) -> None:
    assert kind in {s.kind for s in parse(text).storage}


# -- fabrics to stay off --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fabric"),
    [
        ("please not on the ethernet-only racks, it needs InfiniBand", Fabric.INFINIBAND),
        ("keep it away from the Ethernet nodes; Slingshot wanted", Fabric.SLINGSHOT),
        ("avoid the ethernet partition, we need Omni-Path", Fabric.OMNIPATH),
        ("we need InfiniBand, not the Ethernet queue", Fabric.INFINIBAND),
    ],
)
def test_nodes_avoided_by_fabric_leave_the_fabric_asked(text: str, fabric: Fabric) -> None:
    req = parse(text)
    assert req.network is not None
    assert req.network.fabric is fabric


def test_refusing_ethernet_alone_is_quoted_not_dropped() -> None:
    req = parse("please not on the ethernet racks, 4 nodes")
    assert req.network is None or req.network.fabric is not Fabric.ETHERNET
    assert any("ethernet" in u.lower() for u in req.unresolved)


def test_refusing_a_fast_fabric_excludes_low_latency() -> None:
    req = parse("avoid the Omni-Path partition please, 4 nodes")
    assert req.network is None
    assert Feature.LOW_LATENCY in req.excluded


def test_asking_for_ethernet_nodes_is_still_ethernet() -> None:
    req = parse("run it on the ethernet nodes, 2 of them")
    assert req.network is not None and req.network.fabric is Fabric.ETHERNET


# -- containers refused with a reason ---------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Please no containers, our code is not working inside Singularity.",
        "no containers pls, the build breaks under apptainer every time",
        "No containers please: MPI inside Apptainer never worked for us.",
        "We can't use containers; Docker crashed on our last three tries.",
        "Containers are not allowed for us, Podman fails with our licence server.",
    ],
)
def test_a_runtime_named_as_the_reason_for_no_containers_is_not_asked(text: str) -> None:
    req = parse(text)
    assert Feature.CONTAINER in req.excluded
    assert req.container is None


@pytest.mark.parametrize(
    ("text", "runtime"),
    [
        ("Singularity breaks on our laptop, so please give us Apptainer 1.2", "apptainer"),
        ("We need Podman 4, rootless.", "podman"),
        ("no containers on the login node. Run it in Podman later.", "podman"),
    ],
)
def test_a_runtime_asked_for_is_kept(text: str, runtime: str) -> None:
    container = parse(text).container
    assert container is not None and container.runtime == runtime


# -- specs ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "excluded"),
    [
        ('{"nodes": 1, "not_needed": ["mpi", "containers"]}', {Feature.MPI, Feature.CONTAINER}),
        ("not_needed: [gpu, mpi]\nnodes: 2", {Feature.GPU, Feature.MPI}),
        ("not_required = containers\ncores = 8", {Feature.CONTAINER}),
        ('{"unneeded": ["gpus"], "cores": 16}', {Feature.GPU}),
    ],
)
def test_a_not_needed_list_excludes_its_features(text: str, excluded: set[Feature]) -> None:
    req = parse(text)
    assert set(req.excluded) == excluded
    assert req.mpi is None and req.container is None


# -- deadlines counted from today ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("Hard deadline: within 10 days from today.", 10),
        ("results within 3 days from today please", 3),
        ("we need it within 2 weeks after today", 14),
    ],
)
def test_from_today_starts_the_count_and_is_no_urgency(text: str, days: int) -> None:
    req = parse(text)
    assert req.urgency is None
    assert req.deadline is not None
    assert (req.deadline - NOW).days == days


def test_today_on_its_own_is_still_soon() -> None:
    assert parse("I need it today, within 5 hours").urgency is not None
