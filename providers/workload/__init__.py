"""Workload providers."""
