"""The federation hub: MCP facade, worker registry, fan-out policy, auth and job events."""

from secretary_executor.hub.config import HubConfig, load_hub_config
from secretary_executor.hub.fanout import FanOut, FederatedFleet
from secretary_executor.hub.registry import Registry, WorkerState
from secretary_executor.hub.server import Hub

__all__ = [
    "FanOut",
    "FederatedFleet",
    "Hub",
    "HubConfig",
    "Registry",
    "WorkerState",
    "load_hub_config",
]
