"""Negotiation strategies: how a site turns requirements into a proposal."""
