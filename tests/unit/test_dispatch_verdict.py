"""Dispatch respects the verdict: a site that says the job cannot run there is refused unless
the caller forces it, at every door (Python, MCP, CLI)."""

from __future__ import annotations

import asyncio

import pytest

from secretary_executor.broker import Broker
from secretary_executor.errors import DispatchError
from secretary_executor.sites.fleet import demo_fleet


def test_broker_dispatch_refuses_an_incompatible_site_unless_forced() -> None:
    async def go() -> tuple[str, str]:
        broker = Broker(demo_fleet())
        try:
            request = broker.prepare("lammps >= 2099 on 1 node", command=["true"])
            result = await broker.negotiate(request)
            site = "hpc-campus"
            proposal = result.proposal(site)
            assert proposal is not None and not proposal.verdict.compatible
            with pytest.raises(DispatchError, match="force") as caught:
                await broker.dispatch(result.request, site, proposal)
            assert caught.value.transient is False
            receipt = await broker.dispatch(result.request, site, proposal, force=True)
            return proposal.verdict.value, receipt.site
        finally:
            await broker.close()

    verdict, site = asyncio.run(go())
    assert verdict == "INCOMPATIBLE" and site == "hpc-campus"
