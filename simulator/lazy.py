"""Names a package gives without loading their modules until one is first asked for.

A package's ``__getattr__`` (PEP 562) made by :func:`lazy_names` loads the module that
holds a name the first time it is read, so that importing the package stays cheap (the
command line starts without pandas).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any


def lazy_names(package: str, where: Mapping[str, Sequence[str]]) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package``: ``where`` maps each of its modules to its names.

    Raises (when called):
        AttributeError: For a name no module of ``where`` gives.
    """
    module_of = {name: module for module, names in where.items() for name in names}

    def load(name: str) -> Any:
        module = module_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return load


__all__ = ["lazy_names"]
