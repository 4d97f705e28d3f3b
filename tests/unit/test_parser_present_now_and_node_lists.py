""" "Now" that means "at present", and a node's amounts listed past an aside.

Each test states one rule with sentences written for the test:

- "now" after a compared state ("the grid is twice as fine now" -> "is 3x bigger now"), after
  a subject and before its verb ("the referees now want"), or opening a sentence as a topic
  ("Now for the production runs ...") says "currently", never urgency; "need it now" still is.
- A node's core count stays per node when the GPUs listed before it carry a vendor ("2 GPUs of
  AMD, 48 cores"), a GPU memory closed by "each" ("4 GPUs with 80 GB of GPU memory each and 64
  cores"), or when the node count carries a verdict ("one node is enough, with ...").
- A trailing "each" before "and" names no unit of work, so the count after it is never read as
  one task's size and dropped to ``unresolved``.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements
from providers.wire.requirements import Urgency

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


@pytest.mark.parametrize(
    "text",
    [
        "The referees now want every sample rerun with Salmon 1.10 on 2 nodes.",
        "Our collaborators now ask for the full ensemble, 4 nodes for 10 hours.",
        "The journal now requires raw outputs, so 1 node with 32 cores for 6 hours.",
        "we now plan 3 nodes x 64 cores for about a day",
        "The old runs used 2 nodes but the domain is 4x larger now. 8 nodes, 12 hours.",
        "last year 100 cores were fine; the model is much slower now, so 4 nodes please.",
        "The grid is finer now and the time step shorter, 6 nodes for 2 days.",
        "the runs are longer now, about 30 hours on 2 nodes",
        "the input got bigger now that we add ice, 3 nodes",
        "We benchmarked it in March.\nNow for production we need 16 nodes for 20 hours.",
        "Thanks for the tips. Now, the real run: 8 nodes, 48 hours.",
        "Now to the request itself: 2 nodes with 4 GPUs each for 10 hours.",
        "It was tested on one node. Now that it scales, 12 nodes for a day.",
    ],
)
def test_now_that_means_at_present_is_no_urgency(text: str) -> None:
    assert parse(text).urgency is None


@pytest.mark.parametrize(
    "text",
    [
        "I need 2 nodes now",
        "need the results now, 4 nodes for 6 hours",
        "can I get 1 node now? 8 cores",
        "Now, please! 4 nodes for 2 hours",
        "Please start it now. 2 nodes, 12 hours.",
        "the mesh is 3x bigger, and I need 8 nodes now",
    ],
)
def test_now_that_asks_for_haste_stays_urgency(text: str) -> None:
    assert parse(text).urgency is Urgency.NOW


@pytest.mark.parametrize(
    ("text", "cores", "gpus"),
    [
        ("We need one node with 2 GPU of NVIDIA, 64 cores and 512 GB of memory.", 64, 2),
        ("one node with 4 GPUs from AMD, 48 cores and 256 GB", 48, 4),
        ("Please one node with 2 GPUs of Nvidia, 32 cores, 3 days.", 32, 2),
        ("one node with 4 A100 GPUs with 80 GB of GPU memory each and 64 CPU cores", 64, 4),
        ("1 node with 8 H100 GPUs with 80 GB of GPU memory each and 96 cores, 2 days", 96, 8),
        ("a single node with 2 L40S GPUs with 48 GB of GPU memory each, 32 cores", 32, 2),
        ("one node is enough, with 1 GPU and 16 cores", 16, 1),
        ("Our case is small, one node is fine, with 2 GPUs and 24 cores.", 24, 2),
        ("a single node should be enough, with 1 GPU and 12 cores, for 8 hours", 12, 1),
        ("2 nodes would be sufficient, with 4 GPUs and 64 cores each", 64, 4),
        ("One node is plenty, 1 GPU and 8 cores, 3 hours.", 8, 1),
        ("one machine is enough, with 1 A100 and 32 cores", 32, 1),
    ],
)
def test_cores_listed_past_an_aside_size_the_node(text: str, cores: int, gpus: int) -> None:
    req = parse(text)
    assert req.compute.cores_per_node == cores
    assert req.compute.total_cores is None
    assert req.compute.gpus_per_node == gpus
    assert not any(f"{cores} " in u and "core" in u for u in req.unresolved)


@pytest.mark.parametrize(
    ("text", "cores"),
    [
        ("200 cores in total, 4 GPUs with 80 GB each and 1 node is enough", 200),
        ("one node is enough for the test. Separately, the sweep needs 64 cores.", 64),
        ("The lab box is fine. 16 cores please, 4 hours.", 16),
    ],
)
def test_cores_not_listed_with_the_node_stay_total(text: str, cores: int) -> None:
    req = parse(text)
    assert req.compute.total_cores == cores
    assert req.compute.cores_per_node is None


@pytest.mark.parametrize(
    "text",
    [
        "each sample takes 4 cores, 2 nodes",
        "every replica runs on 8 cores and 1 GPU",
    ],
)
def test_each_naming_a_unit_of_work_still_sizes_the_unit(text: str) -> None:
    req = parse(text)
    assert req.compute.cores_per_node is None
    assert req.compute.total_cores is None
    assert any("core" in u for u in req.unresolved)
