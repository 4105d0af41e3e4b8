"""O1's order of the events of one instant, as one enum.

At one instant injuries resolve before activities, then first aid, watches, healing sessions
and survival tests; the horizon comes last (O2). Pain recovery (P1) is applied before every
event and has no priority of its own. The enum is defined once, in
:mod:`simulator.rules.codes` (``Prio``, which the compiled kernel reads as numbers);
:mod:`simulator.engine.clock`'s ``PRIO_*`` are its values.
"""

from __future__ import annotations

from simulator.rules.codes import Prio as Priority

__all__ = ["Priority"]
