"""Built-in fleets: simulated sites described by site state files, shipped as package data."""
