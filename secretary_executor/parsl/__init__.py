"""Parsl integration: ``SecretaryExecutor``, ``@secretary_app`` and the execution channels."""

from secretary_executor.parsl.app import secretary_app, secretary_bash_app, secretary_spec
from secretary_executor.parsl.channels import (
    ChannelError,
    EngineChannel,
    ExecutionChannel,
    GlobusChannel,
    ParslChannel,
    ThreadChannel,
)
from secretary_executor.parsl.demo import EngineFleet, demo_engine_fleet, engine_fleet, make_engine
from secretary_executor.parsl.executor import SecretaryExecutor
from secretary_executor.parsl.keys import UnsupportedResourceKey
from secretary_executor.parsl.records import Attempt, TaskPlacement
from secretary_executor.parsl.retry import secretary_retry_handler

__all__ = [
    "Attempt",
    "ChannelError",
    "EngineChannel",
    "EngineFleet",
    "ExecutionChannel",
    "GlobusChannel",
    "ParslChannel",
    "SecretaryExecutor",
    "TaskPlacement",
    "ThreadChannel",
    "UnsupportedResourceKey",
    "demo_engine_fleet",
    "engine_fleet",
    "make_engine",
    "secretary_app",
    "secretary_bash_app",
    "secretary_retry_handler",
    "secretary_spec",
]
