"""Run the study notebooks of ``notebooks/`` from the command line, and keep them clean.

The notebooks read their settings from environment variables, so the same file serves a
designer in Jupyter (full size, the defaults written in its parameters cell) and the tests
(small trial counts, a temporary output directory):

- ``HARMONIES_TRIALS``: trials per study;
- ``HARMONIES_OUT``: where the notebook writes its tables and figures;
- ``HARMONIES_WORKERS``: worker processes (unset: all cores);
- ``HARMONIES_SEED``: the seed of every study.

Usage::

    python -m tools.run_notebooks --full     # what `make notebooks` runs
    python -m tools.run_notebooks --quick    # a few hundred trials, into build/
    python -m tools.run_notebooks --strip    # remove outputs before committing

``--full`` writes the executed copies, with their outputs, to ``results/notebooks/`` and the
rulebook exports to ``results/rulebook/``. The notebook packages (nbclient, nbformat,
ipykernel: the ``notebooks`` extra) are imported only when a notebook is run or stripped.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from nbformat import NotebookNode


REPO = Path(__file__).resolve().parent.parent
"""The repository root (this checkout)."""

NOTEBOOKS = REPO / "notebooks"
"""Where the study notebooks live."""

FULL_TRIALS = 4000
"""Trials per study of ``--full`` (also the notebooks' own default)."""

QUICK_TRIALS = 300
"""Trials per study of ``--quick`` and of the tests."""

DEFAULT_SEED = 20261130
"""The seed of ``make run``, shared by the notebooks."""

KERNEL = "python3"
"""The Jupyter kernel the notebooks run on (ipykernel, in this environment)."""

INLINE_BACKEND = "module://matplotlib_inline.backend_inline"


def notebook_paths(directory: Path = NOTEBOOKS) -> list[Path]:
    """The study notebooks of ``directory``, in order (``01_...``, ``02_...``, ...).

    Args:
        directory: A directory of ``*.ipynb`` files.

    Returns:
        The notebook files, sorted by name; checkpoints excluded.
    """
    return sorted(p for p in Path(directory).glob("*.ipynb") if not p.name.startswith("."))


def kernel_env(
    trials: int, out: Path, workers: int | None = None, seed: int | None = None
) -> dict[str, str]:
    """The environment of a notebook's kernel: this process's, plus the study settings.

    The repository is put first on ``PYTHONPATH`` so the notebook imports this checkout's
    simulator, and matplotlib draws inline so the figures land in the outputs.

    Args:
        trials: Trials per study (``HARMONIES_TRIALS``).
        out: The output directory (``HARMONIES_OUT``), made absolute.
        workers: Worker processes (``HARMONIES_WORKERS``); None leaves it unset (all cores).
        seed: The seed (``HARMONIES_SEED``); None leaves the notebook's default.

    Returns:
        A complete environment mapping.
    """
    env = dict(os.environ)
    env["HARMONIES_TRIALS"] = str(int(trials))
    env["HARMONIES_OUT"] = str(Path(out).resolve())
    env.pop("HARMONIES_WORKERS", None)
    if workers is not None:
        env["HARMONIES_WORKERS"] = str(int(workers))
    if seed is not None:
        env["HARMONIES_SEED"] = str(int(seed))
    path = env.get("PYTHONPATH")
    env["PYTHONPATH"] = str(REPO) if not path else os.pathsep.join([str(REPO), path])
    env["MPLBACKEND"] = INLINE_BACKEND
    return env


def execute(
    path: str | Path,
    trials: int = QUICK_TRIALS,
    out: str | Path = REPO / "results",
    timeout: int = 600,
    *,
    workers: int | None = None,
    seed: int | None = None,
) -> NotebookNode:
    """Run a notebook top to bottom in a fresh kernel and return it with its outputs.

    The kernel starts in the notebook's own directory (as Jupyter does), so the notebook
    finds ``scenarios/`` whatever the caller's working directory. The file itself is not
    changed.

    Args:
        path: The ``.ipynb`` file.
        trials: Trials per study.
        out: Where the notebook writes its tables and figures.
        timeout: Seconds allowed to each cell.
        workers: Worker processes for the studies (None: all cores).
        seed: The studies' seed (None: the notebook's default).

    Returns:
        The executed notebook.

    Raises:
        nbclient.exceptions.CellExecutionError: When a cell fails; the message shows the
            cell and its traceback.
    """
    import nbformat
    from nbclient import NotebookClient
    from traitlets.config import Config

    path = Path(path).resolve()
    notebook: NotebookNode = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=timeout,
        kernel_name=KERNEL,
        resources={"metadata": {"path": str(path.parent)}},
        # encrypt the local kernel's sockets where jupyter_client can (no warning then)
        config=Config({"KernelManager": {"transport_encryption": "auto"}}),
    )
    client.execute(env=kernel_env(trials, Path(out), workers, seed))
    return notebook


