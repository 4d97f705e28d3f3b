"""CPU offered as the fallback to GPUs, GPUs "not a must", and exclusions in plain words.

Each test states one rule with sentences written for the test: "CPU-only would also work, just
slower" or "it's fine to go CPU-only if the queue is long" keeps the GPUs asked for as an
option and excludes nothing; "GPU is not a must, but it gets faster with one" is an option;
"we don't need graphic cards" excludes GPUs and counts none; "no fancy network" excludes low
latency; nodes "without internet access" are quoted, never a network exclusion. Each rule has
negative cases it must not fire on.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements
from providers.wire.requirements import Feature, GpuLogic

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


_FALLBACKS = [
    ("Two A100 GPUs on one node please. CPU-only would also work, it's just slower.", 2),
    ("We need 4 GPUs for 12 hours; CPU only would work too.", 4),
    ("Run it on 1 GPU. CPU-only is also possible but it becomes slow.", 1),
    ("Please give us 2 GPUs. A CPU-only run would still be fine, only slower.", 2),
    ("8 GPUs on one node. If none are free, CPU nodes are also acceptable.", 8),
    ("One GPU for the fits. It is fine to go CPU-only if the GPU queue is long.", 1),
    ("Ask: 2 GPUs, 10 hours. It's OK to run CPU-only when the GPU nodes are busy.", 2),
    ("We want 4 GPUs, but we can also fall back to CPU only.", 4),
    ("I'd like 1 GPU; happy to go CPU-only if that is easier for you.", 1),
    ("one GPU please, cpu only works too", 1),
    ("Job wants 2 GPUs per node. CPU mode would also do, just a lot slower.", 2),
    ("Request 1 V100. CPU-only execution is still an option, though slow.", 1),
    ("3 GPUs for the training run; CPUs would also work but much slower.", 3),
    ("1 GPU. If there is no GPU free, CPU only is also feasible.", 1),
    ("4 GPUs for two days. That's fine to switch to CPU-only if needed.", 4),
    ("2 GPUs and 64 GB. CPU-only is fine as well.", 2),
    ("GPU is not a must, but with one A100 the search becomes much faster.", 1),
    ("A GPU is not a must; the training gets faster with one though.", None),
]
"""CPU offered as the fallback, or the GPU as a help that is no must: the GPUs counted stay, as
an option, and nothing is excluded."""


@pytest.mark.parametrize(("text", "gpus"), _FALLBACKS)
def test_cpu_offered_as_fallback_keeps_the_gpus_as_an_option(text: str, gpus: int | None) -> None:
    req = parse(text)
    assert req.compute.gpus_per_node == gpus
    assert req.compute.gpu_logic is GpuLogic.OR
    assert not req.excluded


_GPU = Feature.GPU
_NET = Feature.LOW_LATENCY
_EXCLUSIONS = [
    # CPU-only as the request itself, not as a fallback
    ("CPU only please, 16 cores for 4 hours.", {_GPU}),
    ("This job is CPU-only; 32 cores on one node.", {_GPU}),
    ("Strictly CPU only, no accelerators.", {_GPU}),
    ("We run CPU-only. 2 nodes of 64 cores.", {_GPU}),
    ("If CPU-only would also work, tell me and I will resubmit.", set()),
    # "not a must" with no help offered is "not required"
    ("GPU is not a must for this code.", {_GPU}),
    ("MPI is not a must here, each task is serial.", {Feature.MPI}),
    # "graphic cards" is a GPU word, and counts no GPU when refused
    ("We don't need graphic cards, 32 cores is enough.", {_GPU}),
    ("No graphic card needed, just cores.", {_GPU}),
    ("The code does not use a graphic card.", {_GPU}),
    ("We need graphic cards: 2 per node.", set()),
    # a network refused in plain words
    ("No fancy network needed, and no rush.", {_NET}),
    ("It needs no fancy interconnect, the tasks are independent.", {_NET}),
    ("We do not need fancy networking.", {_NET}),
    ("I don't need a fast network, the runs are embarrassingly parallel.", {_NET}),
    ("A fancy network is required, InfiniBand ideally.", set()),
    # no internet is a need no field holds, never a refused network
    ("The job must run on nodes without internet access.", set()),
    ("For data protection the machines need no internet connection at all.", set()),
    ("Please use hosts with no outbound internet access.", set()),
    ("The job needs internet access to download the weights.", set()),
]
"""Each text with exactly what it excludes."""


@pytest.mark.parametrize(("text", "excluded"), _EXCLUSIONS)
def test_exclusions_in_plain_words(text: str, excluded: set[Feature]) -> None:
    req = parse(text)
    assert set(req.excluded) == excluded
    if _GPU in excluded:
        assert not req.compute.gpus_per_node
    if re.search(r"(?:no|without)\s+(?:\w+\s+)?internet", text):
        assert any("internet" in u for u in req.unresolved)
