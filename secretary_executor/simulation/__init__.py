"""Simulated fleets and the paper's negotiation and selection experiments, audited.

Modules, in the order data flows: :mod:`.seeding` (SHA-256 streams), :mod:`.archetypes`
(Table 2), :mod:`.latent` (scale/density targets), :mod:`.generator` (worker -> state file),
:mod:`.catalogue` (fleet-wide values), :mod:`.prompts` (requirement -> text), :mod:`.truth`
(independent ground truth), :mod:`.negotiate` (the real code paths), :mod:`.audit` (figures and
baselines), :mod:`.report` / :mod:`.plots` (files), :mod:`.selection` (placement as the fleet
fills), :mod:`.experiments` (both experiments end to end). See docs/simulation.md.
"""

from secretary_executor.simulation.generator import Worker, generate_fleet, generate_worker
from secretary_executor.simulation.negotiate import NegotiationSettings, run_negotiation
from secretary_executor.simulation.prompts import Prompt, generate_prompts
from secretary_executor.simulation.truth import Truth, evaluate

__all__ = [
    "NegotiationSettings",
    "Prompt",
    "Truth",
    "Worker",
    "evaluate",
    "generate_fleet",
    "generate_prompts",
    "generate_worker",
    "run_negotiation",
]
