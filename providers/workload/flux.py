"""Flux as a workload provider: resources, queues and jobs of a running Flux instance.

The commands and what is read from them (flux-core 0.50 and later, documented in the
flux-resource(1), flux-queue(1) and flux-jobs(1) manual pages and RFC 20):

* ``flux resource R``: the instance's resource set as RFC 20 JSON,
  ``{"version": 1, "execution": {"R_lite": [{"rank": "0-3", "children": {"core": "0-7",
  "gpu": "0-1"}}], "nodelist": [...]}}``: one broker rank is one node.
* ``flux resource R -s free``: the same for resources not allocated to any job; a node is free
  when all of its cores and GPUs appear there.
* ``flux queue list -n -o {queuem}|{limits.timelimit}``: one line per named queue (the default
  marked with ``*``); with no named queue the instance is one anonymous queue. Each named
  queue's nodes come from ``flux resource R -q QUEUE``.
* ``flux jobs -A -n --filter=pending,running -o {state}|{queue}``: one line per active job of
  any user (flux-jobs lists at most 1000 by default).

Dispatch builds a ``flux submit`` argument vector (Flux takes the command as argv, so there is
no script to escape); :func:`render_jobspec` gives the equivalent RFC 25 jobspec for audit.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from providers.categories import WorkloadProvider
from providers.errors import CommandError, ProviderError, UnsafeValueError
from providers.facts import Partition, WorkloadFacts
from providers.jobspec import JobSpec, SubmitResult
from providers.wire.jobs import JobState, JobStatus
from providers.workload.batch import job_folder, translate_state
from providers.workload.scheduler_io import cancel_then_status

MANAGER = "flux"
DEFAULT_TIMEOUT_S = 30.0
ANONYMOUS_QUEUE = "flux"
"""Partition name of an instance without named queues (option ``partition`` overrides it)."""

NATIVE_ID_RE = re.compile(r"^(?:[ƒf][1-9A-HJ-NP-Za-km-z]{1,11}|[0-9]{1,20})\Z")
"""RFC 19 F58 ids (``ƒ`` or, in a non-UTF-8 locale, ``f`` plus base58) or decimal ids."""
_IDSET_RE = re.compile(r"^\s*(\d+)(?:-(\d+))?\s*$")
_FSD_RE = re.compile(r"^(\d+(?:\.\d+)?)([smhd]?)$")
_FSD_UNIT = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}

# Flux job states (RFC 21) and results, as flux-jobs(1) "JOB STATUS" documents them:
# https://flux-framework.readthedocs.io/projects/flux-core/en/latest/man1/flux-jobs.html
STATE_TABLE: dict[str, JobState] = {
    "NEW": JobState.QUEUED,
    "DEPEND": JobState.QUEUED,
    "PRIORITY": JobState.QUEUED,
    "SCHED": JobState.QUEUED,
    "RUN": JobState.RUNNING,
    "CLEANUP": JobState.RUNNING,
    "COMPLETED": JobState.COMPLETED,
    "FAILED": JobState.FAILED,
    "CANCELED": JobState.CANCELLED,
    "TIMEOUT": JobState.TIMEOUT,
}
_PENDING = frozenset({"NEW", "DEPEND", "PRIORITY", "SCHED"})
_RUNNING = frozenset({"RUN", "CLEANUP"})


# -- parsing ----------------------------------------------------------------------------------


def parse_idset(text: str) -> list[int]:
    """Expand an RFC 22 idset such as ``0-3,7`` (brackets allowed) into sorted integers.

    Raises:
        ProviderError: the text is not an idset.
    """
    body = text.strip().strip("[]")
    if not body:
        return []
    ids: set[int] = set()
    for part in body.split(","):
        m = _IDSET_RE.match(part)
        if not m:
            raise ProviderError(f"flux printed an idset that cannot be read: {text!r}")
        low = int(m.group(1))
        high = int(m.group(2)) if m.group(2) is not None else low
        if high < low or high - low > 1_000_000:
            raise ProviderError(f"flux printed an idset that cannot be read: {text!r}")
        ids.update(range(low, high + 1))
    return sorted(ids)


def parse_r(text: str, what: str = "flux resource R") -> dict[int, tuple[int, int]]:
    """Cores and GPUs per broker rank from an RFC 20 resource set (R version 1).

    Raises:
        ProviderError: the output is not R version 1 JSON.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProviderError(f"{what} printed output that is not JSON ({exc.msg})") from None
    if not isinstance(data, dict) or data.get("version") != 1:
        raise ProviderError(f"{what} printed JSON that is not an RFC 20 R version 1 object")
    execution = data.get("execution")
    entries = execution.get("R_lite") if isinstance(execution, dict) else None
    if not isinstance(entries, list):
        raise ProviderError(f"{what} printed an R object without execution.R_lite")
    ranks: dict[int, tuple[int, int]] = {}
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("rank"), str):
            raise ProviderError(f"{what} printed an R_lite entry without a rank idset")
        children = entry.get("children") or {}
        if not isinstance(children, dict):
            raise ProviderError(f"{what} printed an R_lite entry whose children are not a map")
        cores = len(parse_idset(str(children.get("core", ""))))
        gpus = len(parse_idset(str(children.get("gpu", ""))))
        for rank in parse_idset(entry["rank"]):
            old = ranks.get(rank, (0, 0))
            ranks[rank] = (old[0] + cores, old[1] + gpus)
    return ranks


