"""Deterministic request parsing: free text to :class:`providers.wire.Requirements`."""

from endpoint_plugins.parsing.parser import extract_command, parse_requirements, split_command

__all__ = ["extract_command", "parse_requirements", "split_command"]
