"""A request for work as it arrives at the hub: free text and/or structured requirements."""

from __future__ import annotations

import uuid

from pydantic import Field, field_validator

from providers.wire.common import SCHEMA_VERSION, WireModel
from providers.wire.requirements import Requirements


def new_id() -> str:
    """A fresh identifier for a request or a job."""
    return uuid.uuid4().hex[:12]


class Policy(WireModel):
    """How the client wants one proposal chosen among many."""

    algorithm: str = Field(default="soonest", min_length=1, max_length=64)
    fallback: tuple[str, ...] = ("soonest", "first-ready")
    """Algorithms tried in order when ``algorithm`` cannot decide (e.g. no model configured)."""
    seed: int | None = None
    """Seed for stochastic algorithms (random, run-anytime), for reproducible runs."""


class JobRequest(WireModel):
    """What the user asked for, what to run, and how to choose.

    ``requirements`` is filled by the hub's parser when only ``text`` is given; once set it is
    what every site judges. ``command`` is an argument vector, never a shell string.
    """

    schema_version: int = SCHEMA_VERSION
    request_id: str = Field(default_factory=new_id)
    text: str = Field(default="", max_length=20_000)
    requirements: Requirements | None = None
    command: tuple[str, ...] = ()
    workdir: str | None = None
    environment: dict[str, str] = Field(default_factory=dict)
    policy: Policy = Policy()

    @field_validator("command")
    @classmethod
    def _no_empty_argv0(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if value and not value[0].strip():
            raise ValueError("command[0] is empty: give the program to run, e.g. ['echo', 'hi']")
        for i, arg in enumerate(value):
            if "\x00" in arg:
                raise ValueError(
                    f"command[{i}] holds a NUL byte, which no program can receive as an "
                    "argument: remove it"
                )
        return value
