"""Claims in a real Parsl DataFlowKernel: tasks spread to sites with room, and give it back.

The fleet is the demo's simulated sites (their secretaries run here); tasks run on in-process
thread channels with enough threads that a site's channel never limits how many tasks it
holds, so what these tests see is the executor's placement alone. Tasks block on a gate until
the test has looked at where they are, so "in flight at once" is exact, not a race.

Free capacity of the demo sites for one whole node (checked by the first test): edge-jetson 1
node, hpc-campus 0 (BUSY, about 4 h wait), cloud-k8s 31, hpc-legacy 3, hpc-frontier-like 184,
cloud-gpu 5. The min-cost ranking for "1 node for 10 minutes" starts edge-jetson, hpc-campus,
cloud-k8s.
"""

from __future__ import annotations

import threading
from collections import Counter
from pathlib import Path

import parsl
import pytest
from conftest import Holding, wait_until
from parsl.config import Config

from secretary_executor.errors import ConfigurationError
from secretary_executor.parsl import SecretaryExecutor, ThreadChannel, secretary_app

SITES = ("cloud-gpu", "cloud-k8s", "edge-jetson", "hpc-campus", "hpc-frontier-like", "hpc-legacy")
FREE_NODES = {
    "edge-jetson": 1,
    "hpc-campus": 0,
    "cloud-k8s": 31,
    "hpc-legacy": 3,
    "hpc-frontier-like": 184,
    "cloud-gpu": 5,
}

_gate = threading.Event()


@secretary_app(request="1 node for 10 minutes", policy="min-cost")
def node_task(i: int) -> int:
    _gate.wait(60)
    return i


@secretary_app(request="1 node for 10 hours", policy="min-cost")
def long_node_task(i: int) -> int:
    _gate.wait(60)
    return i


@secretary_app(request="1 core", policy="soonest")
def core_task(i: int) -> int:
    _gate.wait(60)
    return i


@pytest.fixture(autouse=True)
def gate():
    _gate.clear()
    yield _gate
    _gate.set()  # never leave a task blocked past its test


def _executor(tmp_path: Path, sites=SITES, **kw) -> SecretaryExecutor:
    channels = {site: ThreadChannel(32, name=site) for site in sites}
    return SecretaryExecutor("demo", channels, ledger=tmp_path / "ledger.db", **kw)


def _config(ex: SecretaryExecutor, tmp_path: Path, **kw) -> Config:
    return Config(executors=[ex], run_dir=str(tmp_path / "runinfo"), initialize_logging=False, **kw)


def _dispatched(ex: SecretaryExecutor, count: int) -> dict[str, int]:
    """Wait until ``count`` tasks are at sites; where they are."""
    return wait_until(
        lambda: ex.in_flight if sum(ex.in_flight.values()) == count else None,
        timeout_s=60,
        what=f"{count} tasks in flight",
    )


def test_twenty_one_node_tasks_spread_to_sites_with_room(tmp_path, gate):
    ex = _executor(tmp_path)
    with parsl.load(_config(ex, tmp_path)):
        futures = [node_task(i) for i in range(20)]
        at_once = _dispatched(ex, 20)
        gate.set()
        assert [f.result(timeout=60) for f in futures] == list(range(20))
    # The cheapest site has one free node; the BUSY one has none; the rest go to the next
    # cheapest site with room.
    assert at_once == {"edge-jetson": 1, "cloud-k8s": 19}
    assert all(at_once[site] <= FREE_NODES[site] for site in at_once)
    placed = Counter(p.site for p in ex.placements.values())
    assert placed == Counter({"edge-jetson": 1, "cloud-k8s": 19})
    assert ex.in_flight == {}  # every claim given back
    proposals = next(iter(ex.placements.values()))
    assert proposals.verdict == "READY"


def test_without_claims_every_task_goes_to_the_first_ranked_site(tmp_path, gate):
    ex = _executor(tmp_path, claims=False)
    gate.set()
    with parsl.load(_config(ex, tmp_path)):
        futures = [node_task(i) for i in range(20)]
        assert [f.result(timeout=60) for f in futures] == list(range(20))
    assert Counter(p.site for p in ex.placements.values()) == Counter({"edge-jetson": 20})


