"""Container runtime providers."""
