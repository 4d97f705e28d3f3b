"""Latent scale and density targets, and the per-provider draws made from them.

Each worker draws two targets, ``T_s`` (scale: how big) and ``T_d`` (density: how varied),
from its archetype's Gaussians, clipped to [0.01, 1]. A provider then calls
:meth:`Latent.generate` for each feature, which samples N(T, volatility) (the paper's
Listing 2): a small volatility keeps a feature close to the worker's target, a large one lets
it drift. Every key has its own random stream, so features never disturb one another.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal, TypeVar

from secretary_executor.simulation.archetypes import Archetype, Span
from secretary_executor.simulation.seeding import clip, stream

Mode = Literal["scale", "density"]
T = TypeVar("T")

LOW, HIGH = 0.01, 1.0
"""The clipping bounds of every latent value."""


class Latent:
    """The targets of one worker and the draws its providers make from them.

    Args:
        worker_id: the worker's identity; every draw is keyed by it.
        archetype: supplies the Gaussians of the two targets.
    """

    def __init__(self, worker_id: str, archetype: Archetype) -> None:
        self.worker_id = worker_id
        rng = stream(worker_id, "targets")
        self.scale = clip(rng.gauss(archetype.scale.mu, archetype.scale.sigma), LOW, HIGH)
        self.density = clip(rng.gauss(archetype.density.mu, archetype.density.sigma), LOW, HIGH)

    def __repr__(self) -> str:
        return f"Latent({self.worker_id!r}, scale={self.scale:.3f}, density={self.density:.3f})"

    def generate(self, key: str, mode: Mode, volatility: float = 0.05) -> float:
        """One draw from N(target, volatility), clipped to [0.01, 1]; one key, one draw."""
        target = self.scale if mode == "scale" else self.density
        return clip(stream(self.worker_id, "generate", key).gauss(target, volatility), LOW, HIGH)

    def within(self, key: str, mode: Mode, span: Span, volatility: float = 0.05) -> float:
        """A draw mapped into ``span``: geometrically when it covers more than a factor of 20
        (node counts, storage sizes), so a target of 0.5 lands mid-way in orders of magnitude."""
        u = (self.generate(key, mode, volatility) - LOW) / (HIGH - LOW)
        low, high = span.low, span.high
        if low > 0 and high / low > 20:
            return float(low * math.exp(u * math.log(high / low)))
        return float(low + u * (high - low))

    def pick(self, key: str, mode: Mode, options: Sequence[T], volatility: float = 0.05) -> T:
        """One of ``options`` (in increasing order of size): higher targets pick later ones."""
        u = (self.generate(key, mode, volatility) - LOW) / (HIGH - LOW)
        return options[min(len(options) - 1, int(u * len(options)))]
