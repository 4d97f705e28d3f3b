"""Deterministic request parsing: free text to :class:`providers.wire.Requirements`."""
