"""The PBS Pro / OpenPBS provider on recorded command output.

PBS cannot be installed here (not packaged for Debian 12), so every test runs the provider
against output written from the documented ``-F json`` formats of ``qstat`` and ``pbsnodes``
(files in ``tests/unit/recorded/pbs/``), served by :class:`RecordedRunner`, which executes
nothing and records every argument vector it is asked to run.
"""

from __future__ import annotations

import json
import stat
import textwrap
from pathlib import Path

import pytest

from endpoint_plugins.config import SiteConfig
from endpoint_plugins.secretary import Secretary
from providers.errors import ProviderError, ToolArgumentError, UnsafeValueError
from providers.facts import Partition
from providers.jobspec import JobSpec
from providers.state import parse_state, providers_from_state
from providers.tools import ToolKind
from providers.wire import ComputeRequirement, Requirements, SoftwareRequirement, Verdict
from providers.wire.jobs import JobState
from providers.workload import pbs
from providers.workload.pbs import (
    PBS_STATES,
    PBSProvider,
    parse_qsub_output,
    pbs_job_status,
    pbs_walltime,
    render_pbs_script,
)
from providers.workload.recorded import RecordedRunner, Recording

RECORDED = Path(__file__).parent / "recorded" / "pbs"
MARKER = "/tmp/secretary-pbs-marker-must-not-exist"


def rec(name: str) -> str:
    return (RECORDED / name).read_text()


def probe_recordings() -> dict[tuple[str, ...], Recording | str]:
    return {
        pbs.QSTAT_VERSION: rec("qstat_version.txt"),
        pbs.QSTAT_SERVER: rec("qstat_B_f_F_json.json"),
        pbs.QSTAT_QUEUES: rec("qstat_Q_f_F_json.json"),
        pbs.PBSNODES: rec("pbsnodes_a_F_json.json"),
        pbs.QSTAT_JOBS: rec("qstat_f_F_json.json"),
    }


def job_json(native_id: str, **attrs: object) -> str:
    return json.dumps({"pbs_version": "22.05.11", "Jobs": {native_id: attrs}})


def provider(**extra: Recording | str) -> tuple[PBSProvider, RecordedRunner]:
    recordings = probe_recordings()
    for key, value in extra.items():
        recordings[tuple(json.loads(key))] = value
    runner = RecordedRunner(recordings, programs={"qstat", "pbsnodes", "qsub", "qdel"})
    return PBSProvider(runner=runner), runner


# -- probing ----------------------------------------------------------------------------------


def test_recorded_output_gives_exact_facts():
    prov, runner = provider()
    report = prov.probe()
    assert report.available and report.error is None
    facts = prov.facts()
    assert (facts.manager, facts.version, facts.cluster) == ("pbs", "22.05.11", "pbs01")
    assert facts.partitions == (
        Partition(
            name="debug",
            total_nodes=1,
            free_nodes=0,  # the queue is enabled but not started
            cpus_per_node=16,
            memory_gb_per_node=68.719,
            max_walltime_s=1800,
        ),
        Partition(
            name="gpu",
            total_nodes=2,
            free_nodes=1,
            cpus_per_node=64,
            memory_gb_per_node=540.092,
            gpus_per_node=4,
            max_walltime_s=86400,
            queue_depth=2,
            running_jobs=1,
        ),
        Partition(
            name="workq",
            total_nodes=4,
            free_nodes=1,  # n003 says free but runs a job; n004 is down
            cpus_per_node=128,
            memory_gb_per_node=540.629,
            max_walltime_s=172800,
            queue_depth=4,  # three Q and one H; the suspended job counts as neither
            running_jobs=3,  # two R and one E
            default=True,
        ),
    )
    assert runner.calls == [
        ("qstat", "--version"),
        pbs.QSTAT_SERVER,
        pbs.QSTAT_JOBS,
        pbs.QSTAT_QUEUES,
        pbs.PBSNODES,
    ]


