"""Files written whole or not at all: a reader never sees half a file, even after a kill.

Below every layer but :mod:`simulator.errors`: the results of studies, their chunks and
their figures are all written through :func:`atomic_write`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

__all__ = ["atomic_write"]


def atomic_write(path: Path, write: Callable[[Path], object]) -> Path:
    """Write a file so that it is either absent or complete, even if the process is killed.

    ``write`` receives a temporary path in the same directory; the file is then renamed
    into place with :func:`os.replace`, which is atomic.

    Args:
        path: The final file.
        write: Writes the content to the path it is given.

    Returns:
        ``path``.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path
