"""The HTCondor provider against recorded command output.

HTCondor cannot be installed here (it is not packaged for Debian 12 and its PyPI wheel holds
only Python bindings, no pool), so every ``condor_*`` answer below is written from the
documented formats: JSON ClassAds of ``condor_status -json`` / ``condor_q -json`` /
``condor_history -json`` (attribute names from the HTCondor ClassAd attribute reference),
``condor_submit -terse`` ("first - last" job ids) and ``condor_version``. The runner serves
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
from providers.workload import htcondor
from providers.workload.batch import job_folder
from providers.workload.htcondor import (
    JOB_STATUS_TABLE,
    HTCondorProvider,
    job_state_of,
    parse_submit_terse,
    render_submit_description,
)
from providers.workload.recorded import RecordedRunner, Recording

COLLECTOR = "cm.example.org:9618"


def _slot(name: str, machine: str, **attrs):
    return {"Name": name, "Machine": machine, "CollectorHost": COLLECTOR, **attrs}


SLOTS = [
    # node1: a whole partitionable slot, nothing handed out -> free
    _slot(
        "slot1@node1",
        "node1",
        SlotType="Partitionable",
        PartitionableSlot=True,
        State="Unclaimed",
        Activity="Idle",
        Cpus=32,
        TotalSlotCpus=32,
        Memory=128000,
        TotalSlotMemory=128000,
        NodePool="cpu",
    ),
    # node2: half handed out to a dynamic slot -> busy
    _slot(
        "slot1@node2",
        "node2",
        SlotType="Partitionable",
        PartitionableSlot=True,
        State="Unclaimed",
        Cpus=16,
        TotalSlotCpus=32,
        Memory=64000,
        TotalSlotMemory=128000,
        NodePool="cpu",
    ),
    _slot(
        "slot1_1@node2",
        "node2",
        SlotType="Dynamic",
        DynamicSlot=True,
        State="Claimed",
        Activity="Busy",
        Cpus=16,
        Memory=64000,
        NodePool="cpu",
    ),
    # node3: two static slots, one claimed -> busy
    _slot(
        "slot1@node3",
        "node3",
        SlotType="Static",
        State="Claimed",
        Cpus=4,
        Memory=8000,
        NodePool="cpu",
    ),
    _slot(
        "slot2@node3",
        "node3",
        SlotType="Static",
        State="Unclaimed",
        Cpus=4,
        Memory=8000,
        NodePool="cpu",
    ),
    # gpu1: a partitionable GPU slot, free
    _slot(
        "slot1@gpu1",
        "gpu1",
        SlotType="Partitionable",
        PartitionableSlot=True,
        State="Unclaimed",
        Cpus=64,
        TotalSlotCpus=64,
        Memory=512000,
        TotalSlotMemory=512000,
        GPUs=4,
        TotalSlotGPUs=4,
        GPUs_DeviceName="NVIDIA A100-SXM4-40GB",
        NodePool="gpu",
    ),
]
JOBS = [
    {"ClusterId": 10, "ProcId": 0, "JobStatus": 2, "RemoteHost": "slot1_1@node2"},
    {"ClusterId": 11, "ProcId": 0, "JobStatus": 1},
    {"ClusterId": 11, "ProcId": 1, "JobStatus": 1},
    {"ClusterId": 12, "ProcId": 0, "JobStatus": 1, "NodePool": "gpu"},
    {"ClusterId": 13, "ProcId": 0, "JobStatus": 5, "HoldReason": "Error from starter"},
]
VERSION = (
    "$CondorVersion: 23.0.3 2024-01-04 BuildID: 700555 PackageID: 23.0.3-1 $\n"
    "$CondorPlatform: x86_64_AlmaLinux9 $\n"
)
STATUS = ("condor_status", "-json")
QUEUE = ("condor_q", "-json", "-allusers")


def runner(slots=SLOTS, jobs=JOBS, extra=None) -> RecordedRunner:
    recordings = {
        STATUS: json.dumps(slots, indent=2),
        QUEUE: json.dumps(jobs, indent=2) if jobs else "",
        ("condor_version",): VERSION,
        **(extra or {}),
    }
    return RecordedRunner(
        recordings,
        programs={
            "condor_status",
            "condor_q",
            "condor_version",
            "condor_submit",
            "condor_rm",
            "condor_history",
        },
    )


# -- probing ----------------------------------------------------------------------------------


def test_absent_is_unavailable_without_error():
    report = HTCondorProvider(runner=RecordedRunner({}, programs=())).probe()
    assert report.available is False
    assert report.error is None


def test_one_partition_per_pool():
    provider = HTCondorProvider(runner=runner())
    facts = provider.call_tool("list_partitions", {}, allowed=ToolKind.READ)
    assert facts == [
        {
            "name": "cm.example.org",
            "total_nodes": 4,
            "free_nodes": 2,
            "cpus_per_node": 64,
            "memory_gb_per_node": 500.0,
            "gpus_per_node": 4,
            "gpu_model": "NVIDIA A100-SXM4-40GB",
            "max_walltime_s": None,
            "queue_depth": 3,
            "running_jobs": 1,
            "estimated_wait_s": None,
            "default": True,
        }
    ]
    report = provider.probe()
    assert report.facts["version"] == "23.0.3"
    assert report.facts["cluster"] == "cm.example.org"
    assert provider.runner.calls == [STATUS, QUEUE, ("condor_version",)]


def test_partitions_by_machine_attribute():
    provider = HTCondorProvider(runner=runner(), options={"partition_attribute": "NodePool"})
    parts = {p.name: p for p in provider.facts().partitions}
    assert set(parts) == {"cpu", "gpu"}
    cpu, gpu = parts["cpu"], parts["gpu"]
    assert (cpu.total_nodes, cpu.free_nodes, cpu.cpus_per_node, cpu.memory_gb_per_node) == (
        3,
        1,
        32,
        125.0,
    )
    assert (cpu.gpus_per_node, cpu.queue_depth, cpu.running_jobs, cpu.default) == (0, 2, 1, True)
    assert (gpu.total_nodes, gpu.free_nodes, gpu.gpus_per_node, gpu.queue_depth) == (1, 1, 4, 1)
    assert gpu.default is False


def test_empty_queue_prints_nothing_and_counts_zero():
    facts = HTCondorProvider(runner=runner(jobs=[])).facts()
    assert facts.partitions[0].queue_depth == 0
    assert facts.partitions[0].running_jobs == 0


@pytest.mark.parametrize(
    ("status_output", "needle"),
    [
        ("", "no execute slots"),
        ("Error: couldn't contact the collector <html>", "not JSON"),
        ('{"Name": "slot1@x"}', "not a list of ClassAds"),
    ],
)
def test_empty_or_garbled_output_is_unavailable_with_a_clear_error(status_output, needle):
    run = runner()
    run.recordings[STATUS] = Recording(stdout=status_output)
    report = HTCondorProvider(runner=run).probe()
    assert report.available is False
    assert needle in report.error


def test_failing_condor_status_is_unavailable_with_its_message():
    run = runner()
    run.recordings[STATUS] = Recording(stderr="Error: communication error", returncode=1)
    report = HTCondorProvider(runner=run).probe()
    assert report.available is False
    assert "condor_status exited with status 1" in report.error


def test_bad_partition_attribute_option_is_refused_clearly():
    report = HTCondorProvider(runner=runner(), options={"partition_attribute": "x; rm"}).probe()
    assert report.available is False
    assert "partition_attribute" in report.error


# -- rendering --------------------------------------------------------------------------------

HOSTILE = ("/bin/echo", "x; touch MARKER", "$(touch MARKER)", 'it\'s "quoted"', "two words")


def test_submit_description_is_exact_and_keeps_hostile_arguments_literal():
    spec = JobSpec(
        name="demo",
        command=HOSTILE,
        cores_per_node=4,
        memory_gb_per_node=2.5,
        gpus_per_node=1,
        walltime_s=3600,
        environment={"GREETING": "hello world", "TRICK": "$(HOME) `id`"},
    )
    folder = job_folder("htcondor")
    assert render_submit_description(spec) == (
        "# secretary job demo\n"
        "universe = vanilla\n"
        "executable = /bin/echo\n"
        "transfer_executable = false\n"
        "arguments = \"'x; touch MARKER' '$(DOLLAR)(touch MARKER)' 'it''s \"\"quoted\"\"' "
        "'two words'\"\n"
        "batch_name = demo\n"
        f"initialdir = {folder}\n"
        f"output = {folder}/demo.$(Cluster).$(Process).out\n"
        f"error = {folder}/demo.$(Cluster).$(Process).err\n"
        f"log = {folder}/demo.$(Cluster).$(Process).log\n"
        "should_transfer_files = IF_NEEDED\n"
        "when_to_transfer_output = ON_EXIT\n"
        "request_cpus = 4\n"
        "request_memory = 2560\n"
        "request_gpus = 1\n"
        "+MaxRuntime = 3600\n"
        "periodic_remove = (JobStatus == 2) && ((time() - EnteredCurrentStatus) > MaxRuntime)\n"
        "environment = \"GREETING='hello world' TRICK='$(DOLLAR)(HOME) `id`'\"\n"
        "queue 1\n"
    )
    assert not Path("MARKER").exists()


def test_bare_command_runs_through_env_and_partition_becomes_requirements():
    spec = JobSpec(
        name="p", command=("python3", "-c", "print(1)"), partition="gpu", workdir="/scratch/me"
    )
    text = render_submit_description(spec, partition_attribute="NodePool")
    assert "executable = /usr/bin/env\n" in text
    assert "arguments = \"'python3' '-c' 'print(1)'\"\n" in text
    assert "initialdir = /scratch/me\n" in text
    assert 'requirements = (TARGET.NodePool == "gpu")\n' in text


@pytest.mark.parametrize(
    ("changes", "needle"),
    [
        ({"command": ("/bin/echo", "line\nqueue 5")}, "line break"),
        ({"command": ("-rf", "x")}, "must not start with '-'"),
        ({"command": ("/bin/echo",), "workdir": "relative/dir"}, "absolute path"),
        ({"command": ("/bin/echo",), "workdir": "/tmp/x\nqueue 9"}, "not allowed"),
        ({"command": ("/bin/echo",), "nodes": 2}, "one machine"),
    ],
)
def test_unsafe_jobs_are_refused_before_anything_runs(changes, needle):
    spec = JobSpec(name="bad", **{"command": ("/bin/true",), **changes})
    with pytest.raises(UnsafeValueError, match=needle):
        render_submit_description(spec)


# -- dispatch ---------------------------------------------------------------------------------


def _ad(status: int, **attrs) -> str:
    return json.dumps([{"ClusterId": 1234, "ProcId": 0, "JobStatus": status, **attrs}])


def test_submit_status_cancel_through_dispatch_tools(monkeypatch):
    sub_file = job_folder("htcondor") / "demo-fixed.sub"
    monkeypatch.setattr(htcondor, "script_path", lambda manager, name, suffix: sub_file)
    run = SequenceRunner(
        runner(
            extra={
                ("condor_submit", "-terse", str(sub_file)): "1234.0 - 1234.0\n",
                ("condor_rm", "1234.0"): "All jobs in cluster 1234 have been marked for removal\n",
            }
        ),
        {
            ("condor_q", "-json", "1234.0"): [
                _ad(1),  # job_status
                _ad(2),  # cancel: status before
                _ad(3, RemoveReason="via condor_rm (by user me)"),  # cancel: status after
            ]
        },
    )
    provider = HTCondorProvider(runner=run)
    spec = JobSpec(name="demo", command=HOSTILE)
    result = provider.call_tool(
        "submit_job", {"spec": spec.model_dump(mode="json")}, allowed=ToolKind.DISPATCH
    )
    assert result["native_id"] == "1234.0"
    assert result["script"] == sub_file.read_text() == render_submit_description(spec)
    status = provider.call_tool("job_status", {"native_id": "1234.0"}, allowed=ToolKind.DISPATCH)
    assert status["state"] == "QUEUED"
    cancelled = provider.call_tool("cancel_job", {"native_id": "1234.0"}, allowed=ToolKind.DISPATCH)
    assert cancelled["state"] == "CANCELLED"
    assert ("condor_rm", "1234.0") in run.calls


def test_finished_job_is_read_from_the_history():
    run = runner(
        extra={
            ("condor_q", "-json", "77.3"): "",
            ("condor_history", "-json", "-limit", "1", "77.3"): _ad(4, ExitCode=3),
        }
    )
    status = HTCondorProvider(runner=run).call_tool(
        "job_status", {"native_id": "77.3"}, allowed=ToolKind.DISPATCH
    )
    assert (status["state"], status["exit_code"]) == ("FAILED", 3)


def test_dispatch_tools_are_refused_while_negotiating():
    provider = HTCondorProvider(runner=runner())
    with pytest.raises(ProviderError, match="dispatch tool"):
        provider.call_tool("job_status", {"native_id": "1.0"}, allowed=ToolKind.READ)


@pytest.mark.parametrize(
    "bad", ["1; touch MARKER", "$(touch MARKER)", "`id`", "../1.0", "1.0 -all", "", "1234"]
)
def test_hostile_native_ids_are_rejected_before_any_command(bad):
    run = runner()
    provider = HTCondorProvider(runner=run)
    for tool in ("job_status", "cancel_job"):
        with pytest.raises(UnsafeValueError, match="not an HTCondor job id"):
            provider.call_tool(tool, {"native_id": bad}, allowed=ToolKind.DISPATCH)
    assert run.calls == []


def test_hostile_job_names_are_rejected_by_the_schema():
    provider = HTCondorProvider(runner=runner())
    spec = {"name": "x; touch MARKER", "command": ["/bin/true"]}
    with pytest.raises(ToolArgumentError, match="spec.name"):
        provider.call_tool("submit_job", {"spec": spec}, allowed=ToolKind.DISPATCH)


def test_submit_failure_is_transient_and_garbled_ids_are_refused(monkeypatch):
    sub_file = job_folder("htcondor") / "x.sub"
    monkeypatch.setattr(htcondor, "script_path", lambda manager, name, suffix: sub_file)
    argv = ("condor_submit", "-terse", str(sub_file))
    run = runner(
        extra={argv: Recording(stderr="ERROR: Can't find address of local schedd", returncode=1)}
    )
    with pytest.raises(ProviderError) as err:
        HTCondorProvider(runner=run).submit_job(JobSpec(command=("/bin/true",)))
    assert err.value.transient
    run.recordings[argv] = Recording(stdout="Submitting job(s).\n")
    with pytest.raises(ProviderError, match="no job id range"):
        HTCondorProvider(runner=run).submit_job(JobSpec(command=("/bin/true",)))
    assert parse_submit_terse("5.0 - 5.0\n") == "5.0"


# -- state translation ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ad", "state"),
    [
        ({"JobStatus": 0}, JobState.QUEUED),
        ({"JobStatus": 1}, JobState.QUEUED),
        ({"JobStatus": 2}, JobState.RUNNING),
        ({"JobStatus": 3, "RemoveReason": "via condor_rm (by user me)"}, JobState.CANCELLED),
        (
            {
                "JobStatus": 3,
                "RemoveReason": "The job attribute PeriodicRemove expression "
                "'(JobStatus == 2) && ...' evaluated to TRUE",
            },
            JobState.TIMEOUT,
        ),
        ({"JobStatus": 4, "ExitCode": 0}, JobState.COMPLETED),
        ({"JobStatus": 4, "ExitCode": 1}, JobState.FAILED),
        ({"JobStatus": 4, "ExitBySignal": True, "ExitSignal": 9}, JobState.FAILED),
        ({"JobStatus": 5, "HoldReason": "Error from starter"}, JobState.QUEUED),
        ({"JobStatus": 6}, JobState.RUNNING),
        ({"JobStatus": 7}, JobState.RUNNING),
        ({"JobStatus": 42}, JobState.UNKNOWN),
        ({}, JobState.UNKNOWN),
    ],
)
def test_every_documented_job_status_is_translated(ad, state):
    assert job_state_of(ad)[0] is state


def test_table_covers_every_documented_code():
    assert set(JOB_STATUS_TABLE) == {str(n) for n in range(8)}
