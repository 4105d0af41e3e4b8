"""How the caller spells its options, so that a message names what the user wrote.

The same checks serve the command line and the Python API, but the two spell one option
differently: ``--trials`` is ``MonteCarlo(trials=...)`` in a notebook, ``--set
first_aid.level=3`` is ``overrides: first_aid.level=3``, ``--grid first_aid.level`` is
``grid["first_aid.level"]`` and ``--out results`` is ``out='results'``. A message built with
the :class:`Spelling` in force (:func:`spelling`) says the user's own words.

The command line speaks :data:`COMMAND_LINE` (:func:`simulator.cli.common.user_errors` sets
it); the Python API's entry points speak :data:`PYTHON` (:func:`python_api`: ``run_study``,
``run_sweep``, ``run_compare``, ``run_directory``, ``balance``, ``sensitivity``,
``calibrate``, a result's ``save``, ``load_scenario``, ``apply_overrides``), unless a caller
already chose (the command line runs the studies through them; the workbench, whose page
shows the command line's words, chooses them around ``calibrate``). Any other code (a
function called directly) speaks the command line's words, as it always has.

An option is named by its Python name (``"trials"``, ``"chunk_size"``, ``"overrides_a"``). A
name neither spelling knows is taken as already spelt (a label such as ``--vary``) and kept
as it is, so that a caller still passing a flag of its own is told as before.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import wraps
from typing import TYPE_CHECKING, ParamSpec, TypeVar

if TYPE_CHECKING:
    from simulator.errors import Phrase

FLAGS = {
    "trials": "--trials",
    "seed": "--seed",
    "workers": "--workers",
    "chunk_size": "--chunk-size",
    "backend": "--backend",
    "scheduler": "--scheduler",
    "eps": "--eps",
    "max_states": "--max-states",
    "time_budget": "--time-budget",
    "out": "--out",
    "overrides": "--set",
    "overrides_a": "--set-a",
    "overrides_b": "--set-b",
    "grid": "--grid",
    "vary": "--vary",
    "target": "--target",
    "stat": "--stat",
    "keys": "--keys",
    "notch": "--notch",
}
"""Each option's Python name, and the command line's flag for it."""

OWNERS = {
    **dict.fromkeys(
        ("trials", "seed", "workers", "chunk_size", "backend", "scheduler"), "MonteCarlo"
    ),
    **dict.fromkeys(("eps", "max_states", "time_budget"), "Exact"),
}
"""The method whose setting an option is, in Python (the others are the study's arguments)."""


@dataclass(frozen=True)
class Spelling:
    """How one caller spells options; this base spells them as the command line does.

    Attributes:
        name: Which caller (``"command line"``, ``"python"``), for ``repr``.
        flags: Each option's Python name and its flag (:data:`FLAGS`).
    """

    name: str = "command line"
    flags: dict[str, str] = field(default_factory=lambda: dict(FLAGS))

    def option(self, name: str) -> str:
        """The option alone: ``--trials``, ``--set``."""
        return self.flags.get(name, name)

    def given(self, name: str, value: object) -> str:
        """The option with its value: ``--out results``, ``--backend dask``."""
        return f"{self.option(name)} {value}"

    def setting(self, name: str, text: str) -> str:
        """The option set to a value written as it is (a number): ``--eps 1e-06``."""
        return f"{self.option(name)} {text}"

    def lead(self, name: str) -> str:
        """What comes before one of the option's items: ``--set`` (``--set KEY=VALUE``).

        A message that names an item with a template of its own (``{flag} {name}: ...``)
        takes this as ``{flag}``: it reads as :meth:`item` does.
        """
        return self.option(name)

    def item(self, name: str, text: str) -> str:
        """One ``KEY=VALUE`` of a repeated option: ``--set first_aid.level=3``."""
        return f"{self.lead(name)} {text}"

    def key(self, name: str, key: str) -> str:
        """One key of an option of keys and values: ``--grid first_aid.level``."""
        return f"{self.option(name)} {key}"

    def creator(self, name: str, text: str) -> str | Phrase:
        """What made a table the file lacks, in ``... : {flag} created it``: ``--set``.

        ``text`` is the ``KEY=VALUE`` that wrote first into the table; a caller whose user
        typed no option (the workbench's cells) names what its user did instead.
        """
        return self.option(name)


@dataclass(frozen=True)
class PythonSpelling(Spelling):
    """The Python API's words: its arguments and its methods' settings."""

    name: str = "python"

    def option(self, name: str) -> str:
        """``MonteCarlo(trials=...)`` for a method's setting, else the argument: ``out``."""
        if name not in self.flags:
            return name
        owner = OWNERS.get(name)
        return f"{owner}({name}=...)" if owner else name

    def given(self, name: str, value: object) -> str:
        """``MonteCarlo(backend='dask')``, ``out='results'``."""
        if name not in self.flags:
            return super().given(name, value)
        owner = OWNERS.get(name)
        return f"{owner}({name}={value!r})" if owner else f"{name}={value!r}"

    def setting(self, name: str, text: str) -> str:
        """``Exact(eps=1e-06)``, ``scan=9``."""
        if name not in self.flags:
            return super().setting(name, text)
        owner = OWNERS.get(name)
        return f"{owner}({name}={text})" if owner else f"{name}={text}"

    def lead(self, name: str) -> str:
        """``overrides:`` (``overrides: first_aid.level=3``, ``vary: patient.cp_rs``)."""
        return f"{name}:" if name in self.flags else name

    def key(self, name: str, key: str) -> str:
        """``grid["first_aid.level"]``."""
        if name not in self.flags:
            return super().key(name, key)
        return f'{name}["{key}"]'


COMMAND_LINE = Spelling()
"""The command line's flags."""

PYTHON = PythonSpelling()
"""The Python API's arguments."""

_SPELLING: ContextVar[Spelling | None] = ContextVar("spelling", default=None)


def spelling() -> Spelling:
    """The spelling in force (the command line's where no caller chose)."""
    return _SPELLING.get() or COMMAND_LINE


@contextlib.contextmanager
def spelled(chosen: Spelling) -> Iterator[Spelling]:
    """Make ``chosen`` the spelling of every message of the block."""
    token = _SPELLING.set(chosen)
    try:
        yield chosen
    finally:
        _SPELLING.reset(token)


_P = ParamSpec("_P")
_R = TypeVar("_R")


def python_api(func: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run ``func`` in the Python API's words, unless its caller chose a spelling already.

    The command line, which runs its studies through the API, keeps its flags.
    """

    @wraps(func)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with spelled(_SPELLING.get() or PYTHON):
            return func(*args, **kwargs)

    return wrapper


__all__ = [
    "COMMAND_LINE",
    "FLAGS",
    "OWNERS",
    "PYTHON",
    "PythonSpelling",
    "Spelling",
    "python_api",
    "spelled",
    "spelling",
]
