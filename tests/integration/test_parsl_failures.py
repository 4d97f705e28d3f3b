"""Honest failures in a real Parsl DataFlowKernel.

* A task's own exception reaches its AppFuture unchanged, and its attempt is recorded failed.
* Only a transient "not started" error from a channel moves the task to the next site; a
  permanent one (Parsl's ``InvalidResourceSpecification``) is the task's answer.
* A request no site can ever run fails once: Parsl's retries do not ask the fleet again.

The fleet is the demo's simulated sites; for a one-core task the 'soonest' ranking starts
cloud-k8s, edge-jetson.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import parsl
import pytest
from parsl.config import Config
from parsl.executors import ThreadPoolExecutor
from parsl.executors.errors import InvalidResourceSpecification

from secretary_executor.errors import SelectionError
from secretary_executor.ledger import Ledger
from secretary_executor.parsl import (
    ExecutionChannel,
    ParslChannel,
    SecretaryExecutor,
    ThreadChannel,
    UnsupportedResourceKey,
    demo_engine_fleet,
    secretary_app,
    secretary_retry_handler,
)

SITES = ("cloud-gpu", "cloud-k8s", "edge-jetson", "hpc-campus", "hpc-frontier-like", "hpc-legacy")
FIRST, SECOND = "cloud-k8s", "edge-jetson"


class Boom(Exception):
    """The task's own error."""


RAISED: list[Boom] = []


@secretary_app(request="1 core", policy="soonest")
def explode(x: int) -> None:
    error = Boom(f"task {x} failed")
    RAISED.append(error)
    raise error


@secretary_app(request="1 core", policy="soonest")
def double(x: int) -> int:
    return 2 * x


@secretary_app(request="10000 GPUs per node")
def impossible() -> None:
    return None


class Refusing(ExecutionChannel):
    """A channel that refuses every task with a given exception (and counts the refusals)."""

    def __init__(self, make: Callable[[], Exception]) -> None:
        self.make = make
        self.refused = 0

    def submit_task(self, fn, args, kwargs, resource_specification) -> Future[Any]:
        self.refused += 1
        raise self.make()


def _executor(tmp_path: Path, channels: dict[str, ExecutionChannel], **kw) -> SecretaryExecutor:
    return SecretaryExecutor("demo", channels, ledger=tmp_path / "ledger.db", **kw)


def _threads(**override: ExecutionChannel) -> dict[str, ExecutionChannel]:
    channels: dict[str, ExecutionChannel] = {site: ThreadChannel(4, name=site) for site in SITES}
    channels.update(override)
    return channels


def _config(ex: SecretaryExecutor, tmp_path: Path, **kw) -> Config:
    return Config(executors=[ex], run_dir=str(tmp_path / "runinfo"), initialize_logging=False, **kw)


def _rows(tmp_path: Path, request_id: str) -> list[tuple[str, bool, str]]:
    return Ledger(tmp_path / "ledger.db").attempts(request_id)


# -- a task's own exception -------------------------------------------------------------------


def test_a_raising_task_on_thread_channels_reaches_its_future_unchanged(tmp_path):
    RAISED.clear()
    ex = _executor(tmp_path, _threads())
    with parsl.load(_config(ex, tmp_path)):
        futures = [explode(i) for i in range(3)]  # one negotiates, the others hit the cache
        caught = []
        for f in futures:
            with pytest.raises(Boom) as info:
                f.result(timeout=60)
            caught.append(info.value)
    assert sorted(map(id, caught)) == sorted(map(id, RAISED))  # the very objects raised
    placements = list(ex.placements.values())
    assert len(placements) == 3
    for p in placements:
        assert p.site == FIRST
        assert [(a.site, a.ok) for a in p.attempts] == [(FIRST, False)]
        assert p.attempts[0].message.startswith("failed: Boom: task ")
    rows = _rows(tmp_path, placements[0].request_id)
    assert len(rows) == 3 and not any(ok for _, ok, _ in rows)


