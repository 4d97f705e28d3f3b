"""A read-only web dashboard over a hub (``/dashboard``) or a ledger (``secretary dashboard``).

Four views (fleet, requests with the requirement x site grid, jobs with a timeline and output,
cost), all built from the ledger and, for a hub, its live registry. See docs/dashboard.md.
"""

from secretary_executor.dashboard.app import dashboard_app
from secretary_executor.dashboard.sources import DashboardSource, HubSource, LedgerSource

__all__ = ["DashboardSource", "HubSource", "LedgerSource", "dashboard_app"]
