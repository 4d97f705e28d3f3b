"""Wire models: everything that crosses a process boundary, as pydantic v2 models.

Each top-level document carries ``schema_version`` so that a hub and a site of different
releases can still talk: unknown fields from a newer peer are ignored, not rejected.
"""

from providers.wire.common import SCHEMA_VERSION, WireModel
from providers.wire.jobs import DispatchReceipt, JobOutput, JobState, JobStatus
from providers.wire.proposal import (
    Check,
    CheckStatus,
    Evidence,
    Metrics,
    ModelUsage,
    Proposal,
    Verdict,
)
from providers.wire.request import JobRequest, Policy
from providers.wire.requirements import (
    Comparator,
    ComputeRequirement,
    ContainerRequirement,
    Fabric,
    Feature,
    GpuLogic,
    GpuVendor,
    MPIRequirement,
    NetworkRequirement,
    Requirements,
    SoftwareChoice,
    SoftwareRequirement,
    StorageKind,
    StorageRequirement,
    Urgency,
    VersionConstraint,
)

__all__ = [
    "SCHEMA_VERSION",
    "Check",
    "CheckStatus",
    "Comparator",
    "ComputeRequirement",
    "ContainerRequirement",
    "DispatchReceipt",
    "Evidence",
    "Fabric",
    "Feature",
    "GpuLogic",
    "GpuVendor",
    "JobRequest",
    "JobState",
    "JobOutput",
    "JobStatus",
    "MPIRequirement",
    "Metrics",
    "ModelUsage",
    "NetworkRequirement",
    "Policy",
    "Proposal",
    "Requirements",
    "SoftwareChoice",
    "SoftwareRequirement",
    "StorageKind",
    "StorageRequirement",
    "Urgency",
    "VersionConstraint",
    "Verdict",
    "WireModel",
]
