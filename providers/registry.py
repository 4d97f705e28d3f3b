"""Provider discovery through the ``secretary.providers`` entry-point group.

Third parties add providers by declaring an entry point in their own distribution::

    [project.entry-points."secretary.providers"]
    mytool = "mypkg.providers:MyToolProvider"

No fork is needed. A broken entry point is reported, never fatal for the others.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from importlib.metadata import entry_points

from providers.base import Provider

ENTRY_POINT_GROUP = "secretary.providers"
log = logging.getLogger(__name__)


@dataclass
class Catalogue:
    """Provider classes found, by provider name, and the entry points that failed to load."""

    classes: dict[str, type[Provider]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)


def discover(group: str = ENTRY_POINT_GROUP) -> Catalogue:
    """Load every provider class registered under ``group``.

    After return, ``classes`` maps each provider's ``name`` to its class; entry points that
    failed to import or do not name a :class:`Provider` subclass are in ``errors``.
    """
    catalogue = Catalogue()
    for ep in sorted(entry_points(group=group), key=lambda e: e.name):
        try:
            cls = ep.load()
        except Exception as exc:  # noqa: BLE001 - a third-party import error is reported
            catalogue.errors[ep.name] = f"cannot import {ep.value}: {type(exc).__name__}: {exc}"
            log.warning("provider entry point %s failed: %s", ep.name, exc)
            continue
        if not (isinstance(cls, type) and issubclass(cls, Provider)) or not hasattr(cls, "name"):
            catalogue.errors[ep.name] = f"{ep.value} is not a Provider subclass with a name"
            continue
        if cls.name in catalogue.classes and catalogue.classes[cls.name] is not cls:
            catalogue.errors[ep.name] = (
                f"provider name {cls.name!r} is already taken by "
                f"{catalogue.classes[cls.name].__module__}; rename one of them"
            )
            continue
        catalogue.classes[cls.name] = cls
    return catalogue
