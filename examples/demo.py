"""The whole flow on the built-in demo fleet: request, negotiation, selection, dispatch.

Run with ``make demo`` (or ``python examples/demo.py`` inside the project's virtualenv). It needs
no credentials and no network: the fleet is this machine (probed for real) plus six simulated
sites described by the state files in ``secretary_executor/fleets/demo``.
"""

from __future__ import annotations

import asyncio
import sys

from rich.panel import Panel

from providers.workload.local import jobs_root
from providers.workload.slurm import output_paths
from secretary_executor.broker import Broker
from secretary_executor.cli.render import (
    checks_table,
    events_table,
    jobs_table,
    make_console,
    proposals_table,
)
from secretary_executor.sites.fleet import LOCAL_SITE, demo_fleet

REQUEST = "I need python >= 3.8 on 1 node with 2 cores and 4 GB of memory, soon, for 10 minutes"
COMMAND = [
    sys.executable,
    "-c",
    "import platform, sys; print('hello from', platform.node(), 'python', sys.version.split()[0])",
]


async def main() -> int:
    console = make_console()
    broker = Broker(demo_fleet())
    try:
        console.print(
            Panel.fit(
                f"[bold]Request[/]: {REQUEST}\n[bold]Command[/]: {COMMAND[:2]} ...",
                title="secretary-executor demo",
            )
        )

        # 1. Request -> requirements (parsed once, here at the client).
        request = broker.prepare(REQUEST, command=COMMAND)
        assert request.requirements is not None
        console.print("[bold]Requirements[/] parsed from the text:")
        console.print_json(request.requirements.model_dump_json(exclude_defaults=True))

        # 2-3. Fan-out and negotiation: every site answers concurrently.
        with console.status(f"Negotiating with {len(broker.fleet.sites)} sites..."):
            result = await broker.negotiate(request)
        console.print(proposals_table(result.proposals))
        console.print(f"negotiated with {len(result.proposals)} sites in {result.elapsed_s:.3f} s")
        # Why: the checks behind this machine's answer and behind one refusal.
        console.print(checks_table(result.proposal(LOCAL_SITE)))
        refused = next((p for p in result.proposals if p.failing_checks()), None)
        if refused is not None:
            console.print(checks_table(refused))

        # 4. Selection: the same proposals, two policies.
        for algorithm in ("min-cost", "soonest"):
            outcome = broker.select(result, algorithm)
            chosen = outcome.chosen.site if outcome.chosen else "nothing"
            console.print(f"[bold]{algorithm:>9}[/] selects [bold green]{chosen}[/]")

        # 5. Dispatch to the real local machine and follow the job to the end.
        local = result.proposal(LOCAL_SITE)
        receipt = await broker.dispatch(result.request, LOCAL_SITE, local)
        console.print(
            f"dispatched to [bold]{LOCAL_SITE}[/] as job {receipt.job_id} ({receipt.native_id})"
        )
        with console.status("Waiting for the job to finish..."):
            status = await broker.wait(receipt.job_id, timeout_s=120)
        console.print(jobs_table([broker.ledger.job(receipt.job_id)]))
        console.print(events_table(broker.ledger.events(receipt.job_id)))
        if receipt.provider == "slurm":  # this machine runs Slurm: the job went through it
            output = output_paths(receipt.native_id)[0]
        else:
            output = jobs_root() / receipt.native_id / "stdout.txt"
        if output.is_file():
            console.print(Panel(output.read_text().rstrip() or "(no output)", title="job output"))
        ok = status.state.value in ("COMPLETED", "SIMULATED")
        console.print(
            f"[bold {'green' if ok else 'red'}]job {status.state.value}[/] "
            f"(exit code {status.exit_code}); ledger: {broker.ledger.path}"
        )
        return 0 if ok else 1
    finally:
        await broker.close()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
