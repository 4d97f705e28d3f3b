"""Slurm parsers, the state table and the batch-script renderer, on recorded output.

The outputs below are written from the documented formats of ``sinfo -o``/``squeue -o``
(https://slurm.schedmd.com/sinfo.html, squeue.html) and ``scontrol -o show job``
(scontrol.html), and checked against what Slurm 22.05 printed on the project's test cluster.
The provider-level tests at the end serve these recordings through a CommandRunner subclass,
so no Slurm is needed here (the live cluster is exercised in tests/integration/test_slurm.py).
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from providers.commands import CommandResult, CommandRunner
from providers.errors import CommandError, ProviderError, UnsafeValueError
from providers.jobspec import JobSpec
from providers.tools import ToolKind
from providers.wire.jobs import JobState
from providers.workload.slurm import SlurmProvider, output_paths, render_batch_script
from providers.workload.slurm_parse import (
    SLURM_JOB_STATES,
    STATE_DOCS_URL,
    QueueCounts,
    SlurmOutputError,
    build_partitions,
    node_is_free,
    parse_cluster_name,
    parse_exit_code,
    parse_gres,
    parse_job_record,
    parse_key_values,
    parse_node_rows,
    parse_queue,
    parse_sacct,
    parse_slurm_walltime,
    parse_submit_output,
    parse_version,
    split_node_state,
    translate_job_state,
)

# sinfo -h -N -o '%N|%P|%a|%l|%c|%m|%G|%T' on a mixed cluster
NODES = """\
cn01|cpu*|up|2-00:00:00|128|515000|(null)|idle
cn02|cpu*|up|2-00:00:00|128|515000|(null)|mixed
cn03|cpu*|up|2-00:00:00|128|515000|(null)|allocated
cn04|cpu*|up|2-00:00:00|128|515000|(null)|drained
cn05|cpu*|up|2-00:00:00|128|515000|(null)|idle*
cn06|cpu*|up|2-00:00:00|96|257000|(null)|idle~
gpu01|gpu|up|1-00:00:00|64|1030000|gpu:a100:4(S:0-1)|idle
gpu02|gpu|up|1-00:00:00|64|1030000|gpu:a100:4(S:0-1)|mixed
gpu01|debug|up|30:00|64|1030000|gpu:a100:4(S:0-1)|idle
big01|long|up|infinite|256|2060000|gpu:h100:8,shard:64|idle
old01|legacy|down|UNLIMITED|16|64000|(null)|idle
"""

# the project's single-node cluster (slurm-up.sh), as recorded
LOCAL_NODES = "vm|debug*|up|30:00|2|24105|(null)|idle\nvm|batch|up|infinite|2|24105|(null)|idle\n"

# squeue -h -r -a -o '%i|%P|%T'
QUEUE = """\
101|cpu|RUNNING
102|cpu|RUNNING
103|cpu|PENDING
104_1|cpu|PENDING
104_2|cpu|PENDING
105|gpu,cpu|PENDING
106|gpu|COMPLETING
107|gpu|CANCELLED
"""

SCONTROL_JOB_FAILED = (
    "JobId=9 JobName=wrap UserId=root(0) GroupId=root(0) MCS_label=N/A Priority=4294901759 "
    "Nice=0 Account=(null) QOS=(null) JobState=FAILED Reason=NonZeroExitCode "
    "Dependency=(null) Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=3:0 "
    "RunTime=00:00:00 TimeLimit=00:30:00 TimeMin=N/A Partition=debug "
    "AllocNode:Sid=localhost:10483 NodeList=vm BatchHost=vm NumNodes=1 NumCPUs=1 "
    "CPUs/Task=1 ReqB:S:C:T=0:0:*:* Command=(null) WorkDir=/tmp StdErr=/tmp/o-9.txt "
    "StdIn=/dev/null StdOut=/tmp/o-9.txt Power= \n"
)


# -- small values ----------------------------------------------------------------------------


def test_version_forms() -> None:
    assert parse_version("slurm-wlm 22.05.8\n") == "22.05.8"
    assert parse_version("slurm 23.02.6") == "23.02.6"
    assert parse_version("slurm 24.11.0-0rc1") == "24.11.0-0rc1"
    with pytest.raises(SlurmOutputError, match="sinfo --version: no version number"):
        parse_version("")


def test_cluster_name_from_config() -> None:
    text = "Configuration data as of 2026-11-29T17:02:01\nClusterName             = localcluster\n"
    assert parse_cluster_name(text) == "localcluster"
    assert parse_cluster_name("AccountingStorageType = accounting_storage/none\n") is None


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("30:00", 1800),  # MM:SS, not 30 hours
        ("5", 300),  # minutes
        ("1:00:00", 3600),
        ("2-12", (2 * 24 + 12) * 3600),
        ("2-12:30", (2 * 24 + 12) * 3600 + 30 * 60),
        ("1-00:00:00", 86400),
        ("INFINITE", None),
        ("infinite", None),
        ("UNLIMITED", None),
        ("n/a", None),
    ],
)
def test_walltime_forms(text: str, seconds: int | None) -> None:
    assert parse_slurm_walltime(text) == seconds


@pytest.mark.parametrize("text", ["soon", "1:2:3:4", "-5", ""])
def test_walltime_garbled(text: str) -> None:
    with pytest.raises(ValueError, match="is not a Slurm time"):
        parse_slurm_walltime(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("(null)", (0, None)),
        ("", (0, None)),
        ("gpu:4", (4, None)),
        ("gpu:a100:4(S:0-1)", (4, "a100")),
        ("gpu:a100:4(S:0,1)", (4, "a100")),
        ("gpu:a100:2,gpu:v100:1", (3, "a100")),
        ("gpu:h100:8,shard:64", (8, "h100")),
        ("gpu:tesla:2(S:0),mps:200", (2, "tesla")),
        ("gpu:a100", (1, "a100")),
        ("shard:8", (0, None)),
    ],
)
def test_gres_strings(text: str, expected: tuple[int, str | None]) -> None:
    assert parse_gres(text) == expected


def test_gres_garbled_count() -> None:
    with pytest.raises(ValueError, match="no whole-number GPU count"):
        parse_gres("gpu:a100:four")


@pytest.mark.parametrize(
    ("state", "free"),
    [
        ("idle", True),
        ("idle~", True),  # powered down cloud node: started on demand
        ("idle#", True),
        ("idle*", False),  # not responding
        ("idle$", False),  # maintenance reservation
        ("mixed", False),
        ("mix", False),
        ("allocated", False),
        ("drained", False),
        ("draining", False),
        ("down*", False),
        ("planned", False),
    ],
)
def test_node_states(state: str, free: bool) -> None:
    assert node_is_free(state) is free


def test_split_node_state() -> None:
    assert split_node_state("idle*") == ("idle", "*")
    assert split_node_state("MIXED") == ("mixed", "")
    with pytest.raises(ValueError, match="not a Slurm node state"):
        split_node_state("id le")


# -- nodes and partitions --------------------------------------------------------------------


def test_node_rows_and_partitions() -> None:
    rows = parse_node_rows(NODES)
    assert len(rows) == 11
    assert rows[0].default and rows[0].partition == "cpu"
    parts = {p.name: p for p in build_partitions(rows, parse_queue(QUEUE))}
    assert list(parts) == ["cpu", "gpu", "debug", "long", "legacy"]
    cpu = parts["cpu"]
    assert (cpu.total_nodes, cpu.free_nodes) == (6, 2)  # cn01 idle, cn06 idle~
    assert cpu.cpus_per_node == 96  # the smallest node: every node offers at least this
    assert cpu.memory_gb_per_node == round(257000 / 1024, 2)
    assert cpu.max_walltime_s == 2 * 86400
    assert cpu.default and not parts["gpu"].default
    assert (cpu.queue_depth, cpu.running_jobs) == (4, 2)  # 103, 104_1, 104_2, 105
    gpu = parts["gpu"]
    assert (gpu.gpus_per_node, gpu.gpu_model) == (4, "a100")
    assert (gpu.free_nodes, gpu.queue_depth, gpu.running_jobs) == (1, 1, 1)
    assert parts["debug"].max_walltime_s == 1800
    assert parts["long"].max_walltime_s is None
    assert (parts["long"].gpus_per_node, parts["long"].gpu_model) == (8, "h100")
    assert parts["legacy"].free_nodes == 0  # partition down: nothing starts there


def test_partition_filter_keeps_only_named() -> None:
    rows = parse_node_rows(NODES)
    names = [p.name for p in build_partitions(rows, {}, only=("gpu", "nope"))]
    assert names == ["gpu"]


def test_mixed_gpu_models_give_no_single_model() -> None:
    text = "g1|gpu|up|1:00:00|8|1000|gpu:a100:4|idle\ng2|gpu|up|1:00:00|8|1000|gpu:v100:2|idle\n"
    (part,) = build_partitions(parse_node_rows(text), {})
    assert (part.gpus_per_node, part.gpu_model) == (2, None)


def test_local_cluster_recording() -> None:
    parts = build_partitions(parse_node_rows(LOCAL_NODES), {})
    assert [(p.name, p.default, p.max_walltime_s) for p in parts] == [
        ("debug", True, 1800),
        ("batch", False, None),
    ]


def test_empty_node_listing_is_an_error() -> None:
    with pytest.raises(SlurmOutputError, match="printed no nodes") as info:
        parse_node_rows("\n")
    assert info.value.argv[0] == "sinfo"


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("cn01|cpu*|up|1:00:00|128", "has 5 fields, expected 8"),
        ("cn01|cpu*|up|soon|128|1000|(null)|idle", "is not a Slurm time"),
        ("cn01|cpu*|up|1:00:00|many|1000|(null)|idle", "invalid literal"),
        ("cn01|cpu*|up|1:00:00|8|1000|gpu:x:y|idle", "GPU count"),
        ("cn01|cpu*|up|1:00:00|8|1000|(null)|?!", "not a Slurm node state"),
        ("|cpu*|up|1:00:00|8|1000|(null)|idle", "empty name"),
    ],
)
def test_garbled_node_lines(line: str, problem: str) -> None:
    with pytest.raises(SlurmOutputError, match=problem) as info:
        parse_node_rows(LOCAL_NODES + line + "\n")
    assert "sinfo -h -N -o" in info.value.message and "line 3" in info.value.message


def test_queue_counts() -> None:
    queue = parse_queue(QUEUE)
    assert queue["cpu"] == QueueCounts(pending=4, running=2)
    assert queue["gpu"] == QueueCounts(pending=1, running=1)
    assert parse_queue("") == {}


def test_garbled_queue_line() -> None:
    with pytest.raises(SlurmOutputError, match="not 'jobid|partition|state'"):
        parse_queue("101|cpu|RUNNING\nsqueue: error: something\n")


# -- one job ---------------------------------------------------------------------------------


def test_state_table() -> None:
    assert STATE_DOCS_URL.startswith("https://slurm.schedmd.com/squeue.html")
    assert translate_job_state("PENDING") is JobState.QUEUED
    assert translate_job_state("R") is JobState.RUNNING
    assert translate_job_state("CANCELLED by 0") is JobState.CANCELLED
    assert translate_job_state("OUT_OF_MEMORY") is JobState.FAILED
    assert translate_job_state("DEADLINE") is JobState.TIMEOUT
    assert translate_job_state("NEW_STATE_2030") is JobState.UNKNOWN
    assert translate_job_state("") is JobState.UNKNOWN
    # every long name has a terminal/non-terminal answer
    assert all(isinstance(v, JobState) for v in SLURM_JOB_STATES.values())


def test_key_values_keep_spaces_and_odd_keys() -> None:
    record = parse_key_values(
        "NodeName=vm OS=Linux 6.1 #1 SMP  RealMemory=24105 Reason=Not responding "
        "[slurm@2026-11-29T17:00:00] CPUs/Task=2 AllocNode:Sid=h:1 Power= "
    )
    assert record["OS"] == "Linux 6.1 #1 SMP"
    assert record["Reason"] == "Not responding [slurm@2026-11-29T17:00:00]"
    assert record["CPUs/Task"] == "2" and record["AllocNode:Sid"] == "h:1"
    assert record["Power"] == ""


def test_job_record_and_exit_codes() -> None:
    record = parse_job_record(SCONTROL_JOB_FAILED, ["scontrol"])
    assert (record.state, record.exit_code, record.reason) == ("FAILED", 3, "NonZeroExitCode")
    assert parse_exit_code("0:0") == 0
    assert parse_exit_code("0:9") == 137
    assert parse_exit_code("garbage") is None
    with pytest.raises(SlurmOutputError, match="no JobState"):
        parse_job_record("slurm_load_jobs error: Invalid job id specified\n", ["scontrol"])


def test_sacct_records() -> None:
    assert parse_sacct("CANCELLED by 0|0:0\n").state == "CANCELLED by 0"  # type: ignore[union-attr]
    assert parse_sacct("FAILED|3:0\n").exit_code == 3  # type: ignore[union-attr]
    assert parse_sacct("Slurm accounting storage is disabled\n") is None
    assert parse_sacct("") is None


def test_submit_output() -> None:
    assert parse_submit_output("42\n", ["sbatch"]) == "42"
    assert parse_submit_output("42;cluster2\n", ["sbatch"]) == "42"
    for bad in ["", "Submitted batch job 42", "42; touch x"]:
        with pytest.raises(SlurmOutputError, match="expected a job id"):
            parse_submit_output(bad, ["sbatch"])


# -- script rendering ------------------------------------------------------------------------


def test_render_full_spec(tmp_path: Path) -> None:
    spec = JobSpec(
        name="sim-1",
        command=("python", "run.py", "--steps", "10"),
        nodes=2,
        cores_per_node=8,
        gpus_per_node=2,
        memory_gb_per_node=16,
        walltime_s=5400,
        partition="gpu",
        workdir="/scratch/me",
        environment={"OMP_NUM_THREADS": "8", "TOKEN": "a b'c"},
    )
    text = render_batch_script(spec, output_dir=tmp_path)
    lines = text.splitlines()
    assert lines[0] == "#!/bin/bash"
    for directive in [
        "--job-name=sim-1",
        "--nodes=2",
        "--ntasks-per-node=1",
        "--cpus-per-task=8",
        "--gres=gpu:2",
        "--mem=16G",
        "--time=01:30:00",
        "--partition=gpu",
        "--chdir=/scratch/me",
        f"--output={tmp_path}/slurm-%j.out",
        f"--error={tmp_path}/slurm-%j.err",
    ]:
        assert f"#SBATCH {directive}" in lines
    assert "export TOKEN='a b'\"'\"'c'" in lines
    assert lines[-1] == "python run.py --steps 10"
    assert render_batch_script(
        spec.model_copy(update={"memory_gb_per_node": 1.5}), output_dir=tmp_path
    ).count("--mem=1536M")


def test_minimal_spec_asks_for_nothing_extra(tmp_path: Path) -> None:
    text = render_batch_script(JobSpec(command=("hostname",)), output_dir=tmp_path)
    assert "--cpus-per-task" not in text and "--gres" not in text and "--time" not in text
    assert "--partition" not in text and "--mem" not in text


@pytest.mark.parametrize("hostile", ["x; touch MARKER", "$(touch MARKER)", "`touch MARKER`"])
def test_hostile_command_args_stay_literal(tmp_path: Path, hostile: str) -> None:
    """The rendered script really runs under bash and prints the argument unchanged."""
    marker = tmp_path / "MARKER"
    text = render_batch_script(
        JobSpec(command=("printf", "%s", hostile), workdir=str(tmp_path)), output_dir=tmp_path
    )
    script = tmp_path / "job.sh"
    script.write_text(text)
    bash = shutil.which("bash")
    assert bash is not None
    proc = subprocess.run(
        [bash, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=10, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == hostile
    assert not marker.exists()


@pytest.mark.parametrize(
    ("update", "what"),
    [
        ({"workdir": "relative/dir"}, "must be an absolute path"),
        ({"workdir": "/tmp/x y"}, "workdir '/tmp/x y' is not allowed"),
        ({"workdir": "/tmp/x\n#SBATCH --uid=0"}, "is not allowed in a job script directive"),
    ],
)
def test_unsafe_directive_values_rejected(tmp_path: Path, update: dict, what: str) -> None:
    spec = JobSpec(command=("hostname",)).model_copy(update=update)
    with pytest.raises(UnsafeValueError, match=what):
        render_batch_script(spec, output_dir=tmp_path)


@pytest.mark.parametrize("partition", ["x; touch MARKER", "$(id)", "debug\n#SBATCH -A x", "../p"])
def test_hostile_partition_rejected(partition: str) -> None:
    """JobSpec refuses it at the boundary; the renderer refuses it even if forced in."""
    with pytest.raises(ValueError, match="partition"):
        JobSpec(command=("hostname",), partition=partition)
    forced = JobSpec(command=("hostname",)).model_copy(update={"partition": partition})
    with pytest.raises(UnsafeValueError, match="partition"):
        render_batch_script(forced, output_dir=Path("/tmp"))


# -- the provider on recorded output (no Slurm needed) ----------------------------------------


class RecordedSlurm(CommandRunner):
    """Serves recorded Slurm client output by command name; records every argv it was given.

    Stands in for a Slurm cluster in unit tests: the outputs are the documented formats above.
    """

    def __init__(self, outputs: dict[str, tuple[int, str, str]], **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.outputs = outputs
        self.calls: list[list[str]] = []

    def which(self, program: str) -> str | None:
        return f"/usr/bin/{program}" if program in ("sinfo", "sacct") else None

    def run(
        self,
        argv: Sequence[str],
        *,
        timeout_s: float | None = None,
        check: bool = True,
        cwd: object = None,
        input_text: str | None = None,
    ) -> CommandResult:
        args = [str(a) for a in argv]
        self.calls.append(args)
        key = " ".join(args[:2]) if args[0] in ("sinfo", "scontrol") else args[0]
        code, out, err = self.outputs.get(key, (127, "", f"{args[0]}: not recorded"))
        if check and code != 0:
            raise CommandError(
                f"{args[0]} exited with status {code}: {err.strip()}",
                argv=args,
                returncode=code,
                stdout=out,
                stderr=err,
            )
        return CommandResult(tuple(args), code, out, err, 0.0)


def recorded(**override: tuple[int, str, str]) -> RecordedSlurm:
    outputs = {
        "sinfo --version": (0, "slurm-wlm 22.05.8\n", ""),
        "sinfo -h": (0, NODES, ""),
        "squeue": (0, QUEUE, ""),
        "scontrol show": (0, "ClusterName = bigiron\n", ""),
    }
    outputs.update(override)
    return RecordedSlurm(outputs)


def test_provider_probe_on_recordings() -> None:
    report = SlurmProvider(runner=recorded()).probe()
    assert report.available, report.error
    assert report.facts is not None
    assert report.facts["cluster"] == "bigiron" and report.facts["version"] == "22.05.8"
    assert [p["name"] for p in report.facts["partitions"]][:2] == ["cpu", "gpu"]


def test_provider_absent_without_sinfo() -> None:
    class NoSlurm(RecordedSlurm):
        def which(self, program: str) -> str | None:
            return None

    report = SlurmProvider(runner=NoSlurm({})).probe()
    assert not report.available and report.error is None


def test_controller_down_is_a_transient_unavailable_probe() -> None:
    down = (1, "", "sinfo: error: Unable to contact slurm controller (connect failure)\n")
    provider = SlurmProvider(runner=recorded(**{"sinfo -h": down}))
    report = provider.probe()
    assert not report.available
    assert report.error is not None and "Unable to contact slurm controller" in report.error
    with pytest.raises(ProviderError) as info:
        provider._run(["sinfo", "-h"])
    assert info.value.transient


def test_garbled_probe_output_reports_the_command() -> None:
    report = SlurmProvider(runner=recorded(**{"sinfo -h": (0, "oops\n", "")})).probe()
    assert not report.available
    assert report.error is not None and report.error.startswith("sinfo -h -N -o")


def test_options_validated_with_clear_messages() -> None:
    bad = SlurmProvider(runner=recorded(), options={"partitions": ["x; touch MARKER"]}).probe()
    assert bad.error is not None and "partition 'x; touch MARKER' is not allowed" in bad.error
    rel = SlurmProvider(runner=recorded(), options={"slurm_conf": "slurm.conf"}).probe()
    assert rel.error is not None and "must be an absolute path" in rel.error
    typo = SlurmProvider(runner=recorded(), options={"partition": ["cpu"]}).probe()
    assert typo.error is not None and "partition: Extra inputs are not permitted" in typo.error
    gone = SlurmProvider(runner=recorded(), options={"slurm_conf": "/nonexistent/slurm.conf"})
    assert "does not exist" in (gone.probe().error or "")
    none = SlurmProvider(runner=recorded(), options={"partitions": ["nope"]}).probe()
    assert none.error is not None and "it has: cpu, debug, gpu, legacy, long" in none.error


def test_slurm_conf_option_sets_env_on_a_copy_of_the_runner(tmp_path: Path) -> None:
    conf = tmp_path / "slurm.conf"
    conf.write_text("ClusterName=x\n")
    runner = recorded()
    provider = SlurmProvider(runner=runner, options={"slurm_conf": str(conf)})
    assert provider.runner.env == {"SLURM_CONF": str(conf)}
    assert runner.env == {}
    assert "slurm_conf" in repr(provider)


def test_status_paths_on_recordings() -> None:
    runner = recorded(
        squeue=(0, "", ""),
        **{"scontrol -o": (0, SCONTROL_JOB_FAILED, "")},
    )
    provider = SlurmProvider(runner=runner)
    status = provider.call_tool("job_status", {"native_id": "9"}, allowed=ToolKind.DISPATCH)
    assert (status["state"], status["exit_code"]) == ("FAILED", 3)
    assert "NonZeroExitCode" in status["message"]
    assert ["squeue", "-h", "--jobs=9", "-o", "%T"] in runner.calls

    forgotten = recorded(
        squeue=(1, "", "slurm_load_jobs error: Invalid job id specified\n"),
        sacct=(0, "CANCELLED by 0|0:0\n", ""),
        **{"scontrol -o": (1, "", "slurm_load_jobs error: Invalid job id specified\n")},
    )
    status = SlurmProvider(runner=forgotten).call_tool(
        "job_status", {"native_id": "7"}, allowed=ToolKind.DISPATCH
    )
    assert status["state"] == "CANCELLED" and "sacct" in status["message"]


def test_bad_native_ids_rejected_before_any_command() -> None:
    runner = recorded()
    provider = SlurmProvider(runner=runner)
    for bad in ["1; touch MARKER", "$(id)", "-1", "12_x", ""]:
        with pytest.raises(UnsafeValueError, match="is not a Slurm job id"):
            provider.call_tool("job_status", {"native_id": bad}, allowed=ToolKind.DISPATCH)
        with pytest.raises(UnsafeValueError, match="is not a Slurm job id"):
            provider.call_tool("cancel_job", {"native_id": bad}, allowed=ToolKind.DISPATCH)
    assert runner.calls == []


def test_submit_writes_a_private_script_and_parses_the_id() -> None:
    runner = recorded(sbatch=(0, "123;bigiron\n", ""))
    provider = SlurmProvider(runner=runner, options={"partitions": ["gpu"]})
    result = provider.call_tool(
        "submit_job", {"spec": {"command": ["echo", "$(id)"]}}, allowed=ToolKind.DISPATCH
    )
    assert result["native_id"] == "123"
    assert "#SBATCH --partition=gpu" in result["script"]  # the only offered partition
    assert "echo '$(id)'" in result["script"]
    argv = runner.calls[-1]
    assert argv[:2] == ["sbatch", "--parsable"]
    path = Path(argv[2])
    assert path.read_text() == result["script"]
    assert path.stat().st_mode & 0o077 == 0
    out, err = output_paths("123")
    assert out.name == "slurm-123.out" and err.parent == out.parent
    with pytest.raises(ProviderError, match="partition 'cpu' is not offered here; use one of: gpu"):
        provider.call_tool(
            "submit_job",
            {"spec": {"command": ["hostname"], "partition": "cpu"}},
            allowed=ToolKind.DISPATCH,
        )


def test_submit_refusal_keeps_sbatch_message() -> None:
    refusal = (
        1,
        "",
        "sbatch: error: Batch job submission failed: Requested node configuration is not "
        "available\n",
    )
    provider = SlurmProvider(runner=recorded(sbatch=refusal))
    with pytest.raises(CommandError, match="Requested node configuration") as info:
        provider.call_tool(
            "submit_job", {"spec": {"command": ["hostname"]}}, allowed=ToolKind.DISPATCH
        )
    assert not info.value.transient