def strip(notebook: NotebookNode) -> NotebookNode:
    """Remove outputs, execution counts and run metadata from a notebook, in place.

    Args:
        notebook: A notebook, as read by :func:`nbformat.read`.

    Returns:
        The same notebook, for chaining.
    """
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
        cell.metadata.pop("collapsed", None)
        cell.metadata.pop("scrolled", None)
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    notebook.metadata.pop("widgets", None)
    notebook.metadata.pop("papermill", None)
    return notebook


def is_stripped(notebook: NotebookNode) -> bool:
    """Whether a notebook holds no outputs and no execution counts."""
    return all(
        cell.cell_type != "code" or (not cell.outputs and cell.execution_count is None)
        for cell in notebook.cells
    )


def strip_files(paths: Iterable[Path]) -> list[Path]:
    """Strip notebook files in place.

    Args:
        paths: ``.ipynb`` files.

    Returns:
        The files that changed.
    """
    import nbformat

    changed = []
    for path in paths:
        text = Path(path).read_text(encoding="utf-8")
        notebook = strip(nbformat.reads(text, as_version=4))
        new = nbformat.writes(notebook) + "\n"
        if new != text:
            Path(path).write_text(new, encoding="utf-8")
            changed.append(Path(path))
    return changed


# --- the command ------------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tools.run_notebooks",
        description="Run the study notebooks (notebooks/*.ipynb), or strip their outputs.",
    )
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument(
        "--full",
        action="store_true",
        help=f"full size ({FULL_TRIALS} trials); executed copies to results/notebooks/, "
        "rulebook exports to results/rulebook/",
    )
    mode.add_argument(
        "--quick",
        action="store_true",
        help=f"a quick look ({QUICK_TRIALS} trials, one worker), into build/notebooks-quick/",
    )
    mode.add_argument(
        "--strip", action="store_true", help="remove outputs from the notebooks, in place"
    )
    mode.add_argument(
        "--check-stripped",
        action="store_true",
        help="exit with status 1 when a notebook holds outputs",
    )
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: notebooks/*.ipynb")
    parser.add_argument("--trials", type=int, help="trials per study (overrides the mode's)")
    parser.add_argument("--out", type=Path, help="output directory (overrides the mode's)")
    parser.add_argument("--workers", type=int, help="worker processes (default: all cores)")
    parser.add_argument("--seed", type=int, help=f"the seed (default {DEFAULT_SEED})")
    parser.add_argument("--timeout", type=int, default=3600, help="seconds allowed per cell")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: run, strip or check the notebooks.

    Args:
        argv: The arguments (None: ``sys.argv[1:]``).

    Returns:
        The exit status.
    """
    args = _parser().parse_args(argv)
    paths = list(args.notebooks) or notebook_paths()
    if not paths:
        print(f"no notebooks in {NOTEBOOKS}", file=sys.stderr)
        return 2
    if args.strip:
        for path in strip_files(paths):
            print(f"stripped {path}")
        return 0
    if args.check_stripped:
        import nbformat

        dirty = [p for p in paths if not is_stripped(nbformat.read(p, as_version=4))]
        for path in dirty:
            print(f"{path}: holds outputs; run python -m tools.run_notebooks --strip")
        return 1 if dirty else 0
    return _run(paths, args)


def _run(paths: Sequence[Path], args: Any) -> int:
    import nbformat
    from nbclient.exceptions import CellExecutionError

    trials = args.trials or (FULL_TRIALS if args.full else QUICK_TRIALS)
    out = args.out or (REPO / "results" if args.full else REPO / "build" / "notebooks-quick")
    workers = args.workers if args.workers is not None else (None if args.full else 1)
    copies = out / "notebooks"
    copies.mkdir(parents=True, exist_ok=True)
    for path in paths:
        start = time.perf_counter()
        print(f"running {path.name} ({trials} trials per study)...", file=sys.stderr, flush=True)
        try:
            notebook = execute(path, trials, out, args.timeout, workers=workers, seed=args.seed)
        except CellExecutionError as exc:
            print(f"{path.name}: a cell failed\n{exc}", file=sys.stderr)
            return 1
        for cell in notebook.cells:  # the clock's times of each cell: a new diff every run
            cell.metadata.pop("execution", None)
        nbformat.write(notebook, copies / path.name)
        seconds = time.perf_counter() - start
        print(f"  done in {seconds:.0f} s -> {copies / path.name}", file=sys.stderr)
    print(f"outputs in {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