def test_no_jobs_and_no_server_listing_still_gives_facts():
    recordings = probe_recordings()
    recordings[pbs.QSTAT_JOBS] = json.dumps({"timestamp": 1, "pbs_version": "22.05.11"})
    recordings[pbs.QSTAT_SERVER] = Recording(stderr="qstat: cannot connect", returncode=1)
    prov = PBSProvider(runner=RecordedRunner(recordings))
    facts = prov.facts()
    assert [p.queue_depth for p in facts.partitions] == [0, 0, 0]
    assert not any(p.default for p in facts.partitions)
    assert facts.cluster == "pbs01"  # from the queue listing's header


def test_torque_qstat_is_not_taken_for_pbs():
    recordings = probe_recordings()
    recordings[pbs.QSTAT_VERSION] = "Version: 6.1.3\n"
    runner = RecordedRunner(recordings)
    report = PBSProvider(runner=runner).probe()
    assert not report.available and report.error is None
    assert runner.calls == [("qstat", "--version")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("48:00:00", 172800),
        ("00:30:00", 1800),
        ("90", 90),  # PBS reads a bare number as seconds
        ("05:30", 330),  # and two parts as MM:SS
        ("10.5", 10),
        (3600, 3600),
        ("unlimited", None),
        (None, None),
    ],
)
def test_pbs_walltime(text, expected):
    assert pbs_walltime(text) == expected


# -- job scripts ------------------------------------------------------------------------------


def test_script_is_exact():
    spec = JobSpec(
        name="lmp",
        command=("lmp", "-in", "in.lj"),
        nodes=2,
        cores_per_node=64,
        gpus_per_node=4,
        memory_gb_per_node=256,
        walltime_s=5400,
        partition="gpu",
        workdir="/scratch/run 1",
        environment={"OMP_NUM_THREADS": "2", "TAG": "a b"},
    )
    assert render_pbs_script(spec, output_stem="/home/u/.secretary/pbs/lmp-0a1b2c3d") == (
        textwrap.dedent(
            """\
            #!/bin/bash
            #PBS -N lmp
            #PBS -l select=2:ncpus=64:ngpus=4:mem=256gb
            #PBS -l place=scatter
            #PBS -l walltime=01:30:00
            #PBS -q gpu
            #PBS -o /home/u/.secretary/pbs/lmp-0a1b2c3d.out
            #PBS -e /home/u/.secretary/pbs/lmp-0a1b2c3d.err
            set -e
            export OMP_NUM_THREADS=2
            export TAG='a b'
            cd '/scratch/run 1'
            lmp -in in.lj
            """
        )
    )


def test_minimal_script_and_fractional_memory():
    spec = JobSpec(command=("hostname",), memory_gb_per_node=1.5)
    assert render_pbs_script(spec) == (
        "#!/bin/bash\n#PBS -N secretary-job\n#PBS -l select=1:mem=1536mb\nset -e\nhostname\n"
    )


@pytest.mark.parametrize(
    "hostile", ["x; touch " + MARKER, "$(touch " + MARKER + ")", "`touch " + MARKER + "`"]
)
def test_hostile_arguments_are_quoted_literally(hostile):
    script = render_pbs_script(JobSpec(command=("echo", hostile)))
    last = script.rstrip("\n").splitlines()[-1]
    assert last == "echo '" + hostile + "'"


@pytest.mark.parametrize("queue", ["x; touch " + MARKER, "$(id)", "a\n#PBS -l walltime=999:00:00"])
def test_hostile_queue_names_are_rejected(queue):
    with pytest.raises(ValueError):
        JobSpec(command=("true",), partition=queue)
    # even a spec built without validation cannot smuggle a queue into a directive
    spec = JobSpec.model_construct(
        **{**JobSpec(command=("true",)).model_dump(), "partition": queue}
    )
    with pytest.raises(UnsafeValueError, match="queue"):
        render_pbs_script(spec)


