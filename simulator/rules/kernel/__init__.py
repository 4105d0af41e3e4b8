"""The rules kernel: a trial's state as numbers and every rule decision over it, compiled.

- :mod:`~simulator.rules.kernel.codes`: levels, O1's priorities, outcomes, causes, events
  and trace codes, as named constants.
- :mod:`~simulator.rules.kernel.layout`: where each number lives in the state, scenario and
  record vectors.
- :mod:`~simulator.rules.kernel.decisions`: each rule decision as a pure function.
- :mod:`~simulator.rules.kernel.clocks`, :mod:`~simulator.rules.kernel.events`,
  :mod:`~simulator.rules.kernel.loop`: the clocks of repeated tests by runs, what each event
  changes, and one trial's event loop (O1, O2), with batches of trials.
- :mod:`~simulator.rules.kernel.rng`: one random stream per trial, keyed by (seed, trial).
- :mod:`~simulator.engine.kernel_params`: a scenario as numbers, and what the kernel refuses.
- :mod:`~simulator.rules.kernel.jit`: numba's ``njit`` with its disk cache, or plain Python
  (``HARMONIES_NO_JIT=1``).

A scenario becomes numbers in :mod:`simulator.engine.kernel_params`, and the kernel's results
the engine's records and trace lines in :mod:`simulator.engine.kernel`;
``python -m tools.kernel_warmup`` compiles it once (``make venv`` does).
"""
