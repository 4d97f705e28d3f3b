"""A real Secretary over the demo campus site's state that counts the jobs it submits.

Used by the write-ahead and fault tests as their ground truth of what reached the workload
manager; the counting happens after the real submit, so nothing of the site is faked.
"""

from __future__ import annotations

from pathlib import Path

from endpoint_plugins.config import SiteConfig
from endpoint_plugins.secretary import DispatchPlan, Secretary
from providers.state import load_state, providers_from_state
from providers.wire import DispatchReceipt, JobRequest

STATE = Path(__file__).resolve().parents[1] / "secretary_executor/fleets/demo/hpc-campus.yaml"


class CountingSecretary(Secretary):
    """A real Secretary that counts the jobs it hands to its workload manager."""

    def __init__(self, name: str, keys: Path) -> None:
        config = SiteConfig(name=name, dispatch_keys_file=str(keys))
        super().__init__(config, providers=providers_from_state(load_state(STATE)))
        self.submitted: list[str] = []

    def _submit(self, request: JobRequest, plan: DispatchPlan) -> DispatchReceipt:
        receipt = super()._submit(request, plan)
        self.submitted.append(receipt.native_id)
        return receipt
