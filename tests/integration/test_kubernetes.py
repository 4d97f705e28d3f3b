"""The Kubernetes provider: the real ``kubernetes`` client against a loopback API server.

No Kubernetes API server can run here (no container runtime, no kube-apiserver package), so
each test starts a small HTTP server on 127.0.0.1 (stdlib ``http.server`` in a thread, port 0)
that answers the paths the provider uses with objects written from the documented Kubernetes
API formats (VersionInfo, NodeList, PodList, batch/v1 Job, Status): ``GET /version``,
``/api/v1/nodes``, ``/api/v1/pods``, ``/api/v1/namespaces/NS/pods``, and ``POST`` / ``GET`` /
``DELETE`` of ``/apis/batch/v1/namespaces/NS/jobs``, keeping posted Jobs in memory and naming
them from ``generateName`` as the API server does. The test writes a kubeconfig pointing at it,
so the client, its configuration loading, serialisation and HTTP all run for real.
"""

from __future__ import annotations

import json
import secrets
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from providers.errors import ToolArgumentError, UnsafeValueError
from providers.jobspec import JobSpec
from providers.tools import ToolKind
from providers.wire.jobs import JobState
from providers.workload.kubernetes import KubernetesProvider, render_job_manifest
from providers.workload.kubernetes_objects import JOB_STATE_TABLE, job_word

NS = "batch"
POOL = "cloud.google.com/gke-nodepool"


def _node(name: str, pool: str, cpu: str, memory: str, *, ready: str = "True", **extra) -> dict:
    labels = {"kubernetes.io/hostname": name, POOL: pool, **extra.pop("labels", {})}
    allocatable = {"cpu": cpu, "memory": memory, "pods": "110", **extra.pop("allocatable", {})}
    return {
        "metadata": {"name": name, "labels": labels},
        "spec": extra.pop("spec", {}),
        "status": {
            "allocatable": allocatable,
            "capacity": allocatable,
            "conditions": [
                {"type": "MemoryPressure", "status": "False"},
                {"type": "Ready", "status": ready, "reason": "KubeletReady"},
            ],
        },
    }


def _pod(name: str, namespace: str, phase: str, node: str | None, *, requests=None, **meta):
    resources = {"requests": requests} if requests else {}
    spec: dict[str, Any] = {
        "containers": [{"name": "c", "image": "busybox", "resources": resources}]
    }
    if node:
        spec["nodeName"] = node
    if "nodeSelector" in meta:
        spec["nodeSelector"] = meta.pop("nodeSelector")
    status: dict[str, Any] = {"phase": phase}
    if "containerStatuses" in meta:
        status["containerStatuses"] = meta.pop("containerStatuses")
    return {
        "metadata": {"name": name, "namespace": namespace, **meta},
        "spec": spec,
        "status": status,
    }