def test_a_finished_task_gives_its_node_back(tmp_path, gate):
    ex = _executor(tmp_path)
    gate.set()  # tasks end at once
    with parsl.load(_config(ex, tmp_path)):
        for i in range(4):  # one at a time: each finds the one-node site free again
            assert node_task(i).result(timeout=60) == i
            wait_until(lambda: ex.in_flight == {}, timeout_s=60, what="the claim given back")
    assert {p.site for p in ex.placements.values()} == {"edge-jetson"}
    assert all(p.attempts[-1].ok for p in ex.placements.values())


def test_a_failed_task_gives_its_claim_back(tmp_path, gate):
    @secretary_app(request="1 node for 10 minutes", policy="min-cost")
    def fails() -> None:
        raise ValueError("no")

    ex = _executor(tmp_path)
    gate.set()
    with parsl.load(_config(ex, tmp_path)):
        for _ in range(3):
            with pytest.raises(ValueError):
                fails().result(timeout=60)
            wait_until(lambda: ex.in_flight == {}, timeout_s=60, what="the claim given back")
    assert {p.site for p in ex.placements.values()} == {"edge-jetson"}


def test_queue_when_full_goes_to_the_soonest_start(tmp_path, gate):
    # Only the one-node site and the BUSY site: once the node is taken, a 10-minute task
    # queues behind it (600 s) rather than behind the BUSY site's 4 h wait...
    ex = _executor(tmp_path, sites=("edge-jetson", "hpc-campus"))
    with parsl.load(_config(ex, tmp_path)):
        futures = [node_task(i) for i in range(3)]
        assert _dispatched(ex, 3) == {"edge-jetson": 3}
        assert ex.held == 0
        # A 10-hour task too (30 min behind the three), but the next would wait 10 h 30 min
        # there, so it queues at the BUSY site.
        long = [long_node_task(i) for i in range(2)]
        assert _dispatched(ex, 5) == {"edge-jetson": 4, "hpc-campus": 1}
        gate.set()
        assert [f.result(timeout=60) for f in futures + long] == [0, 1, 2, 0, 1]


def test_wait_holds_a_task_until_a_site_has_room(tmp_path, gate):
    ex = _executor(tmp_path, sites=("edge-jetson", "hpc-campus"), when_full="wait")
    with parsl.load(_config(ex, tmp_path)):
        first = node_task(1)
        assert _dispatched(ex, 1) == {"edge-jetson": 1}
        second, third = node_task(2), node_task(3)
        wait_until(lambda: ex.held == 2, timeout_s=60, what="two tasks held")
        assert ex.in_flight == {"edge-jetson": 1}  # never more than its one free node
        assert not second.done() and not third.done()
        gate.set()  # the first ends; each release lets the next held task in, in order
        assert [f.result(timeout=60) for f in (first, second, third)] == [1, 2, 3]
    placements = [ex.placements[i] for i in sorted(ex.placements)]
    assert [p.site for p in placements] == ["edge-jetson"] * 3
    assert ex.held == 0


def test_wait_queues_a_task_that_no_release_can_ever_make_room_for(tmp_path, gate):
    # The only site is BUSY (no free node) and nothing of ours runs there: waiting would
    # wait forever, so the task queues there.
    ex = _executor(tmp_path, sites=("hpc-campus",), when_full="wait")
    gate.set()
    with parsl.load(_config(ex, tmp_path)):
        assert node_task(5).result(timeout=60) == 5
    assert [p.site for p in ex.placements.values()] == ["hpc-campus"]


def test_renegotiate_asks_the_sites_again_once_the_view_is_stale(tmp_path, gate):
    ex = _executor(
        tmp_path, sites=("edge-jetson", "hpc-campus"), when_full="renegotiate", stale_after_s=0
    )
    with parsl.load(_config(ex, tmp_path)):
        first = node_task(1)
        assert _dispatched(ex, 1) == {"edge-jetson": 1}
        second = node_task(2)  # no room: held, then the stale view is renegotiated
        assert _dispatched(ex, 2) == {"edge-jetson": 2}  # still no room: it queues
        gate.set()
        assert (first.result(timeout=60), second.result(timeout=60)) == (1, 2)
    one, two = (ex.placements[i] for i in sorted(ex.placements))
    assert one.request_id != two.request_id  # the second was placed from a fresh negotiation
    assert not two.cached