def test_a_raising_task_on_engine_channels_is_recorded_failed(tmp_path, monkeypatch):
    monkeypatch.setenv("GC_TASK_UUID", "")  # thread engines set it per task
    engines = demo_engine_fleet(tmp_path / "sites")
    try:
        ex = SecretaryExecutor(engines.fleet, engines.channels, ledger=tmp_path / "ledger.db")
        with parsl.load(_config(ex, tmp_path)):
            for i in range(2):
                with pytest.raises(Boom, match=f"task {i} failed"):
                    explode(i).result(timeout=60)
            assert double(4).result(timeout=60) == 8
    finally:
        engines.shutdown()
    by_function = {p.function: p for p in ex.placements.values()}
    assert [a.ok for a in by_function["explode"].attempts] == [False]
    assert [a.ok for a in by_function["double"].attempts] == [True]


def test_a_raising_task_on_a_parsl_channel_reaches_its_future_unchanged(tmp_path):
    RAISED.clear()
    parsl_channel = ParslChannel(
        ThreadPoolExecutor(label="site-tpe", max_threads=2), run_dir=tmp_path / "tpe", name=FIRST
    )
    ex = _executor(tmp_path, _threads(**{FIRST: parsl_channel}))
    with parsl.load(_config(ex, tmp_path)):
        with pytest.raises(Boom) as info:
            explode(7).result(timeout=60)
        assert double(5).result(timeout=60) == 10
    assert info.value is RAISED[0]
    first, second = (ex.placements[i] for i in sorted(ex.placements))
    assert (first.site, [a.ok for a in first.attempts]) == (FIRST, [False])
    assert (second.site, [a.ok for a in second.attempts]) == (FIRST, [True])


# -- permanent and transient channel errors -----------------------------------------------------


def test_a_permanent_error_from_the_sites_executor_is_not_failed_over(tmp_path):
    # Parsl's ThreadPoolExecutor rejects any resource specification: a mistake in the request
    # that another site would hide, not a site that is down. (The channel claims to take
    # ``priority``, so the key reaches the executor, which refuses it.)
    parsl_channel = ParslChannel(
        ThreadPoolExecutor(label="site-tpe", max_threads=2),
        run_dir=tmp_path / "tpe",
        name=FIRST,
        accepted_keys=frozenset({"priority"}),
    )
    ex = _executor(tmp_path, _threads(**{FIRST: parsl_channel}))
    with parsl.load(_config(ex, tmp_path)):
        assert double(1).result(timeout=60) == 2  # negotiates; runs at FIRST
        with pytest.raises(InvalidResourceSpecification):
            double(2, parsl_resource_specification={"priority": 5}).result(timeout=60)
    refused = ex.placements[max(ex.placements)]
    assert refused.site == FIRST
    assert [(a.site, a.ok) for a in refused.attempts] == [(FIRST, False)]
    assert refused.attempts[0].message.startswith("refused: InvalidResourceSpecification")
    assert ex.in_flight == {}


def test_a_key_the_sites_engine_does_not_take_fails_at_submit_naming_it(tmp_path):
    ex = _executor(tmp_path, _threads())
    with parsl.load(_config(ex, tmp_path)):
        with pytest.raises(UnsupportedResourceKey) as info:
            double(2, parsl_resource_specification={"disk": 1024}).result(timeout=60)
        # Placement keys are read for placement, so an engine that cannot take them still runs
        # the task.
        assert double(3, parsl_resource_specification={"cores": 1}).result(timeout=60) == 6
    message = str(info.value)
    assert "'disk'" in message and FIRST in message and "no resource specification" in message
    refused = ex.placements[min(ex.placements)]
    assert [(a.site, a.ok) for a in refused.attempts] == [(FIRST, False)]  # not failed over
    assert ex.in_flight == {}


def test_an_error_without_a_transient_flag_is_permanent(tmp_path):
    refusing = Refusing(lambda: ValueError("this site cannot take functions with closures"))
    ex = _executor(tmp_path, _threads(**{FIRST: refusing}))
    with parsl.load(_config(ex, tmp_path)):
        with pytest.raises(ValueError, match="closures"):
            double(3).result(timeout=60)  # through a negotiation
        with pytest.raises(ValueError, match="closures"):
            double(4).result(timeout=60)  # from the cache
    assert refusing.refused == 2
    assert {p.site for p in ex.placements.values()} == {FIRST}
    assert ex.in_flight == {}