NODES = [
    _node("cpu-a", "cpu", "7910m", "32780340Ki"),
    _node("cpu-b", "cpu", "7910m", "32780340Ki"),
    _node("cpu-c", "cpu", "7910m", "32780340Ki", ready="False"),
    _node("cpu-d", "cpu", "7910m", "32780340Ki", spec={"unschedulable": True}),
    _node(
        "gpu-a",
        "gpu",
        "15890m",
        "62Gi",
        allocatable={"nvidia.com/gpu": "4"},
        labels={"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-40GB"},
    ),
    _node("gpu-b", "gpu", "15890m", "62Gi", allocatable={"nvidia.com/gpu": "4"}),
]
DAEMONSET = [{"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "fluentd", "uid": "u1"}]
PODS = [
    _pod("train-1", NS, "Running", "cpu-a", requests={"cpu": "2"}),
    _pod("kube-proxy-b", "kube-system", "Running", "cpu-b", requests={"cpu": "100m"}),
    _pod(
        "fluentd-b",
        "logging",
        "Running",
        "cpu-b",
        requests={"cpu": "100m"},
        ownerReferences=DAEMONSET,
    ),
    _pod("done-1", NS, "Succeeded", "gpu-a", requests={"cpu": "4"}),
    _pod("besteffort", "default", "Running", "gpu-b"),
    _pod("wait-1", NS, "Pending", None, requests={"cpu": "4"}),
    _pod("wait-2", NS, "Pending", None, requests={"cpu": "4"}, nodeSelector={POOL: "gpu"}),
]
VERSION = {
    "major": "1",
    "minor": "29",
    "gitVersion": "v1.29.2",
    "gitCommit": "4b8e819355d791d96b7e9d9efe4cbafae2311c88",
    "gitTreeState": "clean",
    "buildDate": "2024-02-14T10:32:39Z",
    "goVersion": "go1.21.7",
    "compiler": "gc",
    "platform": "linux/amd64",
}


def _status(code: int, reason: str, message: str) -> dict:
    return {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
        "reason": reason,
        "code": code,
    }


class FakeAPI:
    """In-memory API server state plus a record of every request (method, path, query)."""

    def __init__(self) -> None:
        self.nodes: list[dict] = [dict(n) for n in NODES]
        self.pods: list[dict] = [dict(p) for p in PODS]
        self.jobs: dict[str, dict] = {}
        self.requests: list[tuple[str, str, dict]] = []
        self.posted: list[dict] = []
        self.forbid_all_pods = False
        self.garbled: set[str] = set()

    def answer(self, method: str, url: str, body: bytes) -> tuple[int, Any]:
        parts = urlsplit(url)
        path, query = parts.path.rstrip("/") or "/", parse_qs(parts.query)
        self.requests.append((method, path, query))
        if path in self.garbled:
            return 200, "<html>502 Bad Gateway</html>"
        if method == "GET" and path == "/version":
            return 200, VERSION
        if method == "GET" and path == "/api/v1/nodes":
            return 200, {
                "kind": "NodeList",
                "apiVersion": "v1",
                "metadata": {},
                "items": self.nodes,
            }
        if method == "GET" and path == "/api/v1/pods":
            if self.forbid_all_pods:
                return 403, _status(403, "Forbidden", 'pods is forbidden: cannot list "pods"')
            return 200, self._pod_list(self.pods)
        segments = path.strip("/").split("/")
        if segments[:3] == ["api", "v1", "namespaces"] and segments[4:] == ["pods"]:
            pods = [p for p in self.pods if p["metadata"]["namespace"] == segments[3]]
            for selector in query.get("labelSelector", []):
                key, _, value = selector.partition("=")
                pods = [p for p in pods if p["metadata"].get("labels", {}).get(key) == value]
            return 200, self._pod_list(pods)
        if segments[:4] == ["apis", "batch", "v1", "namespaces"] and segments[5:6] == ["jobs"]:
            return self._jobs(
                method, segments[4], segments[6] if len(segments) > 6 else None, body, query
            )
        return 404, _status(404, "NotFound", f"the server could not find {path}")

    @staticmethod
    def _pod_list(items: list[dict]) -> dict:
        return {"kind": "PodList", "apiVersion": "v1", "metadata": {}, "items": items}

    def _jobs(self, method: str, namespace: str, name: str | None, body: bytes, query: dict):
        if method == "POST" and name is None:
            job = json.loads(body)
            self.posted.append(json.loads(body))
            meta = job.setdefault("metadata", {})
            meta["name"] = meta.get("name") or meta["generateName"] + secrets.token_hex(3)[:5]
            meta.update(
                namespace=namespace,
                uid=secrets.token_hex(8),
                creationTimestamp="2026-01-01T00:00:00Z",
            )
            job["status"] = {}
            self.jobs[meta["name"]] = job
            return 201, job
        job = self.jobs.get(name or "")
        if job is None:
            return 404, _status(404, "NotFound", f'jobs.batch "{name}" not found')
        if method == "GET":
            return 200, job
        if method == "DELETE":
            del self.jobs[name]
            job["metadata"]["deletionTimestamp"] = "2026-01-01T00:01:00Z"
            return 200, job
        return 405, _status(405, "MethodNotAllowed", method)


def _handler(api: FakeAPI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            code, payload = api.answer(self.command, self.path, self.rfile.read(length))
            data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_DELETE = _serve

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            return

    return Handler


@pytest.fixture
def api() -> Iterator[FakeAPI]:
    state = FakeAPI()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}"  # type: ignore[attr-defined]
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def write_kubeconfig(folder: Path, server: str) -> Path:
    path = folder / "kubeconfig"
    path.write_text(
        json.dumps(
            {
                "apiVersion": "v1",
                "kind": "Config",
                "clusters": [{"name": "fake", "cluster": {"server": server}}],
                "users": [{"name": "tester", "user": {"token": "test-token"}}],
                "contexts": [{"name": "fake", "context": {"cluster": "fake", "user": "tester"}}],
                "current-context": "fake",
            }
        )
    )
    return path


@pytest.fixture
def provider(api, tmp_path) -> KubernetesProvider:
    kubeconfig = write_kubeconfig(tmp_path, api.url)
    return KubernetesProvider(
        options={"kubeconfig": str(kubeconfig), "namespace": NS, "pool_label": POOL}
    )


# -- detection and probing --------------------------------------------------------------------


def test_absent_is_unavailable_without_error(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("KUBECONFIG", raising=False)
    monkeypatch.delenv("KUBERNETES_SERVICE_HOST", raising=False)
    report = KubernetesProvider().probe()
    assert (report.available, report.error) == (False, None)


def test_kubeconfig_from_the_environment_is_found(api, tmp_path, monkeypatch):
    monkeypatch.setenv("KUBECONFIG", str(write_kubeconfig(tmp_path, api.url)))
    report = KubernetesProvider(options={"namespace": NS}).probe()
    assert report.available, report.error
    assert {p["name"] for p in report.facts["partitions"]} == {"cpu", "gpu"}


def test_node_pools_become_partitions_with_exact_facts(provider, api):
    parts = provider.call_tool("list_partitions", {}, allowed=ToolKind.READ)
    assert parts == [
        {
            "name": "cpu",
            "total_nodes": 2,
            "free_nodes": 1,
            "cpus_per_node": 7,
            "memory_gb_per_node": 31.26,
            "gpus_per_node": 0,
            "gpu_model": None,
            "max_walltime_s": None,
            "queue_depth": 1,
            "running_jobs": 1,
            "estimated_wait_s": None,
            "default": True,
        },
        {
            "name": "gpu",
            "total_nodes": 2,
            "free_nodes": 2,
            "cpus_per_node": 15,
            "memory_gb_per_node": 62.0,
            "gpus_per_node": 4,
            "gpu_model": "NVIDIA-A100-SXM4-40GB",
            "max_walltime_s": None,
            "queue_depth": 1,
            "running_jobs": 0,
            "estimated_wait_s": None,
            "default": False,
        },
    ]
    assert provider.probe().facts["version"] == "v1.29.2"
    paths = [path for _, path, _ in api.requests]
    assert paths == ["/version", "/api/v1/nodes", f"/api/v1/namespaces/{NS}/pods", "/api/v1/pods"]


def test_without_cluster_wide_pod_access_the_namespace_decides(provider, api):
    api.forbid_all_pods = True
    cpu = provider.facts().partitions[0]
    assert (cpu.name, cpu.free_nodes) == ("cpu", 1)


def test_unreachable_server_is_unavailable_with_a_clear_error(tmp_path):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    kubeconfig = write_kubeconfig(tmp_path, f"http://127.0.0.1:{port}")
    report = KubernetesProvider(options={"kubeconfig": str(kubeconfig)}).probe()
    assert report.available is False
    assert "cannot reach the API server" in report.error


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ("no-nodes", "no Ready, schedulable node"),
        ("garbled", "not a readable API object"),
        ("bad-kubeconfig", "Kubernetes configuration"),
        ("missing-kubeconfig", "does not exist"),
    ],
)
def test_empty_or_garbled_is_unavailable_with_a_clear_error(api, tmp_path, change, needle):
    kubeconfig = write_kubeconfig(tmp_path, api.url)
    if change == "no-nodes":
        api.nodes = []
    elif change == "garbled":
        api.garbled.add("/api/v1/nodes")
    elif change == "bad-kubeconfig":
        kubeconfig.write_text("clusters: [oops")
    else:
        kubeconfig = tmp_path / "nowhere"
    report = KubernetesProvider(options={"kubeconfig": str(kubeconfig)}).probe()
    assert report.available is False
    assert needle in report.error


# -- rendering --------------------------------------------------------------------------------

HOSTILE = ("python3", "-c", "print('hi')", "x; touch MARKER", "$(touch MARKER)", "two words")


def test_manifest_is_exact_and_keeps_hostile_arguments_literal():
    spec = JobSpec(
        name="Demo_Job.1",
        command=HOSTILE,
        cores_per_node=2,
        memory_gb_per_node=1.5,
        gpus_per_node=1,
        walltime_s=600,
        partition="gpu",
        workdir="/work",
        environment={"GREETING": "hello world", "TRICK": "$(HOME)"},
    )
    labels = {"app.kubernetes.io/managed-by": "secretary", "secretary/job": "demo-job-1"}
    resources = {"cpu": "2", "memory": "1536Mi", "nvidia.com/gpu": "1"}
    assert render_job_manifest(spec, image="python:3.11-slim", namespace=NS,
                               pool_label=POOL) == {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"generateName": "demo-job-1-", "namespace": NS, "labels": labels},
        "spec": {
            "backoffLimit": 0,
            "activeDeadlineSeconds": 600,
            "template": {
                "metadata": {"labels": labels},
                "spec": {
                    "restartPolicy": "Never",
                    "containers": [
                        {
                            "name": "job",
                            "image": "python:3.11-slim",
                            "command": [
                                "python3", "-c", "print('hi')", "x; touch MARKER",
                                "$$(touch MARKER)", "two words",
                            ],
                            "env": [
                                {"name": "GREETING", "value": "hello world"},
                                {"name": "TRICK", "value": "$$(HOME)"},
                            ],
                            "workingDir": "/work",
                            "resources": {"requests": resources, "limits": resources},
                        }
                    ],
                    "nodeSelector": {POOL: "gpu"},
                },
            },
        },
    }  # fmt: skip
    assert not Path("MARKER").exists()


