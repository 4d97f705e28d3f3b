"""Software providers."""
