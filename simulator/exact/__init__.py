"""Exact answers (CONTRACT.md "Exact answers"): the distribution of trial states carried forward.

A second implementation of the rules of RULES.md, beside the event-by-event engine: no
sampling, no SimPy, no pandas. :func:`solve` gives an :class:`ExactAnswer`.
"""

from simulator.exact.answer import ExactAnswer
from simulator.exact.engine import DEFAULT_EPS, DEFAULT_MAX_STATES, solve

__all__ = ["DEFAULT_EPS", "DEFAULT_MAX_STATES", "ExactAnswer", "solve"]
