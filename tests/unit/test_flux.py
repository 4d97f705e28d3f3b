"""The Flux provider against recorded command output.

Flux cannot run here: it is not packaged for Debian 12 and its PyPI wheels are bindings that
need ``libflux-core.so`` and a broker. Every answer below is written from the Flux
documentation: RFC 20 resource sets (``flux resource R``), flux-queue(1) and flux-jobs(1)
output formats (``-o`` field names, ``--json`` job objects with ``state`` / ``result`` /
``returncode``), and the F58 job ids of RFC 19 that ``flux submit`` prints. The runner serves
them by exact argument vector, so each test also pins what the provider would run.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SequenceRunner

from providers.errors import ProviderError, ToolArgumentError, UnsafeValueError
from providers.jobspec import JobSpec
from providers.tools import ToolKind
from providers.wire.jobs import JobState
from providers.workload.batch import job_folder
from providers.workload.flux import (
    STATE_TABLE,
    FluxProvider,
    job_state_of,
    parse_idset,
    render_jobspec,
    submit_argv,
)
from providers.workload.recorded import RecordedRunner, Recording


def _r(entries, **extra) -> str:
    execution = {"R_lite": entries, "starttime": 0.0, "expiration": 0.0, **extra}
    return json.dumps({"version": 1, "execution": execution})


R_ALL = _r(
    [
        {"rank": "0-1", "children": {"core": "0-7"}},
        {"rank": "2-3", "children": {"core": "0-7", "gpu": "0-1"}},
    ],
    nodelist=["node[0-3]"],
    properties={"batch": "0-1", "gpu": "2-3"},
)
R_FREE = _r(
    [
        {"rank": "0", "children": {"core": "0-7"}},
        {"rank": "1", "children": {"core": "4-7"}},  # half of rank 1 is allocated
        {"rank": "3", "children": {"core": "0-7", "gpu": "0-1"}},
    ],
    nodelist=["node0", "node1", "node3"],
)
R_BATCH = _r([{"rank": "0-1", "children": {"core": "0-7"}}], nodelist=["node[0-1]"])
R_GPU = _r([{"rank": "2-3", "children": {"core": "0-7", "gpu": "0-1"}}], nodelist=["node[2-3]"])
QUEUES = "batch*|1h\ngpu|inf\n"
JOBS = "SCHED|batch\nSCHED|batch\nRUN|batch\nDEPEND|gpu\nPRIORITY|gpu\nCLEANUP|gpu\n"
VERSION = "commands:    \t\t0.59.0\nlibflux-core:\t\t0.59.0\nbuild-options:\t\t+systemd+hwloc\n"

RESOURCES = ("flux", "resource", "R")
FREE = ("flux", "resource", "R", "-s", "free")
QUEUE_LIST = ("flux", "queue", "list", "-n", "-o", "{queuem}|{limits.timelimit}")
JOB_LIST = ("flux", "jobs", "-A", "-n", "--filter=pending,running", "-o", "{state}|{queue}")
JOB_ID = "ƒ2Y8xD9Zk"


def runner(extra=None) -> RecordedRunner:
    return RecordedRunner(
        {
            ("flux", "getattr", "rank"): "0\n",
            RESOURCES: R_ALL,
            FREE: R_FREE,
            QUEUE_LIST: QUEUES,
            ("flux", "resource", "R", "-q", "batch"): R_BATCH,
            ("flux", "resource", "R", "-q", "gpu"): R_GPU,
            JOB_LIST: JOBS,
            ("flux", "version"): VERSION,
            **(extra or {}),
        }
    )


# -- probing ----------------------------------------------------------------------------------


def test_absent_is_unavailable_without_error():
    report = FluxProvider(runner=RecordedRunner({}, programs=())).probe()
    assert (report.available, report.error) == (False, None)


def test_flux_without_a_reachable_instance_is_absent():
    run = runner(
        {("flux", "getattr", "rank"): Recording(stderr="flux_open: No such file", returncode=1)}
    )
    report = FluxProvider(runner=run).probe()
    assert (report.available, report.error) == (False, None)
    assert run.calls == [("flux", "getattr", "rank")]


def test_flux_uri_counts_as_an_instance():
    run = runner({("flux", "getattr", "rank"): Recording(returncode=1)})
    run.env["FLUX_URI"] = "local:///run/flux/local"
    assert FluxProvider(runner=run).probe().available


def test_queues_become_partitions_with_exact_facts():
    provider = FluxProvider(runner=runner(), options={"memory_gb_per_node": 256})
    parts = provider.call_tool("list_partitions", {}, allowed=ToolKind.READ)
    assert parts == [
        {
            "name": "batch",
            "total_nodes": 2,
            "free_nodes": 1,
            "cpus_per_node": 8,
            "memory_gb_per_node": 256.0,
            "gpus_per_node": 0,
            "gpu_model": None,
            "max_walltime_s": 3600,
            "queue_depth": 2,
            "running_jobs": 1,
            "estimated_wait_s": None,
            "default": True,
        },
        {
            "name": "gpu",
            "total_nodes": 2,
            "free_nodes": 1,
            "cpus_per_node": 8,
            "memory_gb_per_node": 256.0,
            "gpus_per_node": 2,
            "gpu_model": None,
            "max_walltime_s": None,
            "queue_depth": 2,
            "running_jobs": 1,
            "estimated_wait_s": None,
            "default": False,
        },
    ]
    assert provider.probe().facts["version"] == "0.59.0"


def test_instance_without_named_queues_is_one_partition():
    run = runner({QUEUE_LIST: "", JOB_LIST: "SCHED|\nSCHED|\nSCHED|\nRUN|\n"})
    (part,) = FluxProvider(runner=run).facts().partitions
    assert (part.name, part.total_nodes, part.free_nodes, part.gpus_per_node) == ("flux", 4, 2, 2)
    assert (part.queue_depth, part.running_jobs, part.default) == (3, 1, True)
    assert (
        FluxProvider(runner=run, options={"partition": "pdebug"}).facts().partitions[0].name
        == "pdebug"
    )


@pytest.mark.parametrize(
    ("r_output", "needle"),
    [
        ("", "not JSON"),
        ("flux-resource: ERROR: [Errno 111]", "not JSON"),
        ('{"version": 2}', "R version 1"),
        ('{"version": 1, "execution": {}}', "R_lite"),
        (_r([{"rank": "0-x", "children": {"core": "0-7"}}]), "idset"),
        (_r([]), "no resources"),
    ],
)
def test_empty_or_garbled_resources_are_unavailable_with_a_clear_error(r_output, needle):
    report = FluxProvider(runner=runner({RESOURCES: r_output})).probe()
    assert report.available is False
    assert needle in report.error


def test_parse_idset():
    assert parse_idset("[0-3,7,9-10]") == [0, 1, 2, 3, 7, 9, 10]
    assert parse_idset("") == []
    with pytest.raises(ProviderError):
        parse_idset("3-1")


# -- rendering --------------------------------------------------------------------------------

HOSTILE = ("printf", "%s\\n", "x; touch MARKER", "$(touch MARKER)", 'it\'s "quoted"', "two words")


def _spec(**changes) -> JobSpec:
    base = {
        "name": "demo",
        "command": HOSTILE,
        "nodes": 2,
        "cores_per_node": 16,
        "gpus_per_node": 2,
        "walltime_s": 1800,
        "partition": "gpu",
        "workdir": "/scratch/me",
        "environment": {"GREETING": "hello world", "TRICK": "$HOME $(id)"},
    }
    return JobSpec(**{**base, **changes})


def test_submit_argv_is_exact_and_keeps_hostile_arguments_literal():
    folder = job_folder("flux")
    assert submit_argv(_spec()) == [
        "flux",
        "submit",
        "--job-name=demo",
        "--nodes=2",
        "--ntasks=2",
        "--cores-per-task=16",
        "--gpus-per-task=2",
        "--time-limit=1800s",
        "--queue=gpu",
        "--cwd=/scratch/me",
        f"--output={folder}/demo.{{{{id}}}}.out",
        f"--error={folder}/demo.{{{{id}}}}.err",
        "--env=GREETING=hello world",
        "--env=TRICK=$$HOME $$(id)",
        "--",
        *HOSTILE,
    ]
    assert not Path("MARKER").exists()


def test_minimal_argv_uses_the_job_folder():
    folder = job_folder("flux")
    assert submit_argv(JobSpec(name="m", command=("hostname",))) == [
        "flux",
        "submit",
        "--job-name=m",
        "--nodes=1",
        "--ntasks=1",
        f"--cwd={folder}",
        f"--output={folder}/m.{{{{id}}}}.out",
        f"--error={folder}/m.{{{{id}}}}.err",
        "--",
        "hostname",
    ]


def test_jobspec_is_exact():
    folder = job_folder("flux")
    assert render_jobspec(_spec()) == {
        "version": 1,
        "resources": [
            {
                "type": "node",
                "count": 2,
                "with": [
                    {
                        "type": "slot",
                        "count": 1,
                        "label": "task",
                        "with": [{"type": "core", "count": 16}, {"type": "gpu", "count": 2}],
                    }
                ],
            }
        ],
        "tasks": [{"command": list(HOSTILE), "slot": "task", "count": {"per_slot": 1}}],
        "attributes": {
            "system": {
                "duration": 1800,
                "cwd": "/scratch/me",
                "environment": {"GREETING": "hello world", "TRICK": "$HOME $(id)"},
                "job": {"name": "demo"},
                "shell": {
                    "options": {
                        "output": {
                            "stdout": {"type": "file", "path": f"{folder}/demo.{{{{id}}}}.out"},
                            "stderr": {"type": "file", "path": f"{folder}/demo.{{{{id}}}}.err"},
                        }
                    }
                },
                "queue": "gpu",
            }
        },
    }


def test_relative_workdir_is_refused():
    with pytest.raises(UnsafeValueError, match="absolute path"):
        submit_argv(_spec(workdir="../../etc"))


# -- dispatch ---------------------------------------------------------------------------------


def _job(**fields) -> str:
    return json.dumps({"id": 123456789, "userid": 1000, "name": "demo", **fields})


def test_submit_status_cancel_through_dispatch_tools():
    spec = _spec()
    argv = tuple(submit_argv(spec))
    status_argv = ("flux", "jobs", "--json", JOB_ID)
    run = SequenceRunner(
        runner({argv: f"{JOB_ID}\n", ("flux", "cancel", JOB_ID): ""}),
        {
            status_argv: [
                _job(state="SCHED"),
                _job(state="RUN"),
                _job(
                    state="INACTIVE",
                    result="CANCELED",
                    returncode=-128,
                    exception={"occurred": True, "severity": 0, "type": "cancel", "note": ""},
                ),
            ]
        },
    )
    provider = FluxProvider(runner=run)
    result = provider.call_tool(
        "submit_job", {"spec": spec.model_dump(mode="json")}, allowed=ToolKind.DISPATCH
    )
    assert result["native_id"] == JOB_ID
    audit = json.loads(result["script"])
    assert audit["argv"] == list(argv)
    assert audit["jobspec"] == render_jobspec(spec)
    status = provider.call_tool("job_status", {"native_id": JOB_ID}, allowed=ToolKind.DISPATCH)
    assert status["state"] == "QUEUED"
    cancelled = provider.call_tool("cancel_job", {"native_id": JOB_ID}, allowed=ToolKind.DISPATCH)
    assert (cancelled["state"], cancelled["exit_code"]) == ("CANCELLED", -128)
    assert ("flux", "cancel", JOB_ID) in run.calls


def test_completed_job_reports_its_return_code():
    run = runner(
        {
            ("flux", "jobs", "--json", "f2Y8xD9Zk"): _job(
                state="INACTIVE", result="FAILED", returncode=3
            )
        }
    )
    status = FluxProvider(runner=run).call_tool(
        "job_status", {"native_id": "f2Y8xD9Zk"}, allowed=ToolKind.DISPATCH
    )
    assert (status["state"], status["exit_code"]) == ("FAILED", 3)


def test_unknown_job_is_unknown_and_garbage_is_an_error():
    gone = ("flux", "jobs", "--json", "12345")
    run = runner({gone: Recording(stderr="flux-jobs: ERROR: job 12345 not found", returncode=1)})
    status = FluxProvider(runner=run).job_status("12345")
    assert status.state is JobState.UNKNOWN
    run.recordings[gone] = Recording(stdout="<html>")
    with pytest.raises(ProviderError, match="not JSON"):
        FluxProvider(runner=run).job_status("12345")


def test_submit_failure_is_transient_and_garbled_ids_are_refused():
    spec = JobSpec(name="m", command=("hostname",))
    argv = tuple(submit_argv(spec))
    run = runner({argv: Recording(stderr="flux-submit: ERROR: queue disabled", returncode=1)})
    with pytest.raises(ProviderError) as err:
        FluxProvider(runner=run).submit_job(spec)
    assert err.value.transient
    run.recordings[argv] = Recording(stdout="$(touch MARKER)\n")
    with pytest.raises(ProviderError, match="no job id"):
        FluxProvider(runner=run).submit_job(spec)


@pytest.mark.parametrize(
    "bad",
    ["x; touch MARKER", "$(touch MARKER)", "`id`", "../ƒ2Y8", "ƒ0OIl", "ƒ", "-a", "", "1 2"],
)
def test_hostile_native_ids_are_rejected_before_any_command(bad):
    run = runner()
    provider = FluxProvider(runner=run)
    for tool in ("job_status", "cancel_job"):
        with pytest.raises(UnsafeValueError, match="not a Flux job id"):
            provider.call_tool(tool, {"native_id": bad}, allowed=ToolKind.DISPATCH)
    assert run.calls == []


def test_hostile_names_and_queues_are_rejected_by_the_schema():
    provider = FluxProvider(runner=runner())
    for spec in (
        {"name": "$(touch MARKER)", "command": ["hostname"]},
        {"command": ["hostname"], "partition": "gpu --urgency=31"},
    ):
        with pytest.raises(ToolArgumentError):
            provider.call_tool("submit_job", {"spec": spec}, allowed=ToolKind.DISPATCH)


# -- state translation ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("info", "state"),
    [
        ({"state": "NEW"}, JobState.QUEUED),
        ({"state": "DEPEND"}, JobState.QUEUED),
        ({"state": "PRIORITY"}, JobState.QUEUED),
        ({"state": "SCHED"}, JobState.QUEUED),
        ({"state": "RUN"}, JobState.RUNNING),
        ({"state": "CLEANUP"}, JobState.RUNNING),
        ({"state": "INACTIVE", "result": "COMPLETED", "returncode": 0}, JobState.COMPLETED),
        ({"state": "INACTIVE", "result": "FAILED", "returncode": 1}, JobState.FAILED),
        ({"state": "INACTIVE", "result": "CANCELED"}, JobState.CANCELLED),
        ({"state": "INACTIVE", "result": "TIMEOUT"}, JobState.TIMEOUT),
        ({"state": "INACTIVE"}, JobState.UNKNOWN),
        ({"state": "LIMBO"}, JobState.UNKNOWN),
        ({}, JobState.UNKNOWN),
    ],
)
def test_every_documented_state_and_result_is_translated(info, state):
    assert job_state_of(info)[0] is state


def test_table_covers_rfc21_states_and_results():
    assert set(STATE_TABLE) == {
        "NEW", "DEPEND", "PRIORITY", "SCHED", "RUN", "CLEANUP",
        "COMPLETED", "FAILED", "CANCELED", "TIMEOUT",
    }  # fmt: skip
