"""Conformance suites: the same named checks run over every registered game (and, later, learner and engine)."""
