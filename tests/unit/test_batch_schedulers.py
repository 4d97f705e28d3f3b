"""All six batch-scheduler providers (PBS, TORQUE, LSF, Cobalt, Moab, OAR) on recorded output.

None of these schedulers can be installed here (none is packaged for Debian 12), so each test
feeds a provider output written from the scheduler's documented formats (files under
``tests/unit/recorded/<scheduler>/``) through :class:`RecordedRunner`, which executes nothing
and records every argument vector. Covered for every provider: absent commands, exact facts
from normal output, empty and garbled output (unavailable with an error naming the command,
never an exception), the state tables, and the refusal of dispatch by read-only providers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from providers.base import Provider
from providers.errors import ProviderError
from providers.facts import Partition
from providers.tools import ToolKind
from providers.wire.jobs import JobState
from providers.workload import cobalt, lsf, moab, oar, pbs, torque
from providers.workload.cobalt import CobaltProvider
from providers.workload.lsf import LSFProvider
from providers.workload.moab import MoabProvider
from providers.workload.oar import OARProvider
from providers.workload.pbs import PBSProvider
from providers.workload.recorded import RecordedRunner, Recording
from providers.workload.scheduler_io import parse_size_gb, parse_table
from providers.workload.torque import TorqueProvider

RECORDED = Path(__file__).parent / "recorded"
COBALT_SHAPE = {"cpus_per_node": 64, "memory_gb_per_node": 192}


def rec(path: str) -> str:
    return (RECORDED / path).read_text()


@dataclass(frozen=True)
class Case:
    """One scheduler: its provider, its recorded probe, and which command is the main read."""

    cls: type[Provider]
    recordings: Callable[[], dict[tuple[str, ...], str]]
    main: tuple[str, ...]
    """A command whose output the probe cannot do without (garbled/empty -> unavailable)."""
    options: dict[str, object] | None = None

    def provider(
        self, overrides: dict[tuple[str, ...], Recording | str] | None = None
    ) -> tuple[Provider, RecordedRunner]:
        runner = RecordedRunner({**self.recordings(), **(overrides or {})})
        return self.cls(runner=runner, options=self.options), runner


CASES = {
    "pbs": Case(
        PBSProvider,
        lambda: {
            pbs.QSTAT_VERSION: rec("pbs/qstat_version.txt"),
            pbs.QSTAT_SERVER: rec("pbs/qstat_B_f_F_json.json"),
            pbs.QSTAT_QUEUES: rec("pbs/qstat_Q_f_F_json.json"),
            pbs.PBSNODES: rec("pbs/pbsnodes_a_F_json.json"),
            pbs.QSTAT_JOBS: rec("pbs/qstat_f_F_json.json"),
        },
        pbs.PBSNODES,
    ),
    "torque": Case(
        TorqueProvider,
        lambda: {
            torque.QSTAT_VERSION: rec("torque/qstat_version.txt"),
            torque.QSTAT_SERVER: rec("torque/qstat_B_f.txt"),
            torque.QSTAT_QUEUES: rec("torque/qstat_Q_f.txt"),
            torque.PBSNODES_XML: rec("torque/pbsnodes_x.xml"),
            torque.QSTAT_JOBS_XML: rec("torque/qstat_x.xml"),
        },
        torque.PBSNODES_XML,
    ),
    "lsf": Case(
        LSFProvider,
        lambda: {
            lsf.LSID: rec("lsf/lsid.txt"),
            lsf.BPARAMS: rec("lsf/bparams.txt"),
            lsf.BQUEUES: rec("lsf/bqueues.json"),
            lsf.BHOSTS: rec("lsf/bhosts.json"),
            lsf.LSHOSTS: rec("lsf/lshosts_w.txt"),
        },
        lsf.BQUEUES,
    ),
    "cobalt": Case(
        CobaltProvider,
        lambda: {
            cobalt.QSTAT_VERSION: rec("cobalt/qstat_version.txt"),
            cobalt.QSTAT_QUEUES: rec("cobalt/qstat_Q.txt"),
            cobalt.PARTLIST: rec("cobalt/partlist.txt"),
            cobalt.QSTAT_JOBS: rec("cobalt/qstat_jobs.txt"),
        },
        cobalt.PARTLIST,
        COBALT_SHAPE,
    ),
    "moab": Case(
        MoabProvider,
        lambda: {
            moab.SHOWQ_VERSION: rec("moab/showq_version.txt"),
            moab.SHOWQ_XML: rec("moab/showq_xml.xml"),
            moab.MDIAG_NODES_XML: rec("moab/mdiag_n_xml.xml"),
        },
        moab.MDIAG_NODES_XML,
    ),
    "oar": Case(
        OARProvider,
        lambda: {
            oar.OARSTAT_VERSION: rec("oar/oarstat_V.txt"),
            oar.OARNODES_JSON: rec("oar/oarnodes_J.json"),
            oar.OARSTAT_JSON: rec("oar/oarstat_J.json"),
        },
        oar.OARNODES_JSON,
    ),
}
NAMES = sorted(CASES)
READ_ONLY = ["cobalt", "moab", "oar", "torque"]


# -- every provider ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_class_describes_itself(name):
    info = CASES[name].cls.info()
    assert info.name == name and info.category.value == "workload"
    assert info.description and info.detection
    assert {"list_partitions", "capacity_summary", "submit_job"} <= {
        t.name.split("__")[-1] for t in info.tools
    }


@pytest.mark.parametrize("name", NAMES)
def test_absent_commands_mean_unavailable_without_error(name):
    runner = RecordedRunner({}, programs=())
    report = CASES[name].cls(runner=runner, options=CASES[name].options).probe()
    assert not report.available and report.error is None
    assert runner.calls == []


@pytest.mark.parametrize("name", NAMES)
def test_recorded_output_is_available(name):
    prov, _ = CASES[name].provider()
    report = prov.probe()
    assert report.available, report.error
    assert report.facts["manager"] == name
    assert prov.list_partitions()


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    "output",
    [
        "",
        "garbled \x00 output {[<",
        '{"unexpected": true}',
        "<Data><Other/></Data>",
        "Name\n====\n",
    ],
    ids=["empty", "garbled", "other-json", "other-xml", "other-table"],
)
def test_bad_output_is_unavailable_with_an_error_naming_the_command(name, output):
    case = CASES[name]
    prov, _ = case.provider({case.main: output})
    report = prov.probe()
    assert not report.available
    assert report.error and report.error.startswith(f"{name}: ")
    assert " ".join(case.main) in report.error


@pytest.mark.parametrize("name", NAMES)
def test_failing_command_is_unavailable_with_its_error(name):
    case = CASES[name]
    failing = Recording(stderr="cannot connect to server: Connection refused", returncode=2)
    prov, _ = case.provider({case.main: failing})
    report = prov.probe()
    assert not report.available
    assert " ".join(case.main) in report.error and "Connection refused" in report.error


@pytest.mark.parametrize("name", NAMES)
def test_tools_answer_with_the_error_when_unreadable(name):
    case = CASES[name]
    prov, _ = case.provider({case.main: "nonsense"})
    with pytest.raises(ProviderError, match="not available here"):
        prov.call_tool("list_partitions", {}, allowed=ToolKind.READ)


@pytest.mark.parametrize("name", READ_ONLY)
def test_read_only_providers_refuse_dispatch_clearly(name):
    prov, runner = CASES[name].provider()
    calls = [
        ("submit_job", {"spec": {"command": ["true"]}}, "does not accept jobs"),
        ("job_status", {"native_id": "1"}, "does not track jobs"),
        ("cancel_job", {"native_id": "1"}, "cannot cancel jobs"),
    ]
    for tool, args, message in calls:
        with pytest.raises(ProviderError, match=message):
            prov.call_tool(tool, args, allowed=ToolKind.DISPATCH)
    assert runner.calls == []


STATE_TABLES = [
    (torque.TORQUE_STATES, "torque"),
    (cobalt.COBALT_STATES, "cobalt"),
    (moab.MOAB_STATES, "moab"),
    (oar.OAR_STATES, "oar"),
    (pbs.PBS_STATES, "pbs"),
    (lsf.LSF_STATES, "lsf"),
]


@pytest.mark.parametrize(("table", "manager"), STATE_TABLES, ids=[m for _, m in STATE_TABLES])
def test_state_tables_are_upper_case_and_documented(table, manager):
    from providers.workload.batch import translate_state

    for raw, state in table.items():
        assert raw == raw.upper()
        assert translate_state(table, raw.lower(), manager) is state
    assert translate_state(table, "NO-SUCH-STATE", manager) is JobState.UNKNOWN
    module = {"torque": torque, "cobalt": cobalt, "moab": moab, "oar": oar, "pbs": pbs, "lsf": lsf}
    url = getattr(module[manager], f"{manager.upper()}_STATES_URL")
    assert url.startswith(("http://", "https://"))


# -- exact facts of the read-only providers ---------------------------------------------------


def test_torque_facts_are_exact():
    prov, runner = CASES["torque"].provider()
    facts = prov.facts()
    assert (facts.version, facts.cluster) == ("6.1.3", "torque01")
    assert facts.partitions == (
        Partition(
            name="batch",
            total_nodes=6,
            free_nodes=3,  # c03 says free but runs a job; c04 is down
            cpus_per_node=32,
            memory_gb_per_node=201.327,
            max_walltime_s=259200,
            queue_depth=2,
            running_jobs=2,
            default=True,
        ),
        Partition(
            name="gpu",
            total_nodes=2,  # neednodes = gpu: only the nodes with that property
            free_nodes=2,
            cpus_per_node=32,
            memory_gb_per_node=402.653,
            gpus_per_node=2,
            max_walltime_s=86400,
            queue_depth=1,
            running_jobs=1,
        ),
    )
    assert runner.calls[0] == ("qstat", "--version")


def test_torque_without_jobs_prints_nothing_and_pbs_pro_is_not_torque():
    prov, _ = CASES["torque"].provider({torque.QSTAT_JOBS_XML: ""})
    assert sum(p.queue_depth for p in prov.facts().partitions) == 0
    prov, runner = CASES["torque"].provider({torque.QSTAT_VERSION: "pbs_version = 22.05.11\n"})
    report = prov.probe()
    assert not report.available and report.error is None
    assert runner.calls == [("qstat", "--version")]


def test_cobalt_facts_are_exact():
    prov, _ = CASES["cobalt"].provider()
    facts = prov.facts()
    assert facts.version == "1.0.28"
    shape = {"cpus_per_node": 64, "memory_gb_per_node": 192.0}
    assert facts.partitions == (
        Partition(
            name="debug",
            total_nodes=2,
            free_nodes=1,
            max_walltime_s=3600,
            queue_depth=1,
            **shape,
        ),
        Partition(
            name="default",
            total_nodes=4,
            free_nodes=2,
            max_walltime_s=86400,
            queue_depth=2,  # queued and user_hold
            running_jobs=2,
            default=True,
            **shape,
        ),
        Partition(name="maintenance", total_nodes=1, free_nodes=0, **shape),  # stopped
    )


def test_cobalt_without_node_shape_says_how_to_configure_it():
    case = CASES["cobalt"]
    runner = RecordedRunner(case.recordings())
    report = CobaltProvider(runner=runner).probe()
    assert not report.available
    assert "providers.options.cobalt" in report.error and "cpus_per_node" in report.error


def test_moab_facts_are_exact():
    prov, _ = CASES["moab"].provider()
    facts = prov.facts()
    assert facts.version == "9.1.3"
    assert facts.partitions == (
        Partition(
            name="batch",
            total_nodes=6,
            free_nodes=2,
            cpus_per_node=32,
            memory_gb_per_node=200.278,
            queue_depth=2,  # Idle and UserHold
            running_jobs=2,
            default=True,
        ),
        Partition(
            name="gpu",
            total_nodes=2,
            free_nodes=1,
            cpus_per_node=32,
            memory_gb_per_node=401.605,
            gpus_per_node=4,
            queue_depth=1,
            running_jobs=1,  # Starting counts as running
        ),
    )


def test_oar_facts_are_exact():
    prov, _ = CASES["oar"].provider()
    facts = prov.facts()
    assert facts.version == "3.0.0"
    assert facts.partitions == (
        Partition(
            name="default",
            total_nodes=4,
            free_nodes=1,  # node-2 runs 7001, gpu-1 is finishing 7005, node-3 is Absent
            cpus_per_node=4,
            memory_gb_per_node=68.719,
            queue_depth=3,  # Waiting (two queues) and Hold
            running_jobs=2,
            default=True,
        ),
    )


def test_oar_25_output_shape_and_no_jobs():
    prov, _ = CASES["oar"].provider(
        {oar.OARNODES_JSON: rec("oar/oarnodes_J_oar25.json"), oar.OARSTAT_JSON: ""}
    )
    (part,) = prov.facts().partitions
    assert (part.total_nodes, part.free_nodes, part.cpus_per_node, part.queue_depth) == (2, 2, 4, 0)


# -- shared parsing helpers -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "unit", "expected"),
    [
        ("527958016kb", "b", 540.629),
        ("64gb", "b", 68.719),
        ("376.2G", "mb", 403.942),
        ("191000", "mb", 200.278),
        ("1tb", "b", 1099.512),
        ("8w", "b", 0.0),
        (1024, "mb", 1.074),
        ("lots", "b", None),
        (None, "b", None),
    ],
)
def test_parse_size_gb(text, unit, expected):
    assert parse_size_gb(text, unit) == expected


def test_parse_table_cuts_at_header_positions():
    rows = parse_table("Name   Queue  State\n=====\nn1     a:b    idle\nn2            down\n")
    assert rows == [
        {"Name": "n1", "Queue": "a:b", "State": "idle"},
        {"Name": "n2", "Queue": "", "State": "down"},
    ]
