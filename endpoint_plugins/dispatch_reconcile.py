"""Settling dispatch keys whose submit was cut short, by asking the workload manager.

Why: a worker killed between claiming a dispatch key and recording the manager's answer leaves
the key ``submitting`` (see :mod:`endpoint_plugins.dispatch_keys`), and the hub's dispatch
PENDING with nothing to settle it. The manager holds the answer: every job carries its key
(:attr:`providers.jobspec.JobSpec.dispatch_key`). So the site asks each of its workload
providers (:meth:`~providers.categories.WorkloadProvider.find_job`) when a worker starts and
whenever such a key is asked about:

* a provider holds a job with the key: the key becomes ``done`` with that job, and the hub
  settles the dispatch to it (QUEUED, RUNNING or whatever it has become);
* every provider that could have taken the job shows positively that none exists (the
  claimant is gone, so no late submit can follow): the key becomes ``abandoned``, the hub
  settles the dispatch FAILED, and the job can never run;
* any provider cannot tell: nothing changes, and the answer still says which job to look for.

Exactly once is kept: a key is only ever settled to a job the manager really has, or to
"never" when no job can exist, and a claim that changed meanwhile is left alone.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

from endpoint_plugins.dispatch_keys import DispatchMemory, UnsettledClaim
from providers.base import Provider
from providers.categories import WorkloadProvider
from providers.errors import ProviderError
from providers.wire import DispatchReceipt, JobState
from providers.wire.request import new_id

log = logging.getLogger(__name__)


def _find(workloads: Iterable[WorkloadProvider], claim: UnsettledClaim) -> tuple[str, str] | None:
    """(provider, native id) of the job carrying the claim's key, ("", "") when positively
    none exists, None when some provider cannot tell."""
    unsure = False
    for provider in workloads:
        report = provider.probe()
        if not report.available:
            # Absent (nothing to ask, it took no job) or failing (it cannot tell now).
            unsure = unsure or report.error is not None
            continue
        try:
            native_id = provider.find_job(claim.key, claim.claimed_at)
        except ProviderError as exc:
            log.info("dispatch key %s: %s cannot tell: %s", claim.key, provider.name, exc.message)
            unsure = True
            continue
        if native_id is not None:
            return provider.name, native_id
    return None if unsure else ("", "")


def settle_unfinished(
    memory: DispatchMemory, providers: Sequence[Provider], site: str, key: str | None = None
) -> int:
    """Settle the unsettled claims (of ``key``, or all) from what the workload manager holds.

    Returns how many claims were settled.
    """
    workloads = [p for p in providers if isinstance(p, WorkloadProvider)]
    settled = 0
    for claim in memory.unsettled(key):
        found = _find(workloads, claim)
        if found is None:
            continue
        provider, native_id = found
        receipt = None
        if native_id:
            receipt = DispatchReceipt(
                job_id=new_id(),
                site=site,
                native_id=native_id,
                provider=provider,
                state=JobState.QUEUED,
            )
        if memory.settle(claim, receipt):
            settled += 1
            if receipt is not None:
                log.warning(
                    "site %s: interrupted dispatch %s was taken by %s as job %s",
                    site,
                    claim.key,
                    provider,
                    native_id,
                )
            else:
                log.warning(
                    "site %s: interrupted dispatch %s never reached the workload manager; "
                    "abandoned, it will not run",
                    site,
                    claim.key,
                )
    return settled