def test_a_transient_not_started_error_fails_over_and_gives_the_claim_back(tmp_path):
    tpe = ThreadPoolExecutor(label="site-tpe", max_threads=2)
    parsl_channel = ParslChannel(tpe, run_dir=tmp_path / "tpe", name=FIRST)
    ex = _executor(tmp_path, _threads(**{FIRST: parsl_channel}))
    with parsl.load(_config(ex, tmp_path)):
        assert double(1).result(timeout=60) == 2  # negotiates; runs at FIRST
        tpe.shutdown()  # the site's executor now refuses work: "cannot schedule new futures"
        assert double(2).result(timeout=60) == 4
    moved = ex.placements[max(ex.placements)]
    assert [(a.site, a.ok) for a in moved.attempts] == [(FIRST, False), (SECOND, True)]
    assert moved.attempts[0].message.startswith("not started:")
    assert moved.site == SECOND
    assert ex.in_flight == {}


def test_a_transient_refusal_then_a_permanent_one_at_the_next_site(tmp_path):
    from secretary_executor.parsl import ChannelError

    first = Refusing(lambda: ChannelError("site down", transient=True))
    second = Refusing(lambda: InvalidResourceSpecification({"priority"}, "not here"))
    ex = _executor(tmp_path, _threads(**{FIRST: first, SECOND: second}))
    with parsl.load(_config(ex, tmp_path)):
        with pytest.raises(InvalidResourceSpecification):
            double(1).result(timeout=60)
    (placement,) = ex.placements.values()
    assert [(a.site, a.ok) for a in placement.attempts] == [(FIRST, False), (SECOND, False)]
    assert (first.refused, second.refused) == (1, 1)  # the third site was never tried


# -- a selection that can never succeed ---------------------------------------------------------


def _count_negotiations(ex: SecretaryExecutor) -> list[int]:
    assert ex.broker is not None
    calls = [0]
    negotiate = ex.broker.negotiate
    lock = threading.Lock()

    async def counted(*args: Any, **kwargs: Any) -> Any:
        with lock:
            calls[0] += 1
        return await negotiate(*args, **kwargs)

    ex.broker.negotiate = counted  # type: ignore[method-assign]
    return calls


def test_parsl_retries_of_an_impossible_task_do_not_renegotiate(tmp_path):
    ex = _executor(tmp_path, _threads())
    with parsl.load(_config(ex, tmp_path, retries=3)):
        calls = _count_negotiations(ex)
        future = impossible()
        with pytest.raises(SelectionError) as info:
            future.result(timeout=60)
        assert future.task_record["try_id"] == 3  # Parsl retried...
    assert calls == [1]  # ...but the fleet was asked once
    for site in SITES:  # the message names every site's reason
        assert f"{site}: INCOMPATIBLE (" in str(info.value)


@pytest.mark.parametrize(("cache_ttl_s", "negotiations"), [(60.0, 2), (0.0, 5)])
def test_the_retry_handler_stops_parsl_retrying_an_impossible_task(
    tmp_path, cache_ttl_s, negotiations
):
    ex = _executor(tmp_path, _threads(), cache_ttl_s=cache_ttl_s)
    config = _config(ex, tmp_path, retries=3, retry_handler=secretary_retry_handler)
    with parsl.load(config):
        calls = _count_negotiations(ex)
        future = impossible()
        with pytest.raises(SelectionError, match="no site can run this request"):
            future.result(timeout=60)
        assert future.task_record["try_id"] == 0  # never retried
        assert future.task_record["fail_count"] == 1
        with pytest.raises(Boom):  # other failures are still retried, at cost 1
            failing = explode(1)
            failing.result(timeout=60)
        assert failing.task_record["try_id"] == 3
    # The impossible task: one negotiation, cache or not. The failing one: one with the cache,
    # one per try (four) without.
    assert calls == [negotiations]
