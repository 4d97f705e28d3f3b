"""Storage providers."""
