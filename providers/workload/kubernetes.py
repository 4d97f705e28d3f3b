"""Kubernetes as a workload provider: node pools, pending pods, and batch/v1 Jobs.

Talks to the API server through the official ``kubernetes`` Python client (no ``kubectl``, no
shell). What it reads:

* ``GET /version`` (VersionApi): the server version;
* ``GET /api/v1/nodes``: allocatable ``cpu`` / ``memory`` / GPU resource, the Ready condition,
  ``spec.unschedulable`` and the node-pool label; one partition per node pool;
* ``GET /api/v1/pods`` (all namespaces; the configured namespace only when that is forbidden):
  which nodes carry work;
* ``GET /api/v1/namespaces/NS/pods``: pending pods (the queue) and running pods of the
  namespace jobs go to.

A node is *free* when it is Ready, schedulable, and runs no pod that requests resources other
than DaemonSet pods and pods of ``kube-system`` (those run on every node and never leave).

Jobs are ``batch/v1`` Job manifests rendered by :func:`render_job_manifest`: one pod, no retry,
the command as an argument vector (no shell), ``$`` doubled so Kubernetes' ``$(VAR)``
expansion leaves it literal.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, ClassVar

import yaml

from providers.categories import WorkloadProvider
from providers.errors import ProviderError, UnsafeValueError
from providers.facts import WorkloadFacts
from providers.jobspec import JobSpec, SubmitResult
from providers.wire.jobs import JobState, JobStatus
from providers.workload.batch import translate_state
from providers.workload.kubernetes_objects import (
    DEFAULT_GPU_RESOURCE,
    DEFAULT_IMAGE,
    DEFAULT_NAMESPACE,
    DEFAULT_TIMEOUT_S,
    JOB_STATE_TABLE,
    LABEL_KEY_RE,
    MANAGER,
    NAMESPACE_RE,
    NATIVE_ID_RE,
    POOL_LABELS,
    SERVICE_ACCOUNT_TOKEN,
    job_word,
    partitions_from_api,
    render_job_manifest,
)

__all__ = ["KubernetesProvider", "render_job_manifest"]

# -- the provider -----------------------------------------------------------------------------


class KubernetesProvider(WorkloadProvider):
    """A Kubernetes cluster reached through a kubeconfig or the pod's service account.

    Options:
        kubeconfig: path of the kubeconfig (default: KUBECONFIG, then ~/.kube/config).
        context: kubeconfig context to use (default: its current context).
        namespace: where jobs go and whose pending pods are the queue (default ``default``).
        image: container image of submitted jobs (default ``python:3.11-slim``).
        pool_label: node label naming the node pool (default: the first of POOL_LABELS).
        gpu_resource: extended resource name of GPUs (default ``nvidia.com/gpu``).
        timeout_s: timeout of each API request (default 30 s).
    """

    name: ClassVar[str] = "kubernetes"
    description: ClassVar[str] = (
        "Kubernetes cluster: node pools with allocatable CPU, memory and GPUs, free nodes and "
        "pending pods, and batch/v1 Jobs submitted through the API."
    )
    detection: ClassVar[str] = (
        "options.kubeconfig, KUBECONFIG or ~/.kube/config exists, or the in-cluster service "
        "account (KUBERNETES_SERVICE_HOST and its token); facts from /version, /api/v1/nodes "
        "and pods through the official kubernetes client"
    )

    # -- connection -------------------------------------------------------------------------

    def _kubeconfig(self) -> Path | None:
        explicit = self.options.get("kubeconfig")
        if explicit:
            return Path(str(explicit)).expanduser()
        env = self.runner.env.get("KUBECONFIG") or os.environ.get("KUBECONFIG")
        if env:
            for part in env.split(os.pathsep):
                if part and Path(part).expanduser().is_file():
                    return Path(part).expanduser()
            return None
        home = Path("~/.kube/config").expanduser()
        return home if home.is_file() else None

    def _in_cluster(self) -> bool:
        return bool(os.environ.get("KUBERNETES_SERVICE_HOST")) and SERVICE_ACCOUNT_TOKEN.is_file()

    @property
    def namespace(self) -> str:
        """The namespace jobs are submitted to."""
        value = str(self.options.get("namespace", DEFAULT_NAMESPACE))
        if not NAMESPACE_RE.match(value):
            raise ProviderError(
                f"kubernetes option namespace {value!r} is not a DNS-1123 label "
                "(lower-case letters, digits and -)"
            )
        return value

    @property
    def _timeout(self) -> float:
        return float(self.options.get("timeout_s", DEFAULT_TIMEOUT_S))

    def _pool_label(self) -> str | None:
        value = self.options.get("pool_label")
        if value is not None and not LABEL_KEY_RE.match(str(value)):
            raise ProviderError(f"kubernetes option pool_label {value!r} is not a label key")
        return str(value) if value is not None else None

    def _client(self) -> Any:
        """A fresh ApiClient for the configured cluster (the caller closes it).

        Raises:
            ProviderError: the kubeconfig cannot be loaded.
        """
        from kubernetes import client, config
        from kubernetes.config.config_exception import ConfigException

        cfg = client.Configuration()
        path = self._kubeconfig()
        try:
            if path is not None:
                if not path.is_file():
                    raise ProviderError(f"kubeconfig {str(path)!r} does not exist")
                config.load_kube_config(
                    config_file=str(path),
                    context=self.options.get("context"),
                    client_configuration=cfg,
                    persist_config=False,
                )
            else:
                config.load_incluster_config(client_configuration=cfg)
        except (ConfigException, yaml.YAMLError, KeyError, TypeError, ValueError) as exc:
            first = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ""
            raise ProviderError(
                f"cannot load the Kubernetes configuration from {path or 'the service account'}: "
                f"{type(exc).__name__}: {first}"
            ) from None
        cfg.retries = 1
        return client.ApiClient(cfg)

    def _call(self, what: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """Call one API method; turn client and transport errors into ProviderError.

        Connection problems and 5xx/429 answers are transient; 4xx answers are not.
        """
        from kubernetes.client.exceptions import ApiException
        from urllib3.exceptions import HTTPError

        try:
            return fn(*args, _request_timeout=self._timeout, **kwargs)
        except ApiException as exc:
            status = exc.status or 0
            raise ProviderError(
                f"kubernetes API {what}: HTTP {status} {exc.reason or ''}".strip(),
                transient=status >= 500 or status == 429,
            ) from None
        except HTTPError as exc:
            raise ProviderError(
                f"kubernetes API {what}: cannot reach the API server ({type(exc).__name__})",
                transient=True,
            ) from None
        except (ValueError, TypeError) as exc:  # an answer the client cannot decode
            raise ProviderError(
                f"kubernetes API {what}: the answer is not a readable API object "
                f"({type(exc).__name__})"
            ) from None

    @staticmethod
    def _plain(api: Any, obj: Any) -> Any:
        """The object as the API's JSON (camelCase keys), whatever model the client returned."""
        return api.sanitize_for_serialization(obj)

    # -- probing ----------------------------------------------------------------------------

    def _probe(self) -> WorkloadFacts | None:
        """Read the version, nodes and pods; None when no cluster configuration exists.

        Raises:
            ProviderError: configured but unreachable, refused, or answering garbage.
        """
        if self._kubeconfig() is None and "kubeconfig" not in self.options:
            if not self._in_cluster():
                return None
        from kubernetes import client

        namespace = self.namespace
        with self._client() as api:
            core = client.CoreV1Api(api)
            version = self._call("GET /version", client.VersionApi(api).get_code)
            nodes = self._plain(api, self._call("GET /api/v1/nodes", core.list_node))
            ns_pods = self._plain(
                api,
                self._call(f"GET pods in {namespace}", core.list_namespaced_pod, namespace),
            )
            try:
                all_pods = self._plain(
                    api, self._call("GET /api/v1/pods", core.list_pod_for_all_namespaces)
                )
            except ProviderError as exc:
                if exc.transient:
                    raise
                all_pods = ns_pods  # no cluster-wide read: judge nodes by this namespace only
        partitions = partitions_from_api(
            list(nodes.get("items") or []),
            list(all_pods.get("items") or []),
            list(ns_pods.get("items") or []),
            pool_label=self._pool_label(),
            gpu_resource=str(self.options.get("gpu_resource", DEFAULT_GPU_RESOURCE)),
        )
        return WorkloadFacts(
            manager=MANAGER, version=getattr(version, "git_version", None), partitions=partitions
        )

    # -- dispatch ---------------------------------------------------------------------------

    def _pool_label_for(self, spec: JobSpec) -> str | None:
        """The pool label for a partition request: configured, else the one nodes carry."""
        label = self._pool_label()
        if label or not spec.partition:
            return label
        known = {p.name for p in self.facts().partitions}
        if spec.partition not in known:
            raise ProviderError(
                f"partition {spec.partition!r} does not exist here; "
                f"node pools are: {', '.join(sorted(known))}"
            )
        return POOL_LABELS[0]

    def _submit(self, spec: JobSpec) -> SubmitResult:
        """Create the Job; its server-chosen name is the native id.

        Postcondition: the Job object exists in the namespace.

        Raises:
            UnsafeValueError: the job cannot be rendered (see render_job_manifest).
            ProviderError: the API refused it (transient for 5xx and unreachable servers).
        """
        from kubernetes import client

        manifest = render_job_manifest(
            spec,
            image=str(self.options.get("image", DEFAULT_IMAGE)),
            namespace=self.namespace,
            pool_label=self._pool_label_for(spec),
            gpu_resource=str(self.options.get("gpu_resource", DEFAULT_GPU_RESOURCE)),
        )
        with self._client() as api:
            created = self._call(
                "POST job",
                client.BatchV1Api(api).create_namespaced_job,
                self.namespace,
                client.V1Job.from_dict(manifest),
            )
            name = str((self._plain(api, created).get("metadata") or {}).get("name", ""))
        if not NATIVE_ID_RE.match(name):
            raise ProviderError(f"kubernetes created a job without a usable name: {name!r}")
        return SubmitResult(native_id=name, script=json.dumps(manifest, indent=2))

    def _checked(self, native_id: str) -> str:
        if not isinstance(native_id, str) or not NATIVE_ID_RE.match(native_id):
            raise UnsafeValueError(
                f"native id {native_id!r} is not a Kubernetes job name (DNS-1123 label)"
            )
        return native_id

    def _exit_code(self, api: Any, name: str) -> int | None:
        """Exit code of the job's container, read from its pod (None when not known)."""
        from kubernetes import client

        try:
            pods = self._plain(
                api,
                self._call(
                    "GET job pods",
                    client.CoreV1Api(api).list_namespaced_pod,
                    self.namespace,
                    label_selector=f"job-name={name}",
                ),
            )
        except ProviderError:
            return None
        for pod in pods.get("items") or []:
            for cs in (pod.get("status") or {}).get("containerStatuses") or []:
                code = ((cs.get("state") or {}).get("terminated") or {}).get("exitCode")
                if isinstance(code, int):
                    return code
        return None

    def _status(self, native_id: str) -> JobStatus:
        """The Job's state from its status; UNKNOWN when the Job does not exist.

        Raises:
            UnsafeValueError: ``native_id`` is not a DNS-1123 name.
            ProviderError: the API server failed or could not be reached.
        """
        from kubernetes import client

        name = self._checked(native_id)
        with self._client() as api:
            try:
                job = self._plain(
                    api,
                    self._call(
                        "GET job",
                        client.BatchV1Api(api).read_namespaced_job,
                        name,
                        self.namespace,
                    ),
                )
            except ProviderError as exc:
                if "HTTP 404" not in exc.message:
                    raise
                return JobStatus(
                    site=self.name,
                    native_id=name,
                    state=JobState.UNKNOWN,
                    message=f"no job {name!r} in namespace {self.namespace!r}",
                )
            word = job_word(job)
            state = translate_state(JOB_STATE_TABLE, word, MANAGER)
            exit_code = self._exit_code(api, name) if state.terminal else None
        message = word if state is not JobState.UNKNOWN else f"unknown job condition {word!r}"
        return JobStatus(
            site=self.name, native_id=name, state=state, exit_code=exit_code, message=message
        )

    def _cancel(self, native_id: str) -> JobStatus:
        """Delete an active Job and its pods (Foreground propagation); a finished or unknown
        Job is left as it is.

        Postcondition: the API server accepted the deletion; the Job is reported CANCELLED.
        """
        from kubernetes import client

        status = self._status(native_id)
        if status.state.terminal or status.state is JobState.UNKNOWN:
            return status
        with self._client() as api:
            self._call(
                "DELETE job",
                client.BatchV1Api(api).delete_namespaced_job,
                native_id,
                self.namespace,
                propagation_policy="Foreground",
            )
        return status.model_copy(
            update={"state": JobState.CANCELLED, "message": "deleted (Foreground propagation)"}
        )
