"""The IBM Spectrum LSF provider on recorded command output.

LSF cannot be installed here (proprietary, not packaged for Debian 12), so every test runs the
provider against output written from LSF's documented formats (``lsid``, ``bparams``,
``bqueues``/``bhosts -o ... -json``, ``lshosts -w``, ``bsub``, ``bjobs -o ... -json``) in
``tests/unit/recorded/lsf/``, served by :class:`RecordedRunner`, which executes nothing and
records every argument vector (and standard input) it is given.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from providers.errors import ProviderError, ToolArgumentError, UnsafeValueError
from providers.facts import Partition
from providers.jobspec import JobSpec
from providers.tools import ToolKind
from providers.wire.jobs import JobState
from providers.workload import lsf
from providers.workload.lsf import (
    LSF_STATES,
    LSFProvider,
    lsf_job_status,
    parse_bsub_output,
    parse_lsid,
    render_lsf_script,
)
from providers.workload.recorded import RecordedRunner, Recording

RECORDED = Path(__file__).parent / "recorded" / "lsf"
MARKER = "/tmp/secretary-lsf-marker-must-not-exist"
BJOBS = ("bjobs", "-o", "jobid stat exit_code exit_reason", "-json")


def rec(name: str) -> str:
    return (RECORDED / name).read_text()


def probe_recordings() -> dict[tuple[str, ...], Recording | str]:
    return {
        lsf.LSID: rec("lsid.txt"),
        lsf.BPARAMS: rec("bparams.txt"),
        lsf.BQUEUES: rec("bqueues.json"),
        lsf.BHOSTS: rec("bhosts.json"),
        lsf.LSHOSTS: rec("lshosts_w.txt"),
    }


def provider(
    extra: dict[tuple[str, ...], Recording | str] | None = None,
) -> tuple[LSFProvider, RecordedRunner]:
    recordings = {**probe_recordings(), **(extra or {})}
    runner = RecordedRunner(
        recordings,
        programs={"lsid", "bparams", "bqueues", "bhosts", "lshosts", "bsub"} | {"bjobs", "bkill"},
    )
    return LSFProvider(runner=runner), runner


def bjobs_json(**record: str) -> str:
    return json.dumps({"COMMAND": "bjobs", "JOBS": 1, "RECORDS": [record]})


# -- probing ----------------------------------------------------------------------------------


def test_recorded_output_gives_exact_facts():
    prov, runner = provider()
    facts = prov.facts()
    assert (facts.manager, facts.version, facts.cluster) == ("lsf", "10.1.0.13", "lsfcluster")
    shape = {
        "total_nodes": 4,
        "cpus_per_node": 48,
        "memory_gb_per_node": 403.942,
        "gpus_per_node": 4,
    }
    assert facts.partitions == (
        Partition(name="priority", free_nodes=1, queue_depth=0, running_jobs=40, **shape),
        Partition(
            name="normal", free_nodes=1, queue_depth=120, running_jobs=80, default=True, **shape
        ),
        Partition(name="night", free_nodes=0, queue_depth=12, running_jobs=0, **shape),
    )
    assert runner.calls == [lsf.LSID, lsf.BPARAMS, lsf.BQUEUES, lsf.BHOSTS, lsf.LSHOSTS]


def test_lsid_parsing():
    assert parse_lsid(rec("lsid.txt")) == ("10.1.0.13", "lsfcluster")
    assert parse_lsid("") == (None, None)


def test_missing_lshosts_shape_falls_back_to_slots():
    prov, _ = provider({lsf.LSHOSTS: "HOST_NAME type model cpuf ncpus maxmem maxswp server\n"})
    part = prov.facts().partitions[0]
    assert (part.cpus_per_node, part.memory_gb_per_node) == (48, 0.0)


# -- job scripts ------------------------------------------------------------------------------


def test_script_is_exact():
    spec = JobSpec(
        name="train",
        command=("python", "train.py", "--epochs", "3"),
        nodes=2,
        cores_per_node=16,
        gpus_per_node=4,
        memory_gb_per_node=64,
        walltime_s=5401,
        partition="normal",
        environment={"WANDB_MODE": "offline"},
    )
    assert render_lsf_script(spec, output_stem="/h/.secretary/lsf/train-00ff00ff") == (
        textwrap.dedent(
            """\
            #!/bin/bash
            #BSUB -J train
            #BSUB -n 32
            #BSUB -R "span[ptile=16]"
            #BSUB -gpu "num=4"
            #BSUB -R "rusage[mem=65536/host]"
            #BSUB -W 01:31
            #BSUB -q normal
            #BSUB -o /h/.secretary/lsf/train-00ff00ff.out
            #BSUB -e /h/.secretary/lsf/train-00ff00ff.err
            set -e
            export WANDB_MODE=offline
            python train.py --epochs 3
            """
        )
    )


def test_minimal_script_has_one_task_per_host():
    assert render_lsf_script(JobSpec(command=("hostname",), nodes=3)) == (
        '#!/bin/bash\n#BSUB -J secretary-job\n#BSUB -n 3\n#BSUB -R "span[ptile=1]"\n'
        "set -e\nhostname\n"
    )


@pytest.mark.parametrize(
    "hostile", ["x; touch " + MARKER, "$(touch " + MARKER + ")", "`touch " + MARKER + "`"]
)
def test_hostile_arguments_are_quoted_literally(hostile):
    script = render_lsf_script(JobSpec(command=("echo", hostile)))
    assert script.rstrip("\n").splitlines()[-1] == "echo '" + hostile + "'"


@pytest.mark.parametrize("queue", ["x; touch " + MARKER, "$(id)", 'a"\n#BSUB -q admin'])
def test_hostile_queue_names_are_rejected(queue):
    spec = JobSpec.model_construct(
        **{**JobSpec(command=("true",)).model_dump(), "partition": queue}
    )
    with pytest.raises(UnsafeValueError, match="queue"):
        render_lsf_script(spec)
    prov, runner = provider()
    with pytest.raises(ToolArgumentError, match="partition"):
        prov.call_tool(
            "submit_job",
            {"spec": {"command": ["true"], "partition": queue}},
            allowed=ToolKind.DISPATCH,
        )
    assert runner.calls == []


# -- dispatch ---------------------------------------------------------------------------------


def test_submit_gives_the_script_to_bsub_on_stdin(tmp_path):
    prov, runner = provider({("bsub",): "Job <5150> is submitted to queue <normal>.\n"})
    spec = {"name": "hello", "command": ["echo", "`touch " + MARKER + "`"], "nodes": 1}
    result = prov.call_tool("submit_job", {"spec": spec}, allowed=ToolKind.DISPATCH)
    assert result["native_id"] == "5150"
    assert runner.calls == [("bsub",)]  # never "bsub < file" through a shell
    assert runner.inputs == [result["script"]]
    (script_file,) = (tmp_path / "secretary-home" / "lsf").glob("hello-*.sh")
    assert script_file.read_text() == result["script"]
    stem = str(script_file.with_suffix(""))
    assert f"#BSUB -o {stem}.out\n#BSUB -e {stem}.err\n" in result["script"]
    assert not Path(MARKER).exists()


def test_bsub_refusal_is_an_error_naming_the_command():
    prov, _ = provider(
        {
            ("bsub",): Recording(
                stderr="Bad resource requirement syntax. Job not submitted.", returncode=255
            )
        }
    )
    with pytest.raises(ProviderError, match="lsf: `bsub` failed.*Bad resource requirement"):
        prov.call_tool("submit_job", {"spec": {"command": ["true"]}}, allowed=ToolKind.DISPATCH)


def test_bsub_output_parsing():
    assert parse_bsub_output("Job <1234> is submitted to queue <normal>.\n") == "1234"
    with pytest.raises(ProviderError, match="expected 'Job <ID> is submitted'"):
        parse_bsub_output("Request aborted by esub. Job not submitted.\n")


def test_status_and_cancel_send_exact_argv():
    prov, runner = provider(
        {
            (*BJOBS, "5150"): bjobs_json(JOBID="5150", STAT="RUN", EXIT_CODE="", EXIT_REASON=""),
            ("bkill", "5150"): "Job <5150> is being terminated\n",
        }
    )
    status = prov.call_tool("job_status", {"native_id": "5150"}, allowed=ToolKind.DISPATCH)
    assert status["state"] == "RUNNING"
    cancelled = prov.call_tool("cancel_job", {"native_id": "5150"}, allowed=ToolKind.DISPATCH)
    assert cancelled["state"] == "CANCELLED"
    assert runner.calls == [(*BJOBS, "5150"), (*BJOBS, "5150"), ("bkill", "5150")]


def test_status_of_a_forgotten_job_is_unknown():
    prov, _ = provider(
        {
            (*BJOBS, "77"): Recording(
                stdout=bjobs_json(JOBID="77", ERROR="Job <77> is not found"), returncode=255
            )
        }
    )
    status = prov.call_tool("job_status", {"native_id": "77"}, allowed=ToolKind.DISPATCH)
    assert status["state"] == "UNKNOWN"


@pytest.mark.parametrize("bad", ["1234; rm -rf /", "1234.server", "-u all", "$(id)", "", "12 13"])
@pytest.mark.parametrize("tool", ["job_status", "cancel_job"])
def test_job_ids_are_validated_before_use(bad, tool):
    prov, runner = provider()
    with pytest.raises(UnsafeValueError, match="lsf job id"):
        prov.call_tool(tool, {"native_id": bad}, allowed=ToolKind.DISPATCH)
    assert runner.calls == []


# -- states -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("stat", "expected"), sorted(LSF_STATES.items()))
def test_every_documented_stat_translates(stat, expected):
    assert lsf_job_status({"STAT": stat, "EXIT_CODE": ""})[0] is expected


def test_exit_codes_and_walltime_kills():
    assert lsf_job_status({"STAT": "DONE", "EXIT_CODE": ""})[:2] == (JobState.COMPLETED, 0)
    assert lsf_job_status({"STAT": "EXIT", "EXIT_CODE": "2"})[:2] == (JobState.FAILED, 2)
    timed_out = {"STAT": "EXIT", "EXIT_CODE": "140", "EXIT_REASON": "TERM_RUNLIMIT: job killed"}
    assert lsf_job_status(timed_out)[0] is JobState.TIMEOUT


def test_unknown_stat_is_unknown(caplog):
    assert lsf_job_status({"STAT": "HALTED"})[0] is JobState.UNKNOWN
    assert "unknown job state 'HALTED'" in caplog.text