@pytest.mark.parametrize(
    ("changes", "kwargs", "needle"),
    [
        ({"nodes": 2}, {}, "one pod"),
        ({"workdir": "relative"}, {}, "absolute path"),
        ({"partition": "gpu"}, {}, "pool_label"),
        ({}, {"namespace": "../kube-system"}, "DNS-1123"),
        ({}, {"image": "busybox; rm -rf /"}, "image reference"),
    ],
)
def test_unsafe_manifests_are_refused(changes, kwargs, needle):
    spec = JobSpec(**{"command": ("true",), **changes})
    args = {"image": "busybox", "namespace": NS, **kwargs}
    with pytest.raises(UnsafeValueError, match=needle):
        render_job_manifest(spec, **args)


# -- dispatch ---------------------------------------------------------------------------------


def test_submit_status_cancel_through_dispatch_tools(provider, api):
    spec = JobSpec(name="demo", command=HOSTILE, cores_per_node=2, walltime_s=600)
    result = provider.call_tool(
        "submit_job", {"spec": spec.model_dump(mode="json")}, allowed=ToolKind.DISPATCH
    )
    name = result["native_id"]
    assert name.startswith("demo-") and name in api.jobs
    expected = render_job_manifest(spec, image="python:3.11-slim", namespace=NS, pool_label=POOL)
    assert api.posted == [expected]
    assert json.loads(result["script"]) == expected

    def status() -> dict:
        return provider.call_tool("job_status", {"native_id": name}, allowed=ToolKind.DISPATCH)

    assert status()["state"] == "QUEUED"
    api.jobs[name]["status"] = {"active": 1, "ready": 1, "startTime": "2026-01-01T00:00:05Z"}
    assert status()["state"] == "RUNNING"
    cancelled = provider.call_tool("cancel_job", {"native_id": name}, allowed=ToolKind.DISPATCH)
    assert cancelled["state"] == "CANCELLED"
    delete = [q for method, _, q in api.requests if method == "DELETE"]
    assert delete and delete[0].get("propagationPolicy") == ["Foreground"]
    assert name not in api.jobs
    assert status()["state"] == "UNKNOWN"


