"""Resource keys reach the chosen channel in its engine's convention (issue 11, item 2)."""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

import pytest
from parsl.executors import HighThroughputExecutor, MPIExecutor, ThreadPoolExecutor
from parsl.launchers import SimpleLauncher
from parsl.providers import LocalProvider

from providers.wire import Policy, Requirements
from secretary_executor.parsl import (
    ExecutionChannel,
    GlobusChannel,
    ParslChannel,
    ThreadChannel,
    UnsupportedResourceKey,
)
from secretary_executor.parsl.keys import (
    GLOBUS_SDK_KEYS,
    MPI_KEYS,
    PLACEMENT_KEYS,
    PRIORITY_KEYS,
    WORK_QUEUE_KEYS,
    engine_keys,
    forwarded,
    parsl_executor_keys,
)
from secretary_executor.parsl.spec import split_spec


def test_mpi_keys_pass_whole_including_the_ones_read_for_placement():
    spec = {"num_nodes": 2, "ranks_per_node": 4, "num_ranks": 8, "launcher_options": "-v"}
    needs = split_spec(spec, default_requirements=Requirements(), default_policy=Policy())
    assert needs.requirements.compute.nodes == 2
    out = forwarded(needs.forward, MPI_KEYS, "hpc")
    assert out == spec
    assert out is not needs.forward  # the engine may add keys (Parsl's MPI mode does)


def test_work_queue_keys_pass_and_placement_only_keys_are_dropped_where_not_taken():
    spec = {"cores": 4, "memory": 2048, "disk": 1024, "running_time_min": 5, "walltime": 300}
    assert forwarded(spec, WORK_QUEUE_KEYS, "wq") == {
        "cores": 4,
        "memory": 2048,
        "disk": 1024,
        "running_time_min": 5,
    }
    # An engine that takes nothing still runs a task whose keys only served placement.
    assert forwarded({"cores": 4, "num_nodes": 1}, frozenset(), "threads") == {}


@pytest.mark.parametrize(
    ("key", "accepted"),
    [("disk", frozenset()), ("num_ranks", PRIORITY_KEYS), ("user_endpoint_config", MPI_KEYS)],
)
def test_an_unsupported_key_names_itself_the_site_and_what_the_site_takes(key, accepted):
    with pytest.raises(UnsupportedResourceKey) as info:
        forwarded({key: 1, "cores": 1}, accepted, "site-a")
    message = str(info.value)
    assert repr(key) in message and "'site-a'" in message
    for taken in accepted or ["no resource specification"]:
        assert taken in message
    assert not info.value.transient


def test_parsl_executor_kinds():
    provider = LocalProvider(launcher=SimpleLauncher())
    assert parsl_executor_keys(MPIExecutor(provider=provider, address="127.0.0.1")) == MPI_KEYS
    htex = HighThroughputExecutor(provider=LocalProvider(), address="127.0.0.1")
    assert parsl_executor_keys(htex) == PRIORITY_KEYS
    assert parsl_executor_keys(ThreadPoolExecutor()) == frozenset()

    class WorkQueueExecutor:  # the kind is known by name: Work Queue need not be installed
        pass

    assert parsl_executor_keys(WorkQueueExecutor()) == WORK_QUEUE_KEYS


def test_channels_declare_their_keys(tmp_path):
    provider = LocalProvider(launcher=SimpleLauncher())
    mpi = ParslChannel(MPIExecutor(provider=provider, address="127.0.0.1"), run_dir=tmp_path)
    assert mpi.accepted_keys == MPI_KEYS
    assert ThreadChannel(1).accepted_keys == frozenset()
    sdk = type("Sdk", (), {"endpoint_id": "e"})()
    assert GlobusChannel(sdk).accepted_keys == GLOBUS_SDK_KEYS
    assert "user_endpoint_config" in GLOBUS_SDK_KEYS
    override = ParslChannel(ThreadPoolExecutor(), run_dir=tmp_path, accepted_keys={"priority"})
    assert override.accepted_keys == PRIORITY_KEYS


def test_globus_engines_by_kind():
    from globus_compute_endpoint.engines import GlobusComputeEngine, GlobusMPIEngine

    provider = LocalProvider(launcher=SimpleLauncher())
    assert engine_keys(GlobusMPIEngine(provider=provider, address="127.0.0.1")) == MPI_KEYS
    plain = GlobusComputeEngine(provider=LocalProvider(), address="127.0.0.1")
    assert engine_keys(plain) == PRIORITY_KEYS
    assert engine_keys(object()) == frozenset()


def test_placement_keys_are_what_spec_reads():
    from secretary_executor.parsl.spec import PARSL_KEYS

    assert frozenset(PARSL_KEYS) == PLACEMENT_KEYS


class _Recording(ExecutionChannel):
    """Takes MPI keys and remembers the specification each task brought."""

    accepted_keys = MPI_KEYS

    def __init__(self) -> None:
        self.specs: list[dict[str, Any]] = []

    def submit_task(self, fn, args, kwargs, resource_specification) -> Future[Any]:
        self.specs.append(resource_specification)
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def test_the_executor_forwards_num_nodes_with_ranks_per_node(tmp_path):
    import parsl
    from parsl.config import Config

    from secretary_executor.parsl import SecretaryExecutor, secretary_app

    @secretary_app
    def hello() -> str:
        return "hi"

    channels: dict[str, ExecutionChannel] = {"hpc-campus": _Recording()}
    ex = SecretaryExecutor("demo", channels, ledger=tmp_path / "ledger.db", cache_ttl_s=60)
    spec = {"num_nodes": 1, "ranks_per_node": 4}
    config = Config(executors=[ex], run_dir=str(tmp_path / "run"), initialize_logging=False)
    with parsl.load(config):
        assert hello(parsl_resource_specification=spec).result(timeout=60) == "hi"
        assert hello(parsl_resource_specification=spec).result(timeout=60) == "hi"  # cached
    recording = channels["hpc-campus"]
    assert isinstance(recording, _Recording)
    assert recording.specs == [spec, spec]
