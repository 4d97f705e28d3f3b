"""Quantities and their scopes in wording the parser had not read (the dev-n and dev-o round).

Each test states one rule in sentences written for the test: fractions of a size unit ("half a
terabyte"), budgets in words ("1,500 US dollars", "2 thousand dollars"), a bare size in a terse
list of process counts, amounts from earlier runs that are history, "6 such nodes" after one
node was described, a unit of work that is itself the job, GPU memory with the vendor after the
noun, link-speed keys that name their unit, and a scratch size beside an object store. Each
has negative cases the rule must not fire on.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def storage(req: Requirements) -> set[tuple[str, float | None]]:
    return {(s.kind.value, s.min_free_gb) for s in req.storage}


# -- fractions of one size unit --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gb"),
    [
        ("A single node, 16 cores and half a terabyte of RAM, 10 hours.", 500.0),
        ("The solver wants half a TB of memory on one node.", 500.0),
        ("Give me a quarter of a terabyte of RAM, please.", 250.0),
        ("We need half of a terabyte of memory per node.", 500.0),
        ("one node with a terabyte of RAM", 1000.0),
    ],
)
def test_a_fraction_of_a_size_unit_is_that_fraction(text: str, gb: float) -> None:
    assert parse(text).compute.memory_gb_per_node == gb


def test_half_a_terabyte_of_scratch_is_storage() -> None:
    assert storage(parse("I also need half a terabyte of scratch.")) == {("any", 500.0)}


def test_half_of_a_sized_disk_is_no_fraction_of_a_unit() -> None:
    """ "half of the 2 TB disk" names 2 TB; "half" is left for a reader to see."""
    req = parse("We can use half of the 2 TB disk.")
    assert storage(req) == {("any", 2000.0)}
    assert "half" in req.unresolved


# -- budgets in words ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "usd"),
    [
        ("The grant caps this at 2,500 US dollars.", 2500.0),
        ("We may spend 3 thousand dollars at most.", 3000.0),
        ("Our budget is 1.5 thousand.", 1500.0),
        ("budget of 4 thousand USD", 4000.0),
        ("USD 1500 is the limit for this run.", 1500.0),
        ("I can pay up to $1.2k.", 1200.0),
        ("Cost should stay below 750 U.S. dollars.", 750.0),
        ("The spend must not go over 3 000 US dollars.", 3000.0),
        ("budget: 1'200 USD", 1200.0),
        ("we have 12\u202f000 dollars for this", 12000.0),
    ],
)
def test_a_budget_written_out_is_read(text: str, usd: float) -> None:
    assert parse(text).budget_usd == usd


@pytest.mark.parametrize(
    "text",
    [
        "We process 3 thousand images on 2 nodes.",
        "The survey has 40 thousand galaxies; 4 nodes for 6 hours.",
        "run 2 500 jobs on 4 nodes",
    ],
)
def test_thousand_without_money_is_no_budget(text: str) -> None:
    assert parse(text).budget_usd is None


def test_a_group_of_a_spaced_amount_is_never_an_amount_alone() -> None:
    """ "2 000 US dollars" is two thousand, never the last group "000" read as zero."""
    assert parse("Costs may not exceed 5 000 US dollars.").budget_usd == 5000.0


# -- a bare size beside process counts -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cores", "gb"),
    [
        ("quick one: 16 MPI processes, 48 GB, 3h", 16, 48.0),
        ("64 tasks, 128 GB, 4 hours please", 64, 128.0),
        ("24 processors and 96GB for 5h", 24, 96.0),
        ("12 procs, 20 GB, 1h", 12, 20.0),
    ],
)
def test_a_bare_size_listed_with_process_counts_is_memory(text: str, cores: int, gb: float) -> None:
    req = parse(text)
    assert req.compute.total_cores == cores
    assert req.compute.memory_gb_per_node == gb


@pytest.mark.parametrize(
    "text",
    [
        "12 processes; the input is 40 GB",
        "run 8 tasks. The 40 GB dataset is on disk already.",
    ],
)
def test_a_size_of_data_beside_processes_is_not_memory(text: str) -> None:
    req = parse(text)
    assert req.compute.memory_gb_per_node is None
    assert any("40 GB" in u for u in req.unresolved)


# -- amounts from earlier runs are history ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cores"),
    [
        ("Earlier runs used 512 cores; the refined grid now needs 1,024 MPI ranks on 8 nodes.",
         1024),
        ("Previous simulations took 256 cores. For this one I need 768 cores in total.", 768),
        ("In our last campaign it used 4096 cores. This time I'd like 2048 cores.", 2048),
        ("On another cluster the job ran with 300 cores; here I need 600 cores.", 600),
    ],
)  # fmt: skip
def test_counts_said_of_earlier_runs_give_way_to_the_request(text: str, cores: int) -> None:
    assert parse(text).compute.total_cores == cores


def test_a_past_run_time_gives_way_to_the_asked_one() -> None:
    req = parse(
        "During our previous campaign it used 1024 cores for 50 hours. Now we want 8 nodes "
        "of 64 cores for 30 hours."
    )
    assert req.compute.walltime_s == 30 * 3600
    assert req.compute.total_cores is None
    assert (req.compute.nodes, req.compute.cores_per_node) == (8, 64)


def test_an_amount_said_only_of_the_past_is_kept() -> None:
    """Nothing requirement-like is silently lost: with no other count, the one said stays."""
    assert parse("Previous runs used 256 cores and went fine.").compute.total_cores == 256


def test_the_first_step_is_no_history() -> None:
    req = parse("For the first step I need 4 nodes, then 2 nodes for the rest.")
    assert req.compute.nodes is not None or req.unparsed


# -- "such nodes": the node described before -------------------------------------------------


@pytest.mark.parametrize(
    ("text", "nodes", "cores", "gb"),
    [
        ("Each tile wants a node with 48 cores and 256 GB; we would run 8 such nodes at once.",
         8, 48, 256.0),
        ("The code fits a machine with 16 cores and 64 GB; we'd like 4 of these "
         "machines for 10 hours.", 4, 16, 64.0),
        ("One node with 64 cores and 512 GB per chunk. Please give us 12 identical nodes.",
         12, 64, 512.0),
    ],
)  # fmt: skip
def test_such_nodes_count_the_node_described_before(
    text: str, nodes: int, cores: int, gb: float
) -> None:
    c = parse(text).compute
    assert (c.nodes, c.cores_per_node, c.memory_gb_per_node) == (nodes, cores, gb)


@pytest.mark.parametrize(
    "text",
    [
        "I need a node with 8 GPUs. Such nodes are rare here.",
        "a node with 32 cores, 2 hours",
    ],
)
def test_without_a_later_such_count_one_node_is_one_node(text: str) -> None:
    assert parse(text).compute.nodes == 1


# -- a unit of work that is itself the job ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cores", "gb"),
    [
        ("We submit one sample per job. Each sample needs 4 cores and 16 GB of RAM.", 4, 16.0),
        ("There is a job for each patient; every patient needs 12 cores.", 12, None),
        ("One scan per job, each scan needs 6 cores, 24 GB of RAM and 3 hours.", 6, 24.0),
    ],
)
def test_what_a_unit_needs_is_the_job_when_each_unit_is_a_job(
    text: str, cores: int, gb: float | None
) -> None:
    c = parse(text).compute
    assert c.total_cores == cores
    assert c.memory_gb_per_node == gb


@pytest.mark.parametrize(
    "text",
    [
        "Each sample needs 4 cores and 16 GB; there are 200 samples.",
        "One sample per job, and each chunk needs 2 cores.",
    ],
)
def test_a_unit_that_is_not_the_job_stays_per_task(text: str) -> None:
    req = parse(text)
    assert req.compute.total_cores is None
    assert any("cores" in u for u in req.unresolved)


# -- GPU memory with the vendor after the noun -----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "I want a node with 4 GPU NVIDIA of minimum 40 GB memory each, 384 GB of RAM.",
        "Please 2 GPU AMD with 64 GB each, and 384 GB of RAM for the node.",
    ],
)
def test_gpu_memory_after_a_vendor_is_not_node_memory(text: str) -> None:
    req = parse(text)
    assert req.compute.memory_gb_per_node in (None, 384.0)
    assert req.compute.memory_gb_per_node not in (40.0, 64.0)
    assert any("GB" in u for u in req.unresolved)


def test_gpu_memory_with_the_vendor_after_keeps_node_memory() -> None:
    req = parse("one node, 4 GPU NVIDIA of 24 GB each, 256 GB of RAM, 1 day")
    assert req.compute.memory_gb_per_node == 256.0
    assert req.compute.gpus_per_node == 4


# -- link-speed keys that name their unit ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gbps"),
    [
        ("[net]\nmin_bandwidth_gbps = 100\n", 100.0),
        ("network_speed_gbit: 25\nnodes: 2\n", 25.0),
        ('{"nic_bw_gbps": 400, "nodes": 4}', 400.0),
        ("required_link_gbps=200", 200.0),
    ],
)
def test_a_speed_key_naming_its_unit_is_a_link_speed(text: str, gbps: float) -> None:
    req = parse(text)
    assert req.network is not None and req.network.min_speed_gbps == gbps


@pytest.mark.parametrize("text", ["data_rate_gbps: 10", "gbps: 5", "ingest_gbps = 3"])
def test_a_rate_key_with_no_link_word_is_not_a_link_speed(text: str) -> None:
    req = parse(text)
    assert req.network is None or req.network.min_speed_gbps is None
    assert req.unresolved


# -- a scratch size beside an object store ---------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Inputs are read from an S3 bucket. I also need 3 TB of scratch space.",
        "The images live in an S3-compatible store; the job needs 3 TB of local disk... no, "
        "3 TB of disk.",
    ],
)
def test_a_scratch_size_is_not_the_object_stores(text: str) -> None:
    got = storage(parse(text))
    assert ("s3", None) in got
    assert ("s3", 3000.0) not in got


@pytest.mark.parametrize(
    "text",
    [
        "Outputs go to S3 object storage with about 3 TB free.",
        "We need S3, and 3 TB free there.",
    ],
)
def test_a_free_size_said_of_the_object_store_stays_its_own(text: str) -> None:
    assert ("s3", 3000.0) in storage(parse(text))
