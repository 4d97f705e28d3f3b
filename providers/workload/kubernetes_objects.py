"""Kubernetes API objects as data: reading nodes, pods and Jobs, and rendering a Job manifest.

Pure functions over plain dicts in the API's own JSON form (camelCase keys, as
``ApiClient.sanitize_for_serialization`` or the HTTP body gives them), so they are tested
without a cluster. :mod:`providers.workload.kubernetes` is the provider that calls the API.

A node is *free* when it is Ready, schedulable, and runs no pod that requests resources other
than DaemonSet pods and pods of ``kube-system`` (those run on every node and never leave).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any

from providers.errors import ProviderError, UnsafeValueError
from providers.facts import Partition
from providers.jobspec import JobSpec
from providers.wire.jobs import JobState

MANAGER = "kubernetes"
DEFAULT_IMAGE = "python:3.11-slim"
DEFAULT_NAMESPACE = "default"
DEFAULT_GPU_RESOURCE = "nvidia.com/gpu"
DEFAULT_TIMEOUT_S = 30.0
POOL_LABELS = (
    "cloud.google.com/gke-nodepool",
    "eks.amazonaws.com/nodegroup",
    "kubernetes.azure.com/agentpool",
    "karpenter.sh/nodepool",
)
"""Node labels naming the node pool, tried in order when no ``pool_label`` option is set."""
GPU_MODEL_LABELS = ("nvidia.com/gpu.product", "cloud.google.com/gke-accelerator")
DEFAULT_POOL = "default"
MANAGED_BY = "secretary"
SERVICE_ACCOUNT_TOKEN = Path("/var/run/secrets/kubernetes.io/serviceaccount/token")
NATIVE_ID_RE = re.compile(r"^[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?\Z")
NAMESPACE_RE = NATIVE_ID_RE
LABEL_KEY_RE = re.compile(
    r"^(?:[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?/)?[A-Za-z0-9][-A-Za-z0-9_.]{0,62}$"
)

# Job status words, from the Job conditions and counters of the batch/v1 API:
# https://kubernetes.io/docs/concepts/workloads/controllers/job/#job-termination-and-cleanup
# (condition types Complete, SuccessCriteriaMet, Failed, FailureTarget, Suspended; Failed with
# reason DeadlineExceeded means activeDeadlineSeconds ran out).
JOB_STATE_TABLE: dict[str, JobState] = {
    "COMPLETE": JobState.COMPLETED,
    "SUCCESSCRITERIAMET": JobState.COMPLETED,
    "FAILED": JobState.FAILED,
    "FAILURETARGET": JobState.FAILED,
    "BACKOFFLIMITEXCEEDED": JobState.FAILED,
    "DEADLINEEXCEEDED": JobState.TIMEOUT,
    "SUSPENDED": JobState.QUEUED,
    "PENDING": JobState.QUEUED,
    "ACTIVE": JobState.RUNNING,
}


# -- reading API objects (plain dicts in the API's camelCase form) ----------------------------


def quantity(value: Any) -> Decimal:
    """A Kubernetes resource quantity (``7910m``, ``32Gi``, ``2``) as a number; 0 if absent."""
    from kubernetes.utils import parse_quantity

    if value in (None, ""):
        return Decimal(0)
    try:
        return Decimal(parse_quantity(value))
    except ValueError as exc:
        raise ProviderError(f"kubernetes reported an unreadable quantity {value!r}") from exc


def node_ready(node: Mapping[str, Any]) -> bool:
    """True when the node's Ready condition is True and it is not cordoned."""
    if (node.get("spec") or {}).get("unschedulable"):
        return False
    for cond in (node.get("status") or {}).get("conditions") or []:
        if cond.get("type") == "Ready":
            return cond.get("status") == "True"
    return False


def node_pool(node: Mapping[str, Any], pool_label: str | None) -> str:
    """The node's pool: the configured label, else the first known pool label, else default."""
    labels = (node.get("metadata") or {}).get("labels") or {}
    keys = (pool_label,) if pool_label else POOL_LABELS
    for key in keys:
        if labels.get(key):
            return str(labels[key])
    return DEFAULT_POOL


