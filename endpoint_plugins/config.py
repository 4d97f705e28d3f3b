"""The site configuration an administrator writes: which providers, what prices, what to expose.

YAML is only a serialisation of :class:`SiteConfig`; every field is validated, and unknown keys
are rejected so that a typo (``pirces:``) is an error rather than a silently ignored setting.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from endpoint_plugins.errors import SiteConfigError
from providers.errors import validation_message
from providers.files import load_yaml, read_text_file
from providers.state import Prices, SiteKind


class ProviderSelection(BaseModel):
    """Which providers a site offers.

    ``enabled`` None means every provider discovered on the machine; ``disabled`` always wins.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    enabled: tuple[str, ...] | None = None
    disabled: tuple[str, ...] = ()
    options: dict[str, dict[str, Any]] = Field(default_factory=dict)
    """Per-provider settings, by provider name (e.g. ``pip: {pythons: [/usr/bin/python3]}``)."""

    def allows(self, name: str) -> bool:
        if name in self.disabled:
            return False
        return self.enabled is None or name in self.enabled


class SiteConfig(BaseModel):
    """Everything a site's Secretary needs to know besides what its providers find."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
    kind: SiteKind | None = None
    """hpc, cloud, standalone, edge or local; None: the state file's kind, else local."""
    description: str = ""
    state_file: str | None = None
    """Serve the site from a state file (simulated or exported site) instead of probing."""
    providers: ProviderSelection = ProviderSelection()
    prices: Prices | None = None
    """Prices per node-hour; None keeps the state file's prices (or none for a real site)."""
    exposed_partitions: tuple[str, ...] | None = None
    strategy: Literal["rules", "agent", "hybrid"] = "rules"
    """rules (deterministic, the default); agent or hybrid need a model (docs/agents.md)."""
    default_walltime_s: int = Field(default=3600, ge=1)
    dispatch_keys_file: str | None = None
    """Where the site remembers the hub's dispatch keys; default
    ``$SECRETARY_HOME/sites/NAME.dispatch-keys.sqlite3``."""

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in self.model_dump(exclude_defaults=True).items())
        return f"SiteConfig({fields})"


def load_site_config(path: str | Path) -> SiteConfig:
    """Read a site configuration file; a relative ``state_file`` is taken from its folder.

    Raises:
        SiteConfigError: unreadable file, bad YAML or an invalid field (named, with the fix).
    """
    p = Path(path)
    try:
        data = load_yaml(read_text_file(p))
    except OSError as exc:
        raise SiteConfigError(
            f"cannot read site configuration {str(p)!r}: {exc.strerror}"
        ) from None
    except yaml.YAMLError as exc:
        raise SiteConfigError(f"{p}: not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise SiteConfigError(f"{p}: expected a mapping with at least 'name'")
    if isinstance(data.get("state_file"), str) and not Path(data["state_file"]).is_absolute():
        data["state_file"] = str((p.parent / data["state_file"]).resolve())
    return parse_site_config(data, source=str(p))


def parse_site_config(data: dict[str, Any], *, source: str = "<site config>") -> SiteConfig:
    """Validate a site configuration mapping (see :func:`load_site_config`)."""
    try:
        return SiteConfig.model_validate(data)
    except ValidationError as exc:
        raise SiteConfigError(f"{source}: {validation_message(exc)}") from None
