"""Network providers."""