def test_finished_job_reports_its_exit_code(provider, api):
    name = provider.submit_job(JobSpec(name="done", command=("true",))).native_id
    api.jobs[name]["status"] = {
        "failed": 1,
        "conditions": [{"type": "Failed", "status": "True", "reason": "BackoffLimitExceeded"}],
    }
    api.pods.append(
        _pod(
            f"{name}-abcde",
            NS,
            "Failed",
            "cpu-b",
            labels={"job-name": name},
            containerStatuses=[
                {
                    "name": "job",
                    "image": "busybox",
                    "imageID": "",
                    "ready": False,
                    "restartCount": 0,
                    "state": {"terminated": {"exitCode": 3, "reason": "Error"}},
                }
            ],
        )
    )
    status = provider.job_status(name)
    assert (status.state, status.exit_code) == (JobState.FAILED, 3)
    # a finished job is not deleted by a cancel
    assert provider.cancel_job(name).state is JobState.FAILED
    assert name in api.jobs


@pytest.mark.parametrize(
    "bad", ["x; touch MARKER", "$(touch MARKER)", "`id`", "../etc", "UPPER", "a" * 64, "", "-x"]
)
def test_hostile_native_ids_are_rejected_before_any_request(provider, api, bad):
    for tool in ("job_status", "cancel_job"):
        with pytest.raises(UnsafeValueError, match="not a Kubernetes job name"):
            provider.call_tool(tool, {"native_id": bad}, allowed=ToolKind.DISPATCH)
    assert api.requests == []


