"""Base class shared by every wire model."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

SCHEMA_VERSION = 1
"""Bumped on an incompatible change to any wire model. Peers compare it before trusting a reply."""


class WireModel(BaseModel):
    """Frozen, JSON-serialisable model. Extra fields from newer peers are ignored."""

    model_config = ConfigDict(frozen=True, extra="ignore", use_enum_values=False)


class Category(StrEnum):
    """The seven kinds of resource a site can expose (the paper's Table 3)."""

    WORKLOAD = "workload"
    SOFTWARE = "software"
    CONTAINER = "container"
    STORAGE = "storage"
    NETWORK = "network"
    HARDWARE = "hardware"
    PARALLEL = "parallel"
