"""``EngineRunner.submit_then``: the outcome goes to a callback, once, with no future between.

The Parsl executor completes its own future from this callback, so what it is told must be
exactly what ``submit``'s future would have ended with.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from globus_compute_endpoint.engines import ThreadPoolEngine

from secretary_executor.sites.engine import EngineRunner, EngineTaskError


def add(x: int, y: int = 0) -> int:
    return x + y


def fail(message: str) -> None:
    raise ValueError(message)


class Told:
    """Collects every ``done(value, error)`` call."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, BaseException | None]] = []
        self.event = threading.Event()

    def __call__(self, value: Any, error: BaseException | None) -> None:
        self.calls.append((value, error))
        self.event.set()

    def wait(self) -> tuple[Any, BaseException | None]:
        assert self.event.wait(30), "the runner never called done"
        return self.calls[0]


@pytest.fixture
def runner(tmp_path, monkeypatch):
    monkeypatch.setenv("GC_TASK_UUID", "")  # a thread engine sets it in this process
    runner = EngineRunner(ThreadPoolEngine(max_workers=1), run_dir=tmp_path)
    runner.start()
    yield runner
    runner.shutdown()


def test_done_is_told_the_value_once(runner):
    told = Told()
    assert runner.submit_then(add, (2,), {"y": 3}, told) is None
    assert told.wait() == (5, None)
    assert runner.submit(add, (1,)).result(timeout=30) == 1  # later work: done was not re-told
    assert len(told.calls) == 1


def test_a_raising_function_is_a_started_engine_error(runner):
    told = Told()
    runner.submit_then(fail, ("no good",), None, told)
    value, error = told.wait()
    assert value is None
    assert isinstance(error, EngineTaskError)
    assert error.started and not error.transient  # it ran: never to be sent elsewhere
    assert "ValueError" in error.message and "no good" in error.message
    with pytest.raises(EngineTaskError, match="no good"):  # the future form says the same
        runner.submit(fail, ("no good",)).result(timeout=30)


def test_a_runner_that_cannot_take_the_task_raises_and_never_calls_done(runner):
    runner.shutdown()
    told = Told()
    with pytest.raises(EngineTaskError, match="shut down") as info:
        runner.submit_then(add, (1,), None, told)
    assert info.value.transient
    assert told.calls == []
