"""Quantities behind slips of typing and loose list wording, each rule in sentences written for
it, with cases the rule must not fire on.

- A misspelt storage noun after a size ("8 TB of scrath") is storage, even when the slip is an
  archaic dictionary word; an everyday word one letter off stays out.
- A misspelt "single" before a node word ("a singel node") is one node.
- A bare size read as memory keeps the whole-job scope after it ("256 GB across the whole job").
- "4 of the nodes", "2 of your GPU nodes" count nodes; "3 of the nodes failed" does not.
- A compute amount with a verdict ("4 cores is enough, 32 GB") still lists a bare size as memory.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from secretary_executor.evaluation.corpus import parsed_facts

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)  # a Tuesday


def facts(text: str) -> set[tuple]:
    return parsed_facts(parse_requirements(text, now=NOW))


def fields(text: str) -> set[str]:
    """The names of the fields the parser filled from ``text``."""
    return {f[0] for f in facts(text)}


# -- a misspelt storage noun after a size -----------------------------------------------------

MISSPELT_STORAGE = [
    ("please add 8 TB of scrath space for the images", 8000.0),
    ("and 500 GB scrath for temp files", 500.0),
    ("need 2 TB of scatch too", 2000.0),
    ("about 300GB of scrach would do", 300.0),
    ("give me 1 TB of storgae please", 1000.0),
    ("also 750 GB stroage for the outputs", 750.0),
    ("4 TB of sratch, if possible", 4000.0),
]


@pytest.mark.parametrize(("text", "gb"), MISSPELT_STORAGE)
def test_a_misspelt_storage_noun_after_a_size_is_storage(text: str, gb: float) -> None:
    assert ("storage", "any", gb) in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "we produce 8 TB of science every month",  # an everyday word, not a slip
        "the 6 TB of stars in the catalogue are already here",
        "about 40 GB of source code in the repo",
    ],
)
def test_an_everyday_word_after_a_size_is_no_storage(text: str) -> None:
    assert "storage" not in fields(text)


# -- a misspelt "single" before a node word ---------------------------------------------------

MISSPELT_SINGLE = [
    "can I get a singel node for the fits?",
    "a sinlge machine with 32 cores please",
    "run it on a signle server",
    "singel node, 64 cores and 256 GB",
    "just a singl node is fine",
    "I only need a sinle host for this",
    "one job on a siingle box overnight",
]


@pytest.mark.parametrize("text", MISSPELT_SINGLE)
def test_a_misspelt_single_before_a_node_word_is_one_node(text: str) -> None:
    assert ("nodes", 1.0) in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "a spare node would be nice for testing",
        "is there a shared node I could use?",
        "a small node is all",
        "she replaced a shingle box on the roof",
        "a simple model of the node graph",
    ],
)
def test_other_words_before_a_node_word_count_no_node(text: str) -> None:
    assert "nodes" not in fields(text)


def test_a_misspelt_single_node_keeps_its_cores_per_node() -> None:
    got = facts("a singel node with 48 cores")
    assert {("nodes", 1.0), ("cores_per_node", 48.0)} <= got


# -- a bare size keeps a whole-job scope ------------------------------------------------------

WHOLE_JOB = [
    ("the memory need is modest, 256 GB across the whole job.", 256.0),
    ("memory-wise not much: 1 TB in total", 1000.0),
    ("16 cores, 512 GB in total", 512.0),
    ("4 nodes, 2 TB overall", 2000.0),
    ("we need lots of memory; I think 800 GB across the entire job will do", 800.0),
    ("64 cores and 300 GB altogether", 300.0),
]


@pytest.mark.parametrize(("text", "gb"), WHOLE_JOB)
def test_a_bare_size_with_a_whole_job_scope_is_total_memory(text: str, gb: float) -> None:
    assert ("memory_gb_total", gb) in facts(text)
    assert "memory_gb_per_node" not in fields(text)


@pytest.mark.parametrize(
    ("text", "gb"),
    [
        ("16 cores, 64 GB", 64.0),
        ("1 node, 256 GB", 256.0),
        ("it needs lots of memory, 128 GB", 128.0),
    ],
)
def test_a_bare_size_without_a_scope_stays_per_node(text: str, gb: float) -> None:
    assert ("memory_gb_per_node", gb) in facts(text)


# -- "4 of the nodes" -------------------------------------------------------------------------

OF_THE_NODES = [
    ("can I borrow 4 of the nodes (128 cores each)?", 4.0),
    ("I'd like 2 of your GPU nodes for a day", 2.0),
    ("could I get 8 of the big-memory nodes", 8.0),
    ("please reserve 16 of the compute nodes for Friday's run", 16.0),
    ("we want 3 of your nodes with 64 cores", 3.0),
    ("give us two of the fat nodes", 2.0),
]


@pytest.mark.parametrize(("text", "n"), OF_THE_NODES)
def test_n_of_the_nodes_is_a_node_count(text: str, n: float) -> None:
    assert ("nodes", n) in facts(text)


def test_n_of_the_nodes_keeps_the_cores_each() -> None:
    got = facts("can I borrow 4 of the nodes (128 cores each) for the run?")
    assert {("nodes", 4.0), ("cores_per_node", 128.0)} <= got
    assert "total_cores" not in {f[0] for f in got}


@pytest.mark.parametrize(
    "text",
    [
        "3 of the nodes failed last night",
        "2 of our nodes are down again",
        "4 of the nodes were rebooted",
        "one of the nodes has a bad disk",
        "5 of your nodes keep crashing",
        "2 of the nodes didn't come back",
    ],
)
def test_what_n_of_the_nodes_did_is_no_count(text: str) -> None:
    assert "nodes" not in fields(text)


# -- a verdict on the amount before a bare size ----------------------------------------------

VERDICT = [
    ("4 chains, so 4 cores is enough, 32 GB, ~10h", 32.0),
    ("8 cores should be fine, 16 GB", 16.0),
    ("2 nodes are plenty, 128 GB", 128.0),
    ("24 cores is sufficient, 96GB", 96.0),
    ("a node is ok, 64 GB", 64.0),
]


@pytest.mark.parametrize(("text", "gb"), VERDICT)
def test_a_bare_size_after_a_judged_amount_is_memory(text: str, gb: float) -> None:
    assert ("memory_gb_per_node", gb) in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "8 cores is enough, 20 GB of data though",
        "16 cores is enough, 2 TB scratch",
        "4 cores is fine, the input is 30 GB",
    ],
)
def test_a_size_of_something_else_after_a_judged_amount_is_no_memory(text: str) -> None:
    assert not {name for name in fields(text) if name.startswith("memory")}
