"""What a request says the job does *not* need: "no GPUs", "don't need MPI", "no containers".

This stage runs before every extractor that could read the same words as a demand, and blanks
the negated phrase, so "no need for a low-latency network" can never become a low-latency
requirement. An exclusion never fails a site (a site with GPUs can run a CPU job); it is kept in
``Requirements.excluded`` so that people and agents see it was read. "No GPU" also makes the job
CPU-only (zero GPUs per node), which prices it on CPU nodes.
"""

from __future__ import annotations

import re

from endpoint_plugins.parsing.draft import Draft, Mention
from endpoint_plugins.parsing.scanner import FLAGS, Scanner, alternation
from providers.wire.requirements import Feature

_FEATURE_WORDS: dict[Feature, tuple[str, ...]] = {
    Feature.GPU: (
        "gpus",
        "gpu",
        "graphics cards",
        "graphics card",
        "accelerators",
        "accelerator",
        "gpu nodes",
        "gpu node",
        "gpu acceleration",
        "gpu support",
    ),
    Feature.MPI: ("mpi", "message passing interface", "mpi library", "multi node mpi"),
    Feature.CONTAINER: (
        "containers",
        "container",
        "container images",
        "container image",
        "containerization",
        "containerisation",
        "docker",
        "singularity",
        "apptainer",
    ),
    Feature.LOW_LATENCY: (
        "low latency network",
        "low latency interconnect",
        "low latency fabric",
        "low latency",
        "network fast",
        "fast network",
        "fast interconnect",
        "high speed network",
        "high speed interconnect",
        "high performance interconnect",
        "high performance network",
        "special network",
        "special interconnect",
        "rdma",
        "infiniband",
        "omni path",
        "omnipath",
        "slingshot",
    ),
}
_SPELLING = {s: f for f, spellings in _FEATURE_WORDS.items() for s in spellings}
_FEATURE = alternation(_SPELLING)
_ARTICLE = r"(?:(?:a|an|any|the|some)\s+)?"
_NEED = r"(?:need|needs|require|requires|use|uses|using|want|rely\s+on|depend\s+on)"
_NOT = (
    r"(?:don'?t|do\s+not|doesn'?t|does\s+not|won'?t|will\s+not|shouldn'?t|should\s+not|"
    r"didn'?t|can'?t|cannot|can\s+not|not|never)"
)
_MORE = (
    rf"(?:\s*(?:,\s*(?:or|nor|and)?|or|nor|and|/)\s*(?:not\s+|no\s+)?"
    rf"(?:(?:a|an|any|the|other|any\s+other|some\s+other)\s+)?"
    rf"{_FEATURE})*"
)
"""Further features under the same negation: "no MPI or a fast network", "no MPI and not the
container". "Nothing needs GPUs" and "none of it uses MPI" negate with the subject."""
_NEGATED_RE = re.compile(
    rf"(?<![\w-])(?:"
    rf"(?:no|without|w/o|zero|non)[\s-]+(?:need\s+(?:(?:for|of)\s+)?)?{_ARTICLE}{_FEATURE}{_MORE}"
    rf"|{_NOT}\s+(?:really\s+|even\s+|actually\s+)?{_NEED}\s+{_ARTICLE}{_FEATURE}{_MORE}"
    rf"|(?:nothing|none\s+of\s+(?:it|them|this|the\s+\w+))\s+(?:here\s+|really\s+)?{_NEED}\s+"
    rf"{_ARTICLE}{_FEATURE}{_MORE}"
    rf"(?:\s+at\s+all)?"
    rf"|{_FEATURE}{_MORE}\s+(?:is|are|isn'?t|aren'?t)?\s*(?:not\s+)?"
    rf"(?:not\s+needed|not\s+required|not\s+necessary|unnecessary|unneeded|not\s+wanted|"
    rf"isn'?t\s+needed|aren'?t\s+needed|not\s+used|not\s+an\s+option|not\s+allowed|"
    rf"(?:are\s+|is\s+)?forbidden)"
    rf"|{_FEATURE}-?(?:less|free)"
    rf")(?![\w-])",
    FLAGS,
)
_ONE_FEATURE_RE = re.compile(rf"(?<![\w-]){_FEATURE}(?!\w)", FLAGS)


def extract_exclusions(scanner: Scanner, draft: Draft) -> None:
    """Negated features become exclusions; their words are never read as demands."""

    def handle(m: re.Match[str]) -> bool:
        found = False
        for said in _ONE_FEATURE_RE.finditer(m.group(0)):
            words = " ".join(said.group(0).lower().replace("-", " ").split())
            feature = _SPELLING.get(words)
            if feature is None:
                continue
            found = True
            draft.exclude(feature)
            if feature is Feature.GPU and draft.compute.cpu_only is None:
                draft.compute.cpu_only = Mention(True, m.group(0))
        return found

    scanner.take(_NEGATED_RE, handle)
