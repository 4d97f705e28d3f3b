"""Deterministic random streams for the simulation, one per draw purpose.

Python's ``hash()`` of a string changes from process to process, which made the prototype's
simulated sites differ on every restart. Every stream here is seeded from SHA-256 of a text key
instead, so the same worker id gives the same site in any process. Each purpose (the archetype
roll, the node counts, the software list...) has its own stream: adding a draw to one purpose,
or the archetype roll landing differently, never shifts the numbers another purpose sees.
"""

from __future__ import annotations

import hashlib
import random


def stable_int(key: str) -> int:
    """A 64-bit integer from SHA-256 of ``key``: the same in every process and platform."""
    return int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big")


def stream(*parts: object) -> random.Random:
    """A private generator for one purpose, keyed by ``parts`` joined with ``:``.

    Example: ``stream("w17", "archetype")`` is the archetype roll of worker ``w17``.
    Postcondition: equal parts give generators producing identical sequences.
    """
    return random.Random(stable_int(":".join(str(p) for p in parts)))


def clip(value: float, low: float = 0.01, high: float = 1.0) -> float:
    """``value`` limited to ``[low, high]`` (the paper clips latent targets to [0.01, 1])."""
    return max(low, min(high, value))