def parse_fsd(text: str) -> int | None:
    """Seconds in a Flux Standard Duration (``30m``, ``1.5h``, ``3600``), None if unlimited."""
    value = text.strip().lower()
    m = _FSD_RE.match(value)
    if not m:
        return None
    seconds = float(m.group(1)) * _FSD_UNIT[m.group(2)]
    return int(seconds) if seconds > 0 and math.isfinite(seconds) else None


def parse_queue_list(text: str) -> list[tuple[str, bool, int | None]]:
    """``(name, is_default, time limit)`` per named queue from ``flux queue list``.

    An empty name (the anonymous queue) yields no entry: the instance then has one partition.
    """
    queues = []
    for line in text.splitlines():
        if not line.strip():
            continue
        name, _, limit = line.partition("|")
        name = name.strip()
        default = name.endswith("*")
        name = name.rstrip("*").strip()
        if name:
            queues.append((name, default, parse_fsd(limit)))
    return queues


def count_jobs(text: str) -> dict[str, tuple[int, int]]:
    """``{queue: (pending, running)}`` from ``flux jobs -o {state}|{queue}`` lines."""
    counts: dict[str, tuple[int, int]] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        state, _, queue = line.partition("|")
        state = state.strip().upper()
        pending, running = counts.get(queue.strip(), (0, 0))
        if state in _PENDING:
            pending += 1
        elif state in _RUNNING:
            running += 1
        counts[queue.strip()] = (pending, running)
    return counts


def build_partition(
    name: str,
    ranks: Sequence[int],
    total: Mapping[int, tuple[int, int]],
    free: Mapping[int, tuple[int, int]],
    *,
    memory_gb: float,
    default: bool,
    limit: int | None,
    jobs: tuple[int, int],
) -> Partition:
    """One partition from its ranks: a node is free when all its cores and GPUs are free."""
    shapes = [total[r] for r in ranks if r in total]
    return Partition(
        name=name,
        total_nodes=len(shapes),
        free_nodes=sum(1 for r in ranks if r in total and free.get(r) == total[r]),
        cpus_per_node=max([c for c, _ in shapes] + [1]),
        memory_gb_per_node=memory_gb,
        gpus_per_node=max([g for _, g in shapes] + [0]),
        max_walltime_s=limit,
        queue_depth=jobs[0],
        running_jobs=jobs[1],
        default=default,
    )


def job_state_of(info: Mapping[str, Any]) -> tuple[JobState, int | None, str]:
    """State, exit code and message from one ``flux jobs --json ID`` object.

    An inactive job is described by its ``result``; an active one by its ``state``.
    """
    word = str(info.get("result") or info.get("state") or "")
    state = translate_state(STATE_TABLE, word, MANAGER)
    code = info.get("returncode")
    exit_code = code if isinstance(code, int) and not isinstance(code, bool) else None
    message = word.lower()
    exc = info.get("exception")
    if isinstance(exc, dict) and exc.get("occurred"):
        message = f"{exc.get('type', 'exception')}: {exc.get('note', '')}".strip(": ")
    if state is JobState.UNKNOWN:
        message = f"unknown flux job state {word!r}"
    return state, exit_code, message


# -- rendering --------------------------------------------------------------------------------


def _output_paths(name: str) -> tuple[str, str]:
    folder = job_folder(MANAGER)
    return f"{folder}/{name}.{{{{id}}}}.out", f"{folder}/{name}.{{{{id}}}}.err"


def _workdir(spec: JobSpec) -> str:
    if spec.workdir is None:
        return str(job_folder(MANAGER))
    if not spec.workdir.startswith("/") or any(c in spec.workdir for c in "\n\r\0"):
        raise UnsafeValueError(f"workdir {spec.workdir!r} must be an absolute path on one line")
    return spec.workdir


