"""Decode the kernel's trace records into :class:`~simulator.engine.trace.TraceLine` s (stub)."""

from __future__ import annotations

import numpy as np

from simulator.engine.trace import TraceLine
from simulator.scenario.model import Scenario


def decode(scenario: Scenario, records: np.ndarray) -> list[TraceLine]:
    """The trace lines of one trial's records."""
    return []