def pod_requests(pod: Mapping[str, Any]) -> bool:
    """True when any container of the pod requests or limits a resource."""
    for container in (pod.get("spec") or {}).get("containers") or []:
        res = container.get("resources") or {}
        if res.get("requests") or res.get("limits"):
            return True
    return False


def pod_holds_node(pod: Mapping[str, Any]) -> bool:
    """True for an active pod that makes its node not free (see the module docstring)."""
    meta = pod.get("metadata") or {}
    if meta.get("namespace") == "kube-system":
        return False
    if any(ref.get("kind") == "DaemonSet" for ref in meta.get("ownerReferences") or []):
        return False
    phase = (pod.get("status") or {}).get("phase")
    if phase in ("Succeeded", "Failed"):
        return False
    return bool((pod.get("spec") or {}).get("nodeName")) and pod_requests(pod)


def partitions_from_api(
    nodes: list[Mapping[str, Any]],
    all_pods: list[Mapping[str, Any]],
    namespace_pods: list[Mapping[str, Any]],
    *,
    pool_label: str | None = None,
    gpu_resource: str = DEFAULT_GPU_RESOURCE,
) -> tuple[Partition, ...]:
    """One partition per node pool, with free nodes and the namespace's queue.

    Counting: ``total_nodes`` are the Ready, schedulable nodes; shapes are the largest node's
    allocatable resources. ``queue_depth`` counts Pending pods of the namespace that no node
    has been chosen for; a pod counts in the pool its ``nodeSelector`` names, else in the
    default pool (the one with the most nodes). ``running_jobs`` counts Running pods of the
    namespace, by the pool of their node.

    Raises:
        ProviderError: the cluster has no Ready, schedulable node.
    """
    busy = {str(p["spec"]["nodeName"]) for p in all_pods if pod_holds_node(p)}
    pools: dict[str, list[Mapping[str, Any]]] = {}
    node_to_pool: dict[str, str] = {}
    for node in nodes:
        if not node_ready(node):
            continue
        pool = node_pool(node, pool_label)
        pools.setdefault(pool, []).append(node)
        node_to_pool[str((node.get("metadata") or {}).get("name"))] = pool
    if not pools:
        raise ProviderError(
            "kubernetes reports no Ready, schedulable node (check kubectl get nodes)"
        )
    names = sorted(pools)
    default = max(names, key=lambda n: (len(pools[n]), -names.index(n)))
    queued = dict.fromkeys(names, 0)
    running = dict.fromkeys(names, 0)
    selector_keys = (pool_label,) if pool_label else POOL_LABELS
    for pod in namespace_pods:
        spec = pod.get("spec") or {}
        phase = (pod.get("status") or {}).get("phase")
        if phase == "Pending" and not spec.get("nodeName"):
            selector = spec.get("nodeSelector") or {}
            wanted = next((selector[k] for k in selector_keys if k in selector), None)
            queued[wanted if wanted in queued else default] += 1
        elif phase == "Running":
            running[node_to_pool.get(str(spec.get("nodeName")), default)] += 1
    result = []
    for name in names:
        members = pools[name]
        allocs = [(n.get("status") or {}).get("allocatable") or {} for n in members]
        cpus = max(math.floor(quantity(a.get("cpu"))) for a in allocs)
        memory = max(quantity(a.get("memory")) for a in allocs)
        gpus = max(int(quantity(a.get(gpu_resource))) for a in allocs)
        models = [
            str(labels[k])
            for n in members
            for labels in [(n.get("metadata") or {}).get("labels") or {}]
            for k in GPU_MODEL_LABELS
            if labels.get(k)
        ]
        result.append(
            Partition(
                name=name,
                total_nodes=len(members),
                free_nodes=sum(
                    1 for n in members if str((n.get("metadata") or {}).get("name")) not in busy
                ),
                cpus_per_node=max(1, cpus),
                memory_gb_per_node=round(float(memory) / 2**30, 2),
                gpus_per_node=gpus,
                gpu_model=models[0] if gpus and models else None,
                queue_depth=queued[name],
                running_jobs=running[name],
                default=name == default,
            )
        )
    return tuple(result)


