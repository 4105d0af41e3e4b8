"""The compiled kernel, a room beside ``engine/`` and ``exact/``.

A trial's state as numbers, every rule decision over it, compiled. It stands on
:mod:`simulator.rules` (the decisions over numbers, :mod:`~simulator.rules.scalar`, and the
codes), which imports no engine.

- :mod:`~simulator.rules.codes`: levels, O1's priorities, outcomes, causes, events
  and trace codes, as named constants.
- :mod:`~simulator.kernel.layout`: where each number lives in the state, scenario and
  record vectors.
- :mod:`~simulator.kernel.decisions`: each rule decision as a pure function.
- :mod:`~simulator.kernel.clocks`, :mod:`~simulator.kernel.events`,
  :mod:`~simulator.kernel.loop`: the clocks of repeated tests by runs, what each event
  changes, and one trial's event loop (O1, O2), with batches of trials.
- :mod:`~simulator.kernel.rng`: one random stream per trial, keyed by (seed, trial).
- :mod:`~simulator.kernel.params`: a scenario as numbers, and what the kernel refuses.
- :mod:`~simulator.kernel.jit`: numba's ``njit`` with its disk cache, or plain Python
  (``HARMONIES_NO_JIT=1``); :mod:`~simulator.kernel.cache`: that cache, keyed by the kernel's
  content, which a damaged or unwritable folder never stops.

A scenario becomes numbers in :mod:`simulator.kernel.params`, and the kernel's results
the engine's records and trace lines in :mod:`simulator.kernel.engine`;
``python -m tools.kernel_warmup`` compiles it once (``make venv`` does).
"""
