"""Measuring the parser and the negotiator against hand-labelled data (see tests/data/)."""