def test_max_in_flight_caps_each_site(tmp_path, gate):
    ex = _executor(tmp_path, max_in_flight=1)
    with parsl.load(_config(ex, tmp_path)):
        futures = [core_task(i) for i in range(6)]
        at_once = _dispatched(ex, 6)
        assert at_once == dict.fromkeys(SITES, 1)
        extra = core_task(6)  # every site is at its limit: held, even under "queue"
        wait_until(lambda: ex.held == 1, timeout_s=60, what="a held task")
        gate.set()
        assert [f.result(timeout=60) for f in [*futures, extra]] == list(range(7))


def test_max_in_flight_per_site(tmp_path, gate):
    ex = _executor(tmp_path, max_in_flight={"cloud-k8s": 2})
    with parsl.load(_config(ex, tmp_path)):
        futures = [core_task(i) for i in range(4)]
        at_once = _dispatched(ex, 4)
        gate.set()
        assert [f.result(timeout=60) for f in futures] == list(range(4))
    assert at_once["cloud-k8s"] == 2 and sum(at_once.values()) == 4


def test_pack_fills_the_best_site_and_spread_shares_the_load(tmp_path, gate):
    packed = _executor(tmp_path / "pack")
    with parsl.load(_config(packed, tmp_path / "pack")):
        futures = [core_task(i) for i in range(10)]
        assert _dispatched(packed, 10) == {"cloud-k8s": 10}  # 496 free cores
        gate.set()
        [f.result(timeout=60) for f in futures]
    gate.clear()
    spread = _executor(tmp_path / "spread", placement="spread")
    with parsl.load(_config(spread, tmp_path / "spread")):
        futures = [core_task(i) for i in range(10)]
        at_once = _dispatched(spread, 10)
        gate.set()
        [f.result(timeout=60) for f in futures]
    assert len(at_once) >= 4, at_once


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"when_full": "later"}, "unknown when_full 'later'; use one of: queue, wait, renegotiate"),
        ({"placement": "random"}, "unknown placement 'random'; use one of: pack, spread"),
        ({"max_in_flight": 0}, "max_in_flight must be at least 1"),
        ({"max_in_flight": {"cloud-k8s": -1}}, r"max_in_flight\['cloud-k8s'\]"),
        ({"max_in_flight": "many"}, "max_in_flight must be None, a number"),
        ({"stale_after_s": -1}, "stale_after_s must be >= 0"),
    ],
)
def test_bad_placement_options_fail_at_construction(tmp_path, options, message):
    with pytest.raises(ConfigurationError, match=message):
        _executor(tmp_path, **options)


def test_a_cancelled_task_gives_its_claim_back(tmp_path):
    channels = {site: ThreadChannel(1, name=site) for site in SITES}
    ex = SecretaryExecutor("demo", channels, ledger=tmp_path / "ledger.db")
    ex.run_dir = str(tmp_path / "runinfo")
    ex.start()
    try:
        hold = Holding()
        assert ex.submit(lambda: 1, None).result(timeout=60) == 1  # negotiates
        busy = ex.submit(hold, None)  # holds the site's only thread
        assert hold.started.wait(60)
        queued = ex.submit(lambda: 2, None)
        assert ex.in_flight == {"cloud-k8s": 2}
        ex.channels["cloud-k8s"].shutdown(wait=False, cancel_futures=True)
        assert ex.in_flight == {"cloud-k8s": 1}  # the cancelled one gave its claim back
        hold.release.set()
        assert busy.result(timeout=60) is True
        wait_until(lambda: ex.in_flight == {}, timeout_s=60, what="every claim given back")
        assert queued.cancelled()
    finally:
        ex.shutdown()


def test_spread_twenty_one_node_tasks_stay_within_each_sites_free_nodes(tmp_path, gate):
    ex = _executor(tmp_path, placement="spread")
    with parsl.load(_config(ex, tmp_path)):
        futures = [node_task(i) for i in range(20)]
        at_once = _dispatched(ex, 20)
        gate.set()
        assert [f.result(timeout=60) for f in futures] == list(range(20))
    assert all(count <= FREE_NODES[site] for site, count in at_once.items()), at_once
    assert "hpc-campus" not in at_once  # BUSY: no free node while others have room
    assert len(at_once) >= 4  # shared out, not packed into the cheapest sites
