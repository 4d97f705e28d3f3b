"""Container runtime providers: apptainer, singularity, podman, docker, charliecloud, shifter,
enroot.

Apptainer, Singularity, Shifter and enroot cannot be installed on the test machine (not
packaged for Debian 12, or needing site setup), so their output is served by
:class:`providers.workload.recorded.RecordedRunner` from texts written from each tool's
documented format. Podman and Charliecloud are tested on recorded output *and*, where installed, for
real; Docker is tested for real as a client without a daemon (the state of CI machines).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from providers.commands import CommandRunner
from providers.container.apptainer import ApptainerProvider, parse_apptainer_version
from providers.container.charliecloud import CharliecloudProvider, parse_charliecloud_version
from providers.container.common import filter_names, sif_images, version_after
from providers.container.docker import DockerProvider, parse_docker_images, parse_docker_version
from providers.container.enroot import EnrootProvider, parse_enroot_version
from providers.container.podman import PodmanProvider, parse_podman_images
from providers.container.shifter import (
    ShifterProvider,
    parse_shifter_version,
    parse_shifterimg_images,
)
from providers.container.singularity import SingularityProvider, parse_singularity_version
from providers.errors import ProviderError
from providers.registry import discover
from providers.tools import ToolKind
from providers.workload.recorded import RecordedRunner, Recording

READ = ToolKind.READ
PAYLOADS = ("x; touch MARKER", "$(touch MARKER)", "`touch MARKER`", "../../MARKER", "-rf")

# -- recorded outputs, written from each tool's documented format ----------------------------

PODMAN_VERSION = json.dumps(
    {
        "Client": {
            "APIVersion": "4.9.3",
            "Version": "4.9.3",
            "GoVersion": "go1.22.2",
            "GitCommit": "",
            "BuiltTime": "Thu Jan  1 00:00:00 1970",
            "Built": 0,
            "OsArch": "linux/amd64",
            "Os": "linux",
        }
    }
)
PODMAN_INFO = json.dumps(
    {"host": {"arch": "amd64", "security": {"rootless": True, "seccompEnabled": True}}}
)
PODMAN_IMAGES = json.dumps(
    [
        {"Id": "a1b2c3d4e5f60718293a", "Names": ["docker.io/library/alpine:3.19"]},
        {"Id": "0f1e2d3c4b5a69788796", "Names": None},
        {"Id": "99aa", "Names": ["quay.io/x/lammps:2Aug2023", "localhost/lammps:latest"]},
    ]
)
DOCKER_VERSION = json.dumps(
    {
        "Client": {"Version": "24.0.7", "ApiVersion": "1.43", "Os": "linux"},
        "Server": {"Version": "24.0.6", "ApiVersion": "1.43", "Components": []},
    }
)
DOCKER_NO_DAEMON = json.dumps(
    {"Client": {"Version": "28.2.2", "ApiVersion": "1.50"}, "Server": None}
)
DOCKER_SECURITY = json.dumps(["name=seccomp,profile=builtin", "name=rootless", "name=cgroupns"])
DOCKER_IMAGES = (
    '{"Repository":"nvcr.io/nvidia/pytorch","Tag":"24.01-py3","ID":"4b0c9a8e7f11"}\n'
    '{"Repository":"<none>","Tag":"<none>","ID":"deadbeef0123"}\n'
)
SHIFTERIMG_IMAGES = (
    "perlmutter docker     READY    8c9e3f1b0a   2023-05-14T14:44:37 ubuntu:22.04\n"
    "perlmutter docker     PULLING  1234567890   2023-05-15T10:00:00 nersc/lammps:latest\n"
    "perlmutter custom     READY    aa11bb22cc   2023-05-16T11:00:00 myimage:v1\n"
)

DOCKER_VERSION_ARGV = ("docker", "version", "--format", "{{json .}}")
DOCKER_INFO_ARGV = ("docker", "info", "--format", "{{json .SecurityOptions}}")

CASES = {
    "apptainer": (
        ApptainerProvider,
        ("apptainer", "--version"),
        {("apptainer", "--version"): Recording("apptainer version 1.2.5\n")},
        {"runtime": "apptainer", "version": "1.2.5", "rootless": True, "images": []},
        [],
    ),
    "singularity": (
        SingularityProvider,
        ("singularity", "--version"),
        {("singularity", "--version"): Recording("singularity-ce version 3.11.4\n")},
        {"runtime": "singularity-ce", "version": "3.11.4", "rootless": True, "images": []},
        [],
    ),
    "podman": (
        PodmanProvider,
        ("podman", "version", "--format", "json"),
        {
            ("podman", "version", "--format", "json"): Recording(PODMAN_VERSION),
            ("podman", "info", "--format", "json"): Recording(PODMAN_INFO),
            ("podman", "images", "--format", "json"): Recording(PODMAN_IMAGES),
        },
        {"runtime": "podman", "version": "4.9.3", "rootless": True, "images": []},
        [
            "0f1e2d3c4b5a",
            "docker.io/library/alpine:3.19",
            "localhost/lammps:latest",
            "quay.io/x/lammps:2Aug2023",
        ],
    ),
    "docker": (
        DockerProvider,
        DOCKER_VERSION_ARGV,
        {
            DOCKER_VERSION_ARGV: Recording(DOCKER_VERSION),
            DOCKER_INFO_ARGV: Recording(DOCKER_SECURITY),
            ("docker", "images", "--format", "{{json .}}"): Recording(DOCKER_IMAGES),
        },
        {"runtime": "docker", "version": "24.0.6", "rootless": True, "images": []},
        ["deadbeef0123", "nvcr.io/nvidia/pytorch:24.01-py3"],
    ),
    "charliecloud": (
        CharliecloudProvider,
        ("ch-run", "--version"),
        {
            ("ch-run", "--version"): Recording("", "0.31\n"),
            ("ch-image", "list"): Recording("alpine:3.17\nopenmpi\n"),
        },
        {"runtime": "charliecloud", "version": "0.31", "rootless": True, "images": []},
        ["alpine:3.17", "openmpi"],
    ),
    "shifter": (
        ShifterProvider,
        ("shifter", "--version"),
        {
            ("shifter", "--version"): Recording("shifter version 18.03.0\n"),
            ("shifterimg", "images"): Recording(SHIFTERIMG_IMAGES),
        },
        {"runtime": "shifter", "version": "18.03.0", "rootless": True, "images": []},
        ["custom:myimage:v1", "docker:ubuntu:22.04"],
    ),
    "enroot": (
        EnrootProvider,
        ("enroot", "version"),
        {
            ("enroot", "version"): Recording("3.4.1\n"),
            ("enroot", "list"): Recording("pytorch+23.10\nubuntu\n"),
        },
        {"runtime": "enroot", "version": "3.4.1", "rootless": True, "images": []},
        ["pytorch+23.10", "ubuntu"],
    ),
}
IDS = list(CASES)


def _case(name):
    return CASES[name]


# -- every provider ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", IDS)
def test_class_describes_itself(name):
    cls = _case(name)[0]
    info = cls.info()
    assert info.name == name
    assert info.category.value == "container"
    assert info.description and info.detection
    assert {t.tool for t in info.tools} == {"runtime_info", "list_images"}


@pytest.mark.parametrize("name", IDS)
def test_absent_executable_is_unavailable_without_error(name):
    cls = _case(name)[0]
    runner = RecordedRunner(programs=[])
    report = cls(runner=runner).probe()
    assert report.available is False
    assert report.error is None
    assert runner.calls == []


@pytest.mark.parametrize("name", IDS)
def test_runtime_info_reports_exact_facts(name):
    cls, _, replies, facts, _ = _case(name)
    provider = cls(runner=RecordedRunner(replies))
    assert provider.call_tool("runtime_info", {}, allowed=READ) == facts


@pytest.mark.parametrize("name", IDS)
def test_list_images_reports_exact_names(name):
    cls, _, replies, _, images = _case(name)
    provider = cls(runner=RecordedRunner(replies))
    assert provider.call_tool("list_images", {}, allowed=READ) == images
    if images:
        part = images[-1][-4:]
        wanted = [i for i in images if part.lower() in i.lower()]
        assert provider.call_tool("list_images", {"contains": part}, allowed=READ) == wanted


@pytest.mark.parametrize("text", ["", "garbage\n", "{not json", "version\n"])
@pytest.mark.parametrize("name", IDS)
def test_garbled_output_is_unavailable_with_a_clear_error(name, text):
    cls, version_argv, replies, _, _ = _case(name)
    runner = RecordedRunner({**replies, version_argv: Recording(text)})
    report = cls(runner=runner).probe()
    assert report.available is False
    assert report.error
    assert "\n" not in report.error
    # the error names the provider or the command, so a person knows where to look
    assert name in report.error or version_argv[0] in report.error


@pytest.mark.parametrize("name", IDS)
def test_failing_command_is_unavailable_with_its_first_line(name):
    cls, version_argv, replies, _, _ = _case(name)
    failed = Recording("", "FATAL: permission denied on /etc/runtime.conf\nmore\n", 1)
    runner = RecordedRunner({**replies, version_argv: failed})
    report = cls(runner=runner).probe()
    assert report.available is False
    assert "permission denied on /etc/runtime.conf" in report.error


@pytest.mark.parametrize("payload", PAYLOADS)
@pytest.mark.parametrize("name", IDS)
def test_injection_in_list_images_runs_nothing(name, payload, tmp_path, monkeypatch):
    cls, _, replies, _, _ = _case(name)
    monkeypatch.chdir(tmp_path)
    runner = RecordedRunner(replies)
    provider = cls(runner=runner)
    assert provider.call_tool("list_images", {"contains": payload}, allowed=READ) == []
    assert not (tmp_path / "MARKER").exists()
    assert not any(payload in arg for call in runner.calls for arg in call)


@pytest.mark.parametrize("name", IDS)
def test_list_images_of_an_absent_runtime_says_so(name):
    cls = _case(name)[0]
    with pytest.raises(ProviderError, match="not available here"):
        cls(runner=RecordedRunner(programs=[])).call_tool("list_images", {}, allowed=READ)


# -- parsers ----------------------------------------------------------------------------------


def test_version_after_reads_only_the_named_product():
    assert version_after("apptainer version 1.2.5-1.el8\n", "apptainer version") == "1.2.5-1.el8"
    assert version_after("singularity version 3.8.7", "apptainer version") is None
    assert version_after("apptainer version unknown", "apptainer version") is None
    assert parse_apptainer_version("WARNING: x\napptainer version 1.3.0\n") == "1.3.0"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("singularity-ce version 3.11.4\n", ("singularity-ce", "3.11.4")),
        ("singularity version 3.8.7\n", ("singularity", "3.8.7")),
        # Apptainer's compatibility link answers as itself: reported faithfully
        ("apptainer version 1.2.5\n", ("apptainer", "1.2.5")),
        ("garbage", None),
    ],
)
def test_singularity_product_lines(text, expected):
    assert parse_singularity_version(text) == expected


def test_singularity_link_to_apptainer_reports_apptainer():
    runner = RecordedRunner({("singularity", "--version"): Recording("apptainer version 1.2.5\n")})
    facts = SingularityProvider(runner=runner).call_tool("runtime_info", {}, allowed=READ)
    assert (facts["runtime"], facts["version"]) == ("apptainer", "1.2.5")


def test_bare_version_parsers():
    assert parse_charliecloud_version("0.31\n") == "0.31"
    assert parse_charliecloud_version("0.38~pre+1a2b\n") == "0.38~pre+1a2b"
    assert parse_charliecloud_version("ch-run: error\n") is None
    assert parse_enroot_version("3.4.1\n") == "3.4.1"
    assert parse_enroot_version("enroot: command not found") is None
    assert parse_shifter_version("shifter version 18.03.0\n") == "18.03.0"
    assert parse_shifter_version("Shifter 22.02.1\n") == "22.02.1"
    assert parse_shifter_version("shifter: unrecognized option '--version'") is None


def test_image_list_parsers():
    assert parse_shifterimg_images(SHIFTERIMG_IMAGES) == [
        "docker:ubuntu:22.04",
        "custom:myimage:v1",
    ]
    assert parse_shifterimg_images("short line\n") == []
    assert parse_docker_images(DOCKER_IMAGES) == [
        "nvcr.io/nvidia/pytorch:24.01-py3",
        "deadbeef0123",
    ]
    with pytest.raises(ProviderError):
        parse_docker_images("not json\n")
    with pytest.raises(ProviderError):
        parse_podman_images({"Names": []})
    assert parse_docker_version(json.loads(DOCKER_NO_DAEMON)) == ("28.2.2", None)
    with pytest.raises(ProviderError, match="Client.Version"):
        parse_docker_version({"Server": {}})
    assert filter_names(["B", "a", "b"], "") == ["B", "a", "b"]


# -- docker without a daemon, podman details -------------------------------------------------


def test_docker_client_without_daemon_is_absent_not_an_error():
    reply = Recording(DOCKER_NO_DAEMON, "Cannot connect to the Docker daemon at unix:///x.sock.", 1)
    runner = RecordedRunner({DOCKER_VERSION_ARGV: reply})
    report = DockerProvider(runner=runner).probe()
    assert (report.available, report.error) == (False, None)
    assert runner.calls == [DOCKER_VERSION_ARGV]


def test_docker_rootless_false_when_info_fails():
    runner = RecordedRunner({DOCKER_VERSION_ARGV: Recording(DOCKER_VERSION)})  # no docker info
    facts = DockerProvider(runner=runner).call_tool("runtime_info", {}, allowed=READ)
    assert facts["rootless"] is False and facts["version"] == "24.0.6"


def test_podman_without_rootless_field_is_an_error():
    replies = dict(CASES["podman"][2])
    replies[("podman", "info", "--format", "json")] = Recording('{"host": {}}')
    report = PodmanProvider(runner=RecordedRunner(replies)).probe()
    assert report.available is False and "host.security.rootless" in report.error


def test_podman_info_failure_is_an_error():
    replies = dict(CASES["podman"][2])
    replies[("podman", "info", "--format", "json")] = Recording(
        "", "Error: overlay not supported", 125
    )
    report = PodmanProvider(runner=RecordedRunner(replies)).probe()
    assert report.available is False and "overlay not supported" in report.error


# -- SIF image folders ------------------------------------------------------------------------


def _sif_tree(tmp_path: Path) -> Path:
    images = tmp_path / "images"
    (images / "sub").mkdir(parents=True)
    (images / "lammps.sif").write_bytes(b"SIF")
    (images / "gromacs_2023.sif").write_bytes(b"SIF")
    (images / "notes.txt").write_text("x")
    (images / "sub" / "hidden.sif").write_bytes(b"SIF")
    (images / "dir.sif").mkdir()
    outside = tmp_path / "outside.sif"
    outside.write_bytes(b"SIF")
    (images / "escape.sif").symlink_to(outside)
    return images


@pytest.mark.parametrize("cls", [ApptainerProvider, SingularityProvider])
def test_sif_images_from_configured_folders(cls, tmp_path):
    images = _sif_tree(tmp_path)
    replies = CASES[cls.name][2]
    provider = cls(runner=RecordedRunner(replies), options={"image_dirs": [str(images)]})
    facts = provider.call_tool("runtime_info", {}, allowed=READ)
    assert facts["images"] == ["gromacs_2023.sif", "lammps.sif"]
    assert provider.call_tool("list_images", {"contains": "LAMMPS"}, allowed=READ) == ["lammps.sif"]
    assert sif_images([images]) == ("gromacs_2023.sif", "lammps.sif")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("/just/a/string", "must be a list"),
        (["relative/dir"], "must be an absolute path"),
        (["/no/such/folder/anywhere"], "is not an existing folder"),
        ([42], "is not a folder path"),
    ],
)
def test_bad_image_dirs_are_a_clear_error(value, message):
    replies = CASES["apptainer"][2]
    report = ApptainerProvider(
        runner=RecordedRunner(replies), options={"image_dirs": value}
    ).probe()
    assert report.available is False
    assert message in report.error


# -- the real machine -------------------------------------------------------------------------


def test_real_docker_client_without_daemon_is_unavailable():
    """Docker's client is installed on the test machines, its daemon is not running."""
    if shutil.which("docker") is None:
        pytest.skip("docker client not installed")
    daemon = subprocess.run(
        ["docker", "version", "--format", "{{json .Server}}"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    report = DockerProvider().probe()
    if daemon.returncode == 0 and daemon.stdout.strip() not in ("", "null"):
        assert report.available is True
    else:
        assert (report.available, report.error) == (False, None)


def test_real_podman_when_installed(tmp_path, monkeypatch):
    if shutil.which("podman") is None:
        pytest.skip("podman not installed (apt-get install podman)")
    expected = json.loads(
        subprocess.run(
            ["podman", "version", "--format", "json"],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        ).stdout
    )["Client"]["Version"]
    provider = PodmanProvider()
    report = provider.probe()
    assert report.error is None, report.error
    assert report.facts["runtime"] == "podman"
    assert report.facts["version"] == expected
    assert report.facts["rootless"] is (os.geteuid() != 0)
    monkeypatch.chdir(tmp_path)
    for payload in PAYLOADS:
        assert provider.call_tool("list_images", {"contains": payload}, allowed=READ) == []
    assert not (tmp_path / "MARKER").exists()


def test_real_charliecloud_when_installed(monkeypatch):
    if shutil.which("ch-run") is None:
        pytest.skip("charliecloud not installed (apt-get install charliecloud)")
    # ch-run refuses to start without $USER, which minimal containers do not set
    runner = CommandRunner(env={"USER": os.environ.get("USER", "root")})
    expected = subprocess.run(
        ["ch-run", "--version"],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
        env={**os.environ, **runner.env},
    )
    report = CharliecloudProvider(runner=runner).probe()
    assert report.error is None, report.error
    assert report.facts["version"] == (expected.stdout + expected.stderr).strip()
    assert report.facts["rootless"] is True


@pytest.mark.parametrize("cls", [c[0] for c in CASES.values()], ids=lambda c: c.name)
def test_entry_point_names_this_class_once_registered(cls):
    classes = discover().classes
    if cls.name not in classes:
        pytest.skip(f'add to pyproject: {cls.name} = "{cls.__module__}:{cls.__name__}"')
    assert classes[cls.name] is cls
