"""Placement rows keyed like Parsl's monitoring ``try`` table (issue 11, item 4)."""

from __future__ import annotations

from secretary_executor.ledger import Ledger
from secretary_executor.parsl.records import LedgerWriter


def test_placement_rows_reach_the_ledger_in_order(tmp_path):
    ledger = Ledger(tmp_path / "ledger.db")
    writer = LedgerWriter(ledger, interval_s=60)
    writer.placement("run-1", 4, 0, "cloud-k8s", "req-a", False, "not started: down", "secretary")
    writer.placement("run-1", 4, 0, "edge-jetson", "req-a", True, "ran", "secretary")
    writer.placement("run-2", 4, 0, "hpc-campus", "req-b", True, "ran", "secretary")
    writer.close()
    assert ledger.placements("run-1") == [
        (4, 0, "cloud-k8s", "req-a", False, "not started: down"),
        (4, 0, "edge-jetson", "req-a", True, "ran"),
    ]
    assert ledger.placements("run-2") == [(4, 0, "hpc-campus", "req-b", True, "ran")]


def test_a_placement_after_close_is_written_at_once(tmp_path):
    ledger = Ledger(tmp_path / "ledger.db")
    writer = LedgerWriter(ledger)
    writer.close()
    writer.placement("run-1", 0, 1, "cloud-k8s", "req-a", True, "ran", "secretary")
    assert ledger.placements("run-1") == [(0, 1, "cloud-k8s", "req-a", True, "ran")]
