"""Claims: free capacity read from proposals, what a task takes, and where the placer sends it."""

from __future__ import annotations

import pytest

from providers.wire import Proposal, Requirements
from providers.wire.common import Category
from providers.wire.proposal import Check, CheckStatus, Evidence, Metrics, Verdict
from secretary_executor.errors import ConfigurationError
from secretary_executor.parsl.claims import (
    HOLD,
    NONE_LEFT,
    UNLIMITED,
    Placer,
    Shape,
    claim_of,
    free_capacity,
    node_shape,
)


def _proposal(
    site: str,
    free: int | None,
    *,
    total: int | None = 100,
    cpus: int | None = 16,
    gpus: int = 0,
    memory_gb: float = 64.0,
    start_s: float = 0.0,
    partition: str = "main",
) -> Proposal:
    parts = [
        {"name": "other", "cpus_per_node": 1, "gpus_per_node": 0, "memory_gb_per_node": 1.0},
        {
            "name": partition,
            "cpus_per_node": cpus,
            "gpus_per_node": gpus,
            "memory_gb_per_node": memory_gb,
        },
    ]
    evidence = (Evidence(provider="slurm", tool="list_partitions", result=parts),)
    check = Check(
        requirement="compute",
        category=Category.WORKLOAD,
        status=CheckStatus.SATISFIED,
        evidence=evidence if cpus is not None else (),
    )
    return Proposal(
        site=site,
        verdict=Verdict.READY if free else Verdict.BUSY,
        checks=(check,),
        metrics=Metrics(
            partition=partition,
            provider="slurm",
            free_nodes=free,
            total_nodes=total,
            estimated_start_s=start_s,
        ),
    )


def _req(**compute) -> Requirements:
    return Requirements.model_validate({"compute": compute})


# -- reading proposals ----------------------------------------------------------------------


def test_the_node_shape_comes_from_the_chosen_partitions_evidence():
    shape = node_shape(_proposal("a", 3, cpus=48, gpus=4, memory_gb=256.0))
    assert (shape.cores, shape.gpus, shape.memory_mb) == (48, 4, 256 * 1024)


def test_a_proposal_without_partition_evidence_has_no_shape():
    shape = node_shape(_proposal("a", 3, cpus=None))
    assert (shape.cores, shape.gpus, shape.memory_mb) == (None, None, None)
    assert node_shape(Proposal(site="x", verdict=Verdict.READY)).cores is None


def test_evidence_of_another_provider_is_not_read():
    proposal = _proposal("a", 3, cpus=48)
    other = proposal.model_copy(
        update={"metrics": proposal.metrics.model_copy(update={"provider": "pbs"})}
    )
    assert node_shape(other).cores is None


def test_free_capacity_is_free_nodes_times_the_node_shape():
    proposal = _proposal("a", 3, cpus=16, gpus=2, memory_gb=64.0)
    assert free_capacity(proposal, node_shape(proposal)) == (3, 48, 6, 3 * 64 * 1024)
    unknown = _proposal("a", None)
    assert free_capacity(unknown, node_shape(unknown)) == (UNLIMITED,) * 4


@pytest.mark.parametrize(
    ("compute", "claim"),
    [
        ({"nodes": 2}, (2, 32, 0, 0)),  # whole nodes: every core of them
        ({"nodes": 2, "gpus_per_node": 4}, (2, 32, 8, 0)),
        ({"nodes": 1, "memory_gb_per_node": 8}, (1, 16, 0, 8192)),
        ({"cores_per_node": 4}, (0, 4, 0, 0)),  # part of a node
        ({"total_cores": 40}, (0, 40, 0, 0)),
        ({"total_gpus": 3}, (0, 1, 3, 0)),
        ({"memory_gb_total": 1.5}, (0, 1, 0, 1536)),
        ({}, (0, 1, 0, 0)),  # a task that states nothing takes one core
    ],
)
def test_what_a_task_claims(compute, claim):
    assert claim_of(_req(**compute), Shape(16, 4, 64 * 1024)) == claim


def test_a_part_of_a_node_of_unknown_size_takes_a_node():
    assert claim_of(_req(cores_per_node=2), Shape(None, None, None)) == (1, 2, 0, 0)
    assert claim_of(_req(nodes=3), Shape(None, None, None)) == (3, 3, 0, 0)


# -- placing ----------------------------------------------------------------------------------


def _bind(placer: Placer, proposals: list[Proposal], **compute):
    return placer.bind(proposals, _req(**compute))


def test_pack_fills_sites_in_ranking_order_and_releases_make_room_again():
    placer = Placer()
    binding = _bind(placer, [_proposal("a", 1), _proposal("b", 2)], nodes=1)
    assert [placer.acquire(binding) for _ in range(3)] == [0, 1, 1]
    assert placer.in_flight() == {"a": 1, "b": 2}
    placer.release(binding, 0)
    assert placer.acquire(binding) == 0
    for index in (0, 1, 1):
        placer.release(binding, index)
    assert placer.in_flight() == {}


def test_sub_node_tasks_share_nodes_by_cores():
    placer = Placer()
    binding = _bind(placer, [_proposal("a", 1, cpus=4), _proposal("b", 10)], cores_per_node=1)
    assert [placer.acquire(binding) for _ in range(6)] == [0, 0, 0, 0, 1, 1]


def test_a_whole_node_task_needs_a_node_nobody_uses_a_core_of():
    placer = Placer()
    proposals = [_proposal("a", 2, cpus=4), _proposal("b", 10)]
    cores = _bind(placer, proposals, cores_per_node=1)
    nodes = _bind(placer, proposals, nodes=1)
    assert placer.acquire(cores) == 0  # 7 of 8 cores left at a
    assert placer.acquire(nodes) == 0  # one node (4 cores): 3 left
    assert placer.acquire(nodes) == 1  # the other node has a core taken


