"""harmonies-simulator: the wound rules of *Les Arpèges*, simulated over campaign time.

The package is layered (each layer only uses the ones above it):

- ``levels``, ``durations``, ``table``: the wound table as typed, frozen data (T1, T2).
- ``dice``: the ±d10 roll, the open roll, margins and exact odds (D1-D5).
- ``patient`` and ``rules``: the patient state and one pure function per rule.
- ``scenario`` (with ``scenario_checks``, ``scenario_overrides``, ``scenario_toml``):
  scenario files, validated once into typed objects, and written back.
- ``engine``: SimPy processes that keep campaign time and call the rules; one trial.
- ``execution``, ``progress``, ``backends``: chunks of trials run on local processes or
  Dask, saved as they finish, resumable.
- ``runner`` (the Python API: ``run_study``, ``run_sweep``, ``run_compare``), ``study``,
  ``frames``, ``stats``, ``wording``, ``figures``: Monte Carlo studies, pandas frames, the
  words and numbers shown, matplotlib; ``main_study``: ``make run``.
- ``cli`` and the ``cli_*`` modules: the ``harmonies-sim`` command.
"""

__version__ = "0.1.0"
