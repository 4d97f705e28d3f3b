"""secretary-executor: negotiate where a job should run across many sites, then run it there."""

from endpoint_plugins import __version__
from providers.wire import (
    DispatchReceipt,
    JobRequest,
    JobState,
    JobStatus,
    Policy,
    Proposal,
    Requirements,
    Verdict,
)

__all__ = [
    "DispatchReceipt",
    "JobRequest",
    "JobState",
    "JobStatus",
    "Policy",
    "Proposal",
    "Requirements",
    "Verdict",
    "__version__",
]
