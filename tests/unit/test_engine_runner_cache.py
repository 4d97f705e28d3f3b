"""An engine runner serializes each function object once (issue 11, item 5)."""

from __future__ import annotations

from typing import Any

from globus_compute_endpoint.engines import ThreadPoolEngine
from globus_compute_sdk.serialize import ComputeSerializer

from secretary_executor.sites import engine as engine_module
from secretary_executor.sites.engine import EngineRunner


class CountingSerializer(ComputeSerializer):
    def __init__(self) -> None:
        super().__init__()
        self.functions = 0

    def serialize(self, data: Any) -> str:
        if callable(data):
            self.functions += 1
        return super().serialize(data)


def add(x: int, y: int = 0) -> int:
    return x + y


def neg(x: int) -> int:
    return -x


def test_a_function_is_serialized_once_and_its_results_stay_right(tmp_path, monkeypatch):
    monkeypatch.setenv("GC_TASK_UUID", "")  # a thread engine sets it in this process
    monkeypatch.setattr(engine_module, "FUNCTION_CACHE", 1)
    serde = CountingSerializer()
    runner = EngineRunner(ThreadPoolEngine(max_workers=1), run_dir=tmp_path, serializer=serde)
    runner.start()
    try:
        assert [runner.submit(add, (i,), {"y": 1}).result(timeout=30) for i in range(3)] == [
            1,
            2,
            3,
        ]
        assert serde.functions == 1
        assert runner.submit(add, (5,)).result(timeout=30) == 5  # empty kwargs, cached bytes
        assert runner.submit(neg, (5,)).result(timeout=30) == -5  # evicts add (cache of one)
        assert runner.submit(add, (2, 2)).result(timeout=30) == 4
        assert serde.functions == 3
    finally:
        runner.shutdown()
