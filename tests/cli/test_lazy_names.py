"""The lazily loaded names of a package stay what they name, whatever was imported before.

A submodule named like one of its package's lazy names would replace it: importing
``simulator.studies.balance`` (the module) made ``simulator.studies.balance`` the module
instead of the function, for every later ``from simulator.studies import balance``.
"""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import pytest

from tests.support import REPO

LAZY_PACKAGES = ("simulator.studies", "simulator.runner")
"""The packages whose names load their module on first use (:func:`simulator.lazy.lazy_names`)."""


@pytest.mark.parametrize("name", LAZY_PACKAGES)
def test_no_lazy_name_is_also_a_submodule(name):
    package = importlib.import_module(name)
    modules = {info.name for info in pkgutil.iter_modules(package.__path__)}
    clash = set(package.__all__) & modules
    assert not clash, f"{name}: {sorted(clash)} name both a lazily loaded value and a submodule"


ORDER = """
import importlib, sys
import simulator.studies
for sub in ("balance_study", "sensitivity_study", "api", "method", "result"):
    importlib.import_module("simulator.studies." + sub)
from simulator.studies import balance, sensitivity, BalanceResult, SensitivityResult
print(callable(balance) and not isinstance(balance, type(sys)),
      callable(sensitivity) and not isinstance(sensitivity, type(sys)),
      balance.__module__, sensitivity.__module__)
"""


def test_the_functions_stay_functions_after_their_modules_are_imported():
    done = subprocess.run(
        [sys.executable, "-c", ORDER], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "True",
        "True",
        "simulator.studies.balance_study",
        "simulator.studies.sensitivity_study",
    ], done.stdout


def test_a_notebooks_completion_lists_the_names_loaded_on_first_use():
    """``dir(simulator.studies)`` did not list run_study: a notebook completed nothing."""
    import simulator.report
    import simulator.runner
    import simulator.studies

    for package in (simulator.studies, simulator.runner, simulator.report):
        assert set(package.__all__) <= set(dir(package)), package.__name__