def job_word(job: Mapping[str, Any]) -> str:
    """One status word for a Job object: a true terminal condition first, then the counters."""
    status = job.get("status") or {}
    for cond in status.get("conditions") or []:
        if cond.get("status") != "True":
            continue
        kind = str(cond.get("type", ""))
        if kind == "Failed" and cond.get("reason") == "DeadlineExceeded":
            return "DeadlineExceeded"
        if kind in ("Complete", "SuccessCriteriaMet", "Failed", "FailureTarget", "Suspended"):
            return kind
        return kind  # a condition type this code does not know: reported as UNKNOWN
    if status.get("succeeded"):
        return "Complete"
    if status.get("failed"):
        return "Failed"
    if status.get("active"):
        ready = status.get("ready")
        return "Pending" if ready == 0 else "Active"
    return "Pending"


# -- rendering --------------------------------------------------------------------------------


def _literal(text: str) -> str:
    """Kubernetes expands ``$(VAR)`` in command and env values; ``$$`` gives a literal ``$``."""
    return text.replace("$", "$$")


def dns_name(name: str) -> str:
    """A DNS-1123 prefix (lower case, digits, ``-``; at most 50) from a job name."""
    text = re.sub(r"[^a-z0-9-]+", "-", name.lower())
    text = re.sub(r"-{2,}", "-", text).strip("-")[:50].rstrip("-")
    return text or "job"


def render_job_manifest(
    spec: JobSpec,
    *,
    image: str,
    namespace: str,
    pool_label: str | None = None,
    gpu_resource: str = DEFAULT_GPU_RESOURCE,
) -> dict[str, Any]:
    """A ``batch/v1`` Job that runs ``spec.command`` once, in one pod, with no retry.

    The image comes from the provider's configuration (``JobSpec`` has no image field).
    ``metadata.generateName`` lets the API server pick a unique name. Requests equal limits
    (cpu, memory in Mi, GPU resource); the walltime is ``activeDeadlineSeconds``;
    ``spec.partition`` selects a node pool through ``nodeSelector`` on the pool label.

    Raises:
        UnsafeValueError: more than one node, a relative workdir, a bad namespace, or a
            partition without a known pool label.
    """
    if spec.nodes != 1:
        raise UnsafeValueError(
            f"{spec.nodes} nodes requested: a Kubernetes Job here runs one pod; ask for 1 node"
        )
    if not NAMESPACE_RE.match(namespace):
        raise UnsafeValueError(f"namespace {namespace!r} is not a DNS-1123 label")
    if not image or any(c.isspace() for c in image):
        raise UnsafeValueError(f"image {image!r} is not a container image reference")
    labels = {"app.kubernetes.io/managed-by": MANAGED_BY, "secretary/job": dns_name(spec.name)}
    resources: dict[str, str] = {}
    if spec.cores_per_node:
        resources["cpu"] = str(spec.cores_per_node)
    if spec.memory_gb_per_node:
        resources["memory"] = f"{math.ceil(spec.memory_gb_per_node * 1024)}Mi"
    if spec.gpus_per_node:
        resources[gpu_resource] = str(spec.gpus_per_node)
    container: dict[str, Any] = {
        "name": "job",
        "image": image,
        "command": [_literal(a) for a in spec.command],
    }
    if spec.environment:
        container["env"] = [
            {"name": k, "value": _literal(v)} for k, v in sorted(spec.environment.items())
        ]
    if spec.workdir is not None:
        if not spec.workdir.startswith("/"):
            raise UnsafeValueError(f"workdir {spec.workdir!r} must be an absolute path")
        container["workingDir"] = spec.workdir
    if resources:
        container["resources"] = {"requests": dict(resources), "limits": dict(resources)}
    pod_spec: dict[str, Any] = {"restartPolicy": "Never", "containers": [container]}
    if spec.partition:
        if not pool_label:
            raise UnsafeValueError(
                f"partition {spec.partition!r} requested, but no node-pool label is known: "
                "set the provider option pool_label"
            )
        pod_spec["nodeSelector"] = {pool_label: spec.partition}
    job_spec: dict[str, Any] = {
        "backoffLimit": 0,
        "template": {"metadata": {"labels": dict(labels)}, "spec": pod_spec},
    }
    if spec.walltime_s:
        job_spec["activeDeadlineSeconds"] = spec.walltime_s
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {
            "generateName": f"{dns_name(spec.name)}-",
            "namespace": namespace,
            "labels": labels,
        },
        "spec": job_spec,
    }