def env_rule_value(value: str) -> str:
    """An ``--env=NAME=VALUE`` value kept literal: Flux substitutes ``$var``, ``$$`` is ``$``."""
    return value.replace("$", "$$")


def submit_argv(spec: JobSpec) -> list[str]:
    """The ``flux submit`` argument vector that runs ``spec.command`` exactly as given.

    One task per node (``-N n -n n``) with the node's cores (``--cores-per-task``) and GPUs
    (``--gpus-per-task``); the walltime in seconds (``--time-limit=Ns``; a bare number would
    be minutes). Every option uses the ``--name=value`` form and the command follows ``--``,
    so no value can be taken for an option. Flux schedules cores and GPUs only: memory is not
    requested.

    Raises:
        UnsafeValueError: the working folder is not an absolute one-line path.
    """
    out, err = _output_paths(spec.name)
    argv = [
        "flux",
        "submit",
        f"--job-name={spec.name}",
        f"--nodes={spec.nodes}",
        f"--ntasks={spec.nodes}",
    ]
    if spec.cores_per_node:
        argv.append(f"--cores-per-task={spec.cores_per_node}")
    if spec.gpus_per_node:
        argv.append(f"--gpus-per-task={spec.gpus_per_node}")
    if spec.walltime_s:
        argv.append(f"--time-limit={spec.walltime_s}s")
    if spec.partition:
        argv.append(f"--queue={spec.partition}")
    argv += [f"--cwd={_workdir(spec)}", f"--output={out}", f"--error={err}"]
    argv += [f"--env={k}={env_rule_value(v)}" for k, v in sorted(spec.environment.items())]
    return [*argv, "--", *spec.command]


def render_jobspec(spec: JobSpec) -> dict[str, Any]:
    """The RFC 25 (version 1) jobspec equivalent to :func:`submit_argv`, for audit.

    ``nodes`` node(s), each with one ``task`` slot of the requested cores and GPUs, one task
    per slot. The environment holds only ``spec.environment`` (``flux submit`` also copies the
    submitter's environment); values are literal here, no substitution applies to a jobspec.
    """
    slot_with: list[dict[str, Any]] = [{"type": "core", "count": spec.cores_per_node or 1}]
    if spec.gpus_per_node:
        slot_with.append({"type": "gpu", "count": spec.gpus_per_node})
    out, err = _output_paths(spec.name)
    system: dict[str, Any] = {
        "duration": spec.walltime_s or 0,
        "cwd": _workdir(spec),
        "environment": dict(sorted(spec.environment.items())),
        "job": {"name": spec.name},
        "shell": {
            "options": {
                "output": {
                    "stdout": {"type": "file", "path": out},
                    "stderr": {"type": "file", "path": err},
                }
            }
        },
    }
    if spec.partition:
        system["queue"] = spec.partition
    return {
        "version": 1,
        "resources": [
            {
                "type": "node",
                "count": spec.nodes,
                "with": [{"type": "slot", "count": 1, "label": "task", "with": slot_with}],
            }
        ],
        "tasks": [{"command": list(spec.command), "slot": "task", "count": {"per_slot": 1}}],
        "attributes": {"system": system},
    }


# -- the provider -----------------------------------------------------------------------------


