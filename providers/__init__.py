"""Resource providers: discovery of what a site has, through typed, read-only tools.

Public surface: the :class:`Provider` base and its kind bases, the tool decorators, the tool
session that enforces tool classes, state files, provider discovery and version ordering.
"""

from providers.base import ProbeReport, Provider, ProviderInfo
from providers.categories import (
    KIND_BASES,
    ContainerProvider,
    CPUProviderBase,
    GPUProviderBase,
    MemoryProviderBase,
    MPIProvider,
    NetworkProvider,
    SoftwareProvider,
    StorageProvider,
    WorkloadProvider,
    provider_kind,
)
from providers.commands import CommandRunner, safe_name, safe_path
from providers.errors import ProviderError
from providers.jobspec import JobSpec, SubmitResult
from providers.registry import discover
from providers.session import ToolSession
from providers.state import SiteState, export_state, load_state, providers_from_state
from providers.tools import ToolKind, ToolManifest, dispatch_tool, secretary_tool
from providers.versions import SiteVersion, satisfies, satisfies_all
from providers.wire.common import Category

__all__ = [
    "KIND_BASES",
    "CPUProviderBase",
    "Category",
    "CommandRunner",
    "ContainerProvider",
    "GPUProviderBase",
    "JobSpec",
    "MPIProvider",
    "MemoryProviderBase",
    "NetworkProvider",
    "ProbeReport",
    "Provider",
    "ProviderError",
    "ProviderInfo",
    "SiteState",
    "SiteVersion",
    "SoftwareProvider",
    "StorageProvider",
    "SubmitResult",
    "ToolKind",
    "ToolManifest",
    "ToolSession",
    "WorkloadProvider",
    "discover",
    "dispatch_tool",
    "export_state",
    "load_state",
    "provider_kind",
    "providers_from_state",
    "safe_name",
    "safe_path",
    "satisfies",
    "satisfies_all",
    "secretary_tool",
]
