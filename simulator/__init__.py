"""harmonies-simulator: the wound rules of *Les Arpèges*, simulated over campaign time.

The package is layered; each sub-package uses only the ones listed before it
(``tests/project/test_layers.py`` checks it):

- ``rules``: the wound table, dice and exact odds, the patient, one pure function per rule.
- ``scenario``: scenario files, validated once into typed objects, and written back.
- ``engine``: SimPy processes that keep campaign time and call the rules; one trial.
- ``exact``: the exact engine, the distribution of trial states carried forward.
- ``report``: the words and numbers shown, Markdown tables, figures.
- ``studies``: the Python API (``run_study``, ``run_sweep``, ``run_compare``), chunks run on
  local processes or Dask, saved as they finish and resumable; frames, statistics, results;
  balance and sensitivity; the main study of ``make run``.
- ``cli``: the ``harmonies-sim`` command, one module per command.

``errors`` (the project's error types and notes) and ``files`` (atomic writes) sit below
them all.
"""

__version__ = "0.1.0"

from simulator import startup as _startup

if _startup.as_command():  # Ctrl-C while the command starts: one line, not a traceback
    _startup.starting()