class FluxProvider(WorkloadProvider):
    """A Flux instance reached through the ``flux`` command.

    Options:
        partition: the partition name of an instance without named queues (default ``flux``).
        memory_gb_per_node: node memory to report (Flux's resource set does not describe
            memory; default 0, which makes memory requests unsatisfiable rather than guessed).
        timeout_s: timeout of each flux command (default 30 s).
    """

    name: ClassVar[str] = "flux"
    description: ClassVar[str] = (
        "Flux instance: nodes, cores and GPUs per queue with free nodes and pending jobs, and "
        "jobs submitted with flux submit."
    )
    detection: ClassVar[str] = (
        "flux on PATH and FLUX_URI set or 'flux getattr rank' answering; facts from flux "
        "resource R (all and -s free), flux queue list and flux jobs -A"
    )

    @property
    def _timeout(self) -> float:
        return float(self.options.get("timeout_s", DEFAULT_TIMEOUT_S))

    def _run(self, argv: list[str]) -> str:
        return self.runner.run(argv, timeout_s=self._timeout).stdout

    def _instance_reachable(self) -> bool:
        if self.runner.env.get("FLUX_URI") or os.environ.get("FLUX_URI"):
            return True
        try:
            self.runner.run(["flux", "getattr", "rank"], timeout_s=self._timeout)
        except CommandError:
            return False
        return True

    def _probe(self) -> WorkloadFacts | None:
        """Read resources, queues and active jobs; None when no Flux instance is reachable.

        Raises:
            ProviderError: Flux answers but its output cannot be read.
        """
        if self.runner.which("flux") is None or not self._instance_reachable():
            return None
        total = parse_r(self._run(["flux", "resource", "R"]))
        if not total:
            raise ProviderError("flux resource R reported no resources in this instance")
        free = parse_r(self._run(["flux", "resource", "R", "-s", "free"]), "flux resource R -s")
        try:
            queues = parse_queue_list(
                self._run(["flux", "queue", "list", "-n", "-o", "{queuem}|{limits.timelimit}"])
            )
        except CommandError:
            queues = []  # flux-core before named queues: one anonymous queue
        jobs = count_jobs(
            self._run(
                ["flux", "jobs", "-A", "-n", "--filter=pending,running", "-o", "{state}|{queue}"]
            )
        )
        memory = float(self.options.get("memory_gb_per_node", 0.0))
        if not queues:
            everything = (sum(p for p, _ in jobs.values()), sum(r for _, r in jobs.values()))
            name = str(self.options.get("partition") or ANONYMOUS_QUEUE)
            partitions = (
                build_partition(
                    name,
                    sorted(total),
                    total,
                    free,
                    memory_gb=memory,
                    default=True,
                    limit=None,
                    jobs=everything,
                ),
            )
        else:
            has_default = any(d for _, d, _ in queues)
            parts = []
            for index, (queue, is_default, limit) in enumerate(queues):
                ranks = parse_r(self._run(["flux", "resource", "R", "-q", queue]), "flux R -q")
                parts.append(
                    build_partition(
                        queue,
                        sorted(ranks),
                        total,
                        free,
                        memory_gb=memory,
                        default=is_default or (not has_default and index == 0),
                        limit=limit,
                        jobs=jobs.get(queue, (0, 0)),
                    )
                )
            partitions = tuple(parts)
        try:
            version = self._run(["flux", "version"]).splitlines()
            found = [ln.split(":", 1)[1].strip() for ln in version if ln.startswith("commands:")]
        except CommandError:
            found = []
        return WorkloadFacts(
            manager=MANAGER, version=found[0] if found else None, partitions=partitions
        )

    # -- dispatch ---------------------------------------------------------------------------

    def _submit(self, spec: JobSpec) -> SubmitResult:
        """Run ``flux submit`` and return the job id it printed.

        Postcondition: the job is in the instance's queue under the returned id.

        Raises:
            UnsafeValueError: the working folder cannot be used.
            ProviderError: flux submit failed (transient) or printed no valid job id.
        """
        argv = submit_argv(spec)
        try:
            out = self._run(argv).strip()
        except CommandError as exc:
            raise ProviderError(f"flux submit failed: {exc.message}", transient=True) from None
        job_id = out.splitlines()[-1].strip() if out else ""
        if not NATIVE_ID_RE.match(job_id):
            raise ProviderError(f"flux submit printed no job id: {out!r}")
        audit = {"argv": argv, "jobspec": render_jobspec(spec)}
        return SubmitResult(native_id=job_id, script=json.dumps(audit, indent=2))

    def _checked(self, native_id: str) -> str:
        if not isinstance(native_id, str) or not NATIVE_ID_RE.match(native_id):
            raise UnsafeValueError(
                f"native id {native_id!r} is not a Flux job id (F58 such as ƒ2Y8xD9Zk, or decimal)"
            )
        return native_id

    def _status(self, native_id: str) -> JobStatus:
        """The job's state from ``flux jobs --json ID``; UNKNOWN when Flux does not know it.

        Raises:
            UnsafeValueError: ``native_id`` is not a Flux job id.
            ProviderError: flux printed something that is not a job object.
        """
        job_id = self._checked(native_id)
        try:
            out = self._run(["flux", "jobs", "--json", job_id])
        except CommandError as exc:
            return JobStatus(
                site=self.name, native_id=job_id, state=JobState.UNKNOWN, message=exc.message
            )
        try:
            info = json.loads(out)
        except json.JSONDecodeError:
            raise ProviderError(
                f"flux jobs --json printed output that is not JSON: {out!r}"
            ) from None
        if not isinstance(info, dict):
            raise ProviderError("flux jobs --json printed JSON that is not a job object")
        state, exit_code, message = job_state_of(info)
        return JobStatus(
            site=self.name, native_id=job_id, state=state, exit_code=exit_code, message=message
        )

    def _cancel(self, native_id: str) -> JobStatus:
        """``flux cancel`` an active job; a finished or unknown job is left as it is."""
        return cancel_then_status(
            native_id,
            status=self._status,
            run=self._run,
            argv=["flux", "cancel", native_id],
            what="flux cancel",
        )