def test_spread_takes_the_least_used_site_with_room():
    placer = Placer(placement="spread")
    binding = _bind(placer, [_proposal("a", 4), _proposal("b", 2), _proposal("c", 8)], nodes=1)
    chosen = [placer.acquire(binding) for _ in range(7)]
    assert sorted(chosen[:3]) == [0, 1, 2]  # one each first
    assert chosen.count(1) <= 2 and chosen.count(2) >= chosen.count(0)


def test_tried_sites_are_skipped_and_none_left_is_said():
    placer = Placer()
    binding = _bind(placer, [_proposal("a", 5), _proposal("b", 5)], nodes=1)
    assert placer.acquire(binding, {"a"}) == 1
    assert placer.acquire(binding, {"a", "b"}) == NONE_LEFT


def test_queue_when_full_goes_where_the_task_would_start_soonest():
    placer = Placer(when_full="queue")
    ready = _proposal("ready", 1, total=1)
    busy = _proposal("busy", 0, total=100, start_s=4 * 3600)
    short = _bind(placer, [ready, busy], nodes=1, walltime_s=600)
    assert placer.acquire(short) == 0  # room
    assert placer.acquire(short) == 0  # queued 10 min behind it, not 4 h
    long = _bind(placer, [ready, busy], nodes=1, walltime_s=10 * 3600)
    assert placer.acquire(long) == 0  # 20 min behind the two short ones here, 4 h there
    assert placer.acquire(long) == 1  # then 10 h 20 min here, still 4 h there


def test_wait_holds_while_a_release_can_make_room():
    placer = Placer(when_full="wait")
    binding = _bind(placer, [_proposal("a", 1), _proposal("b", 0)], nodes=1)
    assert placer.acquire(binding) == 0
    assert placer.acquire(binding) == HOLD
    placer.release(binding, 0)
    assert placer.acquire(binding) == 0


def test_wait_queues_when_no_release_can_ever_make_room():
    placer = Placer(when_full="wait")
    binding = _bind(placer, [_proposal("a", 0), _proposal("b", 1)], nodes=2)
    assert placer.acquire(binding) == 0  # fits nowhere even when empty: queue, never hang


def test_renegotiate_holds_until_a_fresh_view_then_queues():
    placer = Placer(when_full="renegotiate")
    binding = _bind(placer, [_proposal("a", 1)], nodes=1)
    assert placer.acquire(binding) == 0
    assert placer.acquire(binding) == HOLD
    assert placer.acquire(binding, refreshed=True) == 0


def test_max_in_flight_is_a_hard_limit_per_site():
    placer = Placer(max_in_flight={"a": 1})
    binding = _bind(placer, [_proposal("a", 50), _proposal("b", 1)], nodes=1)
    assert [placer.acquire(binding) for _ in range(3)] == [0, 1, 1]  # b queues past its room
    limited = Placer(max_in_flight=1)
    binding = _bind(limited, [_proposal("a", 50), _proposal("b", 50)], nodes=1)
    assert [limited.acquire(binding) for _ in range(3)] == [0, 1, HOLD]


def test_a_fresh_negotiation_replaces_the_capacity_and_keeps_the_claims():
    placer = Placer()
    first = _bind(placer, [_proposal("a", 2), _proposal("b", 9)], nodes=1)
    assert [placer.acquire(first) for _ in range(2)] == [0, 0]
    again = _bind(placer, [_proposal("a", 3), _proposal("b", 9)], nodes=1)
    assert placer.acquire(again) == 0  # one more node free now, two still held
    assert placer.acquire(again) == 1


def test_pools_are_per_partition():
    placer = Placer()
    cpu = _bind(placer, [_proposal("a", 1, partition="cpu")], nodes=1)
    gpu = _bind(placer, [_proposal("a", 1, partition="gpu", gpus=4)], nodes=1)
    assert placer.acquire(cpu) == 0 and placer.acquire(gpu) == 0
    assert placer.in_flight() == {"a": 2}


def test_disabled_claims_take_the_first_untried_site_and_count_nothing():
    placer = Placer(enabled=False)
    binding = _bind(placer, [_proposal("a", 1), _proposal("b", 1)], nodes=1)
    assert [placer.acquire(binding) for _ in range(3)] == [0, 0, 0]
    assert placer.acquire(binding, {"a"}) == 1
    assert placer.in_flight() == {}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"placement": "scatter"}, "unknown placement 'scatter'; use one of: pack, spread"),
        ({"when_full": "drop"}, "unknown when_full 'drop'; use one of: queue, wait"),
        ({"max_in_flight": 0}, "at least 1"),
        ({"max_in_flight": True}, "must be None, a number"),
        ({"max_in_flight": {"a": 0}}, r"max_in_flight\['a'\]"),
    ],
)
def test_bad_options_say_what_to_use(options, message):
    with pytest.raises(ConfigurationError, match=message):
        Placer(**options)


def test_a_queue_drains_in_whole_tasks():
    # Four-node tasks: seven free nodes run one at a time, eight run two.
    placer = Placer()
    binding = _bind(placer, [_proposal("a", 7), _proposal("b", 8)], nodes=4, walltime_s=3600)
    assert [placer.acquire(binding) for _ in range(3)] == [0, 1, 1]
    # Queued at a: one hour behind its one running task; at b: half an hour behind its two.
    assert placer.acquire(binding) == 1
