"""MPI providers."""
