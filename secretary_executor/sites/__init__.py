"""Sites as the hub sees them: one async interface over interchangeable transports."""

from secretary_executor.sites.base import Site, Transport
from secretary_executor.sites.fleet import Fleet, FleetFile, FleetSite, load_fleet
from secretary_executor.sites.inprocess import InProcessTransport

__all__ = [
    "Fleet",
    "FleetFile",
    "FleetSite",
    "InProcessTransport",
    "Site",
    "Transport",
    "load_fleet",
]
