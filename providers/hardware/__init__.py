"""Hardware providers."""