def test_hostile_queue_is_refused_through_the_tool_before_anything_runs():
    prov, runner = provider()
    with pytest.raises(ToolArgumentError, match="partition"):
        prov.call_tool(
            "submit_job",
            {"spec": {"command": ["true"], "partition": "q; touch " + MARKER}},
            allowed=ToolKind.DISPATCH,
        )
    assert runner.calls == []


# -- dispatch ---------------------------------------------------------------------------------


class SubmitRunner(RecordedRunner):
    """Answers ``qsub <any script>`` with a job id, keeping the script path it was given."""

    def run(self, argv, **kwargs):
        if argv and argv[0] == "qsub":
            self.recordings[tuple(argv)] = Recording(stdout="4242.pbs01\n")
        return super().run(argv, **kwargs)


def test_submit_writes_the_script_in_the_job_folder_and_runs_qsub(tmp_path):
    runner = SubmitRunner(probe_recordings(), programs={"qstat", "pbsnodes", "qsub"})
    prov = PBSProvider(runner=runner)
    spec = {"name": "hello", "command": ["echo", "$(touch " + MARKER + ")"], "partition": "workq"}
    result = prov.call_tool("submit_job", {"spec": spec}, allowed=ToolKind.DISPATCH)
    assert result["native_id"] == "4242.pbs01"
    (argv,) = runner.calls
    assert argv[0] == "qsub" and len(argv) == 2
    path = Path(argv[1])
    home = tmp_path / "secretary-home" / "pbs"
    assert path.parent == home and path.name.startswith("hello-") and path.suffix == ".sh"
    assert path.read_text() == result["script"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    stem = str(path.with_suffix(""))
    assert f"#PBS -o {stem}.out\n#PBS -e {stem}.err\n" in result["script"]
    assert result["script"].endswith("echo '$(touch " + MARKER + ")'\n")
    assert not Path(MARKER).exists()


def test_submit_is_refused_while_negotiating():
    prov, runner = provider()
    with pytest.raises(ProviderError, match="dispatch tool"):
        prov.call_tool("submit_job", {"spec": {"command": ["true"]}}, allowed=ToolKind.READ)
    assert runner.calls == []


def test_qsub_output_must_be_a_job_id():
    assert parse_qsub_output("77.server-1.example.org\n") == "77.server-1.example.org"
    assert parse_qsub_output("12[].pbs01\n") == "12[].pbs01"
    with pytest.raises(ProviderError, match="qsub printed"):
        parse_qsub_output("qsub: would exceed queue generic's per-user limit\n")


def test_status_runs_qstat_x_and_reads_exit_status():
    key = json.dumps(["qstat", "-x", "-f", "-F", "json", "4242.pbs01"])
    prov, runner = provider(
        **{key: job_json("4242.pbs01", job_state="F", Exit_status=0, queue="workq")}
    )
    status = prov.call_tool("job_status", {"native_id": "4242.pbs01"}, allowed=ToolKind.DISPATCH)
    assert (status["state"], status["exit_code"]) == ("COMPLETED", 0)
    assert runner.calls == [("qstat", "-x", "-f", "-F", "json", "4242.pbs01")]


def test_status_of_an_unknown_job_is_unknown():
    key = json.dumps(["qstat", "-x", "-f", "-F", "json", "9.pbs01"])
    prov, _ = provider(**{key: Recording(stderr="qstat: Unknown Job Id 9.pbs01\n", returncode=153)})
    status = prov.call_tool("job_status", {"native_id": "9.pbs01"}, allowed=ToolKind.DISPATCH)
    assert status["state"] == "UNKNOWN"


def test_cancel_runs_qdel_for_a_running_job():
    key = json.dumps(["qstat", "-x", "-f", "-F", "json", "4242.pbs01"])
    prov, runner = provider(
        **{
            key: job_json("4242.pbs01", job_state="R", queue="workq"),
            json.dumps(["qdel", "4242.pbs01"]): "",
        }
    )
    status = prov.call_tool("cancel_job", {"native_id": "4242.pbs01"}, allowed=ToolKind.DISPATCH)
    assert status["state"] == "CANCELLED"
    assert runner.calls == [
        ("qstat", "-x", "-f", "-F", "json", "4242.pbs01"),
        ("qdel", "4242.pbs01"),
    ]


def test_cancel_leaves_a_finished_job_alone():
    key = json.dumps(["qstat", "-x", "-f", "-F", "json", "5.pbs01"])
    prov, runner = provider(**{key: job_json("5.pbs01", job_state="F", Exit_status=3)})
    status = prov.call_tool("cancel_job", {"native_id": "5.pbs01"}, allowed=ToolKind.DISPATCH)
    assert (status["state"], status["exit_code"]) == ("FAILED", 3)
    assert ("qdel", "5.pbs01") not in runner.calls


@pytest.mark.parametrize(
    "bad", ["1234.server; rm -rf /", "-x", "../1234", "$(id)", "1234 5678", "", "abc"]
)
@pytest.mark.parametrize("tool", ["job_status", "cancel_job"])
def test_job_ids_are_validated_before_use(bad, tool):
    prov, runner = provider()
    with pytest.raises(UnsafeValueError, match="pbs job id"):
        prov.call_tool(tool, {"native_id": bad}, allowed=ToolKind.DISPATCH)
    assert runner.calls == []


# -- states -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("letter", "expected"), sorted(PBS_STATES.items()))
def test_every_documented_state_letter_translates(letter, expected):
    state, _, _ = pbs_job_status({"job_state": letter, "Exit_status": 0})
    assert state is expected


def test_finished_jobs_are_refined_by_exit_status_and_comment():
    assert pbs_job_status({"job_state": "F", "Exit_status": 1})[0] is JobState.FAILED
    assert pbs_job_status({"job_state": "F", "Exit_status": -1})[0] is JobState.FAILED
    killed = {
        "job_state": "F",
        "Exit_status": 271,
        "comment": "Job run at ... and finished; job killed: walltime 3630 exceeded limit 3600",
    }
    assert pbs_job_status(killed)[0] is JobState.TIMEOUT


def test_unknown_state_is_unknown(caplog):
    assert pbs_job_status({"job_state": "Z"})[0] is JobState.UNKNOWN
    assert "unknown job state 'Z'" in caplog.text


# -- a Secretary over PBS ---------------------------------------------------------------------

SOFTWARE_STATE = """
schema_version: 1
site: {name: pbs-site, kind: hpc}
providers:
  - name: spack
    kind: software
    facts:
      manager: spack
      packages: [{name: lammps, version: 2Aug2023}]
"""


def test_secretary_negotiates_ready_and_busy_on_pbs():
    prov, _ = provider()
    software = providers_from_state(parse_state(SOFTWARE_STATE))
    secretary = Secretary(SiteConfig(name="pbs-site"), providers=[prov, *software])
    lammps = (SoftwareRequirement(name="lammps"),)

    ready = secretary.negotiate(
        Requirements(software=lammps, compute=ComputeRequirement(nodes=1, gpus_per_node=4))
    )
    assert ready.verdict is Verdict.READY, ready.reason
    assert ready.metrics.partition == "gpu"

    busy = secretary.negotiate(
        Requirements(software=lammps, compute=ComputeRequirement(nodes=3, cores_per_node=64))
    )
    assert busy.verdict is Verdict.BUSY, busy.reason
    assert busy.metrics.partition == "workq"

    never = secretary.negotiate(
        Requirements(software=lammps, compute=ComputeRequirement(nodes=1, gpus_per_node=8))
    )
    assert never.verdict is Verdict.INCOMPATIBLE
