"""The executor's own CPU per task, with channels that run the task at once on the caller's thread.

    python bench/parsl_own_path.py [--tasks 5000] [--batches 15]

``SecretaryExecutor.submit`` is called directly (no DataFlowKernel) for no-op tasks from a
cached negotiation, at a channel that runs each task inline: so a batch's CPU time is the
executor's own path (spec, cache hit, claim and its release, task record, ledger row,
placement record) plus one future, and nothing else. Two channels: one whose futures are final
(as ``ThreadChannel``: Parsl waits on the channel's future) and one whose are not (as
``EngineChannel``: the executor completes a future of its own from the channel's callback).
The baseline is making and completing one future. A third channel keeps the whole batch in flight
before running it, so tasks past the site's free capacity (496 cores) take the claims'
queue-past-capacity path, as a burst of Parsl tasks does.

It measures this thread's CPU time (``time.thread_time``), the fastest of ``--batches``
batches, so it stays steady on a busy shared machine where wall-clock ratios of whole Parsl
runs do not; the ledger writer's thread is not counted. It runs against an executor without
``submit_then`` too (its non-final path then goes through ``submit_task``), so a tree from
before that change can be measured with the same script.
"""

from __future__ import annotations

import argparse
import gc
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from secretary_executor.parsl import SecretaryExecutor
from secretary_executor.parsl.channels import ExecutionChannel

SITE = "cloud-k8s"
"""The demo site ranked first for a one-core task: the one site given a channel."""


def noop() -> None:
    return None


class Inline(ExecutionChannel):
    """Runs each task at once, on the caller's thread; its futures are not final."""

    def submit_task(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        resource_specification: dict[str, Any],
    ) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future

    def submit_then(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        resource_specification: dict[str, Any],
        done: Callable[[Any, BaseException | None], None],
    ) -> None:
        done(fn(*args, **kwargs), None)


class InlineFinal(Inline):
    final_futures = True


class Batched(ExecutionChannel):
    """Keeps each task until :meth:`run_all`: a whole batch is in flight at once, so past the
    site's free capacity tasks take the claims' queue-past-capacity path, as a burst does."""

    final_futures = True

    def __init__(self) -> None:
        self.pending: list[tuple[Future[Any], Callable[..., Any], tuple[Any, ...], Any]] = []

    def submit_task(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        resource_specification: dict[str, Any],
    ) -> Future[Any]:
        future: Future[Any] = Future()
        self.pending.append((future, fn, args, kwargs))
        return future

    def run_all(self) -> None:
        pending, self.pending = self.pending, []
        for future, fn, args, kwargs in pending:
            future.set_result(fn(*args, **kwargs))


def fastest(batch: Callable[[], None], tasks: int, batches: int) -> float:
    """Microseconds of this thread's CPU per task, in the fastest batch."""
    best = float("inf")
    for _ in range(batches):
        gc.collect()
        start = time.thread_time()
        batch()
        best = min(best, time.thread_time() - start)
    return best / tasks * 1e6


def through(channel: ExecutionChannel, tasks: int, batches: int) -> float:
    with tempfile.TemporaryDirectory(prefix="secretary-bench-") as tmp:
        executor = SecretaryExecutor(
            "demo", {SITE: channel}, ledger=f"{tmp}/ledger.db", cache_ttl_s=3600
        )
        executor.run_dir = tmp
        executor.start()
        run_all = channel.run_all if isinstance(channel, Batched) else (lambda: None)
        try:
            first = executor.submit(noop, None)  # negotiates once
            deadline = time.monotonic() + 120
            while not first.done():  # a batched channel holds it until run_all
                if time.monotonic() > deadline:
                    raise SystemExit("the first task's negotiation did not finish in 120 s")
                run_all()
                time.sleep(0.01)
            first.result()

            def batch() -> None:
                for _ in range(tasks):
                    executor.submit(noop, None)
                run_all()

            return fastest(batch, tasks, batches)
        finally:
            executor.shutdown()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", type=int, default=5000, help="tasks per batch")
    parser.add_argument("--batches", type=int, default=15)
    args = parser.parse_args()

    def futures() -> None:
        for _ in range(args.tasks):
            future: Future[Any] = Future()
            future.set_result(noop())

    base = fastest(futures, args.tasks, args.batches)
    final = through(InlineFinal(), args.tasks, args.batches)
    own = through(Inline(), args.tasks, args.batches)
    burst = through(Batched(), args.tasks, args.batches)
    print(f"one future:                        {base:6.2f} us of CPU a task")
    print(f"channel with final futures:        {final:6.2f} us ({final - base:+.2f} over a future)")
    print(f"channel without final futures:     {own:6.2f} us ({own - base:+.2f} over a future)")
    print(f"final futures, whole batch queued: {burst:6.2f} us ({burst - base:+.2f} over a future)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