def test_hostile_job_names_are_rejected_by_the_schema(provider, api):
    spec = {"name": "x; touch MARKER", "command": ["true"]}
    with pytest.raises(ToolArgumentError):
        provider.call_tool("submit_job", {"spec": spec}, allowed=ToolKind.DISPATCH)
    assert api.requests == []


# -- state translation ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "state"),
    [
        ({}, JobState.QUEUED),
        ({"active": 1, "ready": 0}, JobState.QUEUED),
        ({"active": 1, "ready": 1}, JobState.RUNNING),
        ({"active": 1}, JobState.RUNNING),
        ({"succeeded": 1}, JobState.COMPLETED),
        ({"failed": 1}, JobState.FAILED),
        ({"conditions": [{"type": "Complete", "status": "True"}]}, JobState.COMPLETED),
        ({"conditions": [{"type": "SuccessCriteriaMet", "status": "True"}]}, JobState.COMPLETED),
        ({"conditions": [{"type": "Failed", "status": "True"}]}, JobState.FAILED),
        ({"conditions": [{"type": "FailureTarget", "status": "True"}]}, JobState.FAILED),
        (
            {"conditions": [{"type": "Failed", "status": "True", "reason": "DeadlineExceeded"}]},
            JobState.TIMEOUT,
        ),
        ({"conditions": [{"type": "Suspended", "status": "True"}]}, JobState.QUEUED),
        ({"conditions": [{"type": "Complete", "status": "False"}], "active": 1}, JobState.RUNNING),
        ({"conditions": [{"type": "Exploded", "status": "True"}]}, JobState.UNKNOWN),
    ],
)
def test_every_documented_job_condition_is_translated(status, state):
    from providers.workload.batch import translate_state

    assert translate_state(JOB_STATE_TABLE, job_word({"status": status}), "kubernetes") is state
